// The `seatunnel-app` command: parse, dispatch, and turn every error into a clear message and
// the documented exit code.

import { ConfigurationError } from '../model/issues';
import type { ParsedArgs } from './args';
import { CLI_EXIT, CliError } from './exit-codes';
import { HELP } from './help';
import { consoleOutput, type Output } from './output';

type Handler = (args: ParsedArgs, out: Output) => Promise<number>;

/**
 * Every command is loaded when it runs: synth and docs never load a Kubernetes client, and the
 * cluster commands never load cdk8s (a `submit` process starts that much faster).
 */
/* eslint-disable @typescript-eslint/no-require-imports -- the lazy loads above, typed by their casts */
const HANDLERS: Record<string, () => Promise<Handler>> = {
  synth: async () => {
    try {
      return (require('./commands/synth') as typeof import('./commands/synth')).synthCommand;
    } catch (e) {
      throw missingPeer(e, SYNTH_PEERS, 'synth renders the manifests with the cdk8s construct') ?? e;
    }
  },
  docs: async () => (require('./commands/docs') as typeof import('./commands/docs')).docsCommand,
  submit: async () => (require('./commands/submit') as typeof import('./commands/submit')).submitCommand,
  status: async () => (require('./commands/status') as typeof import('./commands/status')).statusCommand,
  list: async () => (require('./commands/list') as typeof import('./commands/list')).listCommand,
  logs: async () => (require('./commands/logs') as typeof import('./commands/logs')).logsCommand,
  cancel: async () => (require('./commands/cancel') as typeof import('./commands/cancel')).cancelCommand,
  preflight: async () => (require('./commands/preflight') as typeof import('./commands/preflight')).preflightCommand,
};
/* eslint-enable @typescript-eslint/no-require-imports */

/**
 * The command lines that can only mean "print the help" (what parseCommandLine returns for them):
 * answered without loading the parser, which brings the HOCON reader and the option table with it.
 */
const HELP_ONLY = new Set(['-h', '--help', 'help']);

function parseCommandLine(argv: readonly string[]): ParsedArgs {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- lazy, see HELP_ONLY
  return (require('./args') as typeof import('./args')).parseCommandLine(argv);
}

/** Shell completion: no parser, no option validation, nothing of the cluster side. */
function loadCompletion(): typeof import('./commands/completion') {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- lazy, as the HANDLERS
  return require('./commands/completion') as typeof import('./commands/completion');
}

/** cdk8s is an optional peer dependency (a Pulumi user does not install it); synth needs it. */
const SYNTH_PEERS = ['cdk8s', 'cdk8s-plus-28', 'constructs'];

/** A CliError saying which peer dependencies to install, if `e` is the failure to load one of them. */
function missingPeer(e: unknown, peers: readonly string[], why: string): CliError | undefined {
  const err = e as { code?: string; message?: string };
  const name =
    err?.code === 'MODULE_NOT_FOUND' ? /Cannot find module '([^']+)'/.exec(err.message ?? '')?.[1] : undefined;
  if (!name || !peers.includes(name)) return undefined;
  return new CliError(
    `${why}, and ${name} is not installed: npm install ${peers.join(' ')} (optional peer dependencies of seatunnel-app)`,
    CLI_EXIT.failed,
  );
}

export async function main(argv: readonly string[], out?: Output): Promise<number> {
  if (argv.length === 0 || (argv.length === 1 && HELP_ONLY.has(argv[0]))) {
    process.stdout.write(HELP);
    return CLI_EXIT.ok;
  }
  // `completion --help` is help, as for every other command, not a shell named "--help".
  if (argv[0] === 'completion' && argv.length === 2 && HELP_ONLY.has(argv[1])) {
    process.stdout.write(HELP);
    return CLI_EXIT.ok;
  }
  if (argv[0] === 'completion' || argv[0] === '__complete') {
    try {
      const { completionCommand, completeCommand } = loadCompletion();
      return argv[0] === 'completion' ? completionCommand(argv.slice(1)) : completeCommand(argv.slice(1));
    } catch (e) {
      return report(e, out ?? consoleOutput(false));
    }
  }
  let args: ParsedArgs;
  const fallbackOut = out ?? consoleOutput(argv.includes('--output=json') || argv.join(' ').includes('--output json'));
  try {
    args = parseCommandLine(argv);
  } catch (e) {
    return report(e, fallbackOut);
  }
  const o = out ?? consoleOutput(args.json);
  if (args.help || args.command === 'help') {
    process.stdout.write(HELP);
    return CLI_EXIT.ok;
  }
  try {
    const handler = await HANDLERS[args.command]();
    return await handler(args, o);
  } catch (e) {
    return report(e, o);
  }
}

function report(e: unknown, out: Output): number {
  if (e instanceof ConfigurationError) {
    if (out.json) out.result({ error: 'configuration', message: e.message, issues: e.issues }, []);
    out.error(e.message);
    return CLI_EXIT.usage;
  }
  if (e instanceof CliError) {
    if (out.json) out.result({ error: 'usage', message: e.message }, []);
    out.error(`error: ${e.message}`);
    return e.exitCode;
  }
  const message = e instanceof Error ? e.message : String(e);
  if (out.json) out.result({ error: 'failed', message }, []);
  out.error(`error: ${message}`);
  return CLI_EXIT.failed;
}
