import type { ParsedArgs } from '../args';
import { CliError } from '../exit-codes';
import type { Output } from '../output';

export async function preflightCommand(_args: ParsedArgs, _out: Output): Promise<number> {
  throw new CliError('preflight is not available yet', 1);
}
