// `seatunnel-app docs`: the generated documentation — the option references in English and
// Chinese and the failure-reason tables of the troubleshooting pages (lib/docs/generated.ts).

import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { generatedDocs, type GeneratedFile } from '../../docs/generated';
import { renderOptionsReference } from '../../model/options-doc';
import type { ParsedArgs } from '../args';
import { CLI_EXIT, CliError } from '../exit-codes';
import { packageRoot, writeFilesAtomically } from '../io';
import type { Output } from '../output';

function isCurrent(root: string, f: GeneratedFile): boolean {
  try {
    return readFileSync(join(root, f.path), 'utf8') === f.content;
  } catch {
    return false; // missing counts as stale
  }
}

export async function docsCommand(args: ParsedArgs, out: Output): Promise<number> {
  const root = packageRoot();
  if (!args.check && !args.write) {
    process.stdout.write(renderOptionsReference());
    return CLI_EXIT.ok;
  }
  const files = generatedDocs(root);
  if (args.check) {
    const stale = files.filter((f) => !isCurrent(root, f)).map((f) => f.path);
    if (stale.length)
      throw new CliError(
        `${stale.join(', ')} ${stale.length > 1 ? 'are' : 'is'} stale; run: npm run docs`,
        CLI_EXIT.failed,
      );
    out.line(`${files.map((f) => f.path).join(', ')}: up to date`);
    return CLI_EXIT.ok;
  }
  for (const f of files) {
    writeFilesAtomically(
      join(root, dirname(f.path)),
      [{ name: f.path.slice(dirname(f.path).length + 1), content: f.content }],
      'docs --write:',
    );
    out.line(`Wrote ${f.path}`);
  }
  return CLI_EXIT.ok;
}
