// Rows counted end to end on the real nodes: the Console sink logs every row it writes, and every
// node's kubelet keeps its containers' logs under its own directory (podLogsDir). A node that was
// stopped keeps its files, but a Pod deleted on a live node (a replaced worker) takes its log with
// it — so a keeper hard-links every worker log file into a directory of its own as soon as it
// appears: the inode, and with it every row, outlives the kubelet's delete. Read from disk rather
// than through the API, which cannot reach a stopped or cut-off node's kubelet.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { sinkRows, type SinkRow } from '../../bench/failover-rows';
import { nodeInfos } from './node-pods';

/** Every log file of `namespace`'s Pods whose names start with `prefix`, on every node. */
function logFiles(namespace: string, prefix: string): string[] {
  const files: string[] = [];
  const walk = (d: string): void => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(d, { withFileTypes: true });
    } catch {
      return; // removed meanwhile
    }
    for (const e of entries) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.log(\.\d+)?/.test(e.name)) files.push(p);
    }
  };
  for (const node of nodeInfos()) {
    const root = path.join(node.dir, 'pod-logs');
    if (!fs.existsSync(root)) continue;
    for (const pod of fs.readdirSync(root)) if (pod.startsWith(`${namespace}_${prefix}`)) walk(path.join(root, pod));
  }
  return files;
}

/** CRI log lines: the message after the time, the stream and the tag. */
const message = (text: string) =>
  text
    .split('\n')
    .map((l) => l.replace(/^\S+ (stdout|stderr) [FP] /, ''))
    .join('\n');

/**
 * Keeps every worker log of one application from the moment it appears until `stop`: a hard link
 * to each file (its inode outlives the kubelet's delete) and the longest text read from it so far
 * (what was counted once stays counted, even if the file is later cut short or its link lost).
 */
export class WorkerLogKeeper {
  private readonly dir = fs.mkdtempSync(path.join(os.tmpdir(), 'seatunnel-app-rows-'));
  private readonly texts = new Map<string, { size: number; text: string }>();
  private readonly names = new Map<string, string>();
  private readonly timer: NodeJS.Timeout;

  /** `pods`: which of the application's Pods, by the start of their names after `<appId>-` (default its workers). */
  constructor(
    private readonly namespace: string,
    private readonly appId: string,
    private readonly pods = 'worker-',
  ) {
    this.timer = setInterval(() => this.keep(), 2000);
    this.timer.unref();
  }

  /** Links the files not kept yet (by device and inode: a rotated file is the same inode under a new name) and reads what grew. */
  keep(): void {
    for (const f of logFiles(this.namespace, `${this.appId}-${this.pods}`)) {
      let st: fs.Stats;
      try {
        st = fs.statSync(f);
      } catch {
        continue;
      }
      const id = `${st.dev}-${st.ino}`;
      if (!this.names.has(id))
        this.names.set(id, `${path.basename(path.dirname(path.dirname(f)))}-${path.basename(path.dirname(f))}-${id}`);
      if (!this.texts.has(id)) {
        this.texts.set(id, { size: 0, text: '' });
        try {
          fs.linkSync(f, path.join(this.dir, id));
        } catch {
          // Gone between the listing and the link, or on another filesystem: the text read below stays.
        }
      }
      this.remember(id, f);
    }
    for (const id of this.texts.keys()) this.remember(id, path.join(this.dir, id));
  }

  /** Reads `file` when it is longer than what was kept of `id`; never keeps less. */
  private remember(id: string, file: string): void {
    try {
      const kept = this.texts.get(id)!;
      if (fs.statSync(file).size <= kept.size) return;
      const bytes = fs.readFileSync(file);
      if (bytes.length > kept.size) this.texts.set(id, { size: bytes.length, text: bytes.toString('utf8') });
    } catch {
      // Gone, or the link was lost: what was read before stays.
    }
  }

  /** The messages of every worker log kept so far (what the source and the sink logged), one string a file. */
  logs(): string[] {
    this.keep();
    return [...this.texts.values()].map((t) => message(t.text));
  }

  /** Every row the workers logged so far, in time order. */
  rows(): SinkRow[] {
    return sinkRows(this.logs());
  }

  /** The rows of each log kept so far (one entry per container log: a worker Pod's, or its restart's), named by its Pod. */
  rowsByLog(): Array<{ log: string; rows: SinkRow[] }> {
    this.keep();
    return [...this.texts].map(([id, t]) => ({ log: this.names.get(id) ?? id, rows: sinkRows([message(t.text)]) }));
  }

  /** Writes every log kept so far into `dir` (one file per log, named by its pod directory), for a post-mortem. */
  saveTo(dir: string): void {
    fs.mkdirSync(dir, { recursive: true });
    for (const [id, t] of this.texts) fs.writeFileSync(path.join(dir, `${this.names.get(id) ?? id}.log`), t.text);
  }

  stop(): void {
    clearInterval(this.timer);
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}

export interface RowAccount {
  readonly expected: number;
  readonly written: number;
  readonly lost: number;
  readonly duplicated: number;
  /** The ids lost, as ranges ("120-124 300-614"), for the message. */
  readonly lostRanges: string;
}

/** Rows expected (ids 0 … expected-1) against what the sink wrote. */
export function rowAccount(rows: readonly SinkRow[], expected: number): RowAccount {
  const seen = new Map<number, number>();
  for (const r of rows) seen.set(r.id, (seen.get(r.id) ?? 0) + 1);
  const lostIds: number[] = [];
  for (let id = 0; id < expected; id++) if (!seen.has(id)) lostIds.push(id);
  const duplicated = [...seen.values()].reduce((n, c) => n + c - 1, 0);
  const ranges: string[] = [];
  for (let i = 0; i < lostIds.length;) {
    let j = i;
    while (j + 1 < lostIds.length && lostIds[j + 1] === lostIds[j] + 1) j++;
    ranges.push(i === j ? `${lostIds[i]}` : `${lostIds[i]}-${lostIds[j]}`);
    i = j + 1;
  }
  return { expected, written: rows.length, lost: lostIds.length, duplicated, lostRanges: ranges.join(' ') };
}

/**
 * Extra copies of a row written before `t` (ms): a row written twice where nothing had yet made the
 * stream restore.
 */
export function duplicatesBefore(rows: readonly SinkRow[], t: number): number {
  const seen = new Set<number>();
  let n = 0;
  for (const r of [...rows].sort((a, b) => a.at - b.at)) {
    if (!seen.has(r.id)) seen.add(r.id);
    else if (r.at < t) n++;
  }
  return n;
}

/** When rows go on after `t` (ms): the first row logged after it, else undefined. */
export function firstRowAfter(rows: readonly SinkRow[], t: number): number | undefined {
  return rows.find((r) => r.at > t)?.at;
}

/** A span of time in which `writers` logs (two or more) wrote rows. */
export interface ConcurrentWriting {
  readonly from: number;
  readonly to: number;
  readonly writers: number;
}

/**
 * When more than one worker wrote rows at once: each log's rows make runs (rows at most `gapMs`
 * apart; the source emits a split a second), and where runs of different logs overlap, two readers
 * of a parallelism-1 stream were running — one of them a task its cluster had already restored
 * elsewhere. A handover (the old reader dead, the restored one starting) makes no overlap.
 */
export function concurrentWriting(logs: ReadonlyArray<readonly SinkRow[]>, gapMs = 3000): ConcurrentWriting[] {
  const edges: Array<{ at: number; d: 1 | -1 }> = [];
  for (const rows of logs) {
    const times = rows.map((r) => r.at).sort((a, b) => a - b);
    for (let i = 0; i < times.length;) {
      let j = i;
      while (j + 1 < times.length && times[j + 1] - times[j] <= gapMs) j++;
      // A run of one instant still occupies the instant: ends after starts at the same time.
      edges.push({ at: times[i], d: 1 }, { at: times[j] + 1, d: -1 });
      i = j + 1;
    }
  }
  edges.sort((a, b) => a.at - b.at || a.d - b.d);
  const out: ConcurrentWriting[] = [];
  let open = 0;
  let since = 0;
  let most = 0;
  for (const e of edges) {
    const before = open;
    open += e.d;
    if (before < 2 && open >= 2) {
      since = e.at;
      most = open;
    } else if (open >= 2) most = Math.max(most, open);
    else if (before >= 2 && open < 2 && e.at > since) out.push({ from: since, to: e.at, writers: most });
  }
  return out;
}

/**
 * The spans of two writers at once that no fault explains: begun before every fault, or lasting
 * more than `graceMs` past the end of the last fault that began before them. While a worker is cut
 * off it cannot know the others restored its tasks; once it can reach them again, its old tasks
 * must stop within the grace.
 */
export function unexplainedWriting(
  together: readonly ConcurrentWriting[],
  faults: readonly FaultWindow[],
  graceMs: number,
): ConcurrentWriting[] {
  return together.filter((o) => {
    const fault = lastFaultBegunBy(faults, o.from);
    return fault === undefined || o.to > fault.to + graceMs;
  });
}

/** A fault, from its start to its end (the node back, healed, thawed; the API server back). */
export interface FaultWindow {
  readonly from: number;
  readonly to: number;
}

/** The fault that began last at or before `at`, if any. */
export function lastFaultBegunBy<F extends FaultWindow>(faults: readonly F[], at: number): F | undefined {
  return faults
    .filter((f) => f.from <= at)
    .sort((a, b) => a.from - b.from)
    .at(-1);
}
