// bench/faults' figures, pure: when rows flowed again after a fault, the rows each fault's window
// lost and duplicated, the table over all trials (p50 and max) and the issue's targets.

import { countPerWindow, type Emitted, type SinkRow } from './failover-rows';
import { median } from './harness';

export const FAULTS = {
  'node-active-master': 'node stopped (active master)',
  'node-worker': 'node stopped (worker, replace)',
  partition: 'partition 60 s (active master)',
  'api-server': 'API server stopped',
  'master-process': 'active master process killed',
  'worker-process': 'worker process killed (replace)',
  'bare-master': 'bare Zeta: master killed',
  'bare-worker': 'bare Zeta: worker killed',
} as const;
export type FaultKind = keyof typeof FAULTS;

/**
 * The bare fault each cluster fault is held against (the issue's "where both exist"): the same
 * process killed. A lost node is not one of them: bare Zeta's processes have no node to lose.
 */
export const BARE_COUNTERPART: Partial<Record<FaultKind, FaultKind>> = {
  'master-process': 'bare-master',
  'worker-process': 'bare-worker',
};

/** A pause in the sink's rows longer than this is the stream stopping (about one table a second when it runs). */
export const PAUSE_MS = 5000;

/** One fault as it was run: when it began, when the application was whole again (ms after `wholeFrom`). */
export interface FaultRun {
  readonly kind: FaultKind;
  readonly trial: number;
  /** When the fault began (ms since the epoch). */
  readonly at: number;
  /** ms from the fault's end (the stop, the heal, the API server's return) until the application was whole. */
  readonly wholeMs?: number;
  /** Why the run has no figure, when it failed. */
  readonly error?: string;
  /** What else was seen (which node, whether it held the task), for the log. */
  readonly note?: string;
  /** The earlier run it comes from (faults-record.ts); absent for this run's own. */
  readonly run?: string;
}

export interface FaultFigures extends FaultRun {
  /** ms from the fault until rows flowed again for good; 0: they never paused; undefined: never again. */
  readonly rowsAgainMs?: number;
  readonly lost: number;
  readonly duplicated: number;
  /** The stream had ended before the fault: its rows say nothing. */
  readonly drained: boolean;
}

/**
 * ms from `at` until the end of the last pause longer than `pauseMs` in the sink's rows before
 * `until`: when rows flow again for good. 0 when they never paused; undefined when no row came after
 * `at`. A pause that began shortly before `at` counts from its beginning (the fault's first effect
 * may come before the bench records it), at most `pauseMs` before.
 */
export function rowsAgainMs(
  rows: readonly SinkRow[],
  at: number,
  until: number,
  pauseMs = PAUSE_MS,
): number | undefined {
  const times = rows.map((r) => r.at).sort((a, b) => a - b);
  const before = times.filter((t) => t <= at);
  let prev = Math.max(before.length ? before[before.length - 1] : -Infinity, at - pauseMs);
  let again: number | undefined;
  let any = false;
  for (const t of times) {
    if (t <= at || t > until) continue;
    any = true;
    if (t - prev > pauseMs) again = t - at;
    prev = t;
  }
  return !any ? undefined : (again ?? 0);
}

/**
 * The figures of the faults run on one stream (one application, or one bare cluster): each fault's
 * window runs from its beginning to the next one's (the last to `streamEnd`); rows lost and
 * duplicated are charged by countPerWindow (a repeat to the window it appears in, a loss to the
 * window in which the source first emitted the row's table).
 */
export function figuresOf(
  runs: readonly FaultRun[],
  stream: { rows: readonly SinkRow[]; emitted: readonly Emitted[] },
  streamEnd: number,
): FaultFigures[] {
  const ordered = [...runs].sort((a, b) => a.at - b.at);
  const counts = countPerWindow(
    stream.rows,
    stream.emitted,
    ordered.map((r) => r.at),
  );
  return ordered.map((r, i) => {
    const until = i + 1 < ordered.length ? ordered[i + 1].at : streamEnd;
    const c = counts[i];
    return {
      ...r,
      rowsAgainMs: c.drained ? undefined : rowsAgainMs(stream.rows, r.at, until),
      lost: c.lost,
      duplicated: c.duplicated,
      drained: c.drained,
    };
  });
}

export interface SummaryRow {
  readonly kind: FaultKind;
  /** Trials with figures, and those that failed. */
  readonly trials: number;
  readonly failed: number;
  readonly rowsAgain?: { p50: number; max: number };
  readonly whole?: { p50: number; max: number };
  readonly lost: number;
  readonly duplicated: number;
  /** Trials whose stream had ended: their rows say nothing. */
  readonly drained: number;
}

const spread = (xs: ReadonlyArray<number | undefined>) => {
  const v = xs.filter((x): x is number => x !== undefined);
  return v.length ? { p50: median(v), max: Math.max(...v) } : undefined;
};

/**
 * One row per fault kind that was run, in FAULTS' order: times over the trials that succeeded, rows
 * over every trial whose stream still ran (a failed fault loses rows as much as any).
 */
export function summarize(figures: readonly FaultFigures[]): SummaryRow[] {
  return (Object.keys(FAULTS) as FaultKind[]).flatMap((kind) => {
    const all = figures.filter((f) => f.kind === kind);
    if (!all.length) return [];
    const ok = all.filter((f) => f.error === undefined);
    const counted = all.filter((f) => !f.drained);
    return [
      {
        kind,
        trials: ok.length,
        failed: all.length - ok.length,
        rowsAgain: spread(counted.filter((f) => f.error === undefined).map((f) => f.rowsAgainMs)),
        whole: spread(ok.map((f) => f.wholeMs)),
        lost: counted.reduce((n, f) => n + f.lost, 0),
        duplicated: counted.reduce((n, f) => n + f.duplicated, 0),
        drained: all.length - counted.length,
      },
    ];
  });
}

const secs = (ms: number | undefined) => (ms === undefined ? '–' : (ms / 1000).toFixed(1));

/** The table's header and cells (seconds with one decimal; "–" where there is no figure). */
export function summaryTable(rows: readonly SummaryRow[]): { head: string[]; cells: string[][] } {
  return {
    head: [
      'fault',
      'trials',
      'rows again p50 (s)',
      'max',
      'whole again p50 (s)',
      'max',
      'rows lost',
      'rows duplicated',
    ],
    cells: rows.map((r) => [
      FAULTS[r.kind],
      `${r.trials}${r.failed ? ` (+${r.failed} failed)` : ''}${r.drained ? ` (${r.drained} drained)` : ''}`,
      secs(r.rowsAgain?.p50),
      secs(r.rowsAgain?.max),
      secs(r.whole?.p50),
      secs(r.whole?.max),
      String(r.lost),
      String(r.duplicated),
    ]),
  };
}

/** A lost node is whole again within this (the issue's target). */
export const NODE_RECOVERY_TARGET_MS = 60_000;
/** No fault slower than bare Zeta's counterpart by more than this ratio. */
export const BARE_RATIO_TARGET = 1.2;

const verdict = (ok: boolean) => (ok ? 'met' : 'MISSED');

/** The issue's targets, one line each, with the figures they were judged on. */
export function targetLines(rows: readonly SummaryRow[]): string[] {
  const out: string[] = [];
  const byKind = new Map(rows.map((r) => [r.kind, r]));
  for (const r of rows) {
    const counted = r.trials + r.failed - r.drained;
    const failed = r.failed ? `, ${r.failed} of them failed` : '';
    out.push(
      `Target 0 rows lost — ${FAULTS[r.kind]}: ${r.lost} lost over ${counted} counted trial(s)${failed}: ${verdict(r.lost === 0 && counted > 0 && r.failed === 0)}`,
    );
  }
  for (const kind of ['node-active-master', 'node-worker'] as const) {
    const r = byKind.get(kind);
    if (!r) continue;
    const max = r.whole?.max;
    out.push(
      `Target lost node whole again in ≤ ${NODE_RECOVERY_TARGET_MS / 1000} s — ${FAULTS[kind]}: max ${secs(max)} s: ${verdict(max !== undefined && max <= NODE_RECOVERY_TARGET_MS && r.failed === 0)}`,
    );
  }
  for (const [kind, bareKind] of Object.entries(BARE_COUNTERPART) as Array<[FaultKind, FaultKind]>) {
    const r = byKind.get(kind);
    const b = byKind.get(bareKind);
    if (!r || !b) continue;
    for (const [what, mine, bare] of [
      ['rows again', r.rowsAgain?.p50, b.rowsAgain?.p50],
      ['whole again', r.whole?.p50, b.whole?.p50],
    ] as const) {
      out.push(
        `Target ≤ ${Math.round((BARE_RATIO_TARGET - 1) * 100)} % slower than bare — ${FAULTS[kind]} vs ${FAULTS[bareKind]}, ${what} p50: ${ratioText(mine, bare)}`,
      );
    }
  }
  return out;
}

/** "12.0 s vs 10.0 s = 1.20x: met"; a bare figure of 0 (no pause) is met only by 0. */
export function ratioText(mine: number | undefined, bare: number | undefined): string {
  if (mine === undefined || bare === undefined) return `${secs(mine)} s vs ${secs(bare)} s: no figure`;
  const ok = bare === 0 ? mine === 0 : mine <= bare * BARE_RATIO_TARGET;
  const ratio = bare === 0 ? (mine === 0 ? '1.00x' : '∞') : `${(mine / bare).toFixed(2)}x`;
  return `${secs(mine)} s vs ${secs(bare)} s = ${ratio}: ${verdict(ok)}`;
}

/** The faults of a trial on the node cluster, in the order a trial runs them. */
export const CLUSTER_FAULTS: readonly FaultKind[] = [
  'node-active-master',
  'node-worker',
  'partition',
  'api-server',
  'master-process',
  'worker-process',
];

/** Minutes of the stream each fault of a trial takes, with its settling; the API outage's come on top. */
const STREAM_MINUTES: Partial<Record<FaultKind, number>> = {
  'node-active-master': 7,
  'node-worker': 7,
  partition: 4,
  'api-server': 4,
  'master-process': 2,
  'worker-process': 3,
};

/**
 * Tables (one a second) a trial's stream needs: a node loss and its return about 7 minutes each, the
 * partition 4, the API outage its minutes and 4 more, a process killed 2–3, 3 to settle and count at
 * the end. The job's config grows by about 250 bytes a table (a ConfigMap holds 1 MiB).
 */
export function tablesForTrial(apiMinutes: number, kinds: readonly FaultKind[] = CLUSTER_FAULTS): number {
  const minutes = kinds.reduce((n, k) => n + (STREAM_MINUTES[k] ?? 0) + (k === 'api-server' ? apiMinutes : 0), 3);
  return Math.ceil(minutes * 60);
}

/**
 * The cluster faults a run is asked for (BENCH_FAULTS_STEPS: a comma-separated list; empty: all), in
 * CLUSTER_FAULTS' order, or an error naming the variable, the value and the choices.
 */
export function selectFaults(raw: string | undefined): readonly FaultKind[] {
  if (raw === undefined || raw.trim() === '') return CLUSTER_FAULTS;
  const asked = raw.split(',').map((x) => x.trim());
  const unknown = asked.filter((x) => !(CLUSTER_FAULTS as readonly string[]).includes(x));
  if (unknown.length)
    throw new Error(
      `BENCH_FAULTS_STEPS: expected a comma-separated list of ${CLUSTER_FAULTS.join(', ')}, got ${JSON.stringify(raw)} (unknown: ${unknown.join(', ')})`,
    );
  return CLUSTER_FAULTS.filter((k) => asked.includes(k));
}
