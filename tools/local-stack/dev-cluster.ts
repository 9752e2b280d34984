// `npm run dev-cluster`: the test control plane in the foreground, for trying `synth` +
// `kubectl apply` and the CLI without a real cluster. Builds missing binaries first.
// Ctrl-C (or SIGTERM) stops every component and removes the temporary directory.
//
// Its nodes are kwok's fakes: no container ever runs on them. So that an application submitted
// here does not report SUCCEEDED although nothing ran, they carry a NoSchedule taint that says so
// (`kubectl describe node`), and Pods stay Pending, Unschedulable ("untolerated taint", in `status`). `--simulate`
// takes the taint away: kwok then marks every Pod Running and every Job Pod Succeeded, which is
// what the cluster-tier tests expect when they reuse this control plane. `npm run node-cluster`
// runs Pods for real.
//
//   npm run dev-cluster [-- --nodes 3] [-- --keep] [-- --simulate]
import { ControlPlane } from './control-plane';
import { devClusterNodes, FAKE_NODE_TAINT } from './dev-cluster-nodes';
import { runInForeground } from './foreground';
import { CLUSTER_ENV, startControlServer } from './control-server';

function usage(): never {
  process.stderr.write(
    [
      'usage: dev-cluster [--nodes N] [--keep] [--simulate]',
      '  --nodes N   fake nodes to create (default 3)',
      '  --keep      keep the temporary directory (logs, etcd data) after stopping',
      '  --simulate  let kwok pretend Pods run and complete (for the cluster-tier tests; nothing really runs)',
      '',
    ].join('\n'),
  );
  process.exit(2);
}

function parseArgs(argv: string[]): { nodes: number; keep: boolean; simulate: boolean } {
  let nodes = 3;
  let keep = false;
  let simulate = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--keep') keep = true;
    else if (a === '--simulate') simulate = true;
    else if (a === '--nodes' || a.startsWith('--nodes=')) {
      const v = a.includes('=') ? a.slice('--nodes='.length) : argv[++i];
      nodes = Number(v);
      if (!Number.isInteger(nodes) || nodes < 0) {
        process.stderr.write(`--nodes: expected a whole number >= 0, got ${JSON.stringify(v)}\n`);
        usage();
      }
    } else usage();
  }
  return { nodes, keep, simulate };
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const started = Date.now();
  const cp = await ControlPlane.start({ nodes: devClusterNodes(args.nodes, args.simulate), keepDir: args.keep });
  const control = await startControlServer(cp);
  cp.info.control = control.endpoint;
  const infoFile = cp.writeInfo();
  const { info } = cp;
  const mib = (n: number) => `${Math.round(n / 1024 / 1024)} MiB`;
  const memory = cp.memory();
  const total = Object.values(memory).reduce((a, b) => a + b, 0);
  process.stdout.write(
    [
      '',
      `Kubernetes ${info.kubernetesVersion} control plane ready in ${((Date.now() - started) / 1000).toFixed(1)} s at ${info.server}`,
      `fake nodes (kwok): ${info.nodes.join(', ') || '(none)'}`,
      args.simulate
        ? 'SIMULATING: kwok marks every Pod Running and every Job Pod Succeeded; no container runs, so an application "succeeds" without running'
        : `no container runs on these nodes: Pods stay Pending (taint ${FAKE_NODE_TAINT.key}=${FAKE_NODE_TAINT.value}); synth, apply, preflight and status work; \`npm run node-cluster\` runs Pods for real`,
      `memory: ${Object.entries(memory)
        .map(([k, v]) => `${k} ${mib(v)}`)
        .join(', ')}; total ${mib(total)}`,
      `logs: ${info.logDir}`,
      `admin token (system:masters): ${info.adminToken}`,
      '',
      'In another shell:',
      `  export KUBECONFIG=${info.kubeconfig}`,
      '  kubectl get nodes',
      '',
      ...(args.simulate
        ? [
            'To run the cluster-tier tests against this control plane instead of starting one per run:',
            `  export ${CLUSTER_ENV}=${infoFile}`,
          ]
        : ['(the cluster-tier tests need `--simulate` to reuse it)']),
      '',
      'Press Ctrl-C to stop everything.',
      '',
    ].join('\n'),
  );

  runInForeground({
    what: 'the control plane',
    stop: async () => {
      await control.close();
      await cp.stop();
    },
    stopped: args.keep ? `stopped; kept ${info.dir}` : 'stopped; temporary files removed',
    leftover: 'the watchdog kills what is left',
    deadComponent: () => {
      const p = cp.processList.find((c) => !c.running && !c.isStopping);
      return p && `${p.name} ${p.exitDescription}; last lines of ${p.logFile}:\n${p.tail(40)}`;
    },
  });
}

main().catch((e: unknown) => {
  process.stderr.write(`dev-cluster: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
