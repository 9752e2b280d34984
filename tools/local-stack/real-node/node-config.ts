// The configuration files of one real node (containerd, CNI, kubelet, kube-proxy, kube-router), as
// pure functions of one NodeLayout. The node runs in a network namespace of its own
// (network-namespace.ts): its links are a veth pair to the host (a /30 that carries the API server's
// calls to the kubelet), its port on the cluster's fabric (fabric.ts: the other nodes and the API
// relay) and the Pods' bridge; it has no default route, so no packet from a Pod can leave the machine.
import * as path from 'node:path';

/** Where everything of one node lives; every path is under `dir` except the shared binaries. */
export interface NodeLayout {
  /** Node name (also the kubelet's hostname override). */
  name: string;
  /** The node's address: the namespace side of its host veth pair; the kubelet and kube-proxy's health check listen on it. */
  address: string;
  /** The host side of the veth pair (the API server reaches the kubelet through it). */
  hostAddress: string;
  /** The node's zone (label topology.kubernetes.io/zone), one per node so spread constraints have a key. */
  zone: string;
  /** Cluster-wide Pod range (kube-proxy's clusterCIDR). */
  clusterCidr: string;
  /** ClusterIP of the kube-dns Service. */
  dnsServiceIp: string;
  /** The node's working directory (removed at teardown). */
  dir: string;
  /** cgroup parent of every Pod, one per node (cgroup v1, cgroupfs driver). */
  cgroupRoot: string;
  /** Sandbox (pause) image reference, imported before the kubelet starts. */
  pauseImage: string;
  /** Directory with the CNI plugins (bridge, host-local, loopback, portmap). */
  cniBinDir: string;
  /** MTU of the Pods' interfaces (the machine's eth0 has 1400). */
  mtu: number;
  /** The kubelet's HTTPS port inside the namespace. */
  kubeletPort: number;
}

export const BRIDGE = 'cni0';

export function containerdPaths(layout: NodeLayout) {
  const base = path.join(layout.dir, 'containerd');
  return {
    config: path.join(base, 'config.toml'),
    root: path.join(base, 'root'),
    state: path.join(base, 'state'),
    socket: path.join(base, 'containerd.sock'),
  };
}

export function nodePaths(layout: NodeLayout) {
  return {
    cniConfDir: path.join(layout.dir, 'cni', 'net.d'),
    cniIpamDir: path.join(layout.dir, 'cni', 'ipam'),
    kubeletRoot: path.join(layout.dir, 'kubelet'),
    kubeletConfig: path.join(layout.dir, 'kubelet.yaml'),
    podLogs: path.join(layout.dir, 'pod-logs'),
    resolvConf: path.join(layout.dir, 'resolv.conf'),
    kubeProxyConfig: path.join(layout.dir, 'kube-proxy.yaml'),
    kubeletKubeconfig: path.join(layout.dir, 'kubelet.kubeconfig'),
  };
}

/** containerd 1.6 (Debian's) in TOML version 2. */
export function containerdConfig(layout: NodeLayout): string {
  const p = containerdPaths(layout);
  const n = nodePaths(layout);
  const q = JSON.stringify;
  return `version = 2
root = ${q(p.root)}
state = ${q(p.state)}
# Nothing of the host's containerd (if any) is shared: own socket, root and state.
[grpc]
  address = ${q(p.socket)}
[ttrpc]
  address = ${q(`${p.socket}.ttrpc`)}
[metrics]
  address = ""
[plugins."io.containerd.internal.v1.opt"]
  path = ${q(path.join(p.root, 'opt'))}
[plugins."io.containerd.grpc.v1.cri"]
  sandbox_image = ${q(layout.pauseImage)}
  # This VM lacks CAP_SYS_RESOURCE: a negative oom_score_adj cannot be written, and without this
  # every sandbox fails with "can't get final child's PID from pipe".
  restrict_oom_score_adj = true
  enable_selinux = false
  # Pod network namespaces under the state dir (not the machine's /run/netns), removed with it.
  netns_mounts_under_state_dir = true
  stream_server_address = "127.0.0.1"
  stream_server_port = "0"
  [plugins."io.containerd.grpc.v1.cri".containerd]
    snapshotter = "overlayfs"
    default_runtime_name = "runc"
    [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc]
      runtime_type = "io.containerd.runc.v2"
      [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc.options]
        SystemdCgroup = false
        # runc's state beside containerd's own, not in the machine-wide /run/containerd/runc.
        Root = ${q(path.join(p.state, 'runc'))}
  [plugins."io.containerd.grpc.v1.cri".cni]
    bin_dir = ${q(layout.cniBinDir)}
    conf_dir = ${q(n.cniConfDir)}
    max_conf_num = 1
`;
}

/**
 * Bridge + host-local + portmap on the node's Pod subnet (its spec.podCIDR, from the controller
 * manager); no IP masquerade and no route beyond the cluster (see the file comment).
 */
export function cniConfList(layout: NodeLayout, podCidr: string): Record<string, unknown> {
  return {
    cniVersion: '1.0.0',
    name: 'seatunnel-app-node',
    plugins: [
      {
        type: 'bridge',
        bridge: BRIDGE,
        isGateway: true,
        ipMasq: false,
        hairpinMode: true,
        mtu: layout.mtu,
        ipam: {
          type: 'host-local',
          ranges: [[{ subnet: podCidr }]],
          routes: [{ dst: '0.0.0.0/0' }],
          // The default is /var/lib/cni on the host, shared by every node the machine ever ran.
          dataDir: nodePaths(layout).cniIpamDir,
        },
      },
      { type: 'portmap', capabilities: { portMappings: true } },
    ],
  };
}

export interface KubeletFiles {
  kubeconfig: string;
  caFile: string;
  servingCert: string;
  servingKey: string;
}

export function kubeletConfig(layout: NodeLayout, files: KubeletFiles): Record<string, unknown> {
  const n = nodePaths(layout);
  return {
    apiVersion: 'kubelet.config.k8s.io/v1beta1',
    kind: 'KubeletConfiguration',
    // This VM has cgroup v1 (hybrid); 1.36 refuses it unless told otherwise.
    failCgroupV1: false,
    cgroupDriver: 'cgroupfs',
    cgroupRoot: layout.cgroupRoot,
    containerRuntimeEndpoint: `unix://${containerdPaths(layout).socket}`,
    address: layout.address,
    port: layout.kubeletPort,
    readOnlyPort: 0,
    healthzBindAddress: '127.0.0.1',
    healthzPort: 10248,
    tlsCertFile: files.servingCert,
    tlsPrivateKeyFile: files.servingKey,
    authentication: { anonymous: { enabled: false }, webhook: { enabled: true }, x509: { clientCAFile: files.caFile } },
    authorization: { mode: 'Webhook' },
    clusterDomain: 'cluster.local',
    clusterDNS: [layout.dnsServiceIp],
    resolvConf: n.resolvConf,
    failSwapOn: false,
    // The field is podLogsDir: an unknown name is dropped with only a "strict decoding" log line.
    podLogsDir: n.podLogs,
    serializeImagePulls: false,
    // Images are imported, never pulled: the kubelet must not garbage-collect them on a full disk.
    imageGCHighThresholdPercent: 100,
    imageGCLowThresholdPercent: 99,
    evictionHard: {
      'memory.available': '100Mi',
      'nodefs.available': '1%',
      'imagefs.available': '1%',
      'nodefs.inodesFree': '1%',
    },
    nodeStatusUpdateFrequency: '4s',
    nodeStatusReportFrequency: '10s',
    // Short, so a ConfigMap change reaches a mounted volume within the test's patience.
    syncFrequency: '10s',
    maxPods: 110,
    rotateCertificates: false,
    serverTLSBootstrap: false,
    shutdownGracePeriod: '0s',
    kubeAPIQPS: 50,
    kubeAPIBurst: 100,
  };
}

/** Pods with dnsPolicy Default get this file; only the cluster's DNS exists here. */
export function resolvConf(layout: NodeLayout): string {
  return `nameserver ${layout.dnsServiceIp}\noptions ndots:5\n`;
}

export function kubeProxyConfig(layout: NodeLayout, kubeconfig: string): Record<string, unknown> {
  return {
    apiVersion: 'kubeproxy.config.k8s.io/v1alpha1',
    kind: 'KubeProxyConfiguration',
    clientConnection: { kubeconfig },
    mode: 'iptables',
    clusterCIDR: layout.clusterCidr,
    hostnameOverride: layout.name,
    bindAddress: layout.address,
    // On the node address: the harness checks it from the host through the veth pair.
    healthzBindAddress: `${layout.address}:10256`,
    metricsBindAddress: '127.0.0.1:10249',
    // 0 = leave the kernel's values: nf_conntrack_max is read-only outside the initial namespace.
    conntrack: { maxPerCore: 0, min: 0, tcpEstablishedTimeout: '0s', tcpCloseWaitTimeout: '0s' },
    // true would set route_localnet, which no test needs.
    iptables: { localhostNodePorts: false, masqueradeAll: false, syncPeriod: '10s', minSyncPeriod: '0s' },
  };
}

/** The kubelet's command line (its configuration file is kubeletConfig's). */
export function kubeletArgs(layout: NodeLayout, files: { config: string; kubeconfig: string }): string[] {
  return [
    `--config=${files.config}`,
    `--kubeconfig=${files.kubeconfig}`,
    `--root-dir=${nodePaths(layout).kubeletRoot}`,
    `--hostname-override=${layout.name}`,
    `--node-ip=${layout.address}`,
    // kubernetes.io/hostname is the kubelet's own (the node name); the zone is ours, one per node.
    `--node-labels=topology.kubernetes.io/zone=${layout.zone}`,
    '--v=1',
  ];
}

export function kubeRouterArgs(layout: NodeLayout, kubeconfig: string): string[] {
  return [
    `--kubeconfig=${kubeconfig}`,
    `--hostname-override=${layout.name}`,
    // NetworkPolicy only: kube-proxy does Services and the bridge does routing.
    '--run-firewall=true',
    '--run-router=false',
    '--run-service-proxy=false',
    '--enable-ipv4=true',
    '--enable-ipv6=false',
    '--metrics-port=0',
    '--health-port=0',
    '--iptables-sync-period=30s',
  ];
}
