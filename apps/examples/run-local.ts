// `npm run example`: runs the bundled example end to end on this machine, with nothing faked
// that matters — a real Kubernetes control plane (built from Go modules on first use), the
// seatunnel-app CLI submitting apps/examples/deploy.conf + job.conf, the runtime in the master
// Pod, and a real SeaTunnel Zeta master and workers (from Maven Central) run as local processes
// by a local stand-in for the kubelet. Prints the CLI's output and the application's story, and
// exits with the CLI's `--wait` exit code (0 = SUCCEEDED).
//
//   npm run example               the bundled example
//   npm run example -- --keep     keep the control plane's and the Pods' files for a look afterwards
//   npm run example -- --node     on a real node instead (containerd, kubelet, CNI, kube-proxy, kube-router,
//                                 CoreDNS; needs root): real containers from locally built images

import * as path from 'node:path';
import { packageRoot } from '../../lib/cli/io';
import { main } from '../../lib/cli/main';
import { consoleOutput } from '../../lib/cli/output';
import { ControlPlane } from '../../tools/local-stack/control-plane';
import { startLocalStack } from '../../tools/local-stack/local-application';
import { KWOK_LIFECYCLE_ANNOTATION } from '../../tools/local-stack/kwok-stages';

const examples = path.join(packageRoot(), 'apps', 'examples');

/** Where the example runs: the control plane plus either the local kubelet stand-in or a real node. */
interface Cluster {
  cp: ControlPlane;
  /** What the submission needs on top of the example's own files. */
  overrides: string[];
  stop(): Promise<void>;
  kept: string;
}

const say = (l: string) => process.stderr.write(`[example] ${l}\n`);

async function localCluster(keep: boolean): Promise<Cluster> {
  say('starting a local Kubernetes control plane (the first run builds it from Go modules: a few minutes)');
  const cp = await ControlPlane.start({ keepDir: keep });
  say('assembling the SeaTunnel engine (Maven Central, cached) and the runtime bundle');
  const stack = startLocalStack({
    admin: cp.admin,
    server: cp.info.server,
    caData: cp.info.caData,
    namespace: NAMESPACE,
  });
  const local = `${KWOK_LIFECYCLE_ANNOTATION}:local`;
  return {
    cp,
    // Only what running on this machine needs: where the engine lives, and that the local kubelet runs the Pods.
    overrides: [
      `-Dkubernetes.seatunnel-home=${stack.seatunnelHome}`,
      `-Dkubernetes.master.annotations=${local}`,
      `-Dkubernetes.worker.annotations=${local}`,
    ],
    stop: async () => {
      await stack.stop();
      await cp.stop();
    },
    kept: `Pod files and logs kept in ${stack.dir}; control plane files in ${cp.info.dir}`,
  };
}

async function realNodeCluster(keep: boolean): Promise<Cluster> {
  say(
    'starting a local control plane and a real node: containerd, kubelet, kube-proxy, kube-router, CoreDNS (root; the first run builds them: several minutes)',
  );
  const { NodeCluster } = await import('../../tools/local-stack/real-node/node-cluster.js');
  const nc = await NodeCluster.start({ keepDir: keep });
  return {
    cp: nc.controlPlane,
    // The images are imported, never pulled; the node has 2 cores, and the example asks 1 per Pod.
    overrides: [
      '-Dkubernetes.image-pull-policy=Never',
      '-Dkubernetes.runtime.image-pull-policy=Never',
      '-Dapplication.master.cpu-cores=0.5',
      '-Dapplication.worker.cpu-cores=0.5',
    ],
    stop: () => nc.stop(),
    kept: `control plane and node files in ${nc.controlPlane.info.dir}`,
  };
}

const NAMESPACE = 'seatunnel';

async function run(): Promise<number> {
  const keep = process.argv.includes('--keep');
  const onNode = process.argv.includes('--node');
  const unknown = process.argv.slice(2).filter((a) => a !== '--keep' && a !== '--node');
  if (unknown.length > 0)
    throw new Error(`unknown argument ${JSON.stringify(unknown[0])} (usage: npm run example [-- --keep] [-- --node])`);
  const cluster = await (onNode ? realNodeCluster(keep) : localCluster(keep));
  const { cp } = cluster;
  try {
    const namespace = NAMESPACE;
    const admin = cp.admin;
    await admin.call(
      'POST',
      '/api/v1/namespaces',
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } },
      { accept: [409] },
    );
    await admin.call(
      'POST',
      `/api/v1/namespaces/${namespace}/serviceaccounts`,
      { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'seatunnel-runtime' } },
      { accept: [409] },
    );
    process.env.KUBECONFIG = cp.info.kubeconfig;
    const argv = [
      'submit',
      '-a',
      path.join(examples, 'deploy.conf'),
      '-c',
      path.join(examples, 'job.conf'),
      ...cluster.overrides,
      '--wait',
      '--wait-timeout',
      '600000',
    ];
    say(`seatunnel-app ${argv.join(' ')}`);
    const code = await main(argv, consoleOutput(false));
    const jobs = await admin.call<{ items: Array<{ metadata: { name: string } }> }>(
      'GET',
      `/apis/batch/v1/namespaces/${namespace}/jobs`,
    );
    for (const j of jobs.items) {
      const events = await admin.call<{ items: Array<{ reason: string; message: string; type: string }> }>(
        'GET',
        `/api/v1/namespaces/${namespace}/events?fieldSelector=${encodeURIComponent(`involvedObject.kind=Job,involvedObject.name=${j.metadata.name}`)}`,
      );
      process.stdout.write(`\nEvents of Job ${j.metadata.name} (kubectl describe job shows the same):\n`);
      for (const e of events.items) process.stdout.write(`  ${e.type.padEnd(7)} ${e.reason.padEnd(22)} ${e.message}\n`);
    }
    if (keep) say(cluster.kept);
    return code;
  } finally {
    await cluster.stop();
  }
}

run().then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    process.stderr.write(`[example] failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exitCode = 1;
  },
);
