// bench/faults (issue #25): an HA application (3 masters, 3 workers, worker-failure-policy replace,
// a counted stream) on three real nodes through a lost node (with the active master; with a worker),
// a 60 s partition of the active master's node, an API-server outage, the active master's process
// killed and a worker's; and, next to it, bare Zeta on the same machine through the faults it can
// have (a master process killed, a worker process killed). Per fault: how long until rows flow
// again, how long until the application is whole again, and the rows lost and duplicated in its
// window — p50 and max over the trials, one table, then the issue's targets. It prints; it asserts
// nothing.
//
//   npm run bench:faults   (BENCH_FAULTS_TRIALS=5, BENCH_FAULTS_API_MINUTES=10; needs root)
//   BENCH_FAULTS_TABLES: a trial's stream (default: enough for its faults); BENCH_FAULTS_NODE_GRACE_SECONDS:
//   the node controller's grace period for a silent node (default Kubernetes' 50 s); BENCH_FAULTS_ONLY=cluster
//   or bare: one side only. BENCH_FAULTS_STEPS=master-process,worker-process (any of node-active-master,
//   node-worker, partition, api-server, master-process, worker-process): those of the node cluster's faults
//   only. BENCH_FAULTS_BARE_CPU: cores per bare Zeta member (default the application's JVMs', 0.25; 0: no
//   limit). BENCH_FAULTS_RECORD=file: append every finished trial's figures to it;
//   BENCH_FAULTS_EARLIER=file[,file]: summarize earlier runs' recorded trials with this run's, when they
//   were made under the same conditions (faults-record.ts). BENCH_FAULTS_TRIALS=0 with BENCH_FAULTS_EARLIER: start
//   nothing, print the recorded trials' tables (the conditions given by the same variables).

import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { countAll } from './failover-rows';
import { bareTrials } from './faults-bare';
import { CHECKPOINT_MS, startFaultCluster } from './faults-cluster';
import {
  figuresOf,
  PAUSE_MS,
  summarize,
  summaryTable,
  selectFaults,
  tablesForTrial,
  targetLines,
  type FaultFigures,
} from './faults-measure';
import { appendRecord, readEarlier, type RunInfo } from './faults-record';
import { clusterTrial, PARTITION_MS, steps } from './faults-trial';
import { table } from './harness';
import { HA_APP_CPU_CORES } from '../test/support/node-ha-app';

/** A whole number from the environment, with a message naming the variable, the value and the rule. */
function envInt(name: string, fallback: number, min: number, max: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max)
    throw new Error(`${name}: expected a whole number from ${min} to ${max}, got ${JSON.stringify(raw)}`);
  return n;
}

/** 0: no trial of this run; the earlier runs' recorded trials are summarized (BENCH_FAULTS_EARLIER is then required). */
const TRIALS = envInt('BENCH_FAULTS_TRIALS', 5, 0, 50);
const API_MINUTES = envInt('BENCH_FAULTS_API_MINUTES', 10, 1, 60);
/** The cluster faults of each trial (BENCH_FAULTS_STEPS; all by default). */
const KINDS = selectFaults(process.env.BENCH_FAULTS_STEPS);
/** Tables of a trial's stream (one a second); BENCH_FAULTS_TABLES overrides the estimate. */
const TABLES = envInt('BENCH_FAULTS_TABLES', tablesForTrial(API_MINUTES, KINDS), 60, 4000);
/** The node controller's grace period for a silent node; unset: Kubernetes' default (50 s). */
const NODE_GRACE = process.env.BENCH_FAULTS_NODE_GRACE_SECONDS
  ? envInt('BENCH_FAULTS_NODE_GRACE_SECONDS', 50, 5, 300)
  : undefined;
/** BENCH_FAULTS_ONLY=cluster or bare: one side only (unset: both). */
const ONLY = ((v) => {
  if (v === undefined || v === '' || v === 'cluster' || v === 'bare') return v || undefined;
  throw new Error(`BENCH_FAULTS_ONLY: expected cluster or bare (or unset for both), got ${JSON.stringify(v)}`);
})(process.env.BENCH_FAULTS_ONLY);
/**
 * Cores per bare Zeta member (a cgroup's CPU quota each): by default the faults application's JVMs'
 * (HA_APP_CPU_CORES), so both sides start and run their JVMs at the same speed; 0: no limit (the
 * whole machine, as runs before 2026-12-08 had).
 */
const BARE_CPU = ((v) => {
  if (v === undefined || v === '') return HA_APP_CPU_CORES;
  const n = Number(v);
  if (!Number.isFinite(n) || n < 0 || n > 64)
    throw new Error(`BENCH_FAULTS_BARE_CPU: expected cores from 0 (no limit) to 64, got ${JSON.stringify(v)}`);
  return n;
})(process.env.BENCH_FAULTS_BARE_CPU);
/** Bare Zeta's two faults and their settling take about two minutes a trial: its stream for all trials. */
const BARE_TABLES = TRIALS * 150 + 300;

/** This run, as its record lines name it; the commit read from git (with "-dirty" for uncommitted changes). */
const RUN: RunInfo = {
  run: `${new Date().toISOString().slice(0, 16)}Z`,
  commit: (() => {
    const git = (args: string[]) =>
      execFileSync('git', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    try {
      return `${git(['rev-parse', '--short=12', 'HEAD']).trim()}${git(['status', '--porcelain']).trim() ? '-dirty' : ''}`;
    } catch {
      return 'unknown';
    }
  })(),
  conditions: {
    apiMinutes: API_MINUTES,
    partitionMs: PARTITION_MS,
    nodeGraceSeconds: NODE_GRACE ?? null,
    checkpointMs: CHECKPOINT_MS,
  },
};
const RECORD = process.env.BENCH_FAULTS_RECORD || undefined;
/** Read and checked before anything starts: a bad record is an error now, not after hours of trials. */
const EARLIER = readEarlier(process.env.BENCH_FAULTS_EARLIER, RUN.conditions);
if (TRIALS === 0 && EARLIER.length === 0)
  throw new Error(
    `BENCH_FAULTS_TRIALS=0 runs no trial and only summarizes recorded ones: BENCH_FAULTS_EARLIER must name a record with trials under these conditions (${JSON.stringify(RUN.conditions)}), got ${JSON.stringify(process.env.BENCH_FAULTS_EARLIER ?? '')}`,
  );
/** Keeps a finished trial's figures in the record at once: a later interrupt does not lose them. */
const record = (figures: readonly FaultFigures[]) => {
  if (RECORD) appendRecord(RECORD, RUN, figures);
};

type Totals = ReturnType<typeof countAll> & { name: string };

async function clusterFigures(dir: string): Promise<{ figures: FaultFigures[]; totals: Totals[] }> {
  const cluster = await startFaultCluster(dir, NODE_GRACE);
  const figures: FaultFigures[] = [];
  const totals: Totals[] = [];
  const stop = () => {
    // Hours of trials are not thrown away by one interrupt: the finished trials' table first.
    if (figures.length) {
      const done = summaryTable(summarize(figures));
      console.error(`[faults] interrupted; the finished trials' figures:\n${table(done.head, done.cells)}`);
    }
    console.error('[faults] interrupted: stopping the node cluster');
    void cluster.stop().finally(() => process.exit(130));
  };
  process.once('SIGINT', stop).once('SIGTERM', stop);
  try {
    for (let trial = 1; trial <= TRIALS; trial++) {
      let stopped: string | undefined;
      const t = await clusterTrial(cluster, trial, TABLES, API_MINUTES, KINDS).catch((e: Error) => {
        console.error(`[faults] trial ${trial} stopped: ${e.stack ?? e.message}`);
        stopped = e.message;
        return undefined;
      });
      if (!t) {
        // A trial whose application did not live to its first fault counts against every fault, as not run.
        const f = steps(API_MINUTES, KINDS).map((step): FaultFigures => ({
          kind: step.kind,
          trial,
          at: Date.now(),
          error: `not run: ${stopped ?? 'the trial stopped'}`,
          lost: 0,
          duplicated: 0,
          drained: true,
        }));
        figures.push(...f);
        record(f);
        await cluster.makeWhole();
        continue;
      }
      const f = figuresOf(t.runs, t.stream, t.streamEnd);
      for (const x of f)
        console.error(
          `[faults] trial ${trial} ${x.kind}: rows again ${x.rowsAgainMs ?? '–'} ms, lost ${x.lost}, duplicated ${x.duplicated}`,
        );
      figures.push(...f);
      record(f);
      totals.push({ name: `HA application, trial ${trial}`, ...countAll(t.stream.rows, t.stream.emitted) });
    }
  } finally {
    process.removeListener('SIGINT', stop).removeListener('SIGTERM', stop);
    await cluster.stop();
  }
  return { figures, totals };
}

type Figures = { figures: FaultFigures[]; totals: Totals[] };

/** This run's trials: the node cluster's, then bare Zeta's (either may be left out by BENCH_FAULTS_ONLY). */
async function thisRunsTrials(): Promise<Figures> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-faults-'));
  console.error(
    `[faults] work directory ${dir}; ${TRIALS} trial(s), API server away ${API_MINUTES} min; run ${RUN.run} on ${RUN.commit}` +
      (RECORD ? `; recording to ${RECORD}` : '') +
      (EARLIER.length ? `; ${EARLIER.length} figure(s) of earlier runs read` : ''),
  );
  const none: Figures = { figures: [], totals: [] };
  const ha =
    ONLY === 'bare'
      ? none
      : await clusterFigures(dir).catch((e: Error) => {
          console.error(`[faults] the node cluster's trials stopped: ${e.stack ?? e.message}`);
          return none;
        });
  if (ha.figures.length) {
    // The cluster's figures as soon as they exist (the bare trials take a while yet).
    const interim = summaryTable(summarize(ha.figures));
    console.error(`[faults] the node cluster's figures:\n${table(interim.head, interim.cells)}`);
  }
  const figures = [...ha.figures];
  const totals = [...ha.totals];
  if (ONLY !== 'cluster')
    await bareTrials(dir, TRIALS, BARE_TABLES, BARE_CPU || undefined).then(
      (bare) => {
        const f = figuresOf(bare.runs, bare.stream, bare.streamEnd);
        figures.push(...f);
        record(f);
        totals.push({ name: 'bare Zeta', ...countAll(bare.stream.rows, bare.stream.emitted) });
      },
      (e: Error) => console.error(`[faults] the bare Zeta trials stopped: ${e.stack ?? e.message}`),
    );
  return { figures, totals };
}

async function run(): Promise<void> {
  const { figures, totals } = TRIALS > 0 ? await thisRunsTrials() : { figures: [], totals: [] };

  console.log(
    `Faults of an HA application (3 masters, 3 workers × 2 slots, worker-failure-policy replace) on 3 real nodes, ${TRIALS ? `${TRIALS} trial(s)` : 'no trial in this run (BENCH_FAULTS_TRIALS=0): the recorded trials only'}, one application per trial; bare Zeta (3 masters, 3 workers, processes on loopback, ${BARE_CPU ? `each limited to ${BARE_CPU} core as the application's containers are` : 'no CPU limit'}) on the same machine.`,
  );
  if (TRIALS > 0)
    console.log(
      `Stream: FakeSource, ${TABLES} tables × 5 rows per trial (about one table a second) → Console, checkpoint every ${CHECKPOINT_MS / 1000} s; every row id known, counted in the workers' logs.`,
    );
  console.log(
    `Lost nodes: stopped at once (every process SIGKILLed, links silent); once NotReady (node-monitor-grace-period ${NODE_GRACE ?? '50 (default)'} s), the out-of-service taint; the node back after the application is whole. Partition: ${PARTITION_MS / 1000} s. API server: SIGKILL, back after ${API_MINUTES} min. Processes killed: the container SIGKILLed on its node (the active master's: restarted in place by the kubelet; the worker writing the rows: created again by the runtime), as bare Zeta's processes are. Faults run: ${KINDS.join(', ')}.`,
  );
  console.log(
    `"rows again": from the fault until the end of the last pause of more than ${PAUSE_MS / 1000} s in the sink's rows (0: they never paused). "whole again": from the fault's end (the stop, the heal, the API server's return) until 3 masters and 3 workers are ready on Ready nodes and every master counts the same 6 members (after a kill: the killed container restarted or its Pod replaced); bare: every master counts the same 6 members, the killed one gone.`,
  );
  console.log(
    "Rows lost: of the tables the source emitted in the fault's window, ids never written; duplicated: ids written again in the window.",
  );
  const earlierRuns = [...new Set(EARLIER.map((f) => f.run))];
  if (earlierRuns.length)
    console.log(
      `With the recorded trials of ${earlierRuns.length} earlier run(s) under the same conditions (${earlierRuns.join(', ')}): their trials are labelled run#trial; this run is ${RUN.run} on ${RUN.commit}.`,
    );
  console.log('');
  figures.unshift(...EARLIER);
  const ms = (x: number | undefined) => (x === undefined ? '–' : String(x));
  console.log(
    table(
      ['trial', 'fault', 'rows again (ms)', 'whole again (ms)', 'lost', 'duplicated', 'seen'],
      figures.map((f) => [
        f.run ? `${f.run}#${f.trial}` : String(f.trial),
        f.kind,
        f.drained ? 'drained' : ms(f.rowsAgainMs),
        f.error ? 'FAILED' : ms(f.wholeMs),
        String(f.lost),
        String(f.duplicated),
        f.note ?? '',
      ]),
    ),
  );
  console.log('');
  const { head, cells } = summaryTable(summarize(figures));
  console.log(table(head, cells));
  console.log('');
  if (totals.length)
    console.log(
      table(
        ['stream', 'rows written', 'distinct', 'lost', 'duplicated'],
        totals.map((t) => [t.name, String(t.seen), String(t.distinct), String(t.lost), String(t.duplicated)]),
      ),
    );
  console.log('');
  for (const line of targetLines(summarize(figures))) console.log(line);
  const failed = figures.filter((f) => f.error);
  if (failed.length) {
    console.log('');
    for (const f of failed) console.log(`FAILED: trial ${f.run ? `${f.run}#` : ''}${f.trial} ${f.kind}: ${f.error}`);
  }
}

// Exit when done: a keep-alive connection to the stopped API server must not hold the process.
run().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(e);
    process.exit(1);
  },
);
