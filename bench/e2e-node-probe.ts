// bench/e2e --node's reads of a master's REST, run by the bench inside the real node's network
// namespace (`ip netns exec`): this machine has no route to Pod addresses, and from the Pod's own
// node the application's NetworkPolicy admits it (kube-router lets a node reach its local Pods, as
// the kubelet's probes need). The same ClusterWatch and REST calls as bench/e2e's local set-ups.
//
//   node e2e-node-probe.js watch <host> <port>          until the workers are registered
//   node e2e-node-probe.js run <host> <port> <job name>  and then bare Zeta's job through REST
//   <t0 ms>: the set-up's start, which bare Zeta's phases count from
//
// Prints one JSON line on stdout: the watch's times (epoch ms, this machine's clock, as the Pods'
// log timestamps), or bare Zeta's phases.

import { watchAndRun } from './e2e-baselines';
import { ClusterWatch } from './e2e-measure';

const REGISTRATION_MS = 300_000;

async function main(argv: readonly string[]): Promise<unknown> {
  const [mode, host, portText, a, b] = argv;
  const port = Number(portText);
  if (!host || !Number.isInteger(port))
    throw new Error(`usage: e2e-node-probe watch|run <host> <port> …, got ${argv.join(' ')}`);
  if (mode === 'run') return watchAndRun(host, port, a, Number(b));
  if (mode !== 'watch') throw new Error(`e2e-node-probe: unknown mode ${JSON.stringify(mode)}`);
  const watch = new ClusterWatch(() => host, port);
  try {
    await watch.registration(REGISTRATION_MS);
    return { up: watch.up, joined: watch.joined, registered: watch.registered };
  } finally {
    await watch.stop();
  }
}

main(process.argv.slice(2)).then(
  (r) => process.stdout.write(`${JSON.stringify(r)}\n`),
  (e: Error) => {
    process.stderr.write(`${e.stack ?? e.message}\n`);
    process.exit(1);
  },
);
