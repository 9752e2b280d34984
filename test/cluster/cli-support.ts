// Helpers of the CLI's cluster tests (test/cluster/cli-*.test.ts): run `main` in-process with a
// capturing Output, write deployment files that point at the harness's kubeconfig, check what
// exists, and a fault-injecting HTTP proxy in front of the API server (127.0.0.1 only).
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as https from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import type { PolicyRule } from 'kubernetes-types/rbac/v1';
import { main } from '../../lib/cli/main';
import type { JsonDocument, Output } from '../../lib/cli/output';
import { parseServerVersion } from '../../lib/kube/server-version';
import { LABELS } from '../../lib/model/reserved';
import { serverSupport } from '../../lib/submit/admit/server-support';
import { adminHttp, clusterInfo, waitFor } from '../support/cluster';
import { JOB_CONFIG } from '../support/fixtures';

export interface Captured extends Output {
  out: string[];
  err: string[];
  data: JsonDocument[];
  progressLines: string[];
}

export function capture(json = false): Captured {
  const out: string[] = [];
  const err: string[] = [];
  const data: JsonDocument[] = [];
  const progressLines: string[] = [];
  return {
    json,
    out,
    err,
    data,
    progressLines,
    result: (d, lines) => {
      data.push(d);
      if (!json) out.push(...lines);
    },
    line: (t) => {
      if (!json) out.push(t);
    },
    warn: (t) => err.push(`warning: ${t}`),
    error: (t) => err.push(t),
    progress: (t) => {
      if (t) progressLines.push(t);
    },
  };
}

export interface RunResult {
  code: number;
  out: string[];
  err: string[];
  data: JsonDocument[];
  progress: string[];
  /** The value of a "Key: value" line of stdout. */
  value(key: string): string | undefined;
}

export async function run(argv: string[], opts: { json?: boolean } = {}): Promise<RunResult> {
  const o = capture(opts.json);
  const code = await main(argv, o);
  return {
    code,
    out: o.out,
    err: o.err,
    data: o.data,
    progress: o.progressLines,
    value: (key) => o.out.find((l) => l.startsWith(`${key}: `))?.slice(key.length + 2),
  };
}

/**
 * What `submit` of an application without HA prints on stderr against the running control plane:
 * nothing on the newest Kubernetes; on the oldest (tier cluster-oldest) the server-version warning
 * (lib/submit/admit/server-support.ts; test/cluster/cli-server-version.test.ts proves what it says).
 */
export function submitWarnings(): string[] {
  const version = parseServerVersion({ gitVersion: clusterInfo().kubernetesVersion });
  return serverSupport(version, { highAvailability: false, admissionFence: true }).warnings.map((w) => `warning: ${w}`);
}

const tmpDirs: string[] = [];
if (typeof afterAll === 'function') {
  afterAll(() => {
    for (const d of tmpDirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
  });
}

/** A temporary directory, removed after the test file. */
export function tmpDir(prefix = 'st-cli-'): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  tmpDirs.push(d);
  return d;
}

/**
 * A deployment file (HOCON) and a job file in a fresh directory. `kubeconfig` (default: the
 * harness's admin kubeconfig; null: none, so KUBECONFIG applies) goes into kubernetes.kubeconfig.
 */
export function deploymentFiles(
  namespace: string,
  extraHocon = '',
  opts: { kubeconfig?: string | null; name?: string } = {},
): { dir: string; deploy: string; job: string; args: string[] } {
  const dir = tmpDir();
  const kubeconfig = opts.kubeconfig === undefined ? clusterInfo().kubeconfig : opts.kubeconfig;
  const deploy = path.join(dir, 'deploy.conf');
  fs.writeFileSync(
    deploy,
    [
      `application { name = ${opts.name ?? 'cli-test'} }`,
      `kubernetes {`,
      `  namespace = ${namespace}`,
      `  image = "apache/seatunnel:2.3.12"`,
      ...(kubeconfig ? [`  kubeconfig = ${JSON.stringify(kubeconfig)}`] : []),
      `}`,
      extraHocon,
    ].join('\n'),
  );
  const job = path.join(dir, 'job.conf');
  fs.writeFileSync(job, JOB_CONFIG);
  return { dir, deploy, job, args: ['-a', deploy, '-c', job] };
}

// ---- reading the cluster as admin ----

export const KINDS: ReadonlyArray<{ apiVersion: string; kind: string; resource: string }> = [
  { apiVersion: 'batch/v1', kind: 'Job', resource: 'jobs' },
  { apiVersion: 'v1', kind: 'Pod', resource: 'pods' },
  { apiVersion: 'v1', kind: 'Service', resource: 'services' },
  { apiVersion: 'v1', kind: 'ServiceAccount', resource: 'serviceaccounts' },
  { apiVersion: 'v1', kind: 'ConfigMap', resource: 'configmaps' },
  { apiVersion: 'v1', kind: 'Secret', resource: 'secrets' },
  { apiVersion: 'v1', kind: 'PodTemplate', resource: 'podtemplates' },
  { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', resource: 'roles' },
  { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', resource: 'rolebindings' },
  { apiVersion: 'networking.k8s.io/v1', kind: 'NetworkPolicy', resource: 'networkpolicies' },
  { apiVersion: 'apps/v1', kind: 'StatefulSet', resource: 'statefulsets' },
];

export function collection(apiVersion: string, resource: string, ns: string): string {
  return `${apiVersion.includes('/') ? `/apis/${apiVersion}` : `/api/${apiVersion}`}/namespaces/${ns}/${resource}`;
}

export interface Obj {
  apiVersion?: string;
  kind?: string;
  metadata: {
    name: string;
    namespace?: string;
    uid: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
    ownerReferences?: Array<{
      kind: string;
      name: string;
      uid: string;
      controller?: boolean;
      blockOwnerDeletion?: boolean;
    }>;
    deletionTimestamp?: string;
  };
  spec?: Record<string, unknown>;
  [k: string]: unknown;
}

/** Every object with the application's label, by kind ("Job/x", "Service/x", …). */
export async function labelled(ns: string, appId: string): Promise<Map<string, Obj>> {
  const out = new Map<string, Obj>();
  await Promise.all(
    KINDS.map(async (k) => {
      const list = await adminHttp().call<{ items: Obj[] }>(
        'GET',
        `${collection(k.apiVersion, k.resource, ns)}?labelSelector=${encodeURIComponent(`${LABELS.applicationId}=${appId}`)}`,
      );
      for (const o of list.items) out.set(`${k.kind}/${o.metadata.name}`, o);
    }),
  );
  return out;
}

export async function getObj(ns: string, kind: string, name: string): Promise<Obj | undefined> {
  const k = KINDS.find((x) => x.kind === kind) ?? { apiVersion: 'v1', kind, resource: `${kind.toLowerCase()}s` };
  const r = await adminHttp().request<Obj>('GET', `${collection(k.apiVersion, k.resource, ns)}/${name}`);
  if (r.status === 404) return undefined;
  if (r.status !== 200) throw new Error(`GET ${kind} ${ns}/${name}: HTTP ${r.status} ${r.text}`);
  return r.body;
}

export async function createObj<T extends { apiVersion: string; kind: string; metadata?: object }>(
  ns: string,
  obj: T,
): Promise<Obj> {
  const k = KINDS.find((x) => x.kind === obj.kind) ?? {
    apiVersion: obj.apiVersion,
    kind: obj.kind,
    resource: `${obj.kind.toLowerCase()}s`,
  };
  return adminHttp().call<Obj>('POST', collection(obj.apiVersion, k.resource, ns), obj);
}

/** A ServiceAccount `name` bound to a Role `name` with `rules` (RBAC takes effect a moment later). */
export async function serviceAccountWithRole(ns: string, name: string, rules: readonly PolicyRule[]): Promise<void> {
  await createObj(ns, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name } });
  await createObj(ns, { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name }, rules });
  await createObj(ns, {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'RoleBinding',
    metadata: { name },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name },
    subjects: [{ kind: 'ServiceAccount', name, namespace: ns }],
  });
}

/** Waits until no object with the application's label is left (other than `except` uids). */
export async function waitAllGone(
  ns: string,
  appId: string,
  except: readonly string[] = [],
  timeoutMs = 60_000,
): Promise<void> {
  await waitFor(
    async () => {
      const left = [...(await labelled(ns, appId))].filter(([, o]) => !except.includes(o.metadata.uid));
      return left.length === 0 ? true : undefined;
    },
    { description: `every object labelled ${LABELS.applicationId}=${appId} in ${ns} to be gone`, timeoutMs },
  ).catch(async (e) => {
    const left = [...(await labelled(ns, appId))]
      .filter(([, o]) => !except.includes(o.metadata.uid))
      .map(([k, o]) => `${k}${o.metadata.deletionTimestamp ? ' (deleting)' : ''}`);
    throw new Error(`${(e as Error).message}; left: ${left.join(', ')}`);
  });
}

// ---- fault-injecting proxy ----

export type FaultAction =
  /** Answer with `status` without forwarding: the request had no effect. */
  | 'status-before'
  /** Forward, then answer `status` instead of the real answer: it took effect, the client cannot know. */
  | 'status-after'
  /** Close the connection without forwarding. */
  | 'drop-before'
  /** Forward, then close the connection without answering. */
  | 'drop-after'
  /** Forward, then never answer (the client's deadline expires). */
  | 'hang-after'
  /** Forward, then hold the real answer for `delayMs` (a slow server or a long network path). */
  | 'delay-after';

export interface Fault {
  readonly method: string;
  /** Matched against the path without the query. */
  readonly path: RegExp;
  /** Which matching request fails first (1 = the first). Default 1. */
  readonly nth?: number;
  /** How many consecutive matching requests fail from the nth on. Default 1. */
  readonly times?: number;
  readonly action: FaultAction;
  readonly status?: number;
  /** Only requests whose query does not contain dryRun (default true). */
  readonly skipDryRun?: boolean;
  /** For delay-after: how long the answer is held. Default 300 ms. */
  readonly delayMs?: number;
}

export interface ProxyLogEntry {
  method: string;
  path: string;
  /** Upstream status (undefined when not forwarded). */
  upstream?: number;
  fault?: FaultAction;
  /** For a forwarded create that answered 201: the object created. */
  created?: { kind: string; name: string; uid: string };
  /** performance.now() when the whole request had arrived, and when its answer was sent. */
  receivedAt: number;
  answeredAt?: number;
}

/**
 * A plain-HTTP proxy on 127.0.0.1 in front of the API server. Clients authenticate with a bearer
 * token (forwarded as is); faults are injected on the n-th request matching method and path.
 */
export class FaultProxy {
  faults: Fault[] = [];
  readonly log: ProxyLogEntry[] = [];
  private counts = new Map<Fault, number>();
  private readonly sockets = new Set<Socket>();
  private readonly agent: https.Agent;

  private constructor(
    private readonly server: http.Server,
    readonly url: string,
  ) {
    this.agent = new https.Agent({ ca: clusterInfo().caData, keepAlive: true });
    server.on('connection', (s) => {
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
    });
    server.on('request', (req, res) => this.handle(req, res));
  }

  static async start(): Promise<FaultProxy> {
    const server = http.createServer();
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const port = (server.address() as AddressInfo).port;
    return new FaultProxy(server, `http://127.0.0.1:${port}`);
  }

  /** A kubeconfig file that goes through this proxy with `token` (default: the admin token). */
  kubeconfig(token = clusterInfo().adminToken): string {
    const file = path.join(tmpDir('st-cli-proxy-'), 'kubeconfig');
    fs.writeFileSync(
      file,
      [
        'apiVersion: v1',
        'kind: Config',
        'clusters:',
        `- name: proxy`,
        `  cluster: { server: "${this.url}" }`,
        'users:',
        `- name: u`,
        `  user: { token: "${token}" }`,
        'contexts:',
        `- name: c`,
        `  context: { cluster: proxy, user: u }`,
        'current-context: c',
        '',
      ].join('\n'),
    );
    return file;
  }

  inject(...faults: Fault[]): void {
    this.faults = faults;
    this.counts = new Map();
    this.log.length = 0;
  }

  /** Objects created through the proxy (201 answers from upstream), whatever the client was told. */
  created(): Array<{ kind: string; name: string; uid: string }> {
    return this.log.flatMap((l) => (l.created ? [l.created] : []));
  }

  private matchFault(method: string, pathname: string, query: string): Fault | undefined {
    for (const f of this.faults) {
      if (f.method !== method || !f.path.test(pathname)) continue;
      if ((f.skipDryRun ?? true) && /dryRun=/.test(query)) continue;
      const n = (this.counts.get(f) ?? 0) + 1;
      this.counts.set(f, n);
      const first = f.nth ?? 1;
      if (n >= first && n < first + (f.times ?? 1)) return f;
    }
    return undefined;
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const url = new URL(req.url ?? '/', 'http://x');
      const method = req.method ?? 'GET';
      const fault = this.matchFault(method, url.pathname, url.search);
      const entry: ProxyLogEntry = {
        method,
        path: url.pathname + url.search,
        ...(fault ? { fault: fault.action } : {}),
        receivedAt: performance.now(),
      };
      res.on('finish', () => (entry.answeredAt = performance.now()));
      this.log.push(entry);
      if (fault?.action === 'status-before') return this.answer(res, fault.status ?? 500, 'injected before forwarding');
      if (fault?.action === 'drop-before') return void req.socket.destroy();
      const upstream = new URL(clusterInfo().server);
      const headers = { ...req.headers, host: upstream.host };
      const up = https.request(
        { method, hostname: upstream.hostname, port: upstream.port, path: req.url, headers, agent: this.agent },
        (ures) => {
          const uchunks: Buffer[] = [];
          ures.on('data', (c: Buffer) => uchunks.push(c));
          ures.on('end', () => {
            const ubody = Buffer.concat(uchunks);
            entry.upstream = ures.statusCode;
            if (method === 'POST' && ures.statusCode === 201 && !/dryRun=/.test(url.search)) {
              try {
                const o = JSON.parse(ubody.toString('utf8')) as Obj;
                entry.created = { kind: o.kind ?? '?', name: o.metadata.name, uid: o.metadata.uid };
              } catch {
                /* not an object */
              }
            }
            if (fault?.action === 'status-after')
              return this.answer(res, fault.status ?? 500, 'injected after forwarding');
            if (fault?.action === 'drop-after') return void req.socket.destroy();
            if (fault?.action === 'hang-after') return; // never answered; closed when the client gives up
            const forward = () => {
              res.writeHead(ures.statusCode ?? 502, ures.headers);
              res.end(ubody);
            };
            if (fault?.action === 'delay-after') setTimeout(forward, fault.delayMs ?? 300);
            else forward();
          });
        },
      );
      up.on('error', (e) => this.answer(res, 502, `proxy: ${e.message}`));
      up.end(body);
    });
  }

  private answer(res: http.ServerResponse, status: number, message: string): void {
    const body = JSON.stringify({
      kind: 'Status',
      apiVersion: 'v1',
      status: 'Failure',
      message,
      reason: status >= 500 ? 'InternalError' : 'Injected',
      code: status,
    });
    res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
    res.end(body);
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    this.agent.destroy();
    await new Promise<void>((r) => this.server.close(() => r()));
  }
}

export const randomSuffix = (n = 6) => randomBytes(n).toString('hex');
