import type { ParsedArgs } from '../args';
import { CliError } from '../exit-codes';
import type { Output } from '../output';

export async function statusCommand(_args: ParsedArgs, _out: Output): Promise<number> {
  throw new CliError('status is not available yet', 1);
}
