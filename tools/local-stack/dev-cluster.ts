// `npm run dev-cluster`: the test control plane in the foreground, for trying `synth` +
// `kubectl apply` and the CLI without a real cluster. Builds missing binaries first.
// Ctrl-C (or SIGTERM) stops every component and removes the temporary directory.
//
//   npm run dev-cluster [-- --nodes 3] [-- --keep]
import { ControlPlane } from './control-plane';
import { CLUSTER_ENV, startControlServer } from './control-server';

function usage(): never {
  process.stderr.write(
    'usage: dev-cluster [--nodes N] [--keep]\n  --nodes N  fake nodes to create (default 3)\n  --keep     keep the temporary directory (logs, etcd data) after stopping\n',
  );
  process.exit(2);
}

function parseArgs(argv: string[]): { nodes: number; keep: boolean } {
  let nodes = 3;
  let keep = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--keep') keep = true;
    else if (a === '--nodes' || a.startsWith('--nodes=')) {
      const v = a.includes('=') ? a.slice('--nodes='.length) : argv[++i];
      nodes = Number(v);
      if (!Number.isInteger(nodes) || nodes < 0) {
        process.stderr.write(`--nodes: expected a whole number >= 0, got ${JSON.stringify(v)}\n`);
        usage();
      }
    } else usage();
  }
  return { nodes, keep };
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const started = Date.now();
  const cp = await ControlPlane.start({ nodes: args.nodes, keepDir: args.keep });
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
      'To run the cluster-tier tests against this control plane instead of starting one per run:',
      `  export ${CLUSTER_ENV}=${infoFile}`,
      '',
      'Press Ctrl-C to stop everything.',
      '',
    ].join('\n'),
  );

  let stopping = false;
  const stop = async (why: string, code: number) => {
    if (stopping) return;
    stopping = true;
    clearInterval(health);
    process.stdout.write(`\n${why}; stopping the control plane...\n`);
    await control.close();
    await cp.stop();
    process.stdout.write(args.keep ? `stopped; kept ${info.dir}\n` : 'stopped; temporary files removed\n');
    process.exit(code);
  };
  const onSignal = (sig: NodeJS.Signals) => {
    if (stopping) {
      process.stderr.write(`${sig} again: exiting now (the watchdog kills what is left)\n`);
      process.exit(130);
    }
    void stop(`${sig} received`, 0);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  process.on('SIGHUP', onSignal);
  // Keeps the process alive and notices a component that died.
  const health = setInterval(() => {
    for (const p of cp.processList) {
      if (!p.running && !p.isStopping) {
        process.stderr.write(`\n${p.name} ${p.exitDescription}; last lines of ${p.logFile}:\n${p.tail(40)}\n`);
        void stop(`${p.name} died`, 1);
        return;
      }
    }
  }, 2000);
}

main().catch((e: unknown) => {
  process.stderr.write(`dev-cluster: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
