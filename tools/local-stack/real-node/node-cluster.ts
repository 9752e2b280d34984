// A real single-node cluster: the harness's control plane on 127.0.0.1 plus a real node — containerd
// and runc, CNI bridge, kubelet, kube-proxy (iptables), kube-router (NetworkPolicy only) and CoreDNS —
// in a network namespace of its own (network-namespace.ts). Images are imported from local archives
// (no registry is reachable), so Pods use imagePullPolicy Never or IfNotPresent.
//
//   const nc = await NodeCluster.start();   // builds what is missing first
//   nc.info                                 // ClusterInfo, with info.node set
//   await nc.stop();                        // removes every process, mount, cgroup and the namespace
//
// Who talks to whom: the node's components and Pods reach the API server through a relay (socat on
// the node address and loopback inside the namespace, a unix socket, socat to 127.0.0.1 on the host;
// the default/kubernetes Service advertises the node address). The API server reaches the kubelet
// (logs, exec, port-forward) on the node address through the veth pair.
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { ControlPlane, kubeconfigYaml, type ClusterInfo } from '../control-plane';
import { issueCertificate } from '../pki';
import { ManagedProcess, processStartTime } from '../process';
import { waitFor } from '../wait';
import { resolveNodeBinaries, type NodeBinaries } from '../node-binaries';
import { importImages, resolveImages, type NodeImage } from '../node-images';
import { createCgroupRoot } from './cgroups';
import {
  createNamespace,
  blocksInUse,
  deleteNamespace,
  inNamespace,
  namespacePlan,
  type NamespacePlan,
} from './network-namespace';
import {
  containerdConfig,
  containerdPaths,
  cniConfList,
  corefile,
  dnsObjects,
  kubeletConfig,
  kubeProxyConfig,
  kubeRouterArgs,
  nodePaths,
  resolvConf,
  type NodeLayout,
} from './node-config';
import { recordNodeState, removeNodeState, teardownNode, reapStaleNodes, type NodeState } from './node-teardown';

const run = promisify(execFile);

/** What tests need to know about the node (ClusterInfo.node). */
export interface NodeInfo {
  name: string;
  address: string;
  netns: string;
  containerdSocket: string;
  ctr: string;
  /** kubectl of the same Kubernetes version (tools/node/build.sh). */
  kubectl: string;
  images: Array<{ name: string; ref: string }>;
  dir: string;
}

export interface NodeClusterOptions {
  build?: boolean;
  keepDir?: boolean;
  log?: (line: string) => void;
  /** Address block 1-250 (default: a free one). */
  block?: number;
}

export class NodeCluster {
  private stopped = false;

  private constructor(
    readonly controlPlane: ControlPlane,
    readonly layout: NodeLayout,
    private readonly plan: NamespacePlan,
    private readonly state: NodeState,
    private readonly processes: ManagedProcess[],
    private readonly bins: NodeBinaries,
    private readonly log: (line: string) => void,
  ) {}

  get info(): ClusterInfo & { node: NodeInfo } {
    return this.controlPlane.info as ClusterInfo & { node: NodeInfo };
  }

  static async start(opts: NodeClusterOptions = {}): Promise<NodeCluster> {
    const log = opts.log ?? ((l: string) => process.stderr.write(`[node-cluster] ${l}\n`));
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
    const used = blocksInUse();
    const block = opts.block ?? [...Array(250).keys()].map((i) => i + 1).find((b) => !used.has(b));
    if (block === undefined) throw new Error('no free node address block (250 seatunnel-node-* namespaces exist)');
    const plan = namespacePlan(block);
    log(`creating network namespace ${plan.name} (node ${plan.nodeAddress}, host side ${plan.hostAddress})`);
    await createNamespace(plan);
    let cp: ControlPlane | undefined;
    const processes: ManagedProcess[] = [];
    let state: NodeState | undefined;
    try {
      cp = await ControlPlane.start({
        nodes: 0,
        build: opts.build,
        keepDir: opts.keepDir,
        log,
        apiServerAdvertiseAddress: plan.nodeAddress,
      });
      const pause = images.find((i) => i.name === 'pause');
      if (!pause) throw new Error('the image build did not produce the pause image');
      const layout: NodeLayout = {
        name: plan.name,
        address: plan.nodeAddress,
        hostAddress: plan.hostAddress,
        podSubnet: '10.244.0.0/24',
        clusterCidr: '10.244.0.0/16',
        dnsServiceIp: '10.96.0.10',
        dir: path.join(cp.info.dir, 'node'),
        cgroupRoot: `/${plan.name}`,
        pauseImage: pause.ref,
        cniBinDir: bins.cniBinDir,
        mtu: 1400,
        kubeletPort: 10250,
      };
      state = {
        block,
        netns: plan.name,
        dir: layout.dir,
        cgroupRoot: layout.cgroupRoot,
        containerdSocket: containerdPaths(layout).socket,
        ctr: bins.ctr,
        ownerPid: process.pid,
        ownerStart: processStartTime(process.pid) ?? '-',
      };
      recordNodeState(state);
      const nc = new NodeCluster(cp, layout, plan, state, processes, bins, log);
      await nc.bringUp(images);
      log(`node ${layout.name} Ready; cluster up in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
      return nc;
    } catch (e) {
      const tails = processes
        .map((p) => `----- ${p.name} (${p.logFile}) ${p.exitDescription ?? 'running'} -----\n${p.tail(25)}`)
        .join('\n');
      if (state)
        await teardownNode(state, { processes, log }).catch((te: Error) =>
          log(`teardown after the failed start: ${te.message}`),
        );
      else await deleteNamespace(plan);
      await cp?.stop();
      if (state) removeNodeState(state);
      const err = e as Error;
      err.message = `real node failed to start: ${err.message}\n${tails}`;
      throw err;
    }
  }

  private async spawnInNode(name: string, argv: string[]): Promise<ManagedProcess> {
    const cp = this.controlPlane;
    const p = await ManagedProcess.start({
      name,
      command: inNamespace(this.plan)[0],
      args: [...inNamespace(this.plan).slice(1), ...argv],
      env: { ...process.env, PATH: `${path.dirname(this.bins.containerd)}:${process.env.PATH ?? ''}` },
      cwd: this.layout.dir,
      logFile: path.join(cp.info.logDir, `${name}.log`),
      pidFile: cp.info.pidFile,
    });
    this.processes.push(p);
    cp.info.components.push({ name, pid: p.pid, logFile: p.logFile });
    return p;
  }

  private guard = () => {
    for (const p of this.processes) p.assertRunning();
    this.controlPlane.assertHealthy();
  };

  private async bringUp(images: NodeImage[]): Promise<void> {
    const { layout, bins, log, controlPlane: cp } = this;
    const n = nodePaths(layout);
    const c = containerdPaths(layout);
    for (const d of [layout.dir, n.cniConfDir, n.cniIpamDir, n.kubeletRoot, n.podLogs, c.root, c.state])
      fs.mkdirSync(d, { recursive: true });
    const write = (f: string, text: string) => fs.writeFileSync(f, text, { mode: 0o600 });
    const apiPort = Number(new URL(cp.info.server).port);

    log('relaying the API server into the namespace');
    await ManagedProcess.start({
      name: 'api-relay-host',
      command: bins.socat,
      args: [`UNIX-LISTEN:${n.apiRelaySocket},fork,unlink-early,mode=600`, `TCP:127.0.0.1:${apiPort}`],
      logFile: path.join(cp.info.logDir, 'api-relay-host.log'),
      pidFile: cp.info.pidFile,
    }).then((p) => this.processes.push(p));
    await this.spawnInNode('api-relay-node', [
      bins.socat,
      `TCP-LISTEN:${apiPort},fork,reuseaddr`,
      `UNIX-CONNECT:${n.apiRelaySocket}`,
    ]);

    log('starting containerd');
    write(c.config, containerdConfig(layout));
    write(path.join(n.cniConfDir, '10-seatunnel-app.conflist'), JSON.stringify(cniConfList(layout), null, 2));
    await this.spawnInNode('containerd', [bins.containerd, '--config', c.config]);
    await waitFor(
      async () => {
        await run(bins.ctr, ['--address', c.socket, 'version'], { timeout: 5000 });
        return true;
      },
      { description: `containerd on ${c.socket}`, timeoutMs: 30_000, guard: this.guard, intervalMs: 200 },
    );
    // The sandbox image first (every Pod needs it); the large ones load while the node comes up.
    const t = Date.now();
    const sandbox = images.filter((i) => i.name === 'pause');
    await importImages(bins.ctr, c.socket, sandbox, log);
    const imported = importImages(
      bins.ctr,
      c.socket,
      images.filter((i) => !sandbox.includes(i)),
      log,
    ).then(() => log(`imported ${images.length} images in ${((Date.now() - t) / 1000).toFixed(1)} s`));
    // Settled here too, so a failed import is not an unhandled rejection while the node starts.
    imported.catch(() => undefined);

    log('starting the kubelet');
    createCgroupRoot(layout.cgroupRoot);
    // The harness CA (next to ca.crt) signs the kubelet's certificates.
    const pki = {
      dir: path.dirname(cp.info.caFile),
      caCert: cp.info.caFile,
      caKey: path.join(path.dirname(cp.info.caFile), 'ca.key'),
    };
    const [serving, client] = await Promise.all([
      issueCertificate(pki, `kubelet-${layout.name}-serving`, `/O=system:nodes/CN=system:node:${layout.name}`, [
        `IP:${layout.address}`,
        `DNS:${layout.name}`,
      ]),
      issueCertificate(pki, `kubelet-${layout.name}-client`, `/O=system:nodes/CN=system:node:${layout.name}`),
    ]);
    const read = (f: string) => fs.readFileSync(f, 'utf8');
    const kubeletKubeconfig = path.join(layout.dir, 'kubelet.kubeconfig');
    write(
      kubeletKubeconfig,
      kubeconfigYaml({
        server: cp.info.server,
        caData: cp.info.caData,
        user: `system:node:${layout.name}`,
        certData: read(client.cert),
        keyData: read(client.key),
      }),
    );
    write(n.resolvConf, resolvConf(layout));
    write(
      n.kubeletConfig,
      JSON.stringify(
        kubeletConfig(layout, {
          kubeconfig: kubeletKubeconfig,
          caFile: cp.info.caFile,
          servingCert: serving.cert,
          servingKey: serving.key,
        }),
      ),
    );
    await this.spawnInNode('kubelet', [
      bins.kubelet,
      `--config=${n.kubeletConfig}`,
      `--kubeconfig=${kubeletKubeconfig}`,
      `--root-dir=${n.kubeletRoot}`,
      `--hostname-override=${layout.name}`,
      `--node-ip=${layout.address}`,
      '--v=1',
    ]);

    // kube-router identifies its node by name at start: the kubelet must have registered it.
    await waitFor(() => cp.admin.call('GET', `/api/v1/nodes/${layout.name}`).then(() => true), {
      description: `node ${layout.name} registered by the kubelet`,
      timeoutMs: 60_000,
      guard: this.guard,
      intervalMs: 200,
    });
    log('starting kube-proxy, kube-router and CoreDNS');
    for (const o of dnsObjects(layout)) {
      const plural = o.kind === 'Service' ? 'services' : 'endpoints';
      await cp.admin.call('POST', `/api/v1/namespaces/kube-system/${plural}`, o);
    }
    write(n.kubeProxyConfig, JSON.stringify(kubeProxyConfig(layout, cp.info.kubeconfig)));
    write(n.corefile, corefile(layout, cp.info.kubeconfig));
    await this.spawnInNode('kube-proxy', [bins.kubeProxy, `--config=${n.kubeProxyConfig}`, '--v=2']);
    await this.spawnInNode('kube-router', [bins.kubeRouter, ...kubeRouterArgs(layout, cp.info.kubeconfig)]);
    await this.spawnInNode('coredns', [bins.coredns, '-conf', n.corefile]);

    await waitFor(() => nodeReady(cp, layout.name), {
      description: `node ${layout.name} Ready`,
      timeoutMs: 90_000,
      guard: this.guard,
      intervalMs: 300,
    });
    await waitFor(() => httpOk(`http://${layout.address}:8181/ready`), {
      description: 'CoreDNS /ready',
      timeoutMs: 60_000,
      guard: this.guard,
      intervalMs: 300,
    });
    await waitFor(() => httpOk(`http://${layout.address}:10256/healthz`), {
      description: 'kube-proxy /healthz',
      timeoutMs: 60_000,
      guard: this.guard,
      intervalMs: 300,
    });
    await imported;

    cp.info.nodes = [layout.name];
    (cp.info as ClusterInfo & { node: NodeInfo }).node = {
      name: layout.name,
      address: layout.address,
      netns: this.plan.name,
      containerdSocket: c.socket,
      ctr: bins.ctr,
      kubectl: bins.kubectl,
      images: images.map(({ name, ref }) => ({ name, ref })),
      dir: layout.dir,
    };
    cp.writeInfo();
  }

  /** Runs a command inside the node's network namespace (e.g. iptables -S); resolves with stdout. */
  async execInNode(argv: string[]): Promise<string> {
    const [cmd, ...rest] = [...inNamespace(this.plan), ...argv];
    const { stdout } = await run(cmd, rest, { maxBuffer: 16 * 1024 * 1024 });
    return stdout;
  }

  /** A description of the first node or control-plane component that died (with its log tail), if any. */
  deadComponent(): string | undefined {
    for (const p of [...this.processes, ...this.controlPlane.processList]) {
      if (!p.running && !p.isStopping)
        return `${p.name} ${p.exitDescription}; last lines of ${p.logFile}:\n${p.tail(40)}`;
    }
    return undefined;
  }

  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    await teardownNode(this.state, { processes: this.processes, log: this.log });
    await this.controlPlane.stop();
    removeNodeState(this.state);
  }
}

async function nodeReady(cp: ControlPlane, name: string): Promise<true> {
  const node = await cp.admin.call<{
    status?: { conditions?: Array<{ type: string; status: string; message?: string }> };
  }>('GET', `/api/v1/nodes/${name}`);
  const ready = node.status?.conditions?.find((c) => c.type === 'Ready');
  if (ready?.status !== 'True') throw new Error(`Ready=${ready?.status ?? 'unknown'}: ${ready?.message ?? ''}`);
  return true;
}

function httpOk(url: string): Promise<true> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, (res) => {
      res.resume();
      if (res.statusCode === 200) resolve(true);
      else reject(new Error(`${url}: HTTP ${res.statusCode}`));
    });
    req.setTimeout(3000, () => req.destroy(new Error(`${url}: no answer within 3 s`)));
    req.on('error', reject);
  });
}
