// `npm run node-cluster`: the test control plane plus a real node (containerd, kubelet, kube-proxy,
// kube-router, CoreDNS) in the foreground. Builds what is missing first. Ctrl-C (or SIGTERM) removes
// every process, mount, cgroup and the node's network namespace.
//
//   npm run node-cluster [-- --keep]
import { CLUSTER_ENV } from '../control-server';
import { runInForeground } from '../foreground';
import { NodeCluster } from './node-cluster';

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const unknown = argv.filter((a) => a !== '--keep');
  if (unknown.length > 0) {
    process.stderr.write(
      `node-cluster: unknown argument ${JSON.stringify(unknown[0])}\nusage: node-cluster [--keep]\n`,
    );
    process.exit(2);
  }
  const started = Date.now();
  const nc = await NodeCluster.start({ keepDir: argv.includes('--keep') });
  const { info } = nc;
  const infoFile = nc.controlPlane.writeInfo();
  process.stdout.write(
    [
      '',
      `Kubernetes ${info.kubernetesVersion} with a real node ready in ${((Date.now() - started) / 1000).toFixed(1)} s at ${info.server}`,
      `node: ${info.node.name} (${info.node.address}, network namespace ${info.node.netns}); images: ${info.node.images.map((i) => i.ref).join(', ')}`,
      `logs: ${info.logDir}`,
      '',
      'In another shell:',
      `  export KUBECONFIG=${info.kubeconfig}`,
      `  alias kubectl=${info.node.kubectl}   # if there is none on PATH (same version as the cluster)`,
      `  kubectl run hello --image=${info.node.images.find((i) => i.name === 'seatunnel')?.ref ?? '<image>'} --image-pull-policy=Never --restart=Never -- java -version`,
      '  kubectl get pods -w',
      '',
      'To run the node-tier tests against this cluster instead of starting one:',
      `  export ${CLUSTER_ENV}=${infoFile}`,
      '',
      'Press Ctrl-C to stop everything.',
      '',
    ].join('\n'),
  );
  runInForeground({
    what: 'the node and the control plane',
    stop: () => nc.stop(),
    stopped: 'stopped; processes, mounts, cgroups and the network namespace removed',
    leftover: 'the next start removes what is left',
    deadComponent: () => nc.deadComponent(),
  });
}

main().catch((e: unknown) => {
  process.stderr.write(`node-cluster: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
