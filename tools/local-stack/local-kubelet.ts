// A local stand-in for the kubelet: it runs the containers of Pods that the scheduler bound to a
// kwok node as local processes — from each Pod's own command, environment and volumes — and
// reflects their lifecycle into the Pod's status, as a kubelet would. kwok leaves these Pods
// alone (lifecycle annotation "local"), so the master runs our real runtime and the workers
// run real Zeta processes, while everything else about the Pods is real Kubernetes.
//
// What a container sees, emulated:
//   - volumes (container-setup.ts): ConfigMap/Secret (whole or by item, and subPath mounts),
//     emptyDir, PVC (a local directory per claim), materialised under a per-Pod root; every
//     mountPath in the command, the args and the environment is rewritten to its local directory;
//   - images: a map from image name to local directories standing in for paths inside the image;
//   - environment: literals, downward API (metadata.name/namespace/uid, status.podIP), Secret and
//     ConfigMap keys, envFrom, the kubelet's $(VAR) and $$ expansion in env values, command and
//     args (kubelet-expansion.ts);
//   - API access: a kubeconfig with a TokenRequest token for the Pod's ServiceAccount (KUBECONFIG);
//   - network: each Pod gets its own loopback address (127.0.0.N) as its Pod IP, and JVMs are told
//     to bind to it, so several "Pods" can use the same ports and nothing listens beyond loopback;
//     a live Pod's address is its own (a released one goes to the back of the queue, so a
//     replacement Pod normally gets a new one). The Pod's status shows it as 10.245.0.N instead
//     (EndpointSlices cannot hold loopback addresses; see pod-addresses.ts), while the downward
//     API's status.podIP gives the process the loopback address it can bind;
//   - Services (with `hostsFile`, from service-network.ts): JVMs and Node.js processes resolve
//     names through the cluster DNS stand-in's hosts file (cluster-dns.ts), which points
//     ClusterIP Services at the userspace proxy (service-proxy.ts);
//   - probes (container-probes.ts): startup, readiness and liveness probes; readiness drives the
//     Ready condition (without a readinessProbe a running container is ready at once).
// Pods are started once scheduled; a process exit restarts the container in the same Pod under
// restartPolicy Always/OnFailure (container-status.ts), else becomes phase Succeeded/Failed with
// the exit code; a deleted Pod's processes get SIGTERM, then SIGKILL after the grace period.
// Container output is kept as a container runtime keeps it (CRI format) and, with `kubeletTls`,
// served to the API server for `GET …/pods/NAME/log` (kubelet-log-server.ts).

import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ContainerStateTerminated, Pod, PodStatus } from 'kubernetes-types/core/v1';
import { ContainerProber } from './container-probes';
import {
  type ContainerSetupOptions,
  materializeVolumes,
  type PreparedRun,
  prepareContainer,
  serviceAccountKubeconfig,
  type StoredPod,
} from './container-setup';
import {
  restartBackoffMs,
  runningPodStatus,
  shouldRestart,
  terminalPodStatus,
  terminatedState,
} from './container-status';
import { clusterPodIp, localAddressBlock } from './pod-addresses';
import { SyncLoop } from './sync-loop';
import { appendCriText, containerLogFile, CriLogWriter, KubeletLogServer, readCriText } from './kubelet-log-server';
import { KWOK_LIFECYCLE_ANNOTATION } from './kwok-stages';
import { processStartTime } from './process';

export interface LocalKubeletOptions extends ContainerSetupOptions {
  readonly namespace: string;
  /** Where Pod roots and logs go. */
  readonly dir: string;
  /** Loopback addresses to hand out as Pod IPs. @default 127.0.0.2 … 127.0.0.250 */
  readonly podIps?: readonly string[];
  /** PEM certificate, key and CA of the container-log endpoint (kubelet-log-server.ts); without them Pod logs are only on disk. */
  readonly kubeletTls?: { readonly cert: string; readonly key: string; readonly ca: string };
  /** Sync period. @default 150 ms */
  readonly periodMs?: number;
  readonly log?: (line: string) => void;
  /**
   * A watchdog's PID file (watchdog.ts): each container process gets a line, so that the processes
   * of a test process that died without stopping the kubelet are killed, not left running.
   */
  readonly pidFile?: string;
}

interface RunningPod {
  uid: string;
  name: string;
  ip: string;
  root: string;
  proc?: ChildProcess;
  exited?: { code: number | null; signal: NodeJS.Signals | null };
  terminating?: boolean;
  /** Its IP went back to the free list (the Pod is gone from the API and its process too). */
  released?: boolean;
  /** The main container's log (CRI format); init containers' logs are beside it. */
  logFile: string;
  writer?: CriLogWriter;
  /** The main container as prepared, for restarts. */
  run?: PreparedRun;
  restartCount: number;
  started: boolean;
  ready: boolean;
  startedAt?: string;
  waiting?: { reason: string; message?: string };
  lastTerminated?: ContainerStateTerminated;
  prober?: ContainerProber;
  /** Status patches in order (a probe and an exit may report at once). */
  reporting: Promise<void>;
  /** The last status this kubelet wrote (for conditions' transition times). */
  lastStatus?: PodStatus;
}

const lifecycleOf = (pod: Pod): string | undefined => pod.metadata?.annotations?.[KWOK_LIFECYCLE_ANNOTATION];

export class LocalKubelet {
  private readonly pods = new Map<string, RunningPod>();
  private readonly freeIps: string[];
  private readonly loop: SyncLoop;
  /** Set by stop(): exits then restart nothing. */
  private stopped = false;
  private readonly logServer?: KubeletLogServer;
  /** Errors met while starting Pods (shown by tests on failure). */
  readonly errors: string[] = [];

  constructor(private readonly opts: LocalKubeletOptions) {
    this.freeIps = [...(opts.podIps ?? localAddressBlock(0))];
    fs.mkdirSync(opts.dir, { recursive: true });
    if (opts.kubeletTls)
      this.logServer = new KubeletLogServer({
        ...opts.kubeletTls,
        find: (ns, pod, container) => this.containerLog(ns, pod, container),
      });
    this.loop = new SyncLoop(
      () => this.sync(),
      opts.periodMs ?? 150,
      (l) => this.note(l),
    );
  }

  start(): this {
    this.loop.start();
    return this;
  }

  /** Stops every process (SIGTERM, then SIGKILL) and the sync loop. */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.loop.stop();
    for (const p of this.pods.values()) p.prober?.stop();
    await Promise.all([...this.pods.values()].map((p) => this.kill(p, 5)));
    await this.logServer?.close();
  }

  /** The output of a Pod started by this kubelet: its init containers', then its main container's. */
  logOf(podName: string): string {
    const p = this.byName(podName);
    if (!p) return '';
    const dir = path.dirname(path.dirname(p.logFile));
    const inits = fs.existsSync(dir) ? fs.readdirSync(dir).filter((c) => path.join(dir, c, '0.log') !== p.logFile) : [];
    return [...inits.map((c) => readCriText(path.join(dir, c, '0.log'))), readCriText(p.logFile)].join('');
  }

  /** For the log server: the newest Pod of that name (a replacement may reuse it) and its container's log. */
  private containerLog(namespace: string, podName: string, container: string) {
    const p = this.byName(podName);
    if (!p || namespace !== this.opts.namespace) return undefined;
    const file = containerLogFile(p.root, container);
    const main = file === p.logFile;
    if (!main && !fs.existsSync(file)) return undefined;
    // Init containers ran to the end before the main one started; it has ended once its output is all written.
    return { file, ended: () => !main || !p.proc || (p.exited !== undefined && (p.writer?.done ?? true)) };
  }

  /** The loopback address a Pod's process has (its status shows clusterPodIp of it). */
  localAddressOf(podName: string): string | undefined {
    return this.byName(podName)?.ip;
  }

  /** When the newest Pod of that name had its main process started (ms since the epoch), if it runs. */
  processStartedAt(podName: string): number | undefined {
    const at = this.byName(podName)?.startedAt;
    return at === undefined ? undefined : Date.parse(at);
  }

  /** Names of every Pod this kubelet started. */
  podNames(): string[] {
    return [...this.pods.values()].map((p) => p.name);
  }

  /** Names of the Pods whose processes are alive. */
  running(): string[] {
    return [...this.pods.values()].filter((p) => p.proc && !p.exited).map((p) => p.name);
  }

  /** Sends a signal to a Pod's process (e.g. SIGKILL to simulate a crash). */
  signal(podName: string, signal: NodeJS.Signals): boolean {
    const p = this.byName(podName);
    if (!p?.proc?.pid || p.exited) return false;
    process.kill(-p.proc.pid, signal);
    return true;
  }

  /** The newest Pod of that name (a StatefulSet's replacement Pod has its predecessor's name). */
  private byName(podName: string): RunningPod | undefined {
    return [...this.pods.values()].reverse().find((x) => x.name === podName);
  }

  private note(line: string): void {
    this.errors.push(line);
    this.opts.log?.(`[local-kubelet] ${line}`);
  }

  private async sync(): Promise<void> {
    const ns = encodeURIComponent(this.opts.namespace);
    const list = await this.opts.admin.call<{ items: StoredPod[] }>('GET', `/api/v1/namespaces/${ns}/pods`);
    const seen = new Set<string>();
    for (const pod of list.items) {
      if (lifecycleOf(pod) !== 'local' || !pod.spec?.nodeName) continue;
      const uid = pod.metadata.uid;
      seen.add(uid);
      const known = this.pods.get(uid);
      if (!known) {
        if (!pod.metadata.deletionTimestamp && !['Succeeded', 'Failed'].includes(pod.status?.phase ?? ''))
          await this.startPod(pod);
        continue;
      }
      if (pod.metadata.deletionTimestamp && !known.terminating) {
        known.terminating = true;
        known.prober?.stop();
        // As a kubelet does (1.27+): the deleted Pod reaches a terminal phase with its container's
        // exit code before it is removed, so that e.g. the Job controller's podFailurePolicy sees it.
        void this.kill(known, pod.spec.terminationGracePeriodSeconds ?? 30)
          .then(() =>
            known.exited
              ? this.reportExit(pod, pod.spec.containers[0].name, known.exited.code, known.exited.signal)
              : undefined,
          )
          .catch((e) => this.note(`${known.name}: status: ${(e as Error).message}`))
          .then(() => this.finalizeDelete(pod));
      }
    }
    // Gone from the API (deleted with grace 0, or by kwok): stop what still runs.
    for (const p of this.pods.values()) {
      if (!seen.has(p.uid) && !p.terminating) {
        p.terminating = true;
        p.prober?.stop();
        void this.kill(p, 30);
      }
      // Gone and stopped: its address may serve a later Pod (after every other free one).
      if (!seen.has(p.uid) && (!p.proc || p.exited) && !p.released) {
        p.released = true;
        this.freeIps.push(p.ip);
      }
    }
  }

  private async finalizeDelete(pod: StoredPod): Promise<void> {
    const path = `/api/v1/namespaces/${encodeURIComponent(pod.metadata.namespace)}/pods/${encodeURIComponent(pod.metadata.name)}`;
    await this.opts.admin.request('DELETE', path, {
      apiVersion: 'v1',
      kind: 'DeleteOptions',
      gracePeriodSeconds: 0,
      preconditions: { uid: pod.metadata.uid },
    });
  }

  private kill(p: RunningPod, graceSeconds: number): Promise<void> {
    const proc = p.proc;
    if (!proc?.pid || p.exited) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(hard);
        resolve();
      };
      proc.once('exit', done);
      try {
        process.kill(-proc.pid!, 'SIGTERM');
      } catch {
        done();
        return;
      }
      const hard = setTimeout(
        () => {
          try {
            process.kill(-proc.pid!, 'SIGKILL');
          } catch {
            /* already gone */
          }
        },
        Math.max(1, graceSeconds) * 1000,
      );
    });
  }

  private async startPod(pod: StoredPod): Promise<void> {
    const uid = pod.metadata.uid;
    const ip = this.freeIps.shift();
    if (!ip) throw new Error('no loopback address left for a Pod');
    const root = path.join(this.opts.dir, `${pod.metadata.name}-${uid.slice(0, 8)}`);
    const p: RunningPod = {
      uid,
      name: pod.metadata.name,
      ip,
      root,
      logFile: containerLogFile(root, pod.spec.containers[0].name),
      restartCount: 0,
      started: false,
      ready: false,
      reporting: Promise.resolve(),
    };
    this.pods.set(uid, p);
    fs.mkdirSync(root, { recursive: true });
    try {
      const volumes = await materializeVolumes(this.opts, pod, root);
      const sandbox = { root, volumes, ip, kubeconfig: await serviceAccountKubeconfig(this.opts, pod, root) };
      for (const init of pod.spec.initContainers ?? []) {
        const run = await prepareContainer(this.opts, pod, init, sandbox);
        const r = spawnSync(run.argv[0], run.argv.slice(1), { env: run.env, cwd: run.cwd, encoding: 'utf8' });
        appendCriText(containerLogFile(root, init.name), 'stdout', r.stdout ?? '');
        appendCriText(containerLogFile(root, init.name), 'stderr', r.stderr ?? '');
        if (r.status !== 0)
          throw new Error(`init container ${init.name} exited ${r.status}: ${r.stderr || r.error?.message}`);
      }
      p.run = await prepareContainer(this.opts, pod, pod.spec.containers[0], sandbox);
      this.launch(pod, p);
      if (this.logServer) await this.logServer.advertise(this.opts.admin, pod.spec.nodeName!);
      await p.reporting;
    } catch (e) {
      this.note(`${p.name}: ${(e as Error).message}`);
      await this.reportExit(pod, pod.spec.containers[0].name, 128, null, (e as Error).message).catch(() => undefined);
    }
  }

  /** Starts (or restarts) the main container's process and its probes. */
  private launch(pod: StoredPod, p: RunningPod): void {
    const run = p.run!;
    const main = pod.spec.containers[0];
    const proc = spawn(run.argv[0], run.argv.slice(1), {
      env: run.env,
      cwd: run.cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    if (this.opts.pidFile && proc.pid !== undefined)
      fs.appendFileSync(this.opts.pidFile, `${proc.pid} ${processStartTime(proc.pid) ?? '-'} ${p.name}\n`);
    // As a container runtime: each line with the time it arrived (the log endpoint's timestamps and sinceSeconds).
    p.writer = new CriLogWriter(p.logFile).capture(proc.stdout, 'stdout').capture(proc.stderr, 'stderr');
    p.proc = proc;
    p.exited = undefined;
    p.waiting = undefined;
    p.startedAt = new Date().toISOString();
    p.prober = new ContainerProber(
      main,
      { ip: p.ip, env: run.env, cwd: run.cwd, mapArgv: (argv) => argv.map(run.mapPath) },
      {
        changed: (state) => {
          Object.assign(p, state);
          this.report(pod, p);
        },
        kill: (reason, graceSeconds) => {
          this.note(`${p.name}: ${reason}; killing the container`);
          void this.kill(p, graceSeconds ?? pod.spec.terminationGracePeriodSeconds ?? 30);
        },
      },
    );
    Object.assign(p, p.prober.state);
    proc.on('error', (e) => this.note(`${p.name}: ${e.message}`));
    proc.on('exit', (code, signal) => {
      p.exited = { code, signal };
      p.prober?.stop();
      if (!p.terminating && !this.stopped) this.onExit(pod, p, code, signal);
    });
    p.prober.start();
    this.report(pod, p);
  }

  /** A container exit outside deletion: a restart in the same Pod, or the Pod's end. */
  private onExit(pod: StoredPod, p: RunningPod, code: number | null, signal: NodeJS.Signals | null): void {
    const last = terminatedState(code, signal, p.startedAt, new Date().toISOString());
    if (!shouldRestart(pod.spec.restartPolicy, last.exitCode)) {
      p.reporting = p.reporting
        .then(() => this.reportExit(pod, pod.spec.containers[0].name, code, signal))
        .catch((e) => this.note(`${p.name}: status: ${(e as Error).message}`));
      return;
    }
    Object.assign(p, {
      lastTerminated: last,
      startedAt: undefined,
      started: false,
      ready: false,
      waiting: { reason: 'CrashLoopBackOff' },
    });
    this.report(pod, p);
    setTimeout(() => {
      if (p.terminating || this.stopped) return;
      p.restartCount++;
      this.launch(pod, p);
    }, restartBackoffMs(p.restartCount));
  }

  /** Queues a status patch with the container's current state. */
  private report(pod: StoredPod, p: RunningPod): void {
    p.reporting = p.reporting
      .then(async () => {
        if (p.terminating) return;
        const now = new Date().toISOString();
        const image = pod.spec.containers[0].image ?? '';
        const status = runningPodStatus(
          { ...p, name: pod.spec.containers[0].name, image },
          clusterPodIp(p.ip),
          now,
          p.lastStatus,
        );
        await this.patchStatus(pod, status);
        p.lastStatus = status;
      })
      .catch((e) => this.note(`${p.name}: status: ${(e as Error).message}`));
  }

  private async reportExit(
    pod: StoredPod,
    container: string,
    code: number | null,
    signal: NodeJS.Signals | null,
    message?: string,
  ): Promise<void> {
    const now = new Date().toISOString();
    const terminated = terminatedState(code, signal, undefined, now, message);
    const restartCount = this.pods.get(pod.metadata.uid)?.restartCount ?? 0;
    const image = pod.spec.containers[0].image ?? '';
    await this.patchStatus(pod, terminalPodStatus({ name: container, image, restartCount }, terminated, now));
  }

  private async patchStatus(pod: StoredPod, status: PodStatus): Promise<void> {
    // The uid in the patch is a precondition (409 otherwise), as in a kubelet's status manager: a Pod
    // deleted at once and created again under its name (a restarted worker) must not be given its
    // predecessor's exit.
    await this.opts.admin.call(
      'PATCH',
      `/api/v1/namespaces/${encodeURIComponent(pod.metadata.namespace)}/pods/${encodeURIComponent(pod.metadata.name)}/status`,
      { metadata: { uid: pod.metadata.uid }, status },
      { contentType: 'application/merge-patch+json', accept: [404, 409] },
    );
  }
}
