// bench/failover --node (issue #30): bench/failover's HA failover on a real node (containerd, runc,
// the CNI Pod network, kube-proxy, kube-router, CoreDNS: tools/local-stack/real-node), against bare
// Zeta in containers on the same node — both side by side, taking turns, with the same trial
// (failover-trial.ts) and the same tables as the local bench:
//   - HA application: its active master's Pod deleted through the API; the job read through its
//     ClusterIP REST Service every 100 ms (failover-node-ha.ts);
//   - bare Zeta: a plain manifest of 2 master and 2 worker Pods with `restartPolicy: Always`; the
//     active master's JVM gets SIGTERM and the kubelet restarts it in place; the job read on the
//     standby's Pod IP (failover-node-bare.ts).
// Both clients run in one process inside a client Pod's network namespace (failover-node-probe):
// this machine has no route to Pod or Service addresses, and the application's NetworkPolicy admits
// only its own Pods on the member port, so the client Pod carries the application's id.
//
//   npm run bench:failover -- --node   (root; BENCH_FAILOVER_TRIALS=5, BENCH_FAILOVER_TABLES=300,
//   BENCH_FAILOVER_NODE_CPU=0.2 cores a Pod, BENCH_FAILOVER_NODE_BACKOFF=wait|ignore)

import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { LABELS } from '../lib/model/reserved';
import { adminHttp, createTestNamespace } from '../test/support/cluster';
import { prepareNamespace } from '../test/support/node-ha-app';
import { imageRef, startPod } from '../test/support/node-pods';
import { CLUSTER_ENV } from '../tools/local-stack/control-server';
import { NodeCluster } from '../tools/local-stack/real-node/node-cluster';
import type { NodeInfo } from '../tools/local-stack/real-node/real-node';
import { stats, TARGET_MS, trialTable } from './failover';
import { BACKOFF, startBareOnNode, type Restart } from './failover-node-bare';
import { CPU_CORES, haOnNode, MEMORY_MB, SPLIT_READ_INTERVAL_MS, submitHa } from './failover-node-ha';
import { containerIdOf, containerPid, NetnsHttp, PodLogs, type NodeBench } from './failover-node-net';
import { countAll, ROWS_PER_TABLE } from './failover-rows';
import { CHECKPOINT_MS, CLAIM, interleavedTrials, POLL_MS, SETTLE_MS, TABLES, TRIALS } from './failover-trial';
import type { Counted, Trial } from './failover-trial';
import { table } from './harness';

/** The target of issue #30: HA failover within 1.2× bare Zeta's on the real node (medians). */
const RATIO_TARGET = 1.2;

/**
 * A Pod to read from (it only holds a network namespace: it sleeps), labelled as one of the
 * application's; resolves with a process in it, for nsenter.
 */
async function clientPod(namespace: string, node: NodeInfo, appId: string): Promise<number> {
  const name = 'failover-client';
  await startPod(namespace, name, imageRef('seatunnel'), ['sleep', '2147483647'], {
    labels: { [LABELS.applicationId]: appId },
    cpu: '10m',
    memory: '32Mi',
  });
  const pod = await adminHttp().call<{ status?: { containerStatuses?: Array<{ containerID?: string }> } }>(
    'GET',
    `/api/v1/namespaces/${namespace}/pods/${name}`,
  );
  const pid = await containerPid(node, containerIdOf(pod) ?? '');
  if (!pid) throw new Error(`no running container in the client Pod ${name}`);
  return pid;
}

type Result = Counted & { trials: Trial[] };

function report(ha: Result & { startMs: number; inPlace: string[] }, bare: Result & { restarts: Restart[] }): void {
  const haMs = ha.trials.map((t) => t.recoveredAt - t.lostAt);
  const bareMs = bare.trials.map((t) => t.recoveredAt - t.lostAt);
  const [haP50] = stats(haMs);
  const [bareP50] = stats(bareMs);
  console.log(
    `Failover of a streaming job on a real node (containerd, kubelet, CNI bridge, kube-proxy, kube-router, CoreDNS; 2 cores): FakeSource, ${TABLES} tables × ${ROWS_PER_TABLE} rows, one table every ${SPLIT_READ_INTERVAL_MS / 1000} s at most → Console; checkpoint every ${CHECKPOINT_MS} ms; 2 masters, 2 workers × 2 slots; every Zeta Pod ${CPU_CORES} core and ${MEMORY_MB} MiB (requests = limits).`,
  );
  console.log(
    `HA: one application serves all ${TRIALS} trials (delete the active master's Pod through the API, wait until the StatefulSet's replacement is Ready, ${SETTLE_MS} ms, repeat). Both run side by side on the node and take turns (bare, HA, HA, bare…).`,
  );
  console.log(
    `bare Zeta in containers: one plain manifest serves all ${TRIALS} trials (SIGTERM to the active master's JVM, the kubelet restarts the container in place — restartPolicy Always — wait until it is Ready, ${SETTLE_MS} ms, repeat; ${BACKOFF === 'wait' ? "a trial waits until the kubelet's restart back-off has reset" : "the kubelet's restart back-off is not waited out"}).`,
  );
  console.log(
    `Times in ms from the loss. "RUNNING again": the arrival of the first job-info reading RUNNING (polled every ${POLL_MS} ms from a client Pod: HA through the ClusterIP REST Service, bare on the standby's Pod IP) after one that did not; if the job never read otherwise, the survivor's "restore job … from master active switch finished" log line.`,
  );
  console.log('');
  console.log(trialTable('HA application', ha.trials, ha));
  console.log('');
  console.log(trialTable('bare Zeta', bare.trials, bare));
  console.log('');
  console.log(
    table(
      [
        'bare Zeta restarts by the kubelet',
        'master',
        'restart count',
        'JVM last line → new process (ms)',
        'waited for the back-off to reset (s)',
      ],
      // Whole numbers as text: the table prints small numbers with three decimals.
      bare.restarts.map((r, i) => [
        `trial ${i + 1}`,
        r.pod,
        String(r.count),
        r.delayMs === undefined ? '–' : String(r.delayMs),
        String(Math.round(r.waitedMs / 1000)),
      ]),
    ),
  );
  console.log('');
  const [haT, bareT] = [ha, bare].map((c) => countAll(c.rows, c.emitted));
  const totals = (xs: readonly number[], c: ReturnType<typeof countAll>) =>
    [xs.length, c.seen, c.lost, c.duplicated].map(String);
  console.log(
    table(
      [
        'RUNNING again after the loss (ms), on a real node',
        'p50',
        'min',
        'max',
        'trials',
        'rows seen',
        'lost',
        'duplicated',
        'ratio',
      ],
      [
        ['bare Zeta failover (Pods, kubelet restart)', ...stats(bareMs), ...totals(bareMs, bareT), '1.00x'],
        ['HA application failover', ...stats(haMs), ...totals(haMs, haT), `${(haP50 / bareP50).toFixed(2)}x bare`],
      ],
    ),
  );
  console.log(`HA application start (submit → job RUNNING through the Service): ${ha.startMs} ms`);
  console.log(
    `Containers of the HA application restarted in place: ${ha.inPlace.length ? ha.inPlace.join('; ') : 'none'}`,
  );
  const close = haP50 <= bareP50 * RATIO_TARGET;
  console.log(
    `Target: HA failover p50 at most ${RATIO_TARGET}x bare Zeta's on the real node (${(haP50 / bareP50).toFixed(2)}x: ${close ? 'met' : 'MISSED'}); under ${TARGET_MS / 1000} s (${(haP50 / 1000).toFixed(1)} s: ${haP50 < TARGET_MS ? 'met' : 'MISSED'}).`,
  );
}

export async function runOnNode(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-failover-node-'));
  console.error(`[failover] work directory ${dir}; starting a one-node cluster`);
  const nc = await NodeCluster.start({ nodes: 1 });
  const interrupted = () => {
    console.error('[failover] interrupted: stopping the node cluster');
    void nc.stop().finally(() => process.exit(130));
  };
  process.once('SIGINT', interrupted).once('SIGTERM', interrupted);
  let http: NetnsHttp | undefined;
  let results: Parameters<typeof report> | undefined;
  try {
    // The node tier's helpers (adminHttp, node-pods, node-rows, node-ha-app) find the cluster through its info file.
    process.env[CLUSTER_ENV] = nc.controlPlane.writeInfo();
    const namespace = await createTestNamespace('bench-failover', { 'pod-security.kubernetes.io/enforce': 'baseline' });
    await prepareNamespace(namespace, CLAIM, dir);
    const node = nc.info.node[0];
    // The application first: the client Pod carries its id.
    const sub = await submitHa({ namespace, dir });
    console.error(`[failover] HA application ${sub.appId} submitted (Zeta job ${sub.jobId})`);
    http = new NetnsHttp(await clientPod(namespace, node, sub.appId));
    const b: NodeBench = { namespace, dir, node, http, logs: new PodLogs(node, namespace) };
    // Both start at once: the application's start is timed while bare Zeta starts too, as it runs.
    const [bareUp, haUp] = await Promise.all([startBareOnNode(b), haOnNode(b, sub)]);
    console.error(`[failover] bare Zeta job ${bareUp.jobId} RUNNING; HA application RUNNING after ${haUp.startMs} ms`);
    const trials = await interleavedTrials([bareUp, haUp]);
    const inPlace = await haUp.restarts();
    results = [
      { trials: trials.get(haUp.name)!, startMs: haUp.startMs, inPlace, ...(await haUp.finish()) },
      { trials: trials.get(bareUp.name)!, restarts: bareUp.restarts, ...(await bareUp.finish()) },
    ];
  } finally {
    process.removeListener('SIGINT', interrupted).removeListener('SIGTERM', interrupted);
    http?.close();
    await nc.stop();
  }
  fs.rmSync(dir, { recursive: true, force: true });
  report(...results);
}
