// The counted stream of bench/failover: FakeSource with one table per split, each table a fixed
// list of rows whose `id`s are unique across the job, and the Console sink, which logs every row
// it writes. Zeta 2.3.8's FakeSource emits one split per poll (about one per second) and keeps the
// splits not yet emitted as its checkpoint state, so a restore re-emits the splits emitted after
// the restored checkpoint: duplicates, bounded by the checkpoint interval. Pure helpers.

export const ROWS_PER_TABLE = 5;

/**
 * The job as an object: JSON for REST v1, and HOCON (a superset of JSON) for the CLI.
 * `splitReadIntervalMs`: at most one split per that interval (FakeSource's `split.read-interval`),
 * for a stream that must outlast a longer run; unset, about one a second.
 */
export function countedJob(
  tables: number,
  checkpointMs: number,
  splitReadIntervalMs?: number,
): Record<string, unknown> {
  return {
    env: { 'job.mode': 'STREAMING', parallelism: 1, 'checkpoint.interval': checkpointMs },
    source: [
      {
        plugin_name: 'FakeSource',
        tables_configs: Array.from({ length: tables }, (_, t) => ({
          schema: { table: `t${t}`, fields: { id: 'int' } },
          'row.num': ROWS_PER_TABLE,
          'split.num': 1,
          ...(splitReadIntervalMs === undefined ? {} : { 'split.read-interval': splitReadIntervalMs }),
          rows: Array.from({ length: ROWS_PER_TABLE }, (_, j) => ({
            kind: 'INSERT',
            fields: [t * ROWS_PER_TABLE + j],
          })),
        })),
      },
    ],
    sink: [{ plugin_name: 'Console' }],
  };
}

export interface SinkRow {
  readonly at: number;
  readonly id: number;
}

const CONSOLE_ROW = /^(\d{4}-\d\d-\d\d) (\d\d:\d\d:\d\d),(\d{3}) .*SeaTunnelRow#kind=INSERT : (\d+)\s*$/;

/** The time of a Zeta log line whose match starts with date, time and milliseconds (log4j's local time, as the bench's clock). */
const stampOf = (m: RegExpExecArray): number => Date.parse(`${m[1]}T${m[2]}.${m[3]}`);

/** Every line of `logs` that `re` matches (its timestamp, then a number), as that time and number, in time order. */
function numberedLines(logs: readonly string[], re: RegExp): Array<{ at: number; n: number }> {
  const out: Array<{ at: number; n: number }> = [];
  for (const log of logs)
    for (const line of log.split('\n')) {
      const m = re.exec(line);
      if (m) out.push({ at: stampOf(m), n: Number(m[4]) });
    }
  return out.sort((a, b) => a.at - b.at);
}

/** Rows the Console sink logged. */
export function sinkRows(logs: readonly string[]): SinkRow[] {
  return numberedLines(logs, CONSOLE_ROW).map(({ at, n }) => ({ at, id: n }));
}

/** The time (ms) of a Zeta log line matching `re` at or after `since`, in any of `logs`. */
export function zetaLogTime(logs: readonly string[], re: RegExp, since: number): number | undefined {
  let best: number | undefined;
  for (const log of logs)
    for (const line of log.split('\n')) {
      if (!re.test(line)) continue;
      const m = /^(\d{4}-\d\d-\d\d) (\d\d:\d\d:\d\d),(\d{3})/.exec(line);
      const at = m ? stampOf(m) : NaN;
      if (at >= since - 1000 && (best === undefined || at < best)) best = at;
    }
  return best;
}

export interface Emitted {
  readonly at: number;
  readonly table: number;
}

const SPLIT_EMITTED =
  /^(\d{4}-\d\d-\d\d) (\d\d:\d\d:\d\d),(\d{3}) .*rows of data have been generated in split\(t(\d+)_0\)/;

/** Tables whose split the source emitted (its own log line, once per emission, replays included). */
export function emittedTables(logs: readonly string[]): Emitted[] {
  return numberedLines(logs, SPLIT_EMITTED).map(({ at, n }) => ({ at, table: n }));
}

export interface RowCount {
  /** Rows the sink wrote. */
  readonly seen: number;
  /** Rows written again (an id already written before). */
  readonly duplicated: number;
  /** Rows of tables the source emitted that the sink never wrote. */
  readonly lost: number;
}

/**
 * Lost and duplicated rows per window [starts[i], starts[i+1]): a repeat is charged to the window
 * it appears in, a lost row to the window in which the source first emitted its table. The splits
 * come out in no particular order, so "lost" is judged against what the source says it emitted.
 * `drained`: the source emitted no new table after the window began.
 */
export function countPerWindow(
  rows: readonly SinkRow[],
  emitted: readonly Emitted[],
  starts: readonly number[],
): Array<RowCount & { drained: boolean }> {
  const windowOf = (at: number) => {
    let w = -1;
    starts.forEach((s, i) => (at >= s ? (w = i) : undefined));
    return w;
  };
  const out = starts.map(() => ({ seen: 0, duplicated: 0, lost: 0, drained: false }));
  const written = new Set<number>();
  for (const r of rows) {
    const w = windowOf(r.at);
    if (w >= 0) out[w].seen++;
    if (written.has(r.id)) {
      if (w >= 0) out[w].duplicated++;
    } else written.add(r.id);
  }
  const firstEmitted = new Map<number, number>();
  for (const e of emitted) if (!firstEmitted.has(e.table)) firstEmitted.set(e.table, e.at);
  for (const [t, at] of firstEmitted) {
    const w = windowOf(at);
    if (w < 0) continue;
    for (let j = 0; j < ROWS_PER_TABLE; j++) if (!written.has(t * ROWS_PER_TABLE + j)) out[w].lost++;
  }
  const lastNew = Math.max(0, ...firstEmitted.values());
  starts.forEach((s, i) => (out[i].drained = lastNew < s));
  return out;
}

/** Totals over the whole run: rows written, distinct ids, lost (of emitted tables) and duplicated. */
export function countAll(
  rows: readonly SinkRow[],
  emitted: readonly Emitted[],
): { seen: number; distinct: number; lost: number; duplicated: number } {
  const ids = new Set(rows.map((r) => r.id));
  const tables = new Set(emitted.map((e) => e.table));
  let lost = 0;
  for (const t of tables) for (let j = 0; j < ROWS_PER_TABLE; j++) if (!ids.has(t * ROWS_PER_TABLE + j)) lost++;
  return { seen: rows.length, distinct: ids.size, lost, duplicated: rows.length - ids.size };
}

/**
 * When the stream progressed after `t`: the time of the first row written after `t` whose table the
 * source first emitted after `t`. Rows of older tables (a restore replaying its checkpoint, a split a
 * lost reader held) can arrive after a fault without the stream having recovered.
 */
export function newTableRowAfter(rows: readonly SinkRow[], emitted: readonly Emitted[], t: number): number | undefined {
  const firstEmitted = new Map<number, number>();
  for (const e of emitted)
    if (!firstEmitted.has(e.table) || e.at < firstEmitted.get(e.table)!) firstEmitted.set(e.table, e.at);
  return rows.find((r) => r.at > t && (firstEmitted.get(Math.floor(r.id / ROWS_PER_TABLE)) ?? -Infinity) > t)?.at;
}
