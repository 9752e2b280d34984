// A real Kubernetes control plane on 127.0.0.1, without containers: etcd, kube-apiserver,
// kube-controller-manager, kube-scheduler and kwok (fake nodes whose Pods become Running with a
// Pod IP), from the binaries tools/testbin/build.sh caches outside the repository.
//
//   const cp = await ControlPlane.start();   // ~15-30 s warm on 2 cores
//   cp.info                                   // JSON-serialisable connection info (ClusterInfo)
//   await cp.stop();                          // stops every process by PID, removes the temp dir
//
// Used by the Jest globalSetup (one control plane per test run) and by `npm run dev-cluster`.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { kubernetesRelease, resolveBinaries, type KubernetesRelease } from './binaries';
import type { KubeHttp } from '../../test/support/kube-http';
import { apiServerReady, createFakeNode, waitForNodesReady, type FakeNodeOptions } from './control-plane-objects';
import { Starter } from './control-plane-starter';
import type { ControlEndpoint } from './control-server';
import { ManagedProcess, tailFile } from './process';
import { waitFor } from './wait';
import { startWatchdog, type Watchdog } from './watchdog';

export {
  createFakeNode,
  DEFAULT_NODE,
  fakeNodeObject,
  kubeconfigYaml,
  POD_CIDR,
  schedulerConfigApiVersion,
  waitForNodesReady,
  type FakeNodeOptions,
  type Taint,
} from './control-plane-objects';

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

/** Components started again when they exit on their own (see ControlPlane.restartOnExit). */
const RESTARTED_ON_EXIT: readonly string[] = ['kube-scheduler', 'kube-controller-manager'];

export class ControlPlane {
  readonly info: ClusterInfo;
  /** Admin client for the harness's own calls. */
  readonly admin: KubeHttp;
  private readonly processes: ManagedProcess[];
  private readonly watchdog: Watchdog | undefined;
  private readonly keepDir: boolean;
  private stopped = false;
  private nodeCounter = 0;
  /** When each component was started again after exiting on its own (restartOnExit). */
  private readonly restarts = new Map<string, number[]>();

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
    for (const p of processes) if (RESTARTED_ON_EXIT.includes(p.name)) this.restartOnExit(p);
  }

  /**
   * Starts a component again when it exits on its own, as the kubelet does with a control plane's static
   * Pods. kube-scheduler exits by design when it finds its cache inconsistent ("Pod updated on a different
   * node than previously added to": seen on the node tier after an API server outage during which a
   * StatefulSet's Pod was made again); without this the cluster schedules nothing for the rest of the run.
   */
  private restartOnExit(p: ManagedProcess): void {
    void p.whenExited().then(async () => {
      if (this.stopped || p.isStopping) return;
      // At most 3 times in 10 minutes, as the nodes' daemons (real-node/README.md): then it stays down and
      // assertHealthy reports it with its log.
      const now = Date.now();
      const recent = (this.restarts.get(p.name) ?? []).filter((t) => now - t < 10 * 60_000);
      if (recent.length >= 3) {
        process.stderr.write(`[control-plane] ${p.name} ${p.exitDescription} a 4th time in 10 minutes; left down\n`);
        return;
      }
      this.restarts.set(p.name, [...recent, now]);
      process.stderr.write(
        `[control-plane] ${p.name} ${p.exitDescription} (not stopped by the harness); starting it again; last lines:\n${p.tail(10)}\n`,
      );
      await new Promise((r) => setTimeout(r, 1000));
      if (this.stopped) return;
      try {
        const fresh = await ManagedProcess.start(p.options);
        this.processes[this.processes.indexOf(p)] = fresh;
        const entry = this.info.components.find((c) => c.name === p.name);
        if (entry) entry.pid = fresh.pid;
        this.writeInfo();
        this.restartOnExit(fresh);
      } catch (e) {
        process.stderr.write(`[control-plane] ${p.name} could not be started again: ${(e as Error).message}\n`);
      }
    });
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
