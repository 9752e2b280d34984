// `seatunnel-app docs`: the option reference, generated from the option registry.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderOptionsReference } from '../../model/options-doc';
import type { ParsedArgs } from '../args';
import { CLI_EXIT, CliError } from '../exit-codes';
import { packageRoot, writeFilesAtomically } from '../io';
import type { Output } from '../output';

export const OPTIONS_DOC = join('docs', 'options.md');

export async function docsCommand(args: ParsedArgs, out: Output): Promise<number> {
  const text = renderOptionsReference();
  const root = packageRoot();
  if (args.check) {
    let current = '';
    try {
      current = readFileSync(join(root, OPTIONS_DOC), 'utf8');
    } catch {
      /* missing counts as stale */
    }
    if (current !== text) throw new CliError(`${OPTIONS_DOC} is stale; run: npx seatunnel-app docs --write`, CLI_EXIT.failed);
    out.line(`${OPTIONS_DOC} is up to date`);
    return CLI_EXIT.ok;
  }
  if (args.write) {
    writeFilesAtomically(join(root, 'docs'), [{ name: 'options.md', content: text }], 'docs --write:');
    out.line(`Wrote ${OPTIONS_DOC}`);
    return CLI_EXIT.ok;
  }
  process.stdout.write(text);
  return CLI_EXIT.ok;
}
