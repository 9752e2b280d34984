// Cluster-tier harness for the runtime: deploys an application with the plan (every dependent and
// the Job; the Job controller makes the master Pod, which kwok runs), then runs the runtime bundle
// as a local process in the role of that Pod's container:
//   * authenticated as the application's ServiceAccount (a TokenRequest token), so the plan's Role
//     is what allows or refuses each call;
//   * with the environment of the real master Pod object (downward-API values substituted from
//     the Pod's metadata and status, Secret/ConfigMap references read);
//   * with SEATUNNEL_APP_ENGINE_CONFIG pointing at a copy of the engine ConfigMap whose
//     runtime.json starts the engine stand-in (./engine-stand-in.ts) instead of Zeta — the test seam.
// Also used by bench/runtime.ts.

import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Job } from 'kubernetes-types/batch/v1';
import type { ConfigMap, EnvVar, Event, Pod } from 'kubernetes-types/core/v1';
import type { SeaTunnelApplicationProps } from 'seatunnel-app/internal/model/props';
import { LABELS } from 'seatunnel-app/internal/model/reserved';
import { ANNOTATIONS } from 'seatunnel-app/internal/contract';
import { resolveApplication } from 'seatunnel-app/internal/model/resolve';
import type { ApplicationSpec } from 'seatunnel-app/internal/model/spec';
import { buildPlan, dependents, withJobOwner } from 'seatunnel-app/internal/plan/build-plan';
import type { RuntimeSettings } from 'seatunnel-app/runtime-support';
import type { ApplicationPlan, KubeObject } from 'seatunnel-app/internal/plan/types';
import {
  adminHttp,
  clusterInfo,
  KWOK_LIFECYCLE_ANNOTATION,
  serviceAccountIdentity,
  waitFor,
  type ServiceAccountIdentity,
} from '../../../test/support/cluster';
import { kubeletExpand } from '../../../tools/local-stack/kubelet-expansion';
import { freePorts } from '../../../tools/local-stack/ports';
import { ensureBundle, RUNTIME_DIR } from '../../../tools/local-stack/runtime-bundle';

export const SERVICE_ACCOUNT = 'seatunnel-runner';

export const TEST_JOB = `env { job.mode = "BATCH", parallelism = 1 }
source { FakeSource { result_table_name = "fake", row.num = \${ROWS}, schema { fields { name = string } } } }
sink { Console { source_table_name = "fake" } }
`;

let standIn: string | undefined;

/** The engine stand-in as one plain .cjs file (bundled once per process). */
export function standInScript(): string {
  if (standIn) return standIn;
  const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'st-standin-')), 'engine-stand-in.cjs');
  // esbuild is a devDependency of the root package; its JS API runs synchronously here, loaded on first use.
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- lazy, typed by the cast
  const esbuild = require('esbuild') as typeof import('esbuild');
  esbuild.buildSync({
    entryPoints: [path.join(RUNTIME_DIR, 'test', 'support', 'engine-stand-in.ts')],
    outfile: out,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    logLevel: 'warning',
  });
  standIn = out;
  return out;
}

// ---- deploying an application -------------------------------------------------------------

const COLLECTION: Record<string, string> = {
  'v1/Service': 'api/v1/namespaces/{ns}/services',
  'v1/ServiceAccount': 'api/v1/namespaces/{ns}/serviceaccounts',
  'v1/ConfigMap': 'api/v1/namespaces/{ns}/configmaps',
  'v1/Secret': 'api/v1/namespaces/{ns}/secrets',
  'v1/PodTemplate': 'api/v1/namespaces/{ns}/podtemplates',
  'rbac.authorization.k8s.io/v1/Role': 'apis/rbac.authorization.k8s.io/v1/namespaces/{ns}/roles',
  'rbac.authorization.k8s.io/v1/RoleBinding': 'apis/rbac.authorization.k8s.io/v1/namespaces/{ns}/rolebindings',
  'networking.k8s.io/v1/NetworkPolicy': 'apis/networking.k8s.io/v1/namespaces/{ns}/networkpolicies',
  'batch/v1/Job': 'apis/batch/v1/namespaces/{ns}/jobs',
  'apps/v1/StatefulSet': 'apis/apps/v1/namespaces/{ns}/statefulsets',
};

export function objectPath(
  obj: { apiVersion: string; kind: string; metadata: { name: string; namespace?: string } },
  namespace: string,
  named = true,
): string {
  const c = COLLECTION[`${obj.apiVersion}/${obj.kind}`];
  if (!c) throw new Error(`no collection for ${obj.apiVersion} ${obj.kind}`);
  return `/${c.replace('{ns}', namespace)}${named ? `/${obj.metadata.name}` : ''}`;
}

export interface Deployed {
  readonly spec: ApplicationSpec;
  readonly plan: ApplicationPlan;
  readonly namespace: string;
  readonly appId: string;
  readonly jobUid: string;
  readonly masterPod: Pod;
}

export interface DeployOptions {
  /** Props on top of the harness defaults (small Pods, a stand-in image, kwok "no-complete" master). */
  readonly props?: Partial<SeaTunnelApplicationProps>;
  /**
   * true: dependents carry the Job owner reference (the CLI/Pulumi path). false (default): they
   * are applied without one, as `kubectl apply` of synthesized YAML does, and the runtime adopts them.
   */
  readonly owned?: boolean;
}

async function ensureServiceAccount(namespace: string): Promise<void> {
  await adminHttp().call(
    'POST',
    `/api/v1/namespaces/${namespace}/serviceaccounts`,
    { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: SERVICE_ACCOUNT } },
    { accept: [409] },
  );
}

export async function deployApplication(namespace: string, name: string, opts: DeployOptions = {}): Promise<Deployed> {
  const admin = adminHttp();
  const spec = resolveApplication({
    name,
    namespace,
    image: 'seatunnel-app-test:fake',
    runtimeImage: 'seatunnel-app-runtime:test',
    serviceAccount: SERVICE_ACCOUNT,
    jobConfig: TEST_JOB,
    env: { ROWS: '16' },
    workerCount: 2,
    workerSlots: 2,
    startupTimeoutMillis: 60_000,
    masterCpuCores: 0.1,
    masterMemoryMb: 256,
    workerCpuCores: 0.1,
    workerMemoryMb: 256,
    ...opts.props,
    masterAnnotations: { [KWOK_LIFECYCLE_ANNOTATION]: 'no-complete', ...opts.props?.masterAnnotations },
  });
  const plan = buildPlan(spec, { suspend: true });
  await ensureServiceAccount(namespace);
  const job = await admin.call<Job>('POST', objectPath(plan.job, namespace, false), plan.job);
  const jobUid = job.metadata!.uid!;
  for (const obj of dependents(plan)) {
    const body: KubeObject = opts.owned ? withJobOwner(obj, plan.job.metadata.name, jobUid) : obj;
    await admin.call('POST', objectPath(obj, namespace, false), body);
  }
  await admin.call(
    'PATCH',
    objectPath(plan.job, namespace),
    { spec: { suspend: false } },
    { contentType: 'application/merge-patch+json' },
  );
  const masterPod = await waitFor(
    async () => {
      const list = await admin.call<{ items: Pod[] }>(
        'GET',
        `/api/v1/namespaces/${namespace}/pods?labelSelector=${encodeURIComponent(`batch.kubernetes.io/job-name=${spec.appId}`)}`,
      );
      return list.items.find((p) => p.status?.phase === 'Running' && p.status.podIP);
    },
    { description: `the master Pod of ${spec.appId} to run (Job controller + kwok)`, timeoutMs: 60_000 },
  );
  return { spec, plan, namespace, appId: spec.appId, jobUid, masterPod };
}

// ---- the master Pod's environment ------------------------------------------------------------

function fieldValue(pod: Pod, fieldPath: string): string {
  switch (fieldPath) {
    case 'metadata.name':
      return pod.metadata!.name!;
    case 'metadata.namespace':
      return pod.metadata!.namespace!;
    case 'metadata.uid':
      return pod.metadata!.uid!;
    case 'status.podIP':
      return pod.status!.podIP!;
    case 'spec.nodeName':
      return pod.spec!.nodeName!;
    case 'spec.serviceAccountName':
      return pod.spec!.serviceAccountName!;
    default:
      throw new Error(`the harness does not resolve fieldRef ${fieldPath}`);
  }
}

/** The environment the kubelet would give a Pod's `seatunnel` container (master or worker), with its $(VAR) expansion. */
export async function masterEnvironment(pod: Pod): Promise<Record<string, string>> {
  const admin = adminHttp();
  const ns = pod.metadata!.namespace!;
  const c = pod.spec!.containers.find((x) => x.name === 'seatunnel')!;
  const env: Record<string, string> = {};
  for (const from of c.envFrom ?? []) {
    const kind = from.secretRef ? 'secrets' : 'configmaps';
    const name = (from.secretRef ?? from.configMapRef)!.name!;
    const obj = await admin.call<{ data?: Record<string, string> }>('GET', `/api/v1/namespaces/${ns}/${kind}/${name}`);
    for (const [k, v] of Object.entries(obj.data ?? {}))
      env[`${from.prefix ?? ''}${k}`] = kind === 'secrets' ? Buffer.from(v, 'base64').toString('utf8') : v;
  }
  for (const e of c.env ?? ([] as EnvVar[])) {
    if (e.value !== undefined) env[e.name] = kubeletExpand(e.value, env);
    else if (e.valueFrom?.fieldRef) env[e.name] = fieldValue(pod, e.valueFrom.fieldRef.fieldPath);
    else if (e.valueFrom?.secretKeyRef || e.valueFrom?.configMapKeyRef) {
      const ref = (e.valueFrom.secretKeyRef ?? e.valueFrom.configMapKeyRef)!;
      const kind = e.valueFrom.secretKeyRef ? 'secrets' : 'configmaps';
      const obj = await admin.call<{ data?: Record<string, string> }>(
        'GET',
        `/api/v1/namespaces/${ns}/${kind}/${ref.name}`,
      );
      const v = obj.data?.[ref.key];
      if (v !== undefined) env[e.name] = kind === 'secrets' ? Buffer.from(v, 'base64').toString('utf8') : v;
    }
  }
  return env;
}

/**
 * The job config's Secret, mounted in the Pod (lib/plan/steps/job-config.ts): its files written
 * under `dir`, and the runtime pointed at them (SEATUNNEL_APPLICATION_JOB_CONFIG_FILE), as a kubelet mounts it.
 */
async function mountJobConfig(pod: Pod, env: Record<string, string>, dir: string): Promise<void> {
  const file = env.SEATUNNEL_APPLICATION_JOB_CONFIG_FILE;
  const c = pod.spec!.containers.find((x) => x.name === 'seatunnel')!;
  const mount = c.volumeMounts?.find((m) => file?.startsWith(`${m.mountPath}/`));
  const secretName = pod.spec!.volumes?.find((v) => v.name === mount?.name)?.secret?.secretName;
  if (!file || !mount || !secretName) return;
  const secret = await adminHttp().call<{ data?: Record<string, string> }>(
    'GET',
    `/api/v1/namespaces/${pod.metadata!.namespace!}/secrets/${secretName}`,
  );
  const local = path.join(dir, 'job-config');
  fs.mkdirSync(local, { recursive: true });
  for (const [k, v] of Object.entries(secret.data ?? {}))
    fs.writeFileSync(path.join(local, k), Buffer.from(v, 'base64'), { mode: 0o600 });
  env.SEATUNNEL_APPLICATION_JOB_CONFIG_FILE = path.join(local, path.relative(mount.mountPath, file));
}

// ---- running the runtime ---------------------------------------------------------------------

export interface StandInEntry {
  readonly at: number;
  readonly call: string;
  readonly registered?: number;
  readonly query?: Record<string, string>;
  readonly body?: string;
  readonly config?: unknown;
  readonly jobId?: string;
  readonly masterHost?: string;
  readonly env?: Record<string, unknown>;
  readonly [k: string]: unknown;
}

export interface RunOptions {
  /** STANDIN_* settings of the engine stand-in (STANDIN_JOB=finish|fail|hang, …). */
  readonly standIn?: Record<string, string>;
  /** The API server URL the runtime uses (default: the real one; a proxy for cut tests). */
  readonly apiServer?: string;
  readonly extraEnv?: Record<string, string>;
  /** Changes runtime.json after the engine-stand-in seam is applied (e.g. to make it invalid). */
  readonly editSettings?: (settings: Record<string, unknown>) => unknown;
}

export interface RuntimeRun {
  readonly child: ChildProcess;
  readonly dir: string;
  readonly identity: ServiceAccountIdentity;
  readonly restPort: number;
  /** Spawn time (Date.now()). */
  readonly startedAt: number;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  output(): string;
  standInLog(): StandInEntry[];
  /** Calls the stand-in's control API, e.g. finish('FINISHED'). */
  finish(status?: string): Promise<void>;
}

export async function startRuntime(app: Deployed, opts: RunOptions = {}): Promise<RuntimeRun> {
  const admin = adminHttp();
  const bundle = ensureBundle();
  const script = standInScript();
  const pod = await admin.call<Pod>('GET', `/api/v1/namespaces/${app.namespace}/pods/${app.masterPod.metadata!.name}`);
  const env = await masterEnvironment(pod);
  const dir = fs.mkdtempSync(path.join(clusterInfo().dir, `runtime-${app.appId}-`));
  const engineDir = path.join(dir, 'engine-config');
  fs.mkdirSync(engineDir);
  const cm = await admin.call<ConfigMap>('GET', `/api/v1/namespaces/${app.namespace}/configmaps/${app.appId}-engine`);
  const [restPort] = await freePorts(1);
  for (const [k, v] of Object.entries(cm.data ?? {})) {
    if (k !== 'runtime.json') fs.writeFileSync(path.join(engineDir, k), v);
  }
  await mountJobConfig(pod, env, dir);
  const settings = JSON.parse(cm.data!['runtime.json']) as RuntimeSettings;
  const seam: RuntimeSettings = {
    ...settings,
    master: { ...settings.master, restPort, restPath: '', command: [process.execPath, script] },
  };
  const written = opts.editSettings
    ? opts.editSettings(JSON.parse(JSON.stringify(seam)) as Record<string, unknown>)
    : seam;
  fs.writeFileSync(path.join(engineDir, 'runtime.json'), JSON.stringify(written, null, 2));
  const identity = await serviceAccountIdentity(app.namespace, SERVICE_ACCOUNT);
  let kubeconfig = identity.kubeconfigPath;
  if (opts.apiServer) {
    const doc = JSON.parse(fs.readFileSync(identity.kubeconfigPath, 'utf8')) as {
      clusters: Array<{ cluster: { server: string } }>;
    };
    doc.clusters[0].cluster.server = opts.apiServer;
    kubeconfig = path.join(dir, 'kubeconfig');
    fs.writeFileSync(kubeconfig, JSON.stringify(doc), { mode: 0o600 });
  }
  const logFile = path.join(dir, 'stand-in.jsonl');
  const outFile = path.join(dir, 'runtime.log');
  const childEnv: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: process.env.HOME ?? dir,
    ...env,
    SEATUNNEL_APP_ENGINE_CONFIG: engineDir,
    SEATUNNEL_APP_WORK_DIR: path.join(dir, 'work'),
    KUBECONFIG: kubeconfig,
    STANDIN_KUBECONFIG: identity.kubeconfigPath,
    STANDIN_LOG: logFile,
    STANDIN_JOB: 'finish',
    // The workers run on kwok's fake nodes, whose advertised addresses (10.255.x.x) do not exist:
    // reading their logs would have the API server dial them, off this machine.
    SEATUNNEL_APP_KEEP_WORKER_LOGS: 'off',
    ...opts.standIn,
    ...opts.extraEnv,
  };
  const startedAt = Date.now();
  const child = spawn(process.execPath, [bundle], { env: childEnv, cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const out = fs.createWriteStream(outFile);
  const collect = (c: Buffer) => {
    output += c.toString('utf8');
    out.write(c);
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const standInLog = (): StandInEntry[] =>
    fs.existsSync(logFile)
      ? fs
          .readFileSync(logFile, 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l) as StandInEntry)
      : [];
  return {
    child,
    dir,
    identity,
    restPort,
    startedAt,
    exited,
    output: () => output,
    standInLog,
    async finish(status = 'FINISHED') {
      const r = await fetch(`http://127.0.0.1:${restPort}/_standin/finish?status=${status}`, { method: 'POST' });
      if (!r.ok) throw new Error(`stand-in finish: HTTP ${r.status}`);
    },
  };
}

/** Waits for the runtime to exit (bounded); kills it and throws with its output if it does not. */
export async function waitForExit(run: RuntimeRun, timeoutMs = 120_000): Promise<number | null> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((r) => (timer = setTimeout(() => r('timeout'), timeoutMs)));
  const res = await Promise.race([run.exited, timeout]);
  clearTimeout(timer);
  if (res === 'timeout') {
    run.child.kill('SIGKILL');
    throw new Error(`the runtime did not exit within ${timeoutMs} ms; its output:\n${run.output()}`);
  }
  return res.code;
}

export async function waitForStandIn(
  run: RuntimeRun,
  pred: (e: StandInEntry) => boolean,
  description: string,
  timeoutMs = 60_000,
): Promise<StandInEntry> {
  return waitFor(() => run.standInLog().find(pred), {
    description,
    timeoutMs,
    intervalMs: 100,
    guard: () => {
      if (run.child.exitCode !== null)
        throw new Error(
          `the runtime exited (${run.child.exitCode}) before ${description}; its output:\n${run.output()}`,
        );
    },
  });
}

// ---- reading back what the runtime recorded ---------------------------------------------------

export function workerSelector(appId: string): string {
  return `${LABELS.applicationId}=${appId},${LABELS.role}=worker`;
}

export async function workerPods(namespace: string, appId: string): Promise<Pod[]> {
  return (
    await adminHttp().call<{ items: Pod[] }>(
      'GET',
      `/api/v1/namespaces/${namespace}/pods?labelSelector=${encodeURIComponent(workerSelector(appId))}`,
    )
  ).items;
}

/** Waits until no worker Pod of the application is left (deleted Pods may take a moment to go). */
export async function expectNoWorkersLeft(namespace: string, appId: string, timeoutMs = 30_000): Promise<void> {
  await waitFor(async () => (await workerPods(namespace, appId)).length === 0, {
    description: `no worker Pod of ${appId} left`,
    timeoutMs,
  });
}

export async function jobAnnotations(app: Deployed): Promise<Record<string, string>> {
  const job = await adminHttp().call<Job>('GET', `/apis/batch/v1/namespaces/${app.namespace}/jobs/${app.appId}`);
  const all = job.metadata?.annotations ?? {};
  const ours = new Set<string>(Object.values(ANNOTATIONS));
  // Only what the runtime wrote: the plan sets the worker template's, the application's name and the image-pull bound.
  const planned = new Set<string>([
    ANNOTATIONS.workerTemplate,
    ANNOTATIONS.applicationName,
    ANNOTATIONS.imagePullRetryMillis,
  ]);
  return Object.fromEntries(Object.entries(all).filter(([k]) => ours.has(k) && !planned.has(k)));
}

/** The runtime's Events on the application's Job (not the Job controller's), oldest first. */
export async function jobEvents(app: Deployed): Promise<Event[]> {
  const list = await adminHttp().call<{ items: Event[] }>(
    'GET',
    `/api/v1/namespaces/${app.namespace}/events?fieldSelector=${encodeURIComponent(`involvedObject.uid=${app.jobUid}`)}`,
  );
  return list.items
    .filter((e) => e.source?.component === 'seatunnel-app-runtime')
    .sort((a, b) => (a.metadata.name! < b.metadata.name! ? -1 : 1));
}

/** Deletes the application's Job with its dependents and Pods (garbage collection). */
export async function deleteApplication(app: Deployed): Promise<void> {
  await adminHttp().call(
    'DELETE',
    objectPath(app.plan.job, app.namespace),
    { apiVersion: 'v1', kind: 'DeleteOptions', propagationPolicy: 'Background' },
    { accept: [404] },
  );
}
