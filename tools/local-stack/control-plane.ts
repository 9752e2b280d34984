// A real Kubernetes control plane on 127.0.0.1, without containers: etcd, kube-apiserver,
// kube-controller-manager, kube-scheduler and kwok (fake nodes whose Pods become Running with a
// Pod IP), from the binaries tools/testbin/build.sh caches outside the repository.
//
//   const cp = await ControlPlane.start();   // ~15-30 s warm on 2 cores
//   cp.info                                   // JSON-serialisable connection info (ClusterInfo)
//   await cp.stop();                          // stops every process by PID, removes the temp dir
//
// Used by the Jest globalSetup (one control plane per test run) and by `npm run dev-cluster`.
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as https from 'node:https';
import * as os from 'node:os';
import * as path from 'node:path';
import { kubernetesRelease, resolveBinaries, type KubernetesRelease, type TestBinaries } from './binaries';
import { KubeHttp, KubeHttpError } from '../../test/support/kube-http';
import { KWOK_NODE_ANNOTATION, KWOK_NODE_ANNOTATION_VALUE, writeKwokStages } from './kwok-stages';
import type { ControlEndpoint } from './control-server';
import { createPki, type Pki } from './pki';
import { freePorts } from './ports';
import { ManagedProcess, tailFile } from './process';
import { waitFor } from './wait';
import { startWatchdog, type Watchdog } from './watchdog';

/** Everything a test (or a person) needs to reach the control plane; written as JSON for Jest workers. */
export interface ClusterInfo {
  /** Format version of this object. */
  version: 1;
  /** Temporary directory holding PKI, kubeconfigs, etcd data and logs (removed at teardown). */
  dir: string;
  /** Admin kubeconfig (client certificate in group system:masters), self-contained. */
  kubeconfig: string;
  /** https://127.0.0.1:<port> */
  server: string;
  /** CA that signed the API server's serving certificate (PEM file and its contents). */
  caFile: string;
  caData: string;
  /** A static bearer token in group system:masters (for curl and raw HTTP tests). */
  adminToken: string;
  adminCertFile: string;
  adminKeyFile: string;
  /**
   * Serving certificate and key of the local kubelet's container-log endpoint (127.0.0.1, signed
   * by the CA the API server trusts for kubelets). Absent in info files of older harnesses.
   */
  kubeletCertFile?: string;
  kubeletKeyFile?: string;
  /** etcd client URL (HTTPS on 127.0.0.1; only a client certificate of etcd's own CA is accepted). */
  etcdUrl: string;
  /** The ServiceAccount token issuer (`iss` claim). */
  serviceAccountIssuer: string;
  logDir: string;
  pidFile: string;
  /** Names of the fake nodes created at startup. */
  nodes: string[];
  kubernetesVersion: string;
  components: Array<{ name: string; pid: number; logFile: string }>;
  /** PID of the process that owns the control plane (Jest's main process, or dev-cluster). */
  ownerPid: number;
  /** Endpoint of the owning process for restarts etc. (set by globalSetup and dev-cluster). */
  control?: ControlEndpoint;
}

export interface Taint {
  key: string;
  value?: string;
  effect: 'NoSchedule' | 'PreferNoSchedule' | 'NoExecute';
}

export interface FakeNodeOptions {
  /** Allocatable = capacity. Defaults: 32 CPU, 128Gi memory, 110 Pods. */
  cpu?: string;
  memory?: string;
  pods?: string;
  ephemeralStorage?: string;
  labels?: Record<string, string>;
  taints?: Taint[];
}

export interface ControlPlaneOptions {
  /** Fake nodes to create at startup: a count (default 3, named kwok-node-<i>) or explicit specs. */
  nodes?: number | Array<FakeNodeOptions & { name: string }>;
  /** Where the temporary directory is created (default: the OS temp dir). */
  baseDir?: string;
  /** Keep the temporary directory (logs, etcd data) after stop; also SEATUNNEL_TEST_KEEP=1. */
  keepDir?: boolean;
  /** Total time allowed for startup once the binaries exist (default 180 s). */
  startTimeoutMs?: number;
  /** Build missing binaries with tools/testbin/build.sh first (default true). */
  build?: boolean;
  /** Start the orphan watchdog (default true). */
  watchdog?: boolean;
  /** Progress lines (default: stderr). */
  log?: (line: string) => void;
  /**
   * The address Pods reach the API server at (a real node's relay, see real-node/): the API server
   * then advertises it on the default/kubernetes Service, kept by the lease endpoint reconciler.
   * Without it the Service has no endpoints (the fake nodes' Pods never dial it).
   */
  apiServerAdvertiseAddress?: string;
  /** Which Kubernetes to run (default: SEATUNNEL_TEST_KUBERNETES, else the newest; see binaries.ts). */
  kubernetes?: KubernetesRelease;
  /**
   * The controller manager gives each registered node a /24 of the Pod range (spec.podCIDR), as a
   * real cluster's does; real nodes build their Pod network from it. kwok's fake nodes do not need it.
   */
  allocateNodeCidrs?: boolean;
  /** Further kube-controller-manager flags (e.g. `--node-monitor-grace-period=20s`); none by default. */
  controllerManagerFlags?: string[];
}

export const DEFAULT_NODE: Required<Omit<FakeNodeOptions, 'labels' | 'taints'>> = {
  cpu: '32',
  memory: '128Gi',
  pods: '110',
  ephemeralStorage: '1Ti',
};

const SERVICE_CIDR = '10.96.0.0/16';
/** The Pod range: kwok's fake Pod IPs, and the real nodes' per-node /24s (allocateNodeCidrs). */
export const POD_CIDR = '10.244.0.0/16';

export function kubeconfigYaml(opts: {
  server: string;
  caData: string;
  user: string;
  certData?: string;
  keyData?: string;
  token?: string;
  namespace?: string;
}): string {
  const b64 = (s: string) => Buffer.from(s).toString('base64');
  const user: Record<string, string> = {};
  if (opts.certData) user['client-certificate-data'] = b64(opts.certData);
  if (opts.keyData) user['client-key-data'] = b64(opts.keyData);
  if (opts.token) user.token = opts.token;
  const doc = {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [
      { name: 'seatunnel-app-test', cluster: { server: opts.server, 'certificate-authority-data': b64(opts.caData) } },
    ],
    users: [{ name: opts.user, user }],
    contexts: [
      {
        name: opts.user,
        context: {
          cluster: 'seatunnel-app-test',
          user: opts.user,
          ...(opts.namespace ? { namespace: opts.namespace } : {}),
        },
      },
    ],
    'current-context': opts.user,
  };
  // JSON is valid YAML, and every kubeconfig loader accepts it.
  return JSON.stringify(doc, null, 2) + '\n';
}

/** The Node object the harness creates for a kwok-managed fake node. */
export function fakeNodeObject(name: string, opts: FakeNodeOptions = {}, internalIp?: string): Record<string, unknown> {
  const resources = {
    cpu: opts.cpu ?? DEFAULT_NODE.cpu,
    memory: opts.memory ?? DEFAULT_NODE.memory,
    pods: opts.pods ?? DEFAULT_NODE.pods,
    'ephemeral-storage': opts.ephemeralStorage ?? DEFAULT_NODE.ephemeralStorage,
  };
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name,
      annotations: { [KWOK_NODE_ANNOTATION]: KWOK_NODE_ANNOTATION_VALUE, 'node.alpha.kubernetes.io/ttl': '0' },
      labels: {
        'kubernetes.io/arch': 'amd64',
        'kubernetes.io/os': 'linux',
        'kubernetes.io/hostname': name,
        'node-role.kubernetes.io/agent': '',
        type: 'kwok',
        ...opts.labels,
      },
    },
    spec: { taints: opts.taints ?? [] },
    // kube-node creation keeps status (as the kubelet's registration does); kwok's node-initialize
    // stage keeps capacity/allocatable/addresses that are already set.
    status: {
      capacity: resources,
      allocatable: resources,
      ...(internalIp
        ? {
            addresses: [
              { type: 'InternalIP', address: internalIp },
              { type: 'Hostname', address: name },
            ],
          }
        : {}),
    },
  };
}

/** The newest KubeSchedulerConfiguration version a scheduler of this minor reads (v1 is GA from 1.25). */
export function schedulerConfigApiVersion(minor: number): string {
  return minor >= 25 ? 'kubescheduler.config.k8s.io/v1' : 'kubescheduler.config.k8s.io/v1beta3';
}

/** Resolves once /readyz answers 200; otherwise throws with the failing checks (`[-]` lines). */
async function apiServerReady(admin: KubeHttp): Promise<true> {
  const r = await admin.request('GET', '/readyz', undefined, { timeoutMs: 5000 });
  if (r.status !== 200)
    throw new Error(
      `HTTP ${r.status}: ${
        r.text
          .split('\n')
          .filter((l) => l.includes('[-]'))
          .join('; ') || r.text
      }`,
    );
  return true;
}

export class ControlPlane {
  readonly info: ClusterInfo;
  /** Admin client for the harness's own calls. */
  readonly admin: KubeHttp;
  private readonly processes: ManagedProcess[];
  private readonly watchdog: Watchdog | undefined;
  private readonly keepDir: boolean;
  private stopped = false;
  private nodeCounter = 0;

  private constructor(
    info: ClusterInfo,
    admin: KubeHttp,
    processes: ManagedProcess[],
    watchdog: Watchdog | undefined,
    keepDir: boolean,
  ) {
    this.info = info;
    this.admin = admin;
    this.processes = processes;
    this.watchdog = watchdog;
    this.keepDir = keepDir;
  }

  static async start(opts: ControlPlaneOptions = {}): Promise<ControlPlane> {
    const log = opts.log ?? ((l: string) => process.stderr.write(`[control-plane] ${l}\n`));
    const keepDir = opts.keepDir ?? process.env.SEATUNNEL_TEST_KEEP === '1';
    const bins = await resolveBinaries({ build: opts.build, log, kubernetes: opts.kubernetes ?? kubernetesRelease() });
    const t0 = Date.now();
    const dir = fs.mkdtempSync(path.join(opts.baseDir ?? os.tmpdir(), 'seatunnel-app-cp-'));
    const logDir = path.join(dir, 'logs');
    fs.mkdirSync(logDir);
    const pidFile = path.join(dir, 'pids');
    fs.writeFileSync(pidFile, '');
    const watchdog = opts.watchdog === false ? undefined : startWatchdog({ pidFile, dir, keepDir });
    const processes: ManagedProcess[] = [];
    const starter = new Starter(bins, dir, logDir, pidFile, processes, log, opts.startTimeoutMs ?? 180_000);
    try {
      const cp = await starter.run(opts, (info, admin) => new ControlPlane(info, admin, processes, watchdog, keepDir));
      log(`ready in ${((Date.now() - t0) / 1000).toFixed(1)} s (${cp.info.server}, dir ${dir})`);
      return cp;
    } catch (e) {
      const tails = processes
        .map((p) => `----- ${p.name} (${p.logFile}) ${p.exitDescription ?? 'running'} -----\n${p.tail(25)}`)
        .join('\n');
      await Promise.all(
        processes
          .slice()
          .reverse()
          .map((p) => p.stop(3000)),
      );
      watchdog?.stop();
      if (!keepDir) fs.rmSync(dir, { recursive: true, force: true });
      const err = e as Error;
      err.message = `control plane failed to start: ${err.message}\n${tails}\n${keepDir ? `(kept ${dir})` : `(${dir} was removed; SEATUNNEL_TEST_KEEP=1 keeps it)`}`;
      throw err;
    }
  }

  /** Path of the JSON file with `info` (what SEATUNNEL_TEST_CLUSTER points at). */
  get infoFile(): string {
    return path.join(this.info.dir, 'cluster.json');
  }

  /** (Re)writes `info` to infoFile, e.g. after setting info.control. */
  writeInfo(): string {
    fs.writeFileSync(this.infoFile, JSON.stringify(this.info, null, 2), { mode: 0o600 });
    return this.infoFile;
  }

  get processList(): ReadonlyArray<ManagedProcess> {
    return this.processes;
  }

  /** Throws with the log tail if a component has died (one stopped on purpose, e.g. by stopApiServer, has not). */
  assertHealthy(): void {
    for (const p of this.processes) if (!p.isStopping) p.assertRunning();
  }

  /** Resident memory per component, in bytes. */
  memory(): Record<string, number> {
    return Object.fromEntries(this.processes.map((p) => [p.name, p.rss()]));
  }

  /** The last lines of every component's log, for failure reports. */
  logTails(lines = 30): string {
    return componentLogTails(this.info, lines);
  }

  /**
   * Stops the API server (SIGTERM) and starts it again with the same flags and port, then waits
   * for /readyz. Its watch cache starts over at the current resourceVersion, so every older
   * resourceVersion is expired afterwards (watches from it get 410 Gone) - as after a real
   * API server restart or upgrade. Other components reconnect by themselves.
   */
  async restartApiServer(timeoutMs = 120_000): Promise<void> {
    await this.stopApiServer('graceful');
    await this.startApiServer(timeoutMs);
  }

  /**
   * Takes only the API server away; etcd, the controllers, the scheduler (and a real node's relays)
   * stay and reconnect once startApiServer brings it back on the same address, port and
   * certificates. `kill` (the default) is an outage: SIGKILL, nothing is cleaned up, the
   * default/kubernetes endpoints stay as they were. `graceful` is an upgrade's restart: SIGTERM,
   * SIGKILL after 3 s (with clients connected it would wait > 15 s for long requests to drain).
   */
  async stopApiServer(mode: 'kill' | 'graceful' = 'kill'): Promise<void> {
    const old = this.apiServerProcess();
    if (mode === 'kill') await old.kill();
    else await old.stop(3000);
  }

  /** Starts the API server stopped by stopApiServer again and waits for /readyz. */
  async startApiServer(timeoutMs = 120_000): Promise<void> {
    const old = this.apiServerProcess();
    if (old.running) throw new Error('startApiServer: kube-apiserver is running (stopApiServer first)');
    const fresh = await ManagedProcess.start(old.options);
    this.processes[this.processes.indexOf(old)] = fresh;
    const entry = this.info.components.find((c) => c.name === 'kube-apiserver');
    if (entry) entry.pid = fresh.pid;
    this.writeInfo();
    await waitFor(() => apiServerReady(this.admin), {
      description: 'kube-apiserver /readyz after its start',
      timeoutMs,
      guard: () => this.assertHealthy(),
    });
  }

  private apiServerProcess(): ManagedProcess {
    const p = this.processes.find((c) => c.name === 'kube-apiserver');
    if (!p) throw new Error('no kube-apiserver process');
    return p;
  }

  /** Creates another kwok-managed fake node and waits until it is Ready. */
  async addNode(name: string, opts: FakeNodeOptions = {}): Promise<void> {
    await createFakeNode(this.admin, name, opts, `10.255.1.${(this.nodeCounter++ % 250) + 1}`);
    await waitForNodesReady(this.admin, [name], 60_000, () => this.assertHealthy());
  }

  /** Stops kwok, scheduler and controller manager, then the API server, then etcd; removes the dir. */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    this.admin.close();
    const byName = (n: string) => this.processes.filter((p) => p.name === n);
    await Promise.all(
      [...byName('kwok'), ...byName('kube-scheduler'), ...byName('kube-controller-manager')].map((p) => p.stop(5000)),
    );
    await Promise.all(byName('kube-apiserver').map((p) => p.stop(10_000)));
    await Promise.all(this.processes.map((p) => p.stop(10_000)));
    this.watchdog?.stop();
    if (!this.keepDir) fs.rmSync(this.info.dir, { recursive: true, force: true });
  }
}

/** Last lines of each component log named in `info` (works in any process that has the info). */
export function componentLogTails(info: ClusterInfo, lines = 30): string {
  return info.components.map((c) => `----- ${c.name} (${c.logFile}) -----\n${tailFile(c.logFile, lines)}`).join('\n');
}

export async function createFakeNode(
  admin: KubeHttp,
  name: string,
  opts: FakeNodeOptions = {},
  internalIp?: string,
): Promise<void> {
  await admin.call('POST', '/api/v1/nodes', fakeNodeObject(name, opts, internalIp));
}

export async function waitForNodesReady(
  admin: KubeHttp,
  names: string[],
  timeoutMs: number,
  guard?: () => void,
): Promise<void> {
  await waitFor(
    async () => {
      const list = await admin.call<{
        items: Array<{ metadata: { name: string }; status?: { conditions?: Array<{ type: string; status: string }> } }>;
      }>('GET', '/api/v1/nodes');
      const ready = new Set(
        list.items
          .filter((n) => n.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True'))
          .map((n) => n.metadata.name),
      );
      const missing = names.filter((n) => !ready.has(n));
      if (missing.length > 0) throw new Error(`not Ready yet: ${missing.join(', ')}`);
      return true;
    },
    {
      description: `nodes ${names.join(', ')} to become Ready (kwok node-initialize stage)`,
      timeoutMs,
      guard,
      intervalMs: 300,
    },
  );
}

function httpGet(
  url: string,
  tls?: { ca: string; cert: string; key: string },
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const get = url.startsWith('https:') ? https.get : http.get;
    const req = get(url, { ...(tls ?? {}) }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.setTimeout(5000, () => req.destroy(new Error(`GET ${url}: no response within 5 s`)));
    req.on('error', reject);
  });
}

/** One startup; split out of ControlPlane so the failure path can see what was started. */
class Starter {
  private readonly deadline: number;

  constructor(
    private readonly bins: TestBinaries,
    private readonly dir: string,
    private readonly logDir: string,
    private readonly pidFile: string,
    private readonly processes: ManagedProcess[],
    private readonly log: (line: string) => void,
    timeoutMs: number,
  ) {
    this.deadline = Date.now() + timeoutMs;
  }

  private remaining(): number {
    return Math.max(1000, this.deadline - Date.now());
  }

  private guard = () => {
    for (const p of this.processes) p.assertRunning();
  };

  private async spawn(name: string, command: string, args: string[], env?: NodeJS.ProcessEnv): Promise<ManagedProcess> {
    const p = await ManagedProcess.start({
      name,
      command,
      args,
      env: env ?? process.env,
      cwd: this.dir,
      logFile: path.join(this.logDir, `${name}.log`),
      pidFile: this.pidFile,
    });
    this.processes.push(p);
    return p;
  }

  private file(name: string, content: string, mode = 0o600): string {
    const f = path.join(this.dir, name);
    fs.writeFileSync(f, content, { mode });
    return f;
  }

  async run(
    opts: ControlPlaneOptions,
    make: (info: ClusterInfo, admin: KubeHttp) => ControlPlane,
  ): Promise<ControlPlane> {
    const { bins, dir } = this;
    const [etcdPort, etcdPeerPort, apiPort, kcmPort, schedPort] = await freePorts(5);
    this.log('creating PKI');
    // Clients dial the advertised address too (a real node's kubelets, through its relay).
    const advertised = opts.apiServerAdvertiseAddress ? [`IP:${opts.apiServerAdvertiseAddress}`] : [];
    const pki: Pki = await createPki(path.join(dir, 'pki'), advertised);
    const read = (f: string) => fs.readFileSync(f, 'utf8');
    const caData = read(pki.caCert);
    const server = `https://127.0.0.1:${apiPort}`;
    const adminToken = randomBytes(24).toString('hex');
    const tokenFile = this.file(
      'tokens.csv',
      `${adminToken},seatunnel-app-test-admin-token,admin-token,"system:masters"\n`,
    );
    const kubeconfigFor = (name: 'admin' | 'kube-controller-manager' | 'kube-scheduler') =>
      this.file(
        `${name}.kubeconfig`,
        kubeconfigYaml({
          server,
          caData,
          user: name,
          certData: read(pki.clients[name].cert),
          keyData: read(pki.clients[name].key),
        }),
      );
    const adminKubeconfig = kubeconfigFor('admin');
    const kcmKubeconfig = kubeconfigFor('kube-controller-manager');
    const schedKubeconfig = kubeconfigFor('kube-scheduler');

    // etcd: TLS with client certificates of its own CA, which only the API server holds; plain
    // HTTP on 127.0.0.1 would let any local user read every Secret (and, with the local kubelet,
    // run code as this stack's user).
    const etcdUrl = `https://127.0.0.1:${etcdPort}`;
    const peerUrl = `https://127.0.0.1:${etcdPeerPort}`;
    const etcdTls = pki.etcd;
    this.log(`starting etcd on ${etcdUrl}`);
    await this.spawn('etcd', bins.etcd, [
      '--name=seatunnel-app-test',
      `--data-dir=${path.join(dir, 'etcd')}`,
      `--listen-client-urls=${etcdUrl}`,
      `--advertise-client-urls=${etcdUrl}`,
      `--listen-peer-urls=${peerUrl}`,
      `--initial-advertise-peer-urls=${peerUrl}`,
      `--initial-cluster=seatunnel-app-test=${peerUrl}`,
      '--initial-cluster-state=new',
      `--cert-file=${etcdTls.serverCert}`,
      `--key-file=${etcdTls.serverKey}`,
      `--trusted-ca-file=${etcdTls.caCert}`,
      '--client-cert-auth=true',
      `--peer-cert-file=${etcdTls.serverCert}`,
      `--peer-key-file=${etcdTls.serverKey}`,
      `--peer-trusted-ca-file=${etcdTls.caCert}`,
      '--peer-client-cert-auth=true',
      '--unsafe-no-fsync=true',
      '--log-level=warn',
    ]);
    const etcdClientTls = {
      ca: read(etcdTls.caCert),
      cert: read(etcdTls.clientCert),
      key: read(etcdTls.clientKey),
    };
    await waitFor(
      async () => {
        const r = await httpGet(`${etcdUrl}/health`, etcdClientTls);
        if (r.status !== 200 || !r.text.includes('"true"')) throw new Error(`HTTP ${r.status} ${r.text}`);
        return true;
      },
      {
        description: `etcd ${etcdUrl}/health`,
        timeoutMs: Math.min(60_000, this.remaining()),
        guard: this.guard,
        intervalMs: 100,
      },
    );

    // kube-apiserver
    this.log(`starting kube-apiserver on ${server}`);
    await this.spawn('kube-apiserver', bins.kubeApiserver, [
      `--etcd-servers=${etcdUrl}`,
      `--etcd-cafile=${etcdTls.caCert}`,
      `--etcd-certfile=${etcdTls.clientCert}`,
      `--etcd-keyfile=${etcdTls.clientKey}`,
      '--bind-address=127.0.0.1',
      `--advertise-address=${opts.apiServerAdvertiseAddress ?? '127.0.0.1'}`,
      `--secure-port=${apiPort}`,
      `--cert-dir=${path.join(dir, 'apiserver-certs')}`,
      `--tls-cert-file=${pki.servingCert}`,
      `--tls-private-key-file=${pki.servingKey}`,
      `--client-ca-file=${pki.caCert}`,
      // Published in kube-system/extension-apiserver-authentication; without it the controller
      // manager and scheduler log "missing content for CA bundle" errors forever.
      `--requestheader-client-ca-file=${pki.frontProxyCaCert}`,
      '--requestheader-allowed-names=front-proxy-client',
      '--requestheader-username-headers=X-Remote-User',
      '--requestheader-group-headers=X-Remote-Group',
      '--requestheader-extra-headers-prefix=X-Remote-Extra-',
      `--token-auth-file=${tokenFile}`,
      '--authorization-mode=Node,RBAC',
      `--service-account-issuer=${server}`,
      `--service-account-key-file=${pki.saPub}`,
      `--service-account-signing-key-file=${pki.saKey}`,
      `--service-cluster-ip-range=${SERVICE_CIDR}`,
      '--allow-privileged=true',
      '--profiling=false',
      // Pod logs, exec and port-forward go to the node's kubelet: the local kubelet serves logs
      // (kubelet-log-server.ts) on 127.0.0.1 with a certificate of our CA, and its nodes advertise
      // InternalIP 127.0.0.1 (the default order tries Hostname first, which nothing resolves).
      `--kubelet-certificate-authority=${pki.caCert}`,
      `--kubelet-client-certificate=${pki.clients['kube-apiserver-kubelet-client'].cert}`,
      `--kubelet-client-key=${pki.clients['kube-apiserver-kubelet-client'].key}`,
      '--kubelet-preferred-address-types=InternalIP,Hostname',
      // The default/kubernetes Service must not advertise 127.0.0.1 (Endpoints reject loopback
      // addresses) and nothing in the fake cluster dials it; a real node's Pods do.
      `--endpoint-reconciler-type=${opts.apiServerAdvertiseAddress ? 'lease' : 'none'}`,
    ]);
    const admin = new KubeHttp({
      server,
      ca: caData,
      cert: read(pki.clients.admin.cert),
      key: read(pki.clients.admin.key),
    });
    await waitFor(() => apiServerReady(admin), {
      description: `kube-apiserver ${server}/readyz`,
      timeoutMs: Math.min(120_000, this.remaining()),
      guard: this.guard,
      intervalMs: 250,
    });
    const version = await admin.call<{ gitVersion: string; minor: string }>('GET', '/version');
    this.log(`kube-apiserver ${version.gitVersion} is ready`);

    // controller manager, scheduler and kwok, in parallel
    this.log('starting kube-controller-manager, kube-scheduler and kwok');
    const serving = [
      `--tls-cert-file=${pki.servingCert}`,
      `--tls-private-key-file=${pki.servingKey}`,
      '--bind-address=127.0.0.1',
    ];
    await this.spawn('kube-controller-manager', bins.kubeControllerManager, [
      `--kubeconfig=${kcmKubeconfig}`,
      `--authentication-kubeconfig=${kcmKubeconfig}`,
      `--authorization-kubeconfig=${kcmKubeconfig}`,
      `--secure-port=${kcmPort}`,
      ...serving,
      '--leader-elect=false',
      '--controllers=*',
      // Each controller runs as its own kube-system ServiceAccount with the bootstrap RBAC roles,
      // as in a kubeadm cluster (tokens via TokenRequest; no legacy token secrets).
      '--use-service-account-credentials=true',
      `--root-ca-file=${pki.caCert}`,
      `--cluster-signing-cert-file=${pki.caCert}`,
      `--cluster-signing-key-file=${pki.caKey}`,
      '--kube-api-qps=100',
      '--kube-api-burst=200',
      '--profiling=false',
      ...(opts.allocateNodeCidrs
        ? ['--allocate-node-cidrs=true', `--cluster-cidr=${POD_CIDR}`, '--node-cidr-mask-size=24']
        : []),
      ...(opts.controllerManagerFlags ?? []),
    ]);
    const schedConfig = this.file(
      'kube-scheduler.yaml',
      JSON.stringify({
        apiVersion: schedulerConfigApiVersion(Number.parseInt(version.minor, 10)),
        kind: 'KubeSchedulerConfiguration',
        clientConnection: { kubeconfig: schedKubeconfig, qps: 100, burst: 200 },
        leaderElection: { leaderElect: false },
      }),
    );
    await this.spawn('kube-scheduler', bins.kubeScheduler, [
      `--config=${schedConfig}`,
      `--authentication-kubeconfig=${schedKubeconfig}`,
      `--authorization-kubeconfig=${schedKubeconfig}`,
      `--secure-port=${schedPort}`,
      ...serving,
    ]);
    const kwokHome = path.join(dir, 'kwok-home');
    fs.mkdirSync(kwokHome);
    const stages = writeKwokStages(bins.kwokStages, path.join(dir, 'kwok-stages.yaml'));
    await this.spawn(
      'kwok',
      bins.kwok,
      [
        `--kubeconfig=${adminKubeconfig}`,
        `--config=${stages}`,
        '--manage-all-nodes=false',
        `--manage-nodes-with-annotation-selector=${KWOK_NODE_ANNOTATION}=${KWOK_NODE_ANNOTATION_VALUE}`,
        `--cidr=${POD_CIDR}`,
        '--node-ip=10.255.0.1',
        '--node-lease-duration-seconds=40',
      ],
      // kwok reads ~/.kwok/kwok.yaml first; a private HOME keeps a user's file out of the tests.
      { ...process.env, HOME: kwokHome },
    );

    // fake nodes
    const nodeSpecs =
      typeof opts.nodes === 'object'
        ? opts.nodes
        : Array.from({ length: opts.nodes ?? 3 }, (_, i): FakeNodeOptions & { name: string } => ({
            name: `kwok-node-${i}`,
          }));
    await Promise.all(nodeSpecs.map((n, i) => createFakeNode(admin, n.name, n, `10.255.0.${i + 2}`)));

    const healthz = async (port: number, name: string) => {
      const client = new KubeHttp({ server: `https://127.0.0.1:${port}`, ca: caData });
      try {
        await waitFor(
          async () => {
            const r = await client.request('GET', '/healthz', undefined, { timeoutMs: 5000 });
            if (r.status !== 200) throw new Error(`HTTP ${r.status}: ${r.text}`);
            return true;
          },
          {
            description: `${name} https://127.0.0.1:${port}/healthz`,
            timeoutMs: Math.min(90_000, this.remaining()),
            guard: this.guard,
          },
        );
      } finally {
        client.close();
      }
    };
    await Promise.all([
      healthz(kcmPort, 'kube-controller-manager'),
      healthz(schedPort, 'kube-scheduler'),
      waitForNodesReady(
        admin,
        nodeSpecs.map((n) => n.name),
        Math.min(90_000, this.remaining()),
        this.guard,
      ),
      // The ServiceAccount controller is running (Pods are rejected until their SA exists).
      waitFor(
        async () => {
          await admin.call('GET', '/api/v1/namespaces/default/serviceaccounts/default');
          return true;
        },
        {
          description: 'the default ServiceAccount in namespace default (serviceaccount-controller)',
          timeoutMs: Math.min(90_000, this.remaining()),
          guard: this.guard,
        },
      ).catch((e: unknown) => {
        throw e instanceof KubeHttpError ? new Error(e.message) : e;
      }),
    ]);

    const info: ClusterInfo = {
      version: 1,
      dir,
      kubeconfig: adminKubeconfig,
      server,
      caFile: pki.caCert,
      caData,
      adminToken,
      adminCertFile: pki.clients.admin.cert,
      adminKeyFile: pki.clients.admin.key,
      kubeletCertFile: pki.kubeletServingCert,
      kubeletKeyFile: pki.kubeletServingKey,
      etcdUrl,
      serviceAccountIssuer: server,
      logDir: this.logDir,
      pidFile: this.pidFile,
      nodes: nodeSpecs.map((n) => n.name),
      kubernetesVersion: version.gitVersion,
      components: this.processes.map((p) => ({ name: p.name, pid: p.pid, logFile: p.logFile })),
      ownerPid: process.pid,
    };
    const cp = make(info, admin);
    cp.writeInfo();
    return cp;
  }
}
