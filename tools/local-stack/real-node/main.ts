// `npm run node-cluster`: the test control plane plus N real nodes (containerd, kubelet, kube-proxy,
// kube-router; CoreDNS on each) in the foreground. Builds what is missing first. Ctrl-C (or SIGTERM)
// removes every process, mount, cgroup and network namespace. Tests (and benches) that reuse it
// reach its faults through its control endpoint (node-control.ts).
//
//   npm run node-cluster [-- --nodes N] [-- --keep]
import { CLUSTER_ENV, startControlServer } from '../control-server';
import { runInForeground } from '../foreground';
import { checkNodeCount, MAX_NODES, NodeCluster } from './node-cluster';
import { nodeClusterRoutes } from './node-control';

const USAGE = `usage: node-cluster [--nodes N] [--keep]
  --nodes N   real nodes to start (default 1, at most ${MAX_NODES})
  --keep      keep the temporary directory (logs, etcd data) after stopping
`;

/** The command line, or a message naming the argument, its value and the rule. */
export function parseArgs(argv: string[]): { nodes: number; keep: boolean } | { error: string } {
  let nodes = 1;
  let keep = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--keep') keep = true;
    else if (a === '--nodes' || a.startsWith('--nodes=')) {
      const v = a.includes('=') ? a.slice('--nodes='.length) : argv[++i];
      const n = v === undefined || v.trim() === '' ? NaN : Number(v);
      try {
        nodes = checkNodeCount(n);
      } catch {
        return { error: `--nodes: expected a whole number from 1 to ${MAX_NODES}, got ${JSON.stringify(v ?? null)}` };
      }
    } else return { error: `unknown argument ${JSON.stringify(a)}` };
  }
  return { nodes, keep };
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  if ('error' in args) {
    process.stderr.write(`node-cluster: ${args.error}\n${USAGE}`);
    process.exit(2);
  }
  const started = Date.now();
  const nc = await NodeCluster.start({ keepDir: args.keep, nodes: args.nodes });
  const control = await startControlServer(nc.controlPlane, nodeClusterRoutes(nc));
  nc.controlPlane.info.control = control.endpoint;
  const { info } = nc;
  const infoFile = nc.controlPlane.writeInfo();
  const seatunnelImage = info.node[0].images.find((i) => i.name === 'seatunnel')?.ref ?? '<image>';
  process.stdout.write(
    [
      '',
      `Kubernetes ${info.kubernetesVersion} with ${info.node.length} real node(s) ready in ${((Date.now() - started) / 1000).toFixed(1)} s at ${info.server}`,
      ...info.node.map(
        (n) => `node ${n.index}: ${n.name} (${n.address}, ${n.zone}, Pods ${n.podCidr}, network namespace ${n.netns})`,
      ),
      `Pod network: fabric namespace ${info.fabric.netns}; API relay ${info.fabric.apiAddress}`,
      `images: ${info.node[0].images.map((i) => i.ref).join(', ')}`,
      `logs: ${info.logDir}`,
      '',
      'In another shell:',
      `  export KUBECONFIG=${info.kubeconfig}`,
      `  alias kubectl=${info.node[0].kubectl}   # if there is none on PATH (same version as the cluster)`,
      `  kubectl run hello --image=${seatunnelImage} --image-pull-policy=Never --restart=Never -- java -version`,
      '  kubectl get pods -o wide -w',
      '',
      "To run the node-tier tests (or use the nodes' faults) against this cluster instead of starting one:",
      `  export ${CLUSTER_ENV}=${infoFile}`,
      '',
      'Press Ctrl-C to stop everything.',
      '',
    ].join('\n'),
  );
  runInForeground({
    what: 'the nodes and the control plane',
    stop: async () => {
      await control.close();
      await nc.stop();
    },
    stopped: 'stopped; processes, mounts, cgroups and network namespaces removed',
    leftover: 'the next start removes what is left',
    deadComponent: () => nc.deadComponent(),
  });
}

if (require.main === module)
  main().catch((e: unknown) => {
    process.stderr.write(`node-cluster: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(1);
  });
