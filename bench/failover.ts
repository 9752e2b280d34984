// bench/failover (issue #10): how long a streaming job takes to be RUNNING again after its active
// master is lost, and how many rows that costs, in three set-ups on the same machine:
//   - HA application: the active master's Pod is deleted through the API (as `kubectl delete pod`);
//     the StatefulSet replaces it, the standby Zeta master takes over. The job is polled through
//     the ClusterIP Service (the local stack's proxy) every 100 ms.
//   - bare Zeta: the same engine files (2 masters + 2 workers) started directly on loopback
//     addresses; the active master's process gets SIGTERM (what the kubelet sends a deleted Pod),
//     the job is polled through the standby's REST, and the killed master is started again as soon
//     as it has exited, as the StatefulSet and the kubelet do for the HA application.
//   - non-HA recovery: `cancel --savepoint`, then a new application with `--restore-job-id`,
//     until its job is RUNNING again (polled on the new master's REST).
// One HA application and one bare cluster serve all their trials: kill the active master, time,
// wait until the replacement is ready again, let a few checkpoints pass, repeat. Both run side by
// side and take turns, so that both see the same background load.
//
//   npm run bench:failover   (BENCH_FAILOVER_TRIALS=5, BENCH_RESTORE_TRIALS=3, BENCH_FAILOVER_TABLES=300)
//   npm run bench:failover -- --node   (or BENCH_FAILOVER_NODE=1; root) HA application and bare Zeta in
//                                      containers on a real node (bench/failover-node.ts)

import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { nonHaRecovery, startHaApplication } from './failover-application';
import { RESTART_AFTER_RECOVERY, startBareZeta } from './failover-bare';
import { countAll, countPerWindow, ROWS_PER_TABLE, type RowCount } from './failover-rows';
import {
  CHECKPOINT_MS,
  CLAIM,
  interleavedTrials,
  POLL_MS,
  SETTLE_MS,
  TABLES,
  TRIALS,
  type Counted,
  type Trial,
} from './failover-trial';
import { median, table } from './harness';
import { startLocalPlane } from './local-plane';

export const TARGET_MS = 15_000;
const NAMESPACE = 'bench-failover';

export const stats = (xs: readonly number[]) => [median(xs), Math.min(...xs), Math.max(...xs)] as const;
const ms = (t: Trial, at: number | undefined) => (at === undefined ? '–' : at - t.lostAt);
const rowCells = (c: RowCount & { drained: boolean }) =>
  c.drained ? [String(c.seen), 'drained', 'drained'] : [c.seen, c.lost, c.duplicated].map(String);

export function trialTable(name: string, ts: readonly Trial[], c: Counted): string {
  const counts = countPerWindow(
    c.rows,
    c.emitted,
    ts.map((t) => t.lostAt),
  );
  const head = [
    name,
    'new active',
    'restore begin',
    'restore done',
    'client down',
    'RUNNING again',
    '(last read took)',
    'timed event',
    'replacement started',
    'replacement ready',
  ];
  return table(
    [...head, 'rows seen', 'lost', 'duplicated'],
    ts.map((t, i) => [
      `trial ${i + 1}`,
      ms(t, t.newActiveAt),
      ms(t, t.restoreBeginAt),
      ms(t, t.restoreDoneAt),
      ms(t, t.downAt),
      t.recoveredAt - t.lostAt,
      t.upReadMs ?? '–',
      t.event === 'client' ? 'client read RUNNING' : 'restore done (log)',
      ms(t, t.replacementStartedAt),
      t.replacedAt - t.lostAt,
      ...rowCells(counts[i]),
    ]),
  );
}

async function run(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-failover-'));
  console.error(`[failover] work directory ${dir}`);
  const plane = await startLocalPlane(dir, NAMESPACE, CLAIM);
  let bare: Counted & { trials: Trial[] };
  let ha: Counted & { trials: Trial[]; startMs: number };
  let plain: Awaited<ReturnType<typeof nonHaRecovery>>;
  try {
    const bareUp = await startBareZeta(dir);
    let bareFinished = false;
    try {
      const haUp = await startHaApplication(plane);
      const trials = await interleavedTrials([bareUp, haUp]);
      bareFinished = true;
      bare = { trials: trials.get(bareUp.name)!, ...(await bareUp.finish()) };
      ha = { trials: trials.get(haUp.name)!, startMs: haUp.startMs, ...(await haUp.finish()) };
    } finally {
      // The HA application goes with the control plane; the bare processes need their own stop.
      if (!bareFinished) await bareUp.finish().catch(() => undefined);
    }
    plain = await nonHaRecovery(plane);
  } finally {
    await plane.stop();
  }
  const haMs = ha.trials.map((t) => t.recoveredAt - t.lostAt);
  const bareMs = bare.trials.map((t) => t.recoveredAt - t.lostAt);
  const plainMs = plain.restores.map((r) => r.totalMs);
  const [haP50] = stats(haMs);
  const [bareP50] = stats(bareMs);
  const [plainP50] = stats(plainMs);

  console.log(
    `Failover of a streaming job (FakeSource, ${TABLES} tables × ${ROWS_PER_TABLE} rows, about one table a second → Console; checkpoint every ${CHECKPOINT_MS} ms; 2 masters, 2 workers × 2 slots).`,
  );
  console.log(
    `HA: one application serves all ${TRIALS} trials (delete the active master's Pod, wait until its replacement is ready, ${SETTLE_MS} ms, repeat). Both clusters run side by side and take turns (bare, HA, HA, bare…), so each sees the other's load.`,
  );
  console.log(
    `bare Zeta: one cluster serves all ${TRIALS} trials (SIGTERM the active master, start it again ${RESTART_AFTER_RECOVERY ? 'once the job is RUNNING again' : 'as soon as it has exited'}, wait until it is ready, ${SETTLE_MS} ms, repeat).`,
  );
  console.log(
    `Times in ms from the loss. "RUNNING again": the arrival of the first job-info reading RUNNING (polled every ${POLL_MS} ms through the stable endpoint) after one that did not; if the job never read otherwise, the survivor's "restore job … from master active switch finished" log line.`,
  );
  console.log('');
  console.log(trialTable('HA application', ha.trials, ha));
  console.log('');
  console.log(trialTable('bare Zeta', bare.trials, bare));
  console.log('');
  const plainCounts = countPerWindow(plain.rows, plain.emitted, plain.starts);
  console.log(
    table(
      [
        'non-HA recovery',
        'cancel --savepoint',
        'submit --restore-job-id',
        'job RUNNING',
        'total',
        'rows seen',
        'lost',
        'duplicated',
      ],
      plain.restores.map((r, i) => [
        `trial ${i + 1}`,
        r.cancelMs,
        r.submitMs,
        r.runningMs,
        r.totalMs,
        ...rowCells(plainCounts[i]),
      ]),
    ),
  );
  console.log('');
  const [haT, bareT, plainT] = [ha, bare, plain].map((c) => countAll(c.rows, c.emitted));
  const totals = (xs: readonly number[], c: ReturnType<typeof countAll>) =>
    [xs.length, c.seen, c.lost, c.duplicated].map(String);
  console.log(
    table(
      ['RUNNING again after the loss (ms)', 'p50', 'min', 'max', 'trials', 'rows seen', 'lost', 'duplicated', 'ratio'],
      [
        ['bare Zeta failover', ...stats(bareMs), ...totals(bareMs, bareT), '1.00x'],
        ['HA application failover', ...stats(haMs), ...totals(haMs, haT), `${(haP50 / bareP50).toFixed(2)}x bare`],
        [
          'non-HA: cancel --savepoint + restore',
          ...stats(plainMs),
          ...totals(plainMs, plainT),
          `${(plainP50 / haP50).toFixed(2)}x HA`,
        ],
      ],
    ),
  );
  console.log(`HA application start (submit → job RUNNING): ${ha.startMs} ms`);
  const under = haP50 < TARGET_MS;
  const close = haP50 <= bareP50 * 1.2;
  console.log(
    `Target: HA failover p50 under ${TARGET_MS / 1000} s (${(haP50 / 1000).toFixed(1)} s: ${under ? 'met' : 'MISSED'}) and at most 20 % slower than bare Zeta (${((haP50 / bareP50 - 1) * 100).toFixed(0)} % slower: ${close ? 'met' : 'MISSED'}).`,
  );
}

const ON_NODE = process.argv.includes('--node') || process.env.BENCH_FAILOVER_NODE === '1';

// Loaded only when asked for (and after this module, whose tables it prints).
(ON_NODE ? import('./failover-node.js').then((m) => m.runOnNode()) : run()).catch((e: unknown) => {
  console.error(e);
  process.exitCode = 1;
});
