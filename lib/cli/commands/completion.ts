// `seatunnel-app completion bash|zsh` prints the shell's completion script; `__complete <words…>`
// is what those scripts (and kubectl_complete-seatunnel) call for the candidates. Neither reads a
// deployment file or reaches a cluster, so both are answered before the command-line parser.

import { completionOutput, SHELLS } from '../completion';
import { COMPLETION_SCRIPTS } from '../completion-scripts';
import { CLI_EXIT, CliError } from '../exit-codes';

type Shell = (typeof SHELLS)[number];

export function completionCommand(argv: readonly string[]): number {
  if (argv.length === 1 && (SHELLS as readonly string[]).includes(argv[0])) {
    process.stdout.write(COMPLETION_SCRIPTS[argv[0] as Shell]);
    return CLI_EXIT.ok;
  }
  const got = argv.length ? `got "${argv.join(' ')}"` : 'got no shell';
  throw new CliError(
    `completion: ${got}; name one shell, ${SHELLS.join(' or ')} (e.g. source <(seatunnel-app completion bash))`,
  );
}

export function completeCommand(words: readonly string[]): number {
  process.stdout.write(completionOutput(words));
  return CLI_EXIT.ok;
}
