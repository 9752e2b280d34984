// A real cluster of N nodes on this machine: the harness's control plane on 127.0.0.1 plus N real
// nodes (real-node.ts: containerd and runc, CNI bridge, kubelet, kube-proxy, kube-router) each in a
// network namespace of its own, one Pod network across them (fabric.ts), and CoreDNS on every node
// (dns-addon.ts). Images are imported from local archives (no registry is reachable), so Pods use
// imagePullPolicy Never or IfNotPresent.
//
//   const nc = await NodeCluster.start({ nodes: 3 });   // builds what is missing first
//   nc.info                                             // ClusterInfo, with info.node: one entry per node
//   await nc.nodes[0].stop(); await nc.nodes[0].restart();   // faults: real-node.ts
//   await nc.stop();                                    // removes every process, mount, cgroup and namespace
//
// Who talks to whom: the API server stays on 127.0.0.1; a relay (socat on the fabric's bridge
// address, a unix socket, socat to 127.0.0.1 on the host) carries every node's and every Pod's calls
// to it, and the default/kubernetes Service advertises that address — on no node, so losing any one
// node leaves the API to the others. The API server reaches each kubelet (logs, exec, port-forward)
// on the node's address through the node's own veth pair to the host.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ControlPlane, kubeconfigYaml, POD_CIDR, type ClusterInfo } from '../control-plane';
import { issueCertificate } from '../pki';
import { ManagedProcess, processStartTime } from '../process';
import { waitFor } from '../wait';
import { resolveNodeBinaries, type NodeBinaries } from '../node-binaries';
import { resolveImages, type NodeImage } from '../node-images';
import { collectionPath, dnsAddonObjects, DNS_DAEMONSET_PATH } from './dns-addon';
import { applyRoutes, attachNode, createFabric, FABRIC_API_ADDRESS, fabricPlan, type FabricPlan } from './fabric';
import { claimNamespaces, deleteNamespace, inNamespace, type NamespacePlan } from './network-namespace';
import type { NodeLayout } from './node-config';
import {
  recordFabricState,
  recordNodeState,
  removeFabricState,
  removeNodeState,
  teardownFabric,
  teardownNode,
  reapStaleNodes,
  type FabricState,
  type NodeState,
} from './node-teardown';
import { RealNode, type NodeContext, type NodeInfo } from './real-node';

export type { NodeInfo } from './real-node';

/** The cluster info of a node cluster: the control plane's, plus its nodes and its fabric. */
export type NodeClusterInfo = ClusterInfo & {
  /** One entry per real node, node 1 first. */
  node: NodeInfo[];
  fabric: { netns: string; apiAddress: string };
};

export const MAX_NODES = 8;

export interface NodeClusterOptions {
  build?: boolean;
  keepDir?: boolean;
  log?: (line: string) => void;
  /** How many real nodes (default 1, at most MAX_NODES). */
  nodes?: number;
  /**
   * Further kube-controller-manager flags, e.g. `--node-monitor-grace-period=20s` for faster
   * node-loss detection. None by default: the Kubernetes defaults (grace period 50 s) apply.
   */
  controllerManagerFlags?: string[];
}

/** Throws a message naming the option, the value and the rule. */
export function checkNodeCount(nodes: unknown): number {
  if (typeof nodes !== 'number' || !Number.isInteger(nodes) || nodes < 1 || nodes > MAX_NODES)
    throw new Error(`nodes: expected a whole number from 1 to ${MAX_NODES}, got ${JSON.stringify(nodes)}`);
  return nodes;
}

const DNS_SERVICE_IP = '10.96.0.10';

export class NodeCluster {
  private stopped = false;
  private routing: Promise<void> = Promise.resolve();

  private constructor(
    readonly controlPlane: ControlPlane,
    readonly nodes: RealNode[],
    private readonly fabric: FabricPlan,
    private readonly fabricState: FabricState,
    private readonly nodeStates: NodeState[],
    private readonly relays: ManagedProcess[],
    private readonly log: (line: string) => void,
  ) {}

  get info(): NodeClusterInfo {
    return this.controlPlane.info as NodeClusterInfo;
  }

  /** A node by name or by 1-based index. */
  node(which: string | number): RealNode {
    const n = this.nodes.find((x) => x.name === which || x.index === which);
    if (!n) throw new Error(`no node ${JSON.stringify(which)} (nodes: ${this.nodes.map((x) => x.name).join(', ')})`);
    return n;
  }

  static async start(opts: NodeClusterOptions = {}): Promise<NodeCluster> {
    const log = opts.log ?? ((l: string) => process.stderr.write(`[node-cluster] ${l}\n`));
    const count = checkNodeCount(opts.nodes ?? 1);
    const t0 = Date.now();
    if (process.getuid?.() !== 0)
      throw new Error(
        'a real node needs root (network namespace, mounts, cgroups, iptables); run as root or use the fake-node dev cluster',
      );
    await reapStaleNodes(log);
    // Build or find everything before creating anything, so a build failure leaves nothing behind.
    const [bins, images] = await Promise.all([
      resolveNodeBinaries({ build: opts.build, log }),
      resolveImages({ build: opts.build, log }),
    ]);
    const plans = await claimNamespaces(count);
    log(`network namespaces ${plans.map((p) => `${p.name} (${p.nodeAddress})`).join(', ')}`);
    const fabric = fabricPlan(plans[0].block);
    const fabricState: FabricState = {
      netns: fabric.name,
      ownerPid: process.pid,
      ownerStart: processStartTime(process.pid) ?? '-',
    };
    let cp: ControlPlane | undefined;
    const nodeStates: NodeState[] = [];
    const relays: ManagedProcess[] = [];
    const nodes: RealNode[] = [];
    try {
      recordFabricState(fabricState);
      await createFabric(fabric);
      cp = await ControlPlane.start({
        nodes: 0,
        build: opts.build,
        keepDir: opts.keepDir,
        log,
        apiServerAdvertiseAddress: FABRIC_API_ADDRESS,
        allocateNodeCidrs: true,
        controllerManagerFlags: opts.controllerManagerFlags,
      });
      const nc = new NodeCluster(cp, nodes, fabric, fabricState, nodeStates, relays, log);
      await nc.bringUp(plans, bins, images);
      log(`${count} node(s) Ready; cluster up in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
      return nc;
    } catch (e) {
      const tails = [...relays, ...nodes.flatMap((n) => n.managedProcesses)]
        .map((p) => `----- ${p.name} (${p.logFile}) ${p.exitDescription ?? 'running'} -----\n${p.tail(25)}`)
        .join('\n');
      for (const n of nodes) n.retire();
      for (const [i, state] of nodeStates.entries())
        await teardownNode(state, { processes: nodes[i]?.managedProcesses, log }).catch((te: Error) =>
          log(`teardown after the failed start: ${te.message}`),
        );
      for (const p of plans) await deleteNamespace(p).catch(() => undefined);
      await Promise.all(relays.map((r) => r.kill()));
      await teardownFabric(fabricState).catch(() => undefined);
      await cp?.stop();
      nodeStates.forEach(removeNodeState);
      removeFabricState(fabricState);
      const err = e as Error;
      err.message = `real node cluster failed to start: ${err.message}\n${tails}`;
      throw err;
    }
  }

  private async bringUp(plans: NamespacePlan[], bins: NodeBinaries, images: NodeImage[]): Promise<void> {
    const { controlPlane: cp, log } = this;
    const apiPort = Number(new URL(cp.info.server).port);
    const apiServer = `https://${FABRIC_API_ADDRESS}:${apiPort}`;
    await this.startRelay(bins, apiPort);
    const fabricKubeconfig = path.join(cp.info.dir, 'fabric-admin.kubeconfig');
    const read = (f: string) => fs.readFileSync(f, 'utf8');
    fs.writeFileSync(
      fabricKubeconfig,
      kubeconfigYaml({
        server: apiServer,
        caData: cp.info.caData,
        user: 'admin',
        certData: read(cp.info.adminCertFile),
        keyData: read(cp.info.adminKeyFile),
      }),
      { mode: 0o600 },
    );
    const pause = images.find((i) => i.name === 'pause');
    if (!pause) throw new Error('the image build did not produce the pause image');
    const ctx: NodeContext = {
      cp,
      bins,
      images,
      log,
      fabricKubeconfig,
      apiServer,
      podCidrChanged: () => this.route(),
    };
    const pki = {
      dir: path.dirname(cp.info.caFile),
      caCert: cp.info.caFile,
      caKey: path.join(path.dirname(cp.info.caFile), 'ca.key'),
    };
    for (const [i, plan] of plans.entries()) {
      const layout: NodeLayout = {
        name: plan.name,
        address: plan.nodeAddress,
        hostAddress: plan.hostAddress,
        zone: `zone-${i + 1}`,
        clusterCidr: POD_CIDR,
        dnsServiceIp: DNS_SERVICE_IP,
        dir: path.join(cp.info.dir, plan.name),
        cgroupRoot: `/${plan.name}`,
        pauseImage: pause.ref,
        cniBinDir: bins.cniBinDir,
        mtu: 1400,
        kubeletPort: 10250,
      };
      const node = new RealNode(ctx, i + 1, plan, layout);
      const state: NodeState = {
        block: plan.block,
        netns: plan.name,
        dir: layout.dir,
        cgroupRoot: layout.cgroupRoot,
        containerdSocket: node.scope.containerdSocket,
        ctr: bins.ctr,
        ownerPid: process.pid,
        ownerStart: processStartTime(process.pid) ?? '-',
      };
      recordNodeState(state);
      this.nodeStates.push(state);
      this.nodes.push(node);
      await attachNode(this.fabric, this.member(node));
    }
    log(`starting ${this.nodes.length} node(s): containerd, kubelet`);
    // Certificates per node (O=system:nodes, CN=system:node:<name>), signed by the harness CA.
    const imports = await Promise.all(
      this.nodes.map(async (node) => {
        const subject = `/O=system:nodes/CN=system:node:${node.name}`;
        const [serving, client] = await Promise.all([
          issueCertificate(pki, `kubelet-${node.name}-serving`, subject, [
            `IP:${node.layout.address}`,
            `DNS:${node.name}`,
          ]),
          issueCertificate(pki, `kubelet-${node.name}-client`, subject),
        ]);
        return node.start({ serving, client });
      }),
    );
    log('starting kube-proxy and kube-router on every node, CoreDNS as a DaemonSet');
    for (const node of this.nodes) await node.startNetworkDaemons();
    for (const o of dnsAddonObjects({ corednsBinary: bins.coredns, image: pause.ref, serviceIp: DNS_SERVICE_IP }))
      await cp.admin.call('POST', collectionPath(o), o, { accept: [409] });
    await Promise.all(this.nodes.map((n) => n.awaitReady()));
    await this.awaitDns();
    await Promise.all(imports.map((i) => i.imported));
    cp.info.nodes = this.nodes.map((n) => n.name);
    Object.assign(cp.info, {
      node: this.nodes.map((n) => n.info()),
      fabric: { netns: this.fabric.name, apiAddress: FABRIC_API_ADDRESS },
    });
    cp.writeInfo();
  }

  /** The relay for the API server on the fabric's bridge address: socat in the fabric namespace → unix socket → socat → 127.0.0.1. */
  private async startRelay(bins: NodeBinaries, apiPort: number): Promise<void> {
    const cp = this.controlPlane;
    const socket = path.join(cp.info.dir, 'fabric-api.sock');
    const start = async (name: string, command: string, args: string[]) =>
      this.relays.push(
        await ManagedProcess.start({
          name,
          command,
          args,
          logFile: path.join(cp.info.logDir, `${name}.log`),
          pidFile: cp.info.pidFile,
        }),
      );
    this.log(`relaying the API server to ${FABRIC_API_ADDRESS}:${apiPort} on the fabric`);
    await start('api-relay-host', bins.socat, [
      `UNIX-LISTEN:${socket},fork,unlink-early,mode=600`,
      `TCP:127.0.0.1:${apiPort}`,
    ]);
    const ns = inNamespace(this.fabric);
    await start('api-relay-fabric', ns[0], [
      ...ns.slice(1),
      bins.socat,
      `TCP-LISTEN:${apiPort},bind=${FABRIC_API_ADDRESS},fork,reuseaddr`,
      `UNIX-CONNECT:${socket}`,
    ]);
  }

  private member(node: RealNode) {
    return {
      index: node.index,
      block: node.plan.block,
      netns: node.plan.name,
      nodeAddress: node.layout.address,
      podCidr: node.podCidr,
    };
  }

  /**
   * (Re)applies the routes between every node's Pod subnet, one run at a time; once the cluster is
   * up, the info file follows (a node whose Node object was deleted may come back with another subnet).
   */
  private route(): Promise<void> {
    const next = this.routing.then(async () => {
      await applyRoutes(
        this.fabric,
        this.nodes.map((n) => this.member(n)),
      );
      if (Array.isArray(this.info.node)) {
        this.info.node = this.nodes.map((n) => n.info());
        this.controlPlane.writeInfo();
      }
    });
    this.routing = next.catch(() => undefined);
    return next;
  }

  /** Every node's CoreDNS Pod Ready. */
  private async awaitDns(): Promise<void> {
    const cp = this.controlPlane;
    await waitFor(
      async () => {
        const ds = await cp.admin.call<{ status?: { desiredNumberScheduled?: number; numberReady?: number } }>(
          'GET',
          DNS_DAEMONSET_PATH,
        );
        const { desiredNumberScheduled = 0, numberReady = 0 } = ds.status ?? {};
        if (desiredNumberScheduled !== this.nodes.length || numberReady !== desiredNumberScheduled)
          throw new Error(
            `${numberReady} of ${desiredNumberScheduled} CoreDNS Pods ready (${this.nodes.length} nodes)`,
          );
        return true;
      },
      { description: 'CoreDNS Ready on every node', timeoutMs: 120_000, intervalMs: 300, guard: () => this.guard() },
    );
  }

  private guard(): void {
    const dead = this.deadComponent();
    if (dead) throw new Error(dead);
  }

  /** Only the API server goes away ('kill': an outage; 'graceful': an upgrade's restart); see ControlPlane. */
  stopApiServer(mode: 'kill' | 'graceful' = 'kill'): Promise<void> {
    return this.controlPlane.stopApiServer(mode);
  }

  startApiServer(): Promise<void> {
    return this.controlPlane.startApiServer();
  }

  /** A description of the first node or control-plane component that died by itself (with its log tail), if any. */
  deadComponent(): string | undefined {
    for (const p of [...this.relays, ...this.controlPlane.processList]) {
      if (!p.running && !p.isStopping)
        return `${p.name} ${p.exitDescription}; last lines of ${p.logFile}:\n${p.tail(40)}`;
    }
    for (const n of this.nodes) {
      const dead = n.deadComponent();
      if (dead) return dead;
    }
    return undefined;
  }

  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    for (const n of this.nodes) n.retire();
    await Promise.all(
      this.nodes.map((n, i) => teardownNode(this.nodeStates[i], { processes: n.managedProcesses, log: this.log })),
    );
    await Promise.all(this.relays.map((r) => r.kill()));
    await teardownFabric(this.fabricState);
    await this.controlPlane.stop();
    this.nodeStates.forEach(removeNodeState);
    removeFabricState(this.fabricState);
  }
}
