// bench/faults' trials kept across runs. Five trials with a 10-minute API-server outage take about
// three hours on this machine, longer than one working session on it; so a run can append its
// figures to a record (BENCH_FAULTS_RECORD) and summarize its own trials together with those of
// earlier runs (BENCH_FAULTS_EARLIER) — only runs made under the same conditions, which every line
// carries and which are checked before anything is counted. A record is JSON lines, one fault of
// one trial each; it is read as hostile input: bounded in size, every field checked.

import * as fs from 'node:fs';
import { FAULTS, type FaultFigures, type FaultKind } from './faults-measure';

/** What must be equal for two runs' trials to be summarized together. */
export interface RunConditions {
  /** How long the API server is away. */
  readonly apiMinutes: number;
  readonly partitionMs: number;
  /** The node controller's grace period for a silent node; null: Kubernetes' default. */
  readonly nodeGraceSeconds: number | null;
  readonly checkpointMs: number;
}

/** One run: when it began, on which commit, under which conditions. */
export interface RunInfo {
  /** The run's label in the tables: its start, to the minute (UTC). */
  readonly run: string;
  readonly commit: string;
  readonly conditions: RunConditions;
}

export interface RecordLine extends RunInfo {
  readonly figures: FaultFigures;
}

/** A record larger than this is not a bench's record (a trial writes about 2 KB). */
export const MAX_RECORD_BYTES = 4 << 20;
const MAX_TEXT = 4000;

export function recordLine(info: RunInfo, figures: FaultFigures): string {
  return JSON.stringify({ ...info, figures } satisfies RecordLine);
}

/** Appends one run's figures (a trial's, or bare Zeta's) to the record at `file`. */
export function appendRecord(file: string, info: RunInfo, figures: readonly FaultFigures[]): void {
  if (!figures.length) return;
  fs.appendFileSync(file, figures.map((f) => `${recordLine(info, f)}\n`).join(''));
}

class RecordError extends Error {}

type Check = (v: unknown) => boolean;
const isInt: Check = (v) => Number.isSafeInteger(v) && (v as number) >= 0;
const isMs: Check = (v) => typeof v === 'number' && Number.isFinite(v) && v >= 0;
const isText: Check = (v) => typeof v === 'string' && v.length <= MAX_TEXT;
const optional =
  (c: Check): Check =>
  (v) =>
    v === undefined || c(v);

const RULES: Record<string, [Check, string]> = {
  kind: [(v) => typeof v === 'string' && Object.hasOwn(FAULTS, v), `one of ${Object.keys(FAULTS).join(', ')}`],
  trial: [(v) => isInt(v) && (v as number) >= 1, 'a whole number ≥ 1'],
  at: [isMs, 'ms since the epoch'],
  wholeMs: [optional(isMs), 'ms ≥ 0, or absent'],
  rowsAgainMs: [optional(isMs), 'ms ≥ 0, or absent'],
  lost: [isInt, 'a whole number ≥ 0'],
  duplicated: [isInt, 'a whole number ≥ 0'],
  drained: [(v) => typeof v === 'boolean', 'true or false'],
  error: [optional(isText), `text of at most ${MAX_TEXT} characters, or absent`],
  note: [optional(isText), `text of at most ${MAX_TEXT} characters, or absent`],
};

const sameConditions = (a: RunConditions, b: RunConditions) =>
  a.apiMinutes === b.apiMinutes &&
  a.partitionMs === b.partitionMs &&
  a.nodeGraceSeconds === b.nodeGraceSeconds &&
  a.checkpointMs === b.checkpointMs;

const conditionsText = (c: RunConditions) =>
  `API server away ${c.apiMinutes} min, partition ${c.partitionMs / 1000} s, node grace ${c.nodeGraceSeconds ?? 'default'} s, checkpoint ${c.checkpointMs / 1000} s`;

/** One line of a record, checked; `where` names the file and line for the message. */
function parseLine(text: string, where: string, want: RunConditions): FaultFigures & { run: string } {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new RecordError(`${where}: not JSON (${(e as Error).message})`);
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    throw new RecordError(`${where}: expected an object with run, commit, conditions and figures`);
  const r = raw as Partial<Record<keyof RecordLine, unknown>>;
  if (!isText(r.run) || !isText(r.commit)) throw new RecordError(`${where}: run and commit must be text`);
  const c = r.conditions as Partial<Record<keyof RunConditions, unknown>> | undefined;
  if (
    !c ||
    !isInt(c.apiMinutes) ||
    !isInt(c.partitionMs) ||
    !isInt(c.checkpointMs) ||
    !(c.nodeGraceSeconds === null || isInt(c.nodeGraceSeconds))
  )
    throw new RecordError(
      `${where}: conditions must hold apiMinutes, partitionMs, checkpointMs (whole numbers) and nodeGraceSeconds (a whole number or null)`,
    );
  const conditions = c as unknown as RunConditions;
  if (!sameConditions(conditions, want))
    throw new RecordError(
      `${where}: run ${r.run as string} was made with ${conditionsText(conditions)}; this run has ${conditionsText(want)}: trials under other conditions are not summarized together`,
    );
  const f = r.figures as Record<string, unknown> | undefined;
  if (typeof f !== 'object' || f === null || Array.isArray(f))
    throw new RecordError(`${where}: figures must be an object`);
  for (const [field, [ok, rule]] of Object.entries(RULES))
    if (!ok(f[field]))
      throw new RecordError(
        `${where}: figures.${field} must be ${rule}, got ${JSON.stringify(f[field])?.slice(0, 80)}`,
      );
  const known = new Set(Object.keys(RULES));
  const extra = Object.keys(f).filter((k) => !known.has(k));
  if (extra.length) throw new RecordError(`${where}: figures has unknown field(s) ${extra.join(', ')}`);
  return { ...(f as unknown as FaultFigures), kind: f.kind as FaultKind, run: r.run as string };
}

/**
 * The figures of earlier runs in `text` (the record `source`), each labelled with its run, checked
 * against this run's conditions. Throws, naming the source, the line and the rule, on the first bad line.
 */
export function parseRecord(
  text: string,
  source: string,
  want: RunConditions,
  seen = new Set<string>(),
): Array<FaultFigures & { run: string }> {
  if (Buffer.byteLength(text) > MAX_RECORD_BYTES)
    throw new RecordError(`${source}: larger than ${MAX_RECORD_BYTES} bytes, not a record of bench:faults`);
  const out: Array<FaultFigures & { run: string }> = [];
  text.split('\n').forEach((line, i) => {
    if (line.trim() === '') return;
    const where = `${source} line ${i + 1}`;
    const f = parseLine(line, where, want);
    // A record given twice (or a line copied) would count its trials twice.
    const key = `${f.run} ${f.trial} ${f.kind}`;
    if (seen.has(key)) throw new RecordError(`${where}: run ${f.run} trial ${f.trial} ${f.kind} is recorded twice`);
    seen.add(key);
    out.push(f);
  });
  return out;
}

/** BENCH_FAULTS_EARLIER's files (comma-separated), read and checked; [] when unset. */
export function readEarlier(list: string | undefined, want: RunConditions): Array<FaultFigures & { run: string }> {
  if (!list) return [];
  const seen = new Set<string>();
  return list
    .split(',')
    .filter((p) => p.trim() !== '')
    .flatMap((file) => {
      let size: number;
      try {
        size = fs.statSync(file).size;
      } catch (e) {
        throw new RecordError(`BENCH_FAULTS_EARLIER: ${file} cannot be read (${(e as Error).message})`);
      }
      if (size > MAX_RECORD_BYTES)
        throw new RecordError(
          `BENCH_FAULTS_EARLIER: ${file} is larger than ${MAX_RECORD_BYTES} bytes, not a record of bench:faults`,
        );
      return parseRecord(fs.readFileSync(file, 'utf8'), `BENCH_FAULTS_EARLIER: ${file}`, want, seen);
    });
}
