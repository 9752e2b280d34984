// Command-line parsing, compatible with seatunnel-application.sh: `-a`, `-c`, `-Dk=v`, `--id`,
// `--job-id`, `--restore-job-id`, `--wait[-timeout|-interval]`, `-t kubernetes`, and both
// `--opt value` and `--opt=value`. Flags a command does not take are rejected by name.
// SeaTunnel's starter (JCommander) spells overrides `-ikey=value` and accepts `-t=kubernetes`; its
// published pages spell them `-Dkey=value`. Both spellings are taken, in command-line order (the
// last one for a key wins), and a short option's value may start with `=` as JCommander allows.

import { parseArgs } from 'node:util';
import { parseOverride } from '../model/deployment';
import { dns1123LabelProblem } from '../model/k8s-syntax';
import { parseStatusFilter, type ApplicationStatus } from '../submit/observe/statuses';
import { parseLogFlags, type LogFlags } from './log-flags';
import { CliError } from './exit-codes';

export const COMMANDS = ['submit', 'status', 'list', 'logs', 'cancel', 'preflight', 'synth', 'docs', 'help'] as const;
export type Command = (typeof COMMANDS)[number];

export const OPTIONS = {
  target: { type: 'string', short: 't' },
  'application-config': { type: 'string', short: 'a' },
  config: { type: 'string', short: 'c' },
  D: { type: 'string', short: 'D', multiple: true },
  i: { type: 'string', short: 'i', multiple: true },
  id: { type: 'string' },
  'job-id': { type: 'string' },
  'restore-job-id': { type: 'string' },
  wait: { type: 'boolean' },
  'wait-timeout': { type: 'string' },
  'wait-interval': { type: 'string' },
  'dry-run': { type: 'boolean' },
  savepoint: { type: 'boolean' },
  'output-dir': { type: 'string', short: 'o' },
  output: { type: 'string' },
  write: { type: 'boolean' },
  check: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  namespace: { type: 'string', short: 'n' },
  'all-namespaces': { type: 'boolean', short: 'A' },
  selector: { type: 'string', short: 'l' },
  status: { type: 'string' },
  role: { type: 'string' },
  worker: { type: 'string' },
  follow: { type: 'boolean', short: 'f' },
  since: { type: 'string' },
  previous: { type: 'boolean' },
  timestamps: { type: 'boolean' },
  tail: { type: 'string' },
  explain: { type: 'boolean' },
  'trust-deployment-file': { type: 'boolean' },
} as const;

type Flag = keyof typeof OPTIONS;

const COMMON: Flag[] = ['target', 'application-config', 'D', 'i', 'output', 'help', 'trust-deployment-file'];
/** The flags each command takes (shell completion offers the same). */
export const ALLOWED: Readonly<Record<Command, readonly Flag[]>> = {
  submit: [...COMMON, 'config', 'job-id', 'restore-job-id', 'wait', 'wait-timeout', 'wait-interval', 'dry-run'],
  status: [...COMMON, 'id', 'wait', 'wait-timeout', 'wait-interval', 'explain'],
  list: [...COMMON, 'namespace', 'all-namespaces', 'selector', 'status'],
  // No --output: a log is printed as the container wrote it (control characters escaped).
  logs: [
    ...COMMON.filter((f) => f !== 'output'),
    'id',
    'namespace',
    'role',
    'worker',
    'follow',
    'since',
    'previous',
    'timestamps',
    'tail',
  ],
  cancel: [...COMMON, 'id', 'savepoint', 'wait-timeout'],
  preflight: [...COMMON, 'config', 'job-id', 'restore-job-id'],
  synth: [...COMMON, 'config', 'job-id', 'restore-job-id', 'output-dir'],
  docs: ['write', 'check', 'help', 'output'],
  help: ['help'],
};

const spelling = (f: Flag) => (f === 'D' || f === 'i' ? `-${f}` : `--${f}`);

/** `-t=kubernetes`, `-i=k=v`: JCommander keeps the `=` of a short option out of the value. */
const shortValue = (raw: string, token: { rawName: string; inlineValue?: boolean }) =>
  token.inlineValue && !token.rawName.startsWith('--') && raw.startsWith('=') ? raw.slice(1) : raw;

export interface ParsedArgs {
  readonly command: Command;
  readonly deploymentFile?: string;
  readonly jobFile?: string;
  readonly overrides: ReadonlyArray<readonly [string, string]>;
  readonly id?: string;
  readonly jobId?: string;
  readonly restoreJobId?: string;
  readonly wait: boolean;
  /** Milliseconds; 0 = forever. */
  readonly waitTimeoutMs: number;
  readonly waitIntervalMs: number;
  readonly dryRun: boolean;
  /** cancel: stop with a savepoint first (keeps a streaming job's checkpoints). */
  readonly savepoint: boolean;
  readonly outputDir?: string;
  readonly json: boolean;
  readonly write: boolean;
  readonly check: boolean;
  readonly help: boolean;
  /** list: the namespace (instead of kubernetes.namespace), or all of them. */
  readonly namespace?: string;
  readonly allNamespaces: boolean;
  /** list: a label selector, combined with the application label. */
  readonly selector?: string;
  /** list: keep only these statuses (validated). */
  readonly statuses?: ReadonlySet<ApplicationStatus>;
  /** status: the application's story (timeline, phase durations) after the status. */
  readonly explain: boolean;
  /** logs: which Pods and how (validated). */
  readonly logs?: LogFlags;
  /**
   * The deployment file (and what it includes) may read files outside its directory, name a
   * kubeconfig that runs a credential plugin or names files elsewhere, and put host environment
   * variables into plain-text objects (docs/security.md, "A deployment file is data").
   */
  readonly trustDeploymentFile: boolean;
}

function millis(flag: string, value: string | undefined, fallback: number, min: number): number {
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value.trim()))
    throw new CliError(`--${flag}: got "${value}"; must be a whole number of milliseconds`);
  const n = Number(value.trim());
  if (n < min) throw new CliError(`--${flag}: got ${n}; must be at least ${min}`);
  return n;
}

/**
 * `--worker -1` as `--worker=-1`: parseArgs takes a value that starts with a dash for an option
 * ("ambiguous"), while no flag looks like a negative number; joined, the value reaches the
 * validation that names the flag, the value and the rule.
 */
function negativeValuesInline(args: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const name = /^--([a-z-]+)$/.exec(args[i])?.[1];
    const takesValue = name !== undefined && (OPTIONS as Record<string, { type: string }>)[name]?.type === 'string';
    if (takesValue && i + 1 < args.length && /^-\d/.test(args[i + 1])) out.push(`${args[i]}=${args[++i]}`);
    else out.push(args[i]);
  }
  return out;
}

export function parseCommandLine(argv: readonly string[]): ParsedArgs {
  if (argv.length === 0) return { ...defaults(), command: 'help', help: true };
  const first = argv[0].toLowerCase();
  const command = (COMMANDS as readonly string[]).includes(first) ? (first as Command) : undefined;
  if (!command) {
    if (argv[0] === '-h' || argv[0] === '--help') return { ...defaults(), command: 'help', help: true };
    throw new CliError(
      `unknown command "${argv[0]}"; expected one of ${COMMANDS.join(', ')} (see seatunnel-app --help)`,
    );
  }
  let parsed;
  try {
    parsed = parseArgs({
      args: negativeValuesInline(argv.slice(1)),
      options: OPTIONS,
      strict: true,
      allowPositionals: true,
      tokens: true,
    });
  } catch (e) {
    throw new CliError(`${command}: ${(e as Error).message.replace(/^TypeError \[\w+\]: /, '')}`);
  }
  const v = parsed.values as Partial<Record<Flag, string | string[] | boolean>>;
  if (parsed.positionals.length) throw new CliError(`${command}: unexpected argument "${parsed.positionals[0]}"`);
  const rejected = (Object.keys(v) as Flag[]).filter((f) => !ALLOWED[command].includes(f));
  if (rejected.length) {
    const hints: Record<string, string> = {
      config: ' (status and cancel find the application by --id; the job file is only for submit)',
      id: ' (submit creates a new application and prints its ID)',
      wait: ' (cancel returns once the deletion is accepted)',
      namespace: ' (the namespace comes from -a or -Dkubernetes.namespace=NS)',
      status: ' (list filters by --status; status takes --id)',
      output: " (logs prints the containers' output as it is, one line per line)",
    };
    throw new CliError(
      `${command} does not accept ${rejected.map(spelling).join(', ')}${rejected.map((r) => hints[r] ?? '').join('')}`,
    );
  }
  // Values of short options as JCommander reads them, and -D / -i in the order they were given.
  const overrideArgs: string[] = [];
  let target: string | undefined;
  for (const t of parsed.tokens) {
    if (t.kind !== 'option' || t.value === undefined) continue;
    const value = shortValue(t.value, t);
    if (t.name === 'target') target = value;
    if (t.name === 'D' || t.name === 'i') overrideArgs.push(`${t.rawName}${value}`);
  }
  if (target !== undefined && target.toLowerCase() !== 'kubernetes') {
    throw new CliError(
      target.toLowerCase() === 'standalone'
        ? '-t standalone: this tool runs applications on Kubernetes; for a standalone cluster use seatunnel.sh'
        : `-t ${target}: unsupported target; the only target is kubernetes`,
    );
  }
  const overrides = overrideArgs.map((raw) => {
    const pair = parseOverride(raw.slice(2));
    if (!pair) throw new CliError(`${raw}: an override must look like ${raw.slice(0, 2)}key=value`);
    return pair;
  });
  const output = v.output as string | undefined;
  if (output !== undefined && output !== 'json' && output !== 'text')
    throw new CliError(`--output: got "${output}"; must be json or text`);
  if ((command === 'status' || command === 'cancel' || command === 'logs') && v.id === undefined && !v.help) {
    throw new CliError(`${command} needs --id <application ID> (printed by submit as "Application ID:")`);
  }
  if (command === 'cancel' && v['wait-timeout'] !== undefined && !v.savepoint) {
    throw new CliError('cancel: --wait-timeout only applies with --savepoint (how long to wait for the graceful stop)');
  }
  if (command !== 'cancel' && !v.wait && (v['wait-timeout'] !== undefined || v['wait-interval'] !== undefined)) {
    throw new CliError(`${command}: --wait-timeout and --wait-interval only apply with --wait`);
  }
  if (v.explain && v.wait) {
    throw new CliError(
      'status: --explain cannot be combined with --wait (run status --explain once --wait has returned)',
    );
  }
  const listScope = command === 'list' ? listScopeOf(v) : {};
  const logScope = command === 'logs' ? { ...namespaceOf(v), logs: parseLogFlags(v) } : {};
  return {
    command,
    ...listScope,
    ...logScope,
    deploymentFile: v['application-config'] as string | undefined,
    jobFile: v.config as string | undefined,
    overrides,
    id: v.id as string | undefined,
    jobId: v['job-id'] as string | undefined,
    restoreJobId: v['restore-job-id'] as string | undefined,
    wait: v.wait === true,
    waitTimeoutMs: millis('wait-timeout', v['wait-timeout'] as string | undefined, 0, 0),
    waitIntervalMs: millis('wait-interval', v['wait-interval'] as string | undefined, 500, 50),
    dryRun: v['dry-run'] === true,
    savepoint: v.savepoint === true,
    outputDir: v['output-dir'] as string | undefined,
    json: output === 'json',
    write: v.write === true,
    check: v.check === true,
    help: v.help === true,
    allNamespaces: v['all-namespaces'] === true,
    explain: v.explain === true,
    trustDeploymentFile: v['trust-deployment-file'] === true,
  };
}

/** list's --namespace / --all-namespaces / --selector / --status, validated before any API call. */
function listScopeOf(
  v: Partial<Record<Flag, string | string[] | boolean>>,
): Pick<ParsedArgs, 'namespace' | 'selector' | 'statuses'> {
  if (v.namespace !== undefined && v['all-namespaces'])
    throw new CliError('list: --namespace and --all-namespaces exclude each other');
  const { namespace } = namespaceOf(v);
  const selector = v.selector as string | undefined;
  if (selector !== undefined && !selector.trim())
    throw new CliError('--selector: got an empty selector; give one like team=data or env in (prod,staging)');
  let statuses: ReadonlySet<ApplicationStatus> | undefined;
  if (v.status !== undefined) {
    try {
      statuses = parseStatusFilter(v.status as string);
    } catch (e) {
      throw new CliError(`--status: ${(e as Error).message}`);
    }
  }
  return {
    ...(namespace !== undefined ? { namespace } : {}),
    ...(selector !== undefined ? { selector } : {}),
    ...(statuses ? { statuses } : {}),
  };
}

/** --namespace, validated (list, logs). */
function namespaceOf(v: Partial<Record<Flag, string | string[] | boolean>>): { namespace?: string } {
  const namespace = v.namespace as string | undefined;
  const nsProblem = namespace !== undefined ? dns1123LabelProblem(namespace) : undefined;
  if (nsProblem) throw new CliError(`--namespace: got "${namespace}"; ${nsProblem}`);
  return namespace !== undefined ? { namespace } : {};
}

function defaults(): Omit<ParsedArgs, 'command'> {
  return {
    overrides: [],
    wait: false,
    waitTimeoutMs: 0,
    waitIntervalMs: 500,
    dryRun: false,
    savepoint: false,
    json: false,
    write: false,
    check: false,
    help: false,
    allNamespaces: false,
    explain: false,
    trustDeploymentFile: false,
  };
}
