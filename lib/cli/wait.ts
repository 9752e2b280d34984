// --wait: poll the status every --wait-interval until a terminal status (SUCCEEDED, FAILED,
// CANCELED) or UNKNOWN, or until --wait-timeout. On a terminal one line is redrawn in place
// (status, phase, registered/desired workers, elapsed); otherwise a plain line is printed each
// time the state changes. Transient API errors (timeouts, 5xx, 429) are retried for up to a
// minute, so an API server restart does not end the wait; any other error does.

import { FINAL_PHASES } from '../contract';
import { KubeApiError, describeError, type Kube } from '../kube';
import {
  readStatus,
  rowsText,
  TERMINAL_STATUSES,
  type ApplicationStatus,
  type StatusReport,
} from '../submit/observe/status';
import { CLI_EXIT } from './exit-codes';
import type { Output } from './output';

export const TRANSIENT_ERROR_BUDGET_MS = 60_000;

export interface WaitOutcome {
  readonly report: StatusReport;
  readonly timedOut: boolean;
  readonly elapsedMs: number;
}

export interface WaitOptions {
  readonly intervalMs: number;
  /** 0 = forever. */
  readonly timeoutMs: number;
  readonly now?: () => number;
  readonly sleep?: (ms: number) => Promise<void>;
  /** Reads the status (default: readStatus over `kube`). */
  readonly read?: () => Promise<StatusReport>;
}

/** SeaTunnel 3.1.0: SUCCEEDED and CANCELED 0, FAILED 1, UNKNOWN 2. */
export function waitExitCode(status: ApplicationStatus): number {
  if (status === 'SUCCEEDED' || status === 'CANCELED') return CLI_EXIT.ok;
  if (status === 'FAILED') return CLI_EXIT.failed;
  return CLI_EXIT.unknown;
}

export function elapsed(ms: number): string {
  const s = Math.floor(ms / 1000);
  const h = Math.floor(s / 3600);
  const mm = String(Math.floor((s % 3600) / 60)).padStart(2, '0');
  const ss = String(s % 60).padStart(2, '0');
  return h ? `${h}:${mm}:${ss}` : `${mm}:${ss}`;
}

/** One progress line: "RUNNING · phase Running · workers 2/2 · rows 1200 read, 1180 written, 118 rows/s · 00:42". */
export function progressText(r: StatusReport, ms: number): string {
  const parts = [r.reason ? `${r.status} (${r.reason})` : r.status];
  if (r.phase) parts.push(`phase ${r.phase}`);
  if (r.workers)
    parts.push(`workers ${r.workers.registered ?? r.workers.running}/${r.workers.desired ?? r.workers.pods}`);
  if (r.masters) parts.push(`masters ${r.masters.ready}/${r.masters.desired}`);
  if (r.rows) parts.push(`rows ${rowsText(r.rows)}`);
  parts.push(elapsed(ms));
  return parts.join(' · ');
}

const SETTLE_READS = 3;

/** Without a terminal, how often at most a line is printed for new rows alone (a long streaming job's log stays short). */
export const ROWS_LINE_INTERVAL_MS = 60_000;

const stateKey = (r: StatusReport) =>
  JSON.stringify([
    r.status,
    r.reason,
    r.phase,
    r.workers?.registered,
    r.workers?.desired,
    r.workers?.running,
    r.masters?.ready,
    r.masters?.failovers,
  ]);

export async function waitForApplication(
  kube: Kube,
  namespace: string,
  applicationId: string,
  out: Output,
  opts: WaitOptions,
): Promise<WaitOutcome> {
  const now = opts.now ?? Date.now;
  const sleep = opts.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const read = opts.read ?? (() => readStatus(kube, namespace, applicationId));
  const start = now();
  let last: StatusReport | undefined;
  let lastKey = '';
  let lastLineAt = 0;
  let failingSince: number | undefined;
  let settleReads = 0;
  for (;;) {
    try {
      const report = await read();
      failingSince = undefined;
      const key = stateKey(report);
      const t = now() - start;
      if (out.interactive) out.progress?.(progressText(report, t));
      else if (key !== lastKey || (report.rows?.at !== last?.rows?.at && t - lastLineAt >= ROWS_LINE_INTERVAL_MS)) {
        out.progress?.(
          `[${elapsed(t)}] ${report.status}${report.reason ? ` (${report.reason})` : ''}${report.phase ? ` phase ${report.phase}` : ''}${report.workers ? `, workers ${report.workers.registered ?? report.workers.running}/${report.workers.desired ?? report.workers.pods}` : ''}${report.rows ? `, rows ${rowsText(report.rows)}` : ''}${report.message && report.status !== 'RUNNING' ? ` — ${report.message}` : ''}`,
        );
        lastLineAt = t;
      }
      last = report;
      lastKey = key;
      if (TERMINAL_STATUSES.has(report.status) || report.status === 'UNKNOWN') {
        // The runtime records its terminal phase and reason before it exits, but a read can still
        // see the Pod's end before that write: look again briefly for the runtime's own account.
        if (
          report.status !== 'UNKNOWN' &&
          report.phase &&
          !FINAL_PHASES.has(report.phase) &&
          settleReads < SETTLE_READS
        ) {
          settleReads++;
          await sleep(Math.max(200, Math.min(opts.intervalMs, 1000)));
          continue;
        }
        if (out.interactive) out.progress?.(progressText(report, t), true);
        return { report, timedOut: false, elapsedMs: t };
      }
    } catch (e) {
      const transient = e instanceof KubeApiError && e.transient;
      if (!transient) throw e;
      if (failingSince === undefined) {
        failingSince = now();
        out.warn(`status query failed, retrying for up to ${TRANSIENT_ERROR_BUDGET_MS / 1000} s: ${describeError(e)}`);
      } else if (now() - failingSince > TRANSIENT_ERROR_BUDGET_MS) throw e;
    }
    const t = now() - start;
    if (opts.timeoutMs > 0 && t >= opts.timeoutMs) {
      if (out.interactive && last) out.progress?.(progressText(last, t), true);
      const report = last ?? (await read());
      return { report, timedOut: true, elapsedMs: t };
    }
    await sleep(opts.timeoutMs > 0 ? Math.min(opts.intervalMs, Math.max(1, opts.timeoutMs - t)) : opts.intervalMs);
  }
}
