// One failover trial of bench/failover, whatever runs the masters (bare Zeta processes or the HA
// application's Pods): lose the active master, time until a client reads the job RUNNING again and
// until the replacement is ready; and what every set-up shares — the streaming job with its
// checkpoints, the log lines that mark the takeover, the rows the workers' logs count.

import * as fs from 'node:fs';
import * as path from 'node:path';
import { countedJob, emittedTables, sinkRows, zetaLogTime, type Emitted, type SinkRow } from './failover-rows';
import { sleep } from './harness';

export const TRIALS = Number(process.env.BENCH_FAILOVER_TRIALS ?? 5);
export const TABLES = Number(process.env.BENCH_FAILOVER_TABLES ?? 300);
export const CHECKPOINT_MS = 2000;
/** After a replacement is ready: let a few checkpoints complete before the next loss. */
export const SETTLE_MS = 3 * CHECKPOINT_MS;
export const POLL_MS = 100;
/** A job-info read may take seconds on a loaded master (it rebuilds the job's DAG): a client waits. */
export const READ_TIMEOUT_MS = 5000;
/** The HA checkpoint claim (bare Zeta's spec names it too, to pass validation). */
export const CLAIM = 'failover-checkpoints';
export const JOB = countedJob(TABLES, CHECKPOINT_MS);

export const ACTIVE = /This node become a new active master node/;
const RESTORE_BEGIN = (jobId: string) => new RegExp(`begin restore job \\(${jobId}\\) from master active switch`);
const RESTORE_DONE = (jobId: string) => new RegExp(`restore job \\(${jobId}\\) from master active switch finished`);

/** The engine file with the checkpoint interval and the directory every master reads and writes. */
export function engineFile(checkpoints: string): string {
  return `seatunnel:\n  engine:\n    checkpoint:\n      interval: ${CHECKPOINT_MS}\n      storage:\n        plugin-config:\n          namespace: ${checkpoints}/\n`;
}

export function checkpointFiles(checkpoints: string, jobId: string): number {
  const dir = path.join(checkpoints, jobId);
  if (!fs.existsSync(dir)) return 0;
  return fs.readdirSync(dir, { recursive: true }).length;
}

/** What the workers' logs say: rows the Console sink wrote, splits the source emitted. */
export interface Counted {
  rows: SinkRow[];
  emitted: Emitted[];
}

export const counted = (logs: readonly string[]): Counted => ({ rows: sinkRows(logs), emitted: emittedTables(logs) });

export interface Masters {
  /** The active master's name (Pod name or address). */
  active(): Promise<string>;
  /** Loses it: deletes the Pod, or signals the process. */
  lose(master: string): Promise<void>;
  /** The job's status as a client reads it through the stable endpoint; undefined if unreadable. */
  jobStatus(): Promise<string | undefined>;
  /** Logs of the masters other than `lost`. */
  survivorLogs(lost: string): string[];
  /** Resolves once `lost` is replaced and ready, with the time its replacement's process started. */
  replaced(lost: string): Promise<number | undefined>;
}

export interface Trial {
  lostAt: number;
  /** When the client first could not read RUNNING, if it ever did not. */
  downAt?: number;
  /** When the client read RUNNING again after that (the response's arrival). */
  upAt?: number;
  /** How long that read took. */
  upReadMs?: number;
  newActiveAt?: number;
  restoreBeginAt?: number;
  restoreDoneAt?: number;
  /** The event timed: upAt, or restoreDoneAt when the job never stopped being RUNNING for the client. */
  recoveredAt: number;
  event: 'client' | 'log';
  /** When the replacement's process started: it competes with the survivor's restore for the cores. */
  replacementStartedAt?: number;
  replacedAt: number;
}

export async function failover(m: Masters, jobId: string): Promise<Trial> {
  const lost = await m.active();
  const lostAt = Date.now();
  await m.lose(lost);
  let downAt: number | undefined;
  let upAt: number | undefined;
  let upReadMs: number | undefined;
  let doneAt: number | undefined;
  for (;;) {
    const t = Date.now();
    const s = await m.jobStatus();
    const now = Date.now();
    if (s !== 'RUNNING') downAt ??= now;
    // Only the new active master's RUNNING: a read that a survivor forwards to the old master, still
    // active while it shuts down, is not the job back (seen through a Service on a real node).
    else if (downAt !== undefined && zetaLogTime(m.survivorLogs(lost), ACTIVE, lostAt) !== undefined) {
      upAt = now;
      upReadMs = now - t;
      break;
    }
    doneAt = zetaLogTime(m.survivorLogs(lost), RESTORE_DONE(jobId), lostAt);
    if (s === 'RUNNING' && doneAt !== undefined) break;
    if (now - lostAt > 180_000) throw new Error(`job ${jobId} not RUNNING again 180 s after losing ${lost}`);
    await sleep(Math.max(0, POLL_MS - (now - t)));
  }
  const replacementStartedAt = await m.replaced(lost);
  const replacedAt = Date.now();
  const logs = m.survivorLogs(lost);
  const restoreDoneAt = zetaLogTime(logs, RESTORE_DONE(jobId), lostAt);
  return {
    lostAt,
    downAt,
    upAt,
    upReadMs,
    newActiveAt: zetaLogTime(logs, ACTIVE, lostAt),
    restoreBeginAt: zetaLogTime(logs, RESTORE_BEGIN(jobId), lostAt),
    restoreDoneAt,
    recoveredAt: upAt ?? doneAt!,
    event: upAt !== undefined ? 'client' : 'log',
    replacementStartedAt,
    replacedAt,
  };
}

/** A running cluster with its job, ready for trials; `finish` stops it and counts the rows. */
export interface SetUp {
  readonly name: string;
  readonly masters: Masters;
  readonly jobId: string;
  /** Until the job and both masters are back, then a few checkpoints. */
  settle(): Promise<void>;
  finish(): Promise<Counted>;
}

/**
 * Both clusters run side by side and take turns (bare, HA, HA, bare, bare, HA…): each trial of one
 * runs under the other's background load, and neither gets the quieter half of the run. Run one
 * after the other, the two saw different load from the rest of the machine (docs/performance.md).
 */
export async function interleavedTrials(setUps: readonly SetUp[]): Promise<Map<string, Trial[]>> {
  const out = new Map<string, Trial[]>(setUps.map((u) => [u.name, []]));
  for (let i = 0; i < TRIALS; i++) {
    for (const u of i % 2 === 0 ? setUps : [...setUps].reverse()) {
      await u.settle();
      const t = await failover(u.masters, u.jobId);
      out.get(u.name)!.push(t);
      console.error(
        `[failover] ${u.name} trial ${i + 1}: RUNNING again after ${t.recoveredAt - t.lostAt} ms (${t.event}), replacement ready after ${t.replacedAt - t.lostAt} ms`,
      );
    }
  }
  return out;
}
