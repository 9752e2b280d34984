// Whether the node tier's shared cluster can run an application, checked before each test file of
// the tier (test/support/node-health-gate.ts) and after the faults test has undone its faults. A file
// that starts on a broken cluster (a node that came back from a fault unable to start Pods, CoreDNS
// or the Service network gone) would otherwise spend every test's long timeouts waiting for an
// application that can never start — 43 minutes on one CI run — and report only "DEPLOYING".
// This says within a minute which node fails and how.
import { adminHttp, clusterInfo, createTestNamespace, deleteNamespace } from './cluster';
import { tailFile } from '../../tools/local-stack/process';
import { imageRef, nodeInfos, runPod } from './node-pods';
import { NODE_BIN } from './pod-probe';

interface NodeObject {
  spec?: { taints?: Array<{ key: string; effect: string }>; unschedulable?: boolean };
  status?: { conditions?: Array<{ type: string; status: string; message?: string }> };
}

interface ProbePod {
  spec?: { nodeName?: string };
  status?: {
    phase?: string;
    conditions?: Array<{ type: string; status: string; reason?: string; message?: string }>;
    containerStatuses?: Array<{ state?: { waiting?: { reason?: string; message?: string } } }>;
  };
}

/**
 * From inside a Pod: the kubernetes Service's name through the cluster DNS (CoreDNS behind its
 * ClusterIP, possibly on another node) and a TCP connection to the API server through its ClusterIP
 * (kube-proxy's rules). Exit 0 when both answer.
 */
const PROBE = String.raw`
const dns = require('dns'), net = require('net');
const name = 'kubernetes.default.svc.cluster.local';
const fail = (what) => { console.log('FAILED ' + what); process.exit(1); };
const timer = setTimeout(() => fail('no answer within 20 s'), 20000);
dns.lookup(name, (e, address) => {
  if (e) return fail('DNS lookup of ' + name + ': ' + e.code);
  const s = net.connect({ host: address, port: 443, timeout: 5000 }, () => {
    console.log('OK ' + name + ' = ' + address + ', port 443 answers');
    clearTimeout(timer);
    s.destroy();
  });
  s.on('timeout', () => fail('TCP ' + address + ':443 timed out'));
  s.on('error', (err) => fail('TCP ' + address + ':443: ' + err.code));
});
`;

/** What is wrong with one node for running Pods, or undefined. */
async function nodeProblem(ns: string, node: string, attempt: string, timeoutMs: number): Promise<string | undefined> {
  const o = await adminHttp().call<NodeObject>('GET', `/api/v1/nodes/${node}`);
  const ready = o.status?.conditions?.find((c) => c.type === 'Ready');
  if (ready?.status !== 'True') return `not Ready (Ready=${ready?.status ?? 'missing'}: ${ready?.message ?? ''})`;
  const taints = (o.spec?.taints ?? []).filter((t) => t.effect === 'NoSchedule' || t.effect === 'NoExecute');
  if (taints.length) return `tainted ${taints.map((t) => `${t.key}:${t.effect}`).join(', ')}`;
  if (o.spec?.unschedulable) return 'cordoned (unschedulable)';
  const name = `health-${node}-${attempt}`;
  const run = await runPod(ns, name, imageRef('toolbox'), [NODE_BIN, '-e', PROBE], { node, timeoutMs }).catch(
    () => undefined,
  );
  if (!run) {
    const pod = await adminHttp()
      .call<ProbePod>('GET', `/api/v1/namespaces/${ns}/pods/${name}`)
      .catch(() => undefined);
    return `a probe Pod did not finish within ${timeoutMs / 1000} s: ${podState(pod)}`;
  }
  if (run.phase === 'Succeeded') return undefined;
  return `a probe Pod failed: ${run.log.trim() || `exit code ${run.exitCode ?? 'unknown'} (${run.reason ?? 'no reason'})`}`;
}

function podState(p: ProbePod | undefined): string {
  if (!p) return 'never read';
  const unscheduled = p.status?.conditions?.find((c) => c.type === 'PodScheduled' && c.status !== 'True');
  if (unscheduled) return `not scheduled (${unscheduled.reason ?? ''}: ${unscheduled.message ?? ''})`;
  const state = p.status?.containerStatuses?.[0]?.state;
  const waiting = state?.waiting;
  if (waiting)
    return `${p.status?.phase} on ${p.spec?.nodeName}, ${waiting.reason ?? 'waiting'}: ${waiting.message ?? ''}`;
  return `${p.status?.phase ?? 'no phase'} on ${p.spec?.nodeName ?? 'no node'}`;
}

/**
 * Throws, naming each node that fails and how, unless every node is Ready, untainted, and runs a Pod
 * that resolves a Service name through the cluster DNS and reaches a ClusterIP. All nodes at once;
 * a node that fails is tried again until `patienceMs` has passed, since Kubernetes itself takes a
 * while to catch up after a fault (a controller's watch backs off up to a minute while the API server
 * is away; the node lifecycle controller lifts its taints only then). A recovery that needed a second
 * try is printed with its time, so it shows in the run's log.
 */
export async function assertNodesUsable(opts: { patienceMs?: number; probeTimeoutMs?: number } = {}): Promise<void> {
  const { patienceMs = 150_000, probeTimeoutMs = 60_000 } = opts;
  const t0 = Date.now();
  const ns = await createTestNamespace('health');
  try {
    let pending = nodeInfos().map((n) => n.name);
    const firstProblem = new Map<string, string>();
    for (let attempt = 1; ; attempt++) {
      const problems = await Promise.all(
        pending.map(async (node) => {
          const p = await nodeProblem(ns, node, `${attempt}`, probeTimeoutMs).catch(
            (e: Error) => `unknown: ${e.message}`,
          );
          return [node, p] as const;
        }),
      );
      for (const [node, p] of problems) {
        if (p && !firstProblem.has(node)) firstProblem.set(node, p);
        if (!p && firstProblem.has(node))
          process.stderr.write(
            `[node-health] ${node} runs Pods again after ${((Date.now() - t0) / 1000).toFixed(0)} s (at first: ${firstProblem.get(node)})\n`,
          );
      }
      const failed = problems.filter(([, p]) => p !== undefined).map(([node, p]) => `${node}: ${p}`);
      if (failed.length === 0) {
        process.stderr.write(
          `[node-health] every node runs Pods (checked in ${((Date.now() - t0) / 1000).toFixed(1)} s)\n`,
        );
        return;
      }
      if (Date.now() - t0 >= patienceMs)
        throw new Error(
          `the node cluster cannot run applications on every node (tried for ${((Date.now() - t0) / 1000).toFixed(0)} s):\n  ${failed.join('\n  ')}\n${logTails(failed)}`,
        );
      pending = problems.filter(([, p]) => p !== undefined).map(([node]) => node);
      await new Promise((r) => setTimeout(r, 5000));
    }
  } finally {
    await deleteNamespace(ns).catch(() => undefined);
  }
}

/** The last lines of the failing nodes' kubelet and containerd logs, and of the scheduler's and the controller manager's. */
function logTails(failed: string[]): string {
  const nodes = failed.map((f) => f.slice(0, f.indexOf(':')));
  const wanted = new Set([
    'kube-scheduler',
    'kube-controller-manager',
    ...nodes.flatMap((n) => [`${n}-kubelet`, `${n}-containerd`]),
  ]);
  return clusterInfo()
    .components.filter((c) => wanted.has(c.name))
    .map((c) => `----- ${c.name} (${c.logFile}) -----\n${tailFile(c.logFile, 15)}`)
    .join('\n');
}
