// One real node of a NodeCluster: its daemons (containerd, kubelet, kube-proxy, kube-router) in its
// own network namespace, and the faults a test can inflict on it. The same directories serve every
// start, so a node stopped like a machine losing power comes back with its images, its kubelet's
// state and its Pods' volumes, and rejoins as the same Node.
//
//   stop()     power loss: SIGKILL of every process of the node at once (node-processes.ts), and
//              its links go silent (partition.ts) as a dead machine's do
//   restart()  the same node started again; resolves when it is Ready with a fresh heartbeat
//   freeze()   SIGSTOP of every process of the node (daemons and containers); thaw() SIGCONT
//   cutOff()   every packet through its links dropped both ways; heal() lifts it
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { kubeconfigYaml, type ControlPlane } from '../control-plane';
import type { NodeBinaries } from '../node-binaries';
import { importImages, type NodeImage } from '../node-images';
import { ManagedProcess } from '../process';
import { waitFor } from '../wait';
import { createCgroupRoot } from './cgroups';
import { FABRIC_IF } from './fabric';
import { inNamespace, type NamespacePlan } from './network-namespace';
import {
  BRIDGE,
  cniConfList,
  containerdConfig,
  containerdPaths,
  kubeletArgs,
  kubeletConfig,
  kubeProxyConfig,
  kubeRouterArgs,
  nodePaths,
  resolvConf,
  type NodeLayout,
} from './node-config';
import { httpOk, nodeCondition, type NodeObject } from './node-status';
import { freezeNode, killNode, thawNode, type NodeScope } from './node-processes';
import { cutOffRules, healCommands, runWithInput } from './partition';

/** What tests need to know about one node (an entry of ClusterInfo.node). */
export interface NodeInfo {
  name: string;
  /** 1-based position in the cluster. */
  index: number;
  /** Its topology.kubernetes.io/zone label. */
  zone: string;
  address: string;
  netns: string;
  /** Its spec.podCIDR. */
  podCidr: string;
  containerdSocket: string;
  cgroupRoot: string;
  ctr: string;
  /** kubectl of the same Kubernetes version (tools/node/build.sh). */
  kubectl: string;
  images: Array<{ name: string; ref: string }>;
  dir: string;
}

/** The faults of one node; the same on a RealNode and through the control endpoint (node-control.ts). */
export interface NodeFaults {
  stop(): Promise<void>;
  restart(): Promise<void>;
  freeze(): Promise<void>;
  thaw(): Promise<void>;
  cutOff(): Promise<void>;
  heal(): Promise<void>;
}

/** What every node of a cluster shares. */
export interface NodeContext {
  cp: ControlPlane;
  bins: NodeBinaries;
  images: NodeImage[];
  log: (line: string) => void;
  /** Admin credentials with the fabric relay as server (kube-proxy, kube-router). */
  fabricKubeconfig: string;
  /** The node's own credentials are issued for this server URL (the fabric relay). */
  apiServer: string;
  /** Called when the node's Pod subnet is first known or has changed (the cluster re-routes). */
  podCidrChanged: (node: RealNode) => Promise<void>;
}

/** How often a node daemon that dies by itself is restarted (per RESTART_WINDOW_MS) before it is left down. */
const RESTART_BUDGET = 3;
const RESTART_WINDOW_MS = 10 * 60_000;

export class RealNode implements NodeFaults {
  private processes: ManagedProcess[] = [];
  private state: 'running' | 'stopped' | 'frozen' = 'running';
  /** Set by the cluster's teardown: from then on nothing is restarted. */
  private retired = false;
  /** Daemons being started again after they died by themselves (see supervise). */
  private readonly restarting = new Set<string>();
  /** When each daemon died by itself, by name (the restart budget). */
  private readonly deaths = new Map<string, number[]>();
  private cut = false;
  /** spec.podCIDR, once the controller manager has allocated it. */
  podCidr: string | undefined;

  constructor(
    private readonly ctx: NodeContext,
    readonly index: number,
    readonly plan: NamespacePlan,
    readonly layout: NodeLayout,
  ) {}

  get name(): string {
    return this.layout.name;
  }

  get scope(): NodeScope {
    return {
      netns: this.plan.name,
      cgroupRoot: this.layout.cgroupRoot,
      containerdSocket: containerdPaths(this.layout).socket,
    };
  }

  get managedProcesses(): readonly ManagedProcess[] {
    return this.processes;
  }

  info(): NodeInfo {
    const { bins, images } = this.ctx;
    return {
      name: this.name,
      index: this.index,
      zone: this.layout.zone,
      address: this.layout.address,
      netns: this.plan.name,
      podCidr: this.podCidr ?? '',
      containerdSocket: containerdPaths(this.layout).socket,
      cgroupRoot: this.layout.cgroupRoot,
      ctr: bins.ctr,
      kubectl: bins.kubectl,
      images: images.map(({ name, ref }) => ({ name, ref })),
      dir: this.layout.dir,
    };
  }

  private guard = () => {
    for (const p of this.processes) if (this.watched(p)) p.assertRunning();
    this.ctx.cp.assertHealthy();
  };

  /** Whether `p` ending now would be a failure: not stopped on purpose, not being started again. */
  private watched(p: ManagedProcess): boolean {
    return !p.isStopping && !this.restarting.has(p.name);
  }

  /** The cluster is being torn down: a daemon that exits now stays down. */
  retire(): void {
    this.retired = true;
  }

  private async spawn(component: string, argv: string[]): Promise<ManagedProcess> {
    const { cp, bins } = this.ctx;
    const name = `${this.name}-${component}`;
    const p = await ManagedProcess.start({
      name,
      command: inNamespace(this.plan)[0],
      args: [...inNamespace(this.plan).slice(1), ...argv],
      env: { ...process.env, PATH: `${path.dirname(bins.containerd)}:${process.env.PATH ?? ''}` },
      cwd: this.layout.dir,
      logFile: path.join(cp.info.logDir, `${name}.log`),
      pidFile: cp.info.pidFile,
    });
    this.processes = [...this.processes.filter((o) => o.name !== name), p];
    cp.info.components = [
      ...cp.info.components.filter((c) => c.name !== name),
      { name, pid: p.pid, logFile: p.logFile },
    ];
    void p.whenExited().then(() => this.supervise(p, component, argv));
    return p;
  }

  /**
   * A node's daemon that dies by itself (not stopped by a fault or the teardown) is started again at
   * once, as systemd's Restart=always does on a real node — at most RESTART_BUDGET times in
   * RESTART_WINDOW_MS, after which it stays down and the guards report it. Each death is logged with
   * its exit and log tail, so one that a restart hides still leaves its cause behind.
   */
  private supervise(p: ManagedProcess, component: string, argv: string[]): void {
    if (p.isStopping || this.retired || this.state !== 'running') return;
    if (this.processes.find((o) => o.name === p.name) !== p) return; // replaced meanwhile
    const now = Date.now();
    const recent = [...(this.deaths.get(p.name) ?? []), now].filter((t) => now - t < RESTART_WINDOW_MS);
    this.deaths.set(p.name, recent);
    const cause = `${p.name} ${p.exitDescription} (not by a fault or the teardown); last lines of ${p.logFile}:\n${p.tail(20)}`;
    if (recent.length > RESTART_BUDGET) {
      this.ctx.log(`${cause}\n(not restarted: ${RESTART_BUDGET} restarts within ${RESTART_WINDOW_MS / 60_000} min)`);
      return;
    }
    this.ctx.log(`${cause}\n(restarting it, as systemd's Restart=always would)`);
    this.restarting.add(p.name);
    this.spawn(component, argv)
      .catch((e: Error) => this.ctx.log(`${p.name}: the restart failed: ${e.message}`))
      .finally(() => this.restarting.delete(p.name));
  }

  /**
   * First start: files, containerd with the sandbox image, the kubelet; resolves once the Node has its
   * Pod subnet, with the import of the other images still under way (`imported`).
   */
  async start(kubeletCerts: {
    serving: { cert: string; key: string };
    client: { cert: string; key: string };
  }): Promise<{ imported: Promise<void> }> {
    const { layout } = this;
    const n = nodePaths(layout);
    const c = containerdPaths(layout);
    for (const d of [layout.dir, n.cniConfDir, n.cniIpamDir, n.kubeletRoot, n.podLogs, c.root, c.state])
      fs.mkdirSync(d, { recursive: true });
    const write = (f: string, text: string) => fs.writeFileSync(f, text, { mode: 0o600 });
    const { cp } = this.ctx;
    const read = (f: string) => fs.readFileSync(f, 'utf8');
    write(c.config, containerdConfig(layout));
    write(n.resolvConf, resolvConf(layout));
    write(n.kubeProxyConfig, JSON.stringify(kubeProxyConfig(layout, this.ctx.fabricKubeconfig)));
    write(
      n.kubeletKubeconfig,
      kubeconfigYaml({
        server: this.ctx.apiServer,
        caData: cp.info.caData,
        user: `system:node:${layout.name}`,
        certData: read(kubeletCerts.client.cert),
        keyData: read(kubeletCerts.client.key),
      }),
    );
    const config = kubeletConfig(layout, {
      kubeconfig: n.kubeletKubeconfig,
      caFile: cp.info.caFile,
      servingCert: kubeletCerts.serving.cert,
      servingKey: kubeletCerts.serving.key,
    });
    write(n.kubeletConfig, JSON.stringify(config));
    const { imported } = await this.startContainerd(true);
    await this.startKubelet();
    await this.awaitPodCidr();
    return { imported };
  }

  /** containerd, and (first start) the sandbox image; `imported` settles when the other images are in too. */
  private async startContainerd(importAll: boolean): Promise<{ imported: Promise<void> }> {
    const { bins, images, log } = this.ctx;
    const c = containerdPaths(this.layout);
    await this.spawn('containerd', [bins.containerd, '--config', c.config]);
    await waitFor(() => this.execInNode([bins.ctr, '--address', c.socket, 'version']).then(() => true), {
      description: `containerd on ${c.socket}`,
      timeoutMs: 30_000,
      guard: this.guard,
      intervalMs: 200,
    });
    if (!importAll) return { imported: Promise.resolve() };
    // The sandbox image first (every Pod needs it); the large ones load while the node comes up.
    const sandbox = images.filter((i) => i.name === 'pause');
    await importImages(bins.ctr, c.socket, sandbox, (l) => log(`${this.name}: ${l}`));
    const rest = importImages(
      bins.ctr,
      c.socket,
      images.filter((i) => !sandbox.includes(i)),
      (l) => log(`${this.name}: ${l}`),
    );
    // Settled here too, so a failed import is not an unhandled rejection while the node starts.
    rest.catch(() => undefined);
    return { imported: rest };
  }

  private async startKubelet(): Promise<void> {
    const n = nodePaths(this.layout);
    createCgroupRoot(this.layout.cgroupRoot);
    await this.spawn('kubelet', [
      this.ctx.bins.kubelet,
      ...kubeletArgs(this.layout, { config: n.kubeletConfig, kubeconfig: n.kubeletKubeconfig }),
    ]);
  }

  /** Waits until the kubelet has registered and the Node has a Pod subnet; (re)writes the CNI config for it. */
  private async awaitPodCidr(): Promise<void> {
    const { cp } = this.ctx;
    const node = await waitFor(
      async () => {
        const o = await cp.admin.call<NodeObject>('GET', `/api/v1/nodes/${this.name}`);
        return o.spec?.podCIDR ? o : undefined;
      },
      { description: `node ${this.name} registered with a Pod subnet`, timeoutMs: 60_000, guard: this.guard },
    );
    const cidr = node.spec!.podCIDR!;
    if (cidr === this.podCidr) return;
    // Another subnet (its Node was deleted while it was down): the CNI bridge plugin refuses a bridge
    // that still has the old gateway address ("already has an IP address different from"), so it goes.
    if (this.podCidr) await this.execInNode([this.ctx.bins.ip, 'link', 'delete', BRIDGE]).catch(() => undefined);
    this.podCidr = cidr;
    const file = path.join(nodePaths(this.layout).cniConfDir, '10-seatunnel-app.conflist');
    fs.writeFileSync(file, JSON.stringify(cniConfList(this.layout, cidr), null, 2), { mode: 0o600 });
    await this.ctx.podCidrChanged(this);
  }

  /** kube-proxy and kube-router (kube-router identifies its node by name: it must be registered). */
  async startNetworkDaemons(): Promise<void> {
    const { bins } = this.ctx;
    await this.spawn('kube-proxy', [bins.kubeProxy, `--config=${nodePaths(this.layout).kubeProxyConfig}`, '--v=2']);
    await this.spawn('kube-router', [bins.kubeRouter, ...kubeRouterArgs(this.layout, this.ctx.fabricKubeconfig)]);
  }

  /** Ready with a heartbeat newer than `since` (a Ready=True from before a stop does not count), kube-proxy healthy. */
  async awaitReady(since = 0, timeoutMs = 120_000): Promise<void> {
    const { cp } = this.ctx;
    // lastHeartbeatTime has whole seconds: a heartbeat in the second after `since` is surely new.
    const after = since === 0 ? 0 : since - (since % 1000) + 1000;
    await waitFor(
      async () => {
        const ready = nodeCondition(await cp.admin.call<NodeObject>('GET', `/api/v1/nodes/${this.name}`), 'Ready');
        if (ready?.status !== 'True') throw new Error(`Ready=${ready?.status ?? 'unknown'}: ${ready?.message ?? ''}`);
        if (Date.parse(ready.lastHeartbeatTime ?? '') < after) throw new Error('no heartbeat since the start yet');
        return true;
      },
      { description: `node ${this.name} Ready`, timeoutMs, guard: this.guard, intervalMs: 300 },
    );
    await waitFor(() => httpOk(`http://${this.layout.address}:10256/healthz`), {
      description: `kube-proxy /healthz on ${this.name}`,
      timeoutMs: 60_000,
      guard: this.guard,
      intervalMs: 300,
    });
  }

  private expect(want: 'running' | 'stopped' | 'frozen', action: string): void {
    if (this.state !== want)
      throw new Error(`${action}: node ${this.name} is ${this.state}; it must be ${want}${stateHint(this.state)}`);
  }

  async stop(): Promise<void> {
    if (this.state === 'stopped') throw new Error(`stop: node ${this.name} is already stopped (restart() it first)`);
    // Every signal is sent before the first await: the node's daemons and its containers die together.
    const exits = this.processes.map((p) => p.kill());
    const killed = killNode(this.scope);
    await Promise.all([...exits, killed]);
    this.state = 'stopped';
    // A dead machine answers nothing: no RST from its closed ports, no reply from its Pods' addresses.
    if (!this.cut) await this.applyCutOff();
    this.ctx.log(`node ${this.name} stopped (power loss)`);
  }

  async restart(): Promise<void> {
    this.expect('stopped', 'restart');
    const t0 = Date.now();
    await this.removeCutOff();
    await this.startContainerd(false);
    await this.startKubelet();
    await this.awaitPodCidr();
    await this.startNetworkDaemons();
    this.state = 'running';
    await this.awaitReady(t0);
    this.ctx.log(`node ${this.name} restarted and Ready in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  }

  async freeze(): Promise<void> {
    this.expect('running', 'freeze');
    const n = await freezeNode(this.scope);
    this.state = 'frozen';
    this.ctx.log(`node ${this.name} frozen (${n} processes stopped)`);
  }

  async thaw(): Promise<void> {
    this.expect('frozen', 'thaw');
    thawNode(this.scope);
    this.state = 'running';
    this.ctx.log(`node ${this.name} thawed`);
  }

  async cutOff(): Promise<void> {
    if (this.state === 'stopped')
      throw new Error(`cutOff: node ${this.name} is stopped (its links are silent already)`);
    if (this.cut) throw new Error(`cutOff: node ${this.name} is cut off already (heal() it first)`);
    await this.applyCutOff();
    this.ctx.log(`node ${this.name} cut off`);
  }

  async heal(): Promise<void> {
    if (this.state === 'stopped') throw new Error(`heal: node ${this.name} is stopped (restart() brings it back)`);
    if (!this.cut) throw new Error(`heal: node ${this.name} is not cut off`);
    await this.removeCutOff();
    this.ctx.log(`node ${this.name} healed`);
  }

  private async applyCutOff(): Promise<void> {
    const restore = path.join(path.dirname(this.ctx.bins.iptables), 'iptables-restore');
    await runWithInput([...inNamespace(this.plan), restore, '--noflush'], cutOffRules([FABRIC_IF, this.plan.nodeVeth]));
    this.cut = true;
  }

  private async removeCutOff(): Promise<void> {
    if (!this.cut) return;
    for (const args of healCommands()) await this.execInNode([this.ctx.bins.iptables, ...args]).catch(() => undefined);
    this.cut = false;
  }

  /** Runs a command inside the node's network namespace (e.g. iptables -S); resolves with stdout. */
  async execInNode(argv: string[]): Promise<string> {
    const [cmd, ...rest] = [...inNamespace(this.plan), ...argv];
    return new Promise((resolve, reject) =>
      execFile(cmd, rest, { maxBuffer: 16 * 1024 * 1024, timeout: 30_000 }, (err, stdout, stderr) =>
        err ? reject(new Error(`${argv.join(' ')} in ${this.plan.name}: ${stderr || err.message}`)) : resolve(stdout),
      ),
    );
  }

  /** The first of its daemons that died by itself (not stopped by a fault), with its log tail. */
  deadComponent(): string | undefined {
    if (this.state === 'stopped') return undefined;
    for (const p of this.processes)
      if (!p.running && this.watched(p))
        return `${p.name} ${p.exitDescription}; last lines of ${p.logFile}:\n${p.tail(40)}`;
    return undefined;
  }
}

function stateHint(state: 'running' | 'stopped' | 'frozen'): string {
  return state === 'stopped' ? ' (restart() it first)' : state === 'frozen' ? ' (thaw() it first)' : '';
}
