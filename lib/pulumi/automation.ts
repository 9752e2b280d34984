// `pulumi up` / `destroy` for many jobs, one stack each, through the Automation API: state in a
// local file backend, secrets under a passphrase, and nothing downloaded — the CLI is the one
// found at `pulumiRoot` (or on PATH), plugin acquisition is disabled, and a locally built
// Kubernetes provider can be installed from a file first.
//
// Two kinds of job:
//   { application }  an inline program: the component, in this process (typed props or a spec);
//   { config }       the project's program (Pulumi.yaml, apps/pulumi) with this stack config
//                    (lib/pulumi/stack-config.ts keys); Pulumi.<stack>.yaml is written into the
//                    project directory, as `pulumi config set` would.
// Every job is resolved and validated before any stack runs.

import { execFile } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import type * as automation from '@pulumi/pulumi/automation';
import type { ApplicationSpec } from '../model/spec';
import type { TeamTemplate } from '../model/template';
import {
  planApplication,
  SeaTunnelApplication,
  type ResolvedSeaTunnelApplicationArgs,
  type SeaTunnelApplicationArgs,
} from './application';
import { applicationFromStackConfig, CONFIG_NAMESPACE, type StackJobConfig } from './stack-config';

/** An application for an inline program. */
export type InlineApplication =
  Omit<SeaTunnelApplicationArgs, 'provider'> | Omit<ResolvedSeaTunnelApplicationArgs, 'provider'>;

/** Project name of inline stacks (the project's Pulumi.yaml uses the same). */
export const PROJECT_NAME = 'seatunnel-jobs';

export type JobStack =
  | {
      /** Stack name. @default - the application ID */
      readonly stack?: string;
      /**
       * The application, deployed by an inline program with the default Kubernetes provider
       * (configured by `kubeconfig`; a provider resource cannot cross into the program).
       */
      readonly application: InlineApplication;
    }
  | {
      /** Stack name. @default - the application ID */
      readonly stack?: string;
      /** Stack config of the project's program (keys of lib/pulumi/stack-config.ts, without the namespace). */
      readonly config: StackJobConfig;
    };

export interface AutomationOptions {
  /** Directory of the local file backend (state of every stack); created if missing. */
  readonly backendDir: string;
  /** Passphrase of the passphrase secrets provider. @default - $PULUMI_CONFIG_PASSPHRASE (one of the two is required) */
  readonly passphrase?: string;
  /** Kubeconfig file of the Kubernetes provider. @default - $KUBECONFIG, then ~/.kube/config */
  readonly kubeconfig?: string;
  /** Directory holding `bin/pulumi`. Never downloaded. @default - `pulumi` on PATH */
  readonly pulumiRoot?: string;
  /** PULUMI_HOME (plugins, credentials). @default - ~/.pulumi */
  readonly pulumiHome?: string;
  /**
   * A Kubernetes provider binary to install into PULUMI_HOME (`pulumi plugin install --file`)
   * before the first stack; its version must be the one @pulumi/kubernetes asks for.
   * @default - the plugin must already be installed
   */
  readonly kubernetesProvider?: { readonly path: string; readonly version: string };
  /** Directory of Pulumi.yaml, for `config` jobs. @default - the package root */
  readonly projectDir?: string;
  /** Team templates by name, to validate `config` jobs up front (the program has its own). @default - none */
  readonly templates?: Readonly<Record<string, TeamTemplate>>;
  /** Progress of each stack's operation, line by line. @default - discarded */
  readonly onOutput?: (stack: string, text: string) => void;
  /** More environment for the CLI and the plugins it starts. @default - none */
  readonly envVars?: Readonly<Record<string, string>>;
}

export interface JobStackResult {
  readonly stack: string;
  readonly applicationId: string;
  readonly jobId: string;
  readonly namespace: string;
  readonly jobName: string;
  /** What the operation did, e.g. `{ create: 12 }`, or `{ same: 12 }` for an `up` that changed nothing. */
  readonly changes: automation.OpMap;
}

/** Some stacks failed; `results` holds the ones that succeeded. */
export class JobStacksError extends Error {
  constructor(
    readonly failures: ReadonlyArray<{ readonly stack: string; readonly error: Error }>,
    readonly results: readonly JobStackResult[],
  ) {
    super(
      `${failures.length} of ${failures.length + results.length} job stack(s) failed:\n` +
        failures.map((f) => `  ${f.stack}: ${f.error.message}`).join('\n'),
    );
    this.name = 'JobStacksError';
  }
}

interface PreparedJob {
  readonly stack: string;
  readonly spec: ApplicationSpec;
  readonly job: JobStack;
}

const packageRootDir = () => resolve(__dirname, '..', '..');

function defaultProjectDir(): string {
  // lib/pulumi → package root, both from sources (ts-node, Jest) and from build/lib/pulumi.
  for (const dir of [packageRootDir(), resolve(__dirname, '..', '..', '..')]) {
    if (existsSync(join(dir, 'Pulumi.yaml'))) return dir;
  }
  return packageRootDir();
}

/** Resolves every job (all problems of all jobs are thrown before any stack runs). */
export function prepareJobs(
  jobs: readonly JobStack[],
  opts: Pick<AutomationOptions, 'projectDir' | 'templates'> = {},
): PreparedJob[] {
  const projectDir = opts.projectDir ?? defaultProjectDir();
  const prepared: PreparedJob[] = [];
  const errors: string[] = [];
  jobs.forEach((job, i) => {
    try {
      const spec =
        'application' in job
          ? planApplication(job.application).spec
          : applicationFromStackConfig(job.config, { baseDir: projectDir, templates: opts.templates });
      prepared.push({ stack: job.stack ?? spec.appId, spec, job });
    } catch (e) {
      errors.push(`job ${i + 1}${job.stack ? ` (stack ${job.stack})` : ''}: ${(e as Error).message}`);
    }
  });
  const seen = new Map<string, string>();
  for (const p of prepared) {
    const id = `${p.spec.namespace}/${p.spec.appId}`;
    if (seen.has(p.stack)) errors.push(`stack ${p.stack} is named twice`);
    if ([...seen.values()].includes(id))
      errors.push(`application ${id} is deployed by two stacks (give them different names or run IDs)`);
    seen.set(p.stack, id);
  }
  if (errors.length) throw new Error(`Cannot run the job stacks:\n${errors.join('\n')}`);
  return prepared;
}

/** The environment of every CLI call: local backend, passphrase, no downloads, no update checks. */
export function automationEnv(opts: AutomationOptions): Record<string, string> {
  const passphrase = opts.passphrase ?? process.env.PULUMI_CONFIG_PASSPHRASE;
  if (passphrase === undefined) {
    throw new Error(
      "a passphrase for the stacks' secrets is required: pass `passphrase` or set PULUMI_CONFIG_PASSPHRASE",
    );
  }
  return {
    PULUMI_BACKEND_URL: `file://${resolve(opts.backendDir)}`,
    PULUMI_CONFIG_PASSPHRASE: passphrase,
    PULUMI_SKIP_UPDATE_CHECK: 'true',
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: 'true',
    // The program is type-checked by the project's own build; ts-node only transpiles it.
    PULUMI_NODEJS_TRANSPILE_ONLY: 'true',
    ...(opts.pulumiHome ? { PULUMI_HOME: resolve(opts.pulumiHome) } : {}),
    ...(opts.kubeconfig ? { KUBECONFIG: resolve(opts.kubeconfig) } : {}),
    ...(opts.envVars ?? {}),
  };
}

function loadAutomation(): typeof automation {
  // Loaded on first use: programs and mock tests that only need the component never load it.
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a lazy load, typed by the cast
  return require('@pulumi/pulumi/automation') as typeof automation;
}

/** The CLI at `pulumiRoot` (or on PATH). `PulumiCommand.install` (a download) is never used. */
async function pulumiCommand(opts: AutomationOptions): Promise<automation.PulumiCommand> {
  const { PulumiCommand } = loadAutomation();
  const where = opts.pulumiRoot ? `${resolve(opts.pulumiRoot)}/bin/pulumi` : '`pulumi` on PATH';
  try {
    return await PulumiCommand.get(opts.pulumiRoot ? { root: resolve(opts.pulumiRoot) } : {});
  } catch (e) {
    throw new Error(
      `no usable Pulumi CLI at ${where} (build one with tools/pulumi/build.sh): ${(e as Error).message}`,
      { cause: e },
    );
  }
}

/** Installs the given provider binary into PULUMI_HOME unless that exact version is there. */
async function ensureKubernetesProvider(
  cmd: automation.PulumiCommand,
  env: Record<string, string>,
  opts: AutomationOptions,
): Promise<void> {
  const provider = opts.kubernetesProvider;
  if (!provider) return;
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the optional peer's manifest, read only here
  const sdkVersion = (require('@pulumi/kubernetes/package.json') as { version: string }).version;
  if (provider.version !== sdkVersion) {
    throw new Error(
      `the Kubernetes provider ${provider.version} does not match @pulumi/kubernetes ${sdkVersion}, which the program asks for`,
    );
  }
  const home = env.PULUMI_HOME ?? join(process.env.HOME ?? '', '.pulumi');
  if (existsSync(join(home, 'plugins', `resource-kubernetes-v${provider.version}`, 'pulumi-resource-kubernetes')))
    return;
  await promisify(execFile)(
    cmd.command,
    [
      'plugin',
      'install',
      'resource',
      'kubernetes',
      provider.version,
      '--file',
      resolve(provider.path),
      '--non-interactive',
    ],
    {
      env: { ...process.env, ...env },
    },
  );
}

interface Session {
  readonly auto: typeof automation;
  readonly cmd: automation.PulumiCommand;
  readonly env: Record<string, string>;
  readonly projectDir: string;
}

async function session(opts: AutomationOptions): Promise<Session> {
  const env = automationEnv(opts);
  mkdirSync(resolve(opts.backendDir), { recursive: true });
  if (opts.pulumiHome) mkdirSync(resolve(opts.pulumiHome), { recursive: true });
  const cmd = await pulumiCommand(opts);
  await ensureKubernetesProvider(cmd, env, opts);
  return { auto: loadAutomation(), cmd, env, projectDir: opts.projectDir ?? defaultProjectDir() };
}

/** Whether a structured value names Secret content anywhere (`secrets`, `kubernetes.secret.<entry>`, ...). */
function mentionsSecrets(v: unknown): boolean {
  if (Array.isArray(v)) return v.some(mentionsSecrets);
  if (typeof v !== 'object' || v === null) return false;
  return Object.entries(v).some(([k, x]) => /(^|\.)secrets?(\.|$)/.test(k) || mentionsSecrets(x));
}

/**
 * The stack config of a `config` job: structured keys as JSON (`getObject` parses them); values
 * that may hold credentials (Secret data, the job config text) are stored as Pulumi secrets, so
 * Pulumi.<stack>.yaml carries them encrypted.
 */
export function stackConfigValues(config: StackJobConfig): automation.ConfigMap {
  const out: automation.ConfigMap = {};
  for (const [k, v] of Object.entries(config)) {
    if (v === undefined) continue;
    const secret = k === 'jobConfig' || mentionsSecrets(v);
    out[`${CONFIG_NAMESPACE}:${k}`] = { value: typeof v === 'object' ? JSON.stringify(v) : String(v), secret };
  }
  return out;
}

async function stackFor(s: Session, p: PreparedJob): Promise<automation.Stack> {
  const wsOpts = {
    envVars: s.env,
    pulumiCommand: s.cmd,
    ...(s.env.PULUMI_HOME ? { pulumiHome: s.env.PULUMI_HOME } : {}),
  };
  if ('application' in p.job) {
    const { customTimeouts } = p.job.application;
    const args: ResolvedSeaTunnelApplicationArgs = { spec: p.spec, ...(customTimeouts ? { customTimeouts } : {}) };
    // The workspace directory keeps Pulumi.<stack>.yaml (with the secrets salt) between up and destroy.
    const workDir = join(resolve(s.env.PULUMI_BACKEND_URL.slice('file://'.length)), 'workspaces', p.stack);
    mkdirSync(workDir, { recursive: true });
    return s.auto.LocalWorkspace.createOrSelectStack(
      {
        stackName: p.stack,
        projectName: PROJECT_NAME,
        program: async () => {
          const app = new SeaTunnelApplication(p.spec.name, args);
          return { applicationId: app.applicationId, jobId: app.jobId, namespace: app.namespace, jobName: app.jobName };
        },
      },
      { ...wsOpts, workDir, projectSettings: { name: PROJECT_NAME, runtime: 'nodejs' } },
    );
  }
  const stack = await s.auto.LocalWorkspace.createOrSelectStack({ stackName: p.stack, workDir: s.projectDir }, wsOpts);
  // The stack's `seatunnel:*` config becomes exactly the job's: keys it no longer has are removed.
  const values = stackConfigValues(p.job.config);
  const stale = Object.keys(await stack.getAllConfig()).filter(
    (k) => k.startsWith(`${CONFIG_NAMESPACE}:`) && !(k in values),
  );
  if (stale.length) await stack.removeAllConfig(stale);
  await stack.setAllConfig(values);
  return stack;
}

async function eachStack(
  jobs: readonly JobStack[],
  opts: AutomationOptions,
  run: (stack: automation.Stack, p: PreparedJob, onOutput: (t: string) => void) => Promise<JobStackResult>,
): Promise<JobStackResult[]> {
  const prepared = prepareJobs(jobs, opts);
  const s = await session(opts);
  const results: JobStackResult[] = [];
  const failures: Array<{ stack: string; error: Error }> = [];
  // One stack at a time: the engine, the provider and the program each take a core.
  for (const p of prepared) {
    try {
      const stack = await stackFor(s, p);
      results.push(await run(stack, p, (t) => opts.onOutput?.(p.stack, t)));
    } catch (e) {
      failures.push({ stack: p.stack, error: e as Error });
    }
  }
  if (failures.length) throw new JobStacksError(failures, results);
  return results;
}

const str = (outputs: automation.OutputMap, k: string, fallback: string) =>
  typeof outputs[k]?.value === 'string' ? outputs[k].value : fallback;

/** A job's result: the stack's outputs where an `up` produced them, else what the plan says. */
function resultOf(p: PreparedJob, changes: automation.OpMap, outputs: automation.OutputMap = {}): JobStackResult {
  return {
    stack: p.stack,
    applicationId: str(outputs, 'applicationId', p.spec.appId),
    jobId: str(outputs, 'jobId', p.spec.jobId),
    namespace: str(outputs, 'namespace', p.spec.namespace),
    jobName: str(outputs, 'jobName', p.spec.appId),
    changes,
  };
}

export interface UpJobsOptions extends AutomationOptions {
  /** Refresh each stack's state from the cluster first (`pulumi up --refresh`). @default false */
  readonly refresh?: boolean;
}

/** `pulumi up` of each job in its own stack (created if missing). */
export async function upJobs(jobs: readonly JobStack[], opts: UpJobsOptions): Promise<JobStackResult[]> {
  return eachStack(jobs, opts, async (stack, p, onOutput) => {
    const up = await stack.up({ onOutput, ...(opts.refresh ? { refresh: true } : {}) });
    return resultOf(p, up.summary.resourceChanges ?? {}, up.outputs);
  });
}

/** `pulumi preview` of each job: what an `up` would change (no change = `{ same: n }`). */
export async function previewJobs(jobs: readonly JobStack[], opts: AutomationOptions): Promise<JobStackResult[]> {
  return eachStack(jobs, opts, async (stack, p, onOutput) => {
    const preview = await stack.preview({ onOutput });
    return resultOf(p, preview.changeSummary);
  });
}

export interface DestroyJobsOptions extends AutomationOptions {
  /** Also remove the (then empty) stacks from the backend. @default false */
  readonly removeStacks?: boolean;
}

/**
 * `pulumi destroy` of each job's stack. Objects the application only references (ConfigMaps,
 * Secrets, the ServiceAccount, the checkpoint PVC) were never part of a stack and stay.
 */
export async function destroyJobs(jobs: readonly JobStack[], opts: DestroyJobsOptions): Promise<JobStackResult[]> {
  return eachStack(jobs, opts, async (stack, p, onOutput) => {
    const destroyed = await stack.destroy({ onOutput });
    if (opts.removeStacks) await stack.workspace.removeStack(p.stack);
    return resultOf(p, destroyed.summary.resourceChanges ?? {});
  });
}
