// Test-side helpers for the control plane started by global-setup.ts (cluster, engine and pulumi
// projects). Everything here works in any Jest worker: it reads the connection info from the JSON
// file named by SEATUNNEL_TEST_CLUSTER.
//
//   const ns = useTestNamespace('gc');                        // created before, deleted after the file's tests
//   const { core, batch } = await adminClients();             // @kubernetes/client-node APIs as admin
//   const sa = await serviceAccountClients(ns.name, 'runner'); // clients acting as a ServiceAccount (TokenRequest)
//   test('x', withComponentLogs(async () => { ... }));        // prints component log tails if the test fails
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { loadClientNode, type ClientNode, type k8s } from '../../lib/kube/client-node';
import {
  componentLogTails as tailsOf,
  fakeNodeObject,
  kubeconfigYaml,
  type ClusterInfo,
  type FakeNodeOptions,
} from './control-plane';
import { controlRequest } from './control-server';
import { CLUSTER_ENV } from './global-setup';
import { KubeHttp, KubeHttpError } from './kube-http';
import { waitFor } from './wait';

export { waitFor, type WaitOptions } from './wait';
export { KubeHttp, KubeHttpError } from './kube-http';
export { KWOK_LIFECYCLE_ANNOTATION, type KwokLifecycle } from './kwok-stages';
export type { ClusterInfo, FakeNodeOptions, Taint } from './control-plane';
export { loadClientNode, type k8s } from '../../lib/kube/client-node';

/**
 * Default timeout of every test in a file that imports this module: cluster tests wait for
 * controllers, so Jest's 5 s default is far too short (each wait below has its own, shorter,
 * deadline with a message saying what was awaited).
 */
export const CLUSTER_TEST_TIMEOUT_MS = 180_000;
if (typeof jest !== 'undefined') jest.setTimeout(CLUSTER_TEST_TIMEOUT_MS);

let cachedInfo: ClusterInfo | undefined;

/** Connection info of the running control plane; throws a helpful error outside the cluster tiers. */
export function clusterInfo(): ClusterInfo {
  if (cachedInfo) return cachedInfo;
  const file = process.env[CLUSTER_ENV];
  if (!file || !fs.existsSync(file)) {
    throw new Error(
      `${CLUSTER_ENV} is not set or names no file (${file ?? 'unset'}): cluster tests need the control plane from ` +
        "test/support/global-setup.ts - run them through Jest's cluster/engine/pulumi projects " +
        '(NODE_OPTIONS=--experimental-vm-modules npx jest --selectProjects cluster --runInBand), ' +
        `or start \`npm run dev-cluster\` and export the ${CLUSTER_ENV} line it prints`,
    );
  }
  cachedInfo = JSON.parse(fs.readFileSync(file, 'utf8')) as ClusterInfo;
  return cachedInfo;
}

let cachedAdmin: KubeHttp | undefined;

/** Raw HTTPS client as admin (client certificate in system:masters); never throws on HTTP status with `request`. */
export function adminHttp(): KubeHttp {
  if (cachedAdmin) return cachedAdmin;
  const info = clusterInfo();
  cachedAdmin = KubeHttp.fromFiles(info.server, info.caFile, info.adminCertFile, info.adminKeyFile);
  return cachedAdmin;
}

/** Raw HTTPS client authenticated with a bearer token (e.g. a ServiceAccount token). */
export function tokenHttp(token: string): KubeHttp {
  const info = clusterInfo();
  return new KubeHttp({ server: info.server, ca: info.caData, token });
}

export interface KubeClients {
  kc: k8s.KubeConfig;
  core: k8s.CoreV1Api;
  batch: k8s.BatchV1Api;
  rbac: k8s.RbacAuthorizationV1Api;
  coordination: k8s.CoordinationV1Api;
  objects: k8s.KubernetesObjectApi;
  /** The loaded @kubernetes/client-node module (Watch, PatchStrategy, setHeaderOptions, ...). */
  lib: ClientNode;
}

async function clientsFor(kc: k8s.KubeConfig): Promise<KubeClients> {
  const lib = await loadClientNode();
  return {
    kc,
    core: kc.makeApiClient(lib.CoreV1Api),
    batch: kc.makeApiClient(lib.BatchV1Api),
    rbac: kc.makeApiClient(lib.RbacAuthorizationV1Api),
    coordination: kc.makeApiClient(lib.CoordinationV1Api),
    objects: lib.KubernetesObjectApi.makeApiClient(kc),
    lib,
  };
}

/** A client-node KubeConfig for the admin kubeconfig file. */
export async function adminKubeConfig(): Promise<k8s.KubeConfig> {
  const { KubeConfig } = await loadClientNode();
  const kc = new KubeConfig();
  kc.loadFromFile(clusterInfo().kubeconfig);
  return kc;
}

/** client-node API clients acting as the cluster admin. */
export async function adminClients(): Promise<KubeClients> {
  return clientsFor(await adminKubeConfig());
}

export interface TokenOptions {
  /** Token lifetime (the API server enforces a minimum of 600 s). Default 3600. */
  expirationSeconds?: number;
  /** Audiences; default: the API server's (the issuer URL). */
  audiences?: string[];
}

/** Mints a token for a ServiceAccount with the TokenRequest API (the ServiceAccount must exist). */
export async function mintServiceAccountToken(namespace: string, name: string, opts: TokenOptions = {}): Promise<string> {
  const res = await adminHttp().call<{ status: { token: string } }>(
    'POST',
    `/api/v1/namespaces/${encodeURIComponent(namespace)}/serviceaccounts/${encodeURIComponent(name)}/token`,
    {
      apiVersion: 'authentication.k8s.io/v1',
      kind: 'TokenRequest',
      spec: { expirationSeconds: opts.expirationSeconds ?? 3600, ...(opts.audiences ? { audiences: opts.audiences } : {}) },
    },
  );
  return res.status.token;
}

export interface ServiceAccountIdentity {
  namespace: string;
  name: string;
  /** system:serviceaccount:<namespace>:<name> */
  username: string;
  token: string;
  /** A kubeconfig file (namespace preset) for a local process: KUBECONFIG=<this>. */
  kubeconfigPath: string;
  /** A directory laid out like a Pod's token mount: token, ca.crt, namespace. */
  mountDir: string;
  /**
   * A fake filesystem root holding mountDir at var/run/secrets/kubernetes.io/serviceaccount, for
   * client-node's `kc.loadFromCluster(rootPrefix)`; combine with `inClusterEnv`.
   */
  rootPrefix: string;
  /** KUBERNETES_SERVICE_HOST/PORT pointing at the test API server (127.0.0.1). */
  inClusterEnv: { KUBERNETES_SERVICE_HOST: string; KUBERNETES_SERVICE_PORT: string };
}

/**
 * Mints a token for an existing ServiceAccount and writes what a local process needs to act as
 * it: a kubeconfig file and a Pod-like token mount directory (both under the cluster's temp dir).
 */
export async function serviceAccountIdentity(namespace: string, name: string, opts: TokenOptions = {}): Promise<ServiceAccountIdentity> {
  const info = clusterInfo();
  const token = await mintServiceAccountToken(namespace, name, opts);
  const base = path.join(info.dir, 'identities', `${namespace}.${name}.${randomBytes(4).toString('hex')}`);
  const rootPrefix = path.join(base, 'root');
  const mountDir = path.join(rootPrefix, 'var', 'run', 'secrets', 'kubernetes.io', 'serviceaccount');
  fs.mkdirSync(mountDir, { recursive: true, mode: 0o700 });
  fs.writeFileSync(path.join(mountDir, 'token'), token, { mode: 0o600 });
  fs.writeFileSync(path.join(mountDir, 'ca.crt'), info.caData);
  fs.writeFileSync(path.join(mountDir, 'namespace'), namespace);
  const user = `system:serviceaccount:${namespace}:${name}`;
  const kubeconfigPath = path.join(base, 'kubeconfig');
  fs.writeFileSync(kubeconfigPath, kubeconfigYaml({ server: info.server, caData: info.caData, user, token, namespace }), { mode: 0o600 });
  const url = new URL(info.server);
  return {
    namespace,
    name,
    username: user,
    token,
    kubeconfigPath,
    mountDir,
    rootPrefix,
    inClusterEnv: { KUBERNETES_SERVICE_HOST: url.hostname, KUBERNETES_SERVICE_PORT: url.port },
  };
}

/** client-node API clients acting as a ServiceAccount (token from TokenRequest). */
export async function serviceAccountClients(namespace: string, name: string, opts: TokenOptions = {}): Promise<KubeClients & { identity: ServiceAccountIdentity }> {
  const identity = await serviceAccountIdentity(namespace, name, opts);
  const { KubeConfig } = await loadClientNode();
  const kc = new KubeConfig();
  kc.loadFromFile(identity.kubeconfigPath);
  return { ...(await clientsFor(kc)), identity };
}

function dnsLabel(prefix: string): string {
  const clean = prefix.toLowerCase().replace(/[^a-z0-9-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 40) || 't';
  return `${clean}-${randomBytes(3).toString('hex')}`;
}

/**
 * Creates a uniquely named namespace and waits until its `default` ServiceAccount exists (the
 * ServiceAccount admission plugin rejects Pods before that).
 */
export async function createTestNamespace(prefix = 't', labels: Record<string, string> = {}): Promise<string> {
  const name = dnsLabel(prefix);
  const admin = adminHttp();
  await admin.call('POST', '/api/v1/namespaces', {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name, labels: { 'seatunnel-app.test/namespace': 'true', ...labels } },
  });
  await waitFor(
    async () => {
      await admin.call('GET', `/api/v1/namespaces/${name}/serviceaccounts/default`);
      return true;
    },
    { description: `ServiceAccount ${name}/default (serviceaccount-controller)`, timeoutMs: 60_000 },
  );
  return name;
}

/** Deletes a namespace; with wait, until the namespace controller has removed it and its contents. */
export async function deleteNamespace(name: string, opts: { wait?: boolean; timeoutMs?: number } = {}): Promise<void> {
  const admin = adminHttp();
  await admin.call('DELETE', `/api/v1/namespaces/${name}`, undefined, { accept: [404] });
  if (opts.wait) {
    await waitFor(async () => (await admin.request('GET', `/api/v1/namespaces/${name}`)).status === 404, {
      description: `namespace ${name} to be deleted`,
      timeoutMs: opts.timeoutMs ?? 120_000,
    });
  }
}

/**
 * Registers beforeAll/afterAll: a fresh namespace for the tests of the current describe block
 * (or file), deleted afterwards. Read `.name` inside tests/hooks.
 */
export function useTestNamespace(prefix = 't'): { readonly name: string } {
  let name: string | undefined;
  beforeAll(async () => {
    name = await createTestNamespace(prefix);
  }, 120_000);
  afterAll(async () => {
    if (name) await deleteNamespace(name);
  }, 120_000);
  return {
    get name(): string {
      if (!name) throw new Error('useTestNamespace: the namespace exists only inside tests and hooks');
      return name;
    },
  };
}

/** Creates a kwok-managed fake node with the given capacity and waits until it is Ready. */
export async function createFakeNode(name: string, opts: FakeNodeOptions = {}): Promise<void> {
  const admin = adminHttp();
  await admin.call('POST', '/api/v1/nodes', fakeNodeObject(name, opts, `10.255.2.${(parseInt(randomBytes(1).toString('hex'), 16) % 250) + 1}`));
  await waitFor(
    async () => {
      const node = await admin.call<{ status?: { conditions?: Array<{ type: string; status: string }> } }>('GET', `/api/v1/nodes/${name}`);
      return node.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;
    },
    { description: `fake node ${name} to become Ready (kwok)`, timeoutMs: 60_000 },
  );
}

export async function deleteNode(name: string): Promise<void> {
  await adminHttp().call('DELETE', `/api/v1/nodes/${name}`, undefined, { accept: [404] });
}

/**
 * Merge-patches a Pod's status subresource, e.g. to reflect a real local process into a Pod that
 * kwok leaves alone (annotation KWOK_LIFECYCLE_ANNOTATION = "manual" or "no-complete"):
 *
 *   await patchPodStatus(ns, 'master', { phase: 'Failed', containerStatuses: [...] })
 */
export async function patchPodStatus(namespace: string, name: string, status: Record<string, unknown>): Promise<unknown> {
  return adminHttp().call('PATCH', `/api/v1/namespaces/${namespace}/pods/${name}/status`, { status }, { contentType: 'application/merge-patch+json' });
}

/**
 * Restarts the shared API server (same port and flags) and waits until it is ready. Every
 * resourceVersion from before the restart is then expired for watches (410 Gone), as after a real
 * restart. Open connections of every client break; components reconnect by themselves.
 */
export async function restartApiServer(): Promise<void> {
  const { control } = clusterInfo();
  if (!control) throw new Error('restartApiServer: this control plane has no control endpoint (started outside globalSetup/dev-cluster?)');
  await controlRequest(control, 'POST', '/kube-apiserver/restart');
}

/** Resident memory per control-plane component in bytes (from the owning process). */
export async function controlPlaneMemory(): Promise<Record<string, number>> {
  const { control } = clusterInfo();
  if (!control) throw new Error('controlPlaneMemory: no control endpoint');
  return controlRequest(control, 'GET', '/memory');
}

/** The last lines of every component's log. */
export function componentLogTails(lines = 30): string {
  return tailsOf(clusterInfo(), lines);
}

/**
 * Wraps a test body: if it throws, the error message gets the component log tails appended, so a
 * failing cluster test shows what etcd/apiserver/controllers/scheduler/kwok were doing.
 */
export function withComponentLogs<A extends unknown[], T>(fn: (...args: A) => Promise<T>, lines = 30): (...args: A) => Promise<T> {
  return async (...args: A) => {
    try {
      return await fn(...args);
    } catch (e) {
      let tails: string;
      try {
        tails = componentLogTails(lines);
      } catch (inner) {
        tails = `(no component logs: ${(inner as Error).message})`;
      }
      if (e instanceof Error) {
        e.message = `${e.message}\n\n===== control-plane component logs (last ${lines} lines each) =====\n${tails}`;
        throw e;
      }
      throw new Error(`${String(e)}\n\n${tails}`);
    }
  };
}

// ---- server-side dry run ----

export interface ObjectRef {
  apiVersion: string;
  kind: string;
  metadata: { name?: string; generateName?: string; namespace?: string; [k: string]: unknown };
  [k: string]: unknown;
}

export interface DryRunResult {
  object: ObjectRef;
  ok: boolean;
  status: number;
  /** The server's answer: the object as it would be stored, or a Status. */
  response: unknown;
  /** Warning headers are not collected; field errors are in `message`. */
  message?: string;
}

interface ApiResource {
  name: string;
  namespaced: boolean;
  kind: string;
}

const discoveryCache = new Map<string, ApiResource[]>();

async function resourceFor(http: KubeHttp, apiVersion: string, kind: string): Promise<ApiResource & { base: string }> {
  const base = apiVersion.includes('/') ? `/apis/${apiVersion}` : `/api/${apiVersion}`;
  let resources = discoveryCache.get(base);
  if (!resources) {
    const list = await http.call<{ resources: ApiResource[] }>('GET', base);
    resources = list.resources.filter((r) => !r.name.includes('/'));
    discoveryCache.set(base, resources);
  }
  const r = resources.find((x) => x.kind === kind);
  if (!r) throw new Error(`the API server has no kind ${kind} in ${apiVersion}`);
  return { ...r, base };
}

/**
 * Server-side dry run (dryRun=All, fieldValidation=Strict) of each object, as create requests by
 * default or as server-side apply (`mode: 'apply'`, which also accepts objects that exist).
 * Namespaced objects without a namespace get `namespace`. Nothing is persisted. Unknown or
 * duplicate fields, schema and admission errors come back as failures; with `throwOnError`
 * (default) one error lists every failing object. Note: create reports an unknown field as
 * HTTP 400 `unknown field "x"`; server-side apply reports it as HTTP 500 `.x: field not declared
 * in schema` (API server behaviour).
 */
export async function dryRunStrict(
  objects: ReadonlyArray<ObjectRef>,
  opts: { namespace?: string; mode?: 'create' | 'apply'; fieldManager?: string; token?: string; throwOnError?: boolean } = {},
): Promise<DryRunResult[]> {
  const http = opts.token ? tokenHttp(opts.token) : adminHttp();
  const mode = opts.mode ?? 'create';
  const fieldManager = opts.fieldManager ?? 'seatunnel-app-dry-run';
  const results: DryRunResult[] = [];
  for (const obj of objects) {
    const res = await resourceFor(http, obj.apiVersion, obj.kind);
    const ns = obj.metadata.namespace ?? opts.namespace;
    if (res.namespaced && !ns) throw new Error(`dryRunStrict: ${obj.kind} ${obj.metadata.name} is namespaced but has no namespace and none was given`);
    const body = res.namespaced ? { ...obj, metadata: { ...obj.metadata, namespace: ns } } : obj;
    const collection = `${res.base}${res.namespaced ? `/namespaces/${encodeURIComponent(ns!)}` : ''}/${res.name}`;
    const q = `dryRun=All&fieldValidation=Strict&fieldManager=${encodeURIComponent(fieldManager)}`;
    const r =
      mode === 'apply'
        ? await http.request('PATCH', `${collection}/${encodeURIComponent(obj.metadata.name ?? '')}?${q}&force=true`, body, {
            contentType: 'application/apply-patch+yaml',
          })
        : await http.request('POST', `${collection}?${q}`, body);
    const ok = r.status >= 200 && r.status < 300;
    results.push({
      object: obj,
      ok,
      status: r.status,
      response: r.body,
      message: ok ? undefined : ((r.body as { message?: string })?.message ?? r.text),
    });
  }
  if (opts.throwOnError !== false) {
    const bad = results.filter((r) => !r.ok);
    if (bad.length > 0) {
      throw new Error(
        `server-side dry run rejected ${bad.length} of ${results.length} objects:\n` +
          bad.map((b) => `  ${b.object.kind}/${b.object.metadata.name ?? b.object.metadata.generateName}: HTTP ${b.status}: ${b.message}`).join('\n'),
      );
    }
  }
  return results;
}

/** True if `e` is a client-node ApiException (or KubeHttpError) with HTTP status `code`. */
export function isHttpStatus(e: unknown, code: number): boolean {
  if (e instanceof KubeHttpError) return e.status === code;
  return typeof e === 'object' && e !== null && (e as { code?: unknown }).code === code;
}

// ---- watches ----

export interface WatchEvent<T = Record<string, unknown>> {
  type: 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR' | string;
  object: T;
}

export interface RecordedWatch<T = Record<string, unknown>> {
  /** Every event so far, in arrival order. */
  readonly events: WatchEvent<T>[];
  /** Resolves when the watch ends, with the error client-node reported (null for a clean close). */
  readonly ended: Promise<unknown>;
  /** Waits until some recorded event satisfies `pred` and returns it. */
  until(pred: (e: WatchEvent<T>) => boolean, description: string, timeoutMs?: number): Promise<WatchEvent<T>>;
  stop(): void;
}

/**
 * Starts a client-node Watch (as admin unless `kc` is given) on an API path such as
 * /api/v1/namespaces/<ns>/pods and records its events.
 */
export async function recordWatch<T = Record<string, unknown>>(
  apiPath: string,
  query: Record<string, string | number | boolean | undefined> = {},
  kc?: k8s.KubeConfig,
): Promise<RecordedWatch<T>> {
  const { Watch } = await loadClientNode();
  const events: WatchEvent<T>[] = [];
  let resolveEnded!: (err: unknown) => void;
  const ended = new Promise<unknown>((r) => (resolveEnded = r));
  let finished = false;
  const controller = await new Watch(kc ?? (await adminKubeConfig())).watch(
    apiPath,
    query,
    (type: string, object: T) => events.push({ type, object }),
    (err: unknown) => {
      finished = true;
      resolveEnded(err ?? null);
    },
  );
  return {
    events,
    ended,
    async until(pred, description, timeoutMs = 60_000) {
      return waitFor(() => events.find(pred), {
        description,
        timeoutMs,
        intervalMs: 50,
        guard: () => {
          if (finished && !events.some(pred)) {
            throw new Error(`the watch ended before ${description}; events so far: ${events.map((e) => e.type).join(', ') || 'none'}`);
          }
        },
      });
    },
    stop() {
      controller.abort();
    },
  };
}
