// `status --explain`: the application's story from Kubernetes alone, pure. Sources, each kept for
// as long as Kubernetes keeps it:
//
//   the Job           created, started (status.startTime), conditions (Complete / Failed with the
//                     reason), deletion — for as long as the Job exists;
//   its annotations   the runtime's phase times (phase-times), finished-at, failure reason and
//                     message (Zeta's error) — for as long as the Job exists;
//   its Events        the Job controller's (SuccessfulCreate, Suspended, Resumed, …) and the
//                     runtime's (WorkersCreating, AllWorkersRegistered, JobSubmitted, WorkerLost,
//                     MasterReplaced, …) — only for the API server's event TTL (1 h by default);
//   its Pods          created, scheduled, running, terminated, per Pod — until they are deleted
//                     (the workers at cleanup).
//
// Kubernetes aggregates repeated Events: core/v1 with count and first/lastTimestamp, events.k8s.io
// with eventTime and series (count, lastObservedTime); both read as one entry with a count.

import type { Job } from 'kubernetes-types/batch/v1';
import type { Event, Pod } from 'kubernetes-types/core/v1';
import { LABELS } from '../../model/reserved';
import { ANNOTATIONS, EVENT_COMPONENT, FINAL_PHASES, PHASES } from '../../contract';

/** The API server's default --event-ttl: Events older than this are gone. */
export const EVENT_TTL_MS = 60 * 60 * 1000;
/** Entries printed at most: the first and the last ones are kept, the middle is counted. */
export const MAX_TIMELINE_ENTRIES = 60;
const HEAD_ENTRIES = 20;

export type TimelineSource = 'job' | 'annotation' | 'event' | 'pod';

export interface TimelineEntry {
  /** When it happened (the first time, for an aggregated Event). */
  readonly at?: string;
  /** An aggregated Event: how often, and the last time. */
  readonly count?: number;
  readonly lastAt?: string;
  readonly type: 'Normal' | 'Warning';
  readonly source: TimelineSource;
  /** Who says so: "Job", "runtime", "job-controller", "Pod NAME (worker)", … */
  readonly subject: string;
  readonly what: string;
  readonly detail?: string;
}

export interface PhaseSpan {
  readonly phase: string;
  readonly startedAt: string;
  /** Until the next phase began; for the current phase of a live application, until now. */
  readonly durationMs?: number;
  readonly current?: boolean;
}

/** Time between two milestones of the application (each present only when recorded). */
export interface Stage {
  readonly from: string;
  readonly to: string;
  readonly ms: number;
}

export interface Timeline {
  readonly entries: readonly TimelineEntry[];
  /** Entries left out of the middle to keep the output bounded, and where (an index into entries). */
  readonly omitted: number;
  readonly omittedAt?: number;
  readonly phases: readonly PhaseSpan[];
  /** Job created → Job started → runtime started → workers registered → job submitted → job ended → finished. */
  readonly stages: readonly Stage[];
  readonly totalMs?: number;
  /** What the record cannot say any more (expired Events, no phase times). */
  readonly notes: readonly string[];
}

export interface TimelineOptions {
  readonly now: Date;
  readonly maxEntries?: number;
  readonly eventTtlMs?: number;
  /** false: the Events could not be read (e.g. no permission to list them). */
  readonly eventsRead?: boolean;
}

const ms = (t: string | undefined) => (t ? Date.parse(t) : NaN);
const iso = (t: string | Date | undefined) =>
  t === undefined ? undefined : new Date(t).toISOString().replace(/\.\d+Z$/, 'Z');

/** The runtime's phase-times annotation, tolerant of anything else found there. */
export function recordedPhaseTimes(job: Job): Record<string, string> {
  const raw = job.metadata?.annotations?.[ANNOTATIONS.phaseTimes];
  if (!raw) return {};
  try {
    const parsed = JSON.parse(raw) as unknown;
    if (!parsed || typeof parsed !== 'object') return {};
    const known: ReadonlySet<string> = new Set(PHASES);
    return Object.fromEntries(
      Object.entries(parsed).filter(([p, t]) => known.has(p) && typeof t === 'string' && !Number.isNaN(ms(t))),
    );
  } catch {
    return {};
  }
}

/**
 * Whether an Event that says the runtime wrote it came from this application's runtime: its
 * reporting instance must be one of the Job's Pods (`<job>-xxxxx`, the Job controller's names).
 * RBAC lets any runtime of the namespace create Events, about any object, saying anything; an
 * Event does not record who created it. This check keeps another application's runtime from
 * speaking as this one unless it also copies the name of this Job's Pod (docs/security.md).
 */
function fromItsSource(e: Event, job: Job): boolean {
  const loose = e as Event & { reportingController?: string };
  const by = loose.reportingController || e.reportingComponent || e.source?.component;
  if (by !== EVENT_COMPONENT) return true;
  const instance = e.reportingInstance ?? '';
  const name = job.metadata?.name ?? '';
  return (
    instance.length === name.length + 6 && instance.startsWith(`${name}-`) && /^[a-z0-9]{5}$/.test(instance.slice(-5))
  );
}

/** One Event, aggregated either way (core/v1 count + timestamps, or events.k8s.io series). */
function eventEntry(e: Event): TimelineEntry {
  const loose = e as Event & {
    deprecatedFirstTimestamp?: string;
    deprecatedLastTimestamp?: string;
    deprecatedCount?: number;
    note?: string;
  };
  const first = e.firstTimestamp ?? loose.deprecatedFirstTimestamp ?? e.eventTime ?? e.metadata?.creationTimestamp;
  const last = e.series?.lastObservedTime ?? e.lastTimestamp ?? loose.deprecatedLastTimestamp;
  const count = e.series?.count ?? e.count ?? loose.deprecatedCount ?? 1;
  const by = e.reportingComponent || e.source?.component || 'unknown';
  const message = e.message ?? loose.note;
  return {
    ...(first ? { at: iso(first) } : {}),
    ...(count > 1 ? { count, ...(last ? { lastAt: iso(last) } : {}) } : {}),
    type: e.type === 'Warning' ? 'Warning' : 'Normal',
    source: 'event',
    subject: by === EVENT_COMPONENT ? 'runtime' : by,
    what: e.reason ?? 'Event',
    ...(message ? { detail: message } : {}),
  };
}

function podEntries(p: Pod): TimelineEntry[] {
  const role = p.metadata?.labels?.[LABELS.role] ?? 'pod';
  const subject = `Pod ${p.metadata?.name ?? '?'} (${role})`;
  const out: TimelineEntry[] = [];
  const add = (at: string | undefined, what: string, detail?: string, type: 'Normal' | 'Warning' = 'Normal') =>
    out.push({ ...(at ? { at: iso(at) } : {}), type, source: 'pod', subject, what, ...(detail ? { detail } : {}) });
  add(p.metadata?.creationTimestamp, 'created');
  const scheduled = p.status?.conditions?.find((c) => c.type === 'PodScheduled');
  if (scheduled?.status === 'True')
    add(scheduled.lastTransitionTime, 'scheduled', p.spec?.nodeName ? `on ${p.spec.nodeName}` : undefined);
  else if (scheduled?.status === 'False')
    add(scheduled.lastTransitionTime, scheduled.reason ?? 'not scheduled', scheduled.message, 'Warning');
  for (const s of p.status?.containerStatuses ?? []) {
    const run = s.state?.running ?? s.lastState?.running;
    if (run?.startedAt) add(run.startedAt, `container ${s.name} running`);
    const t = s.state?.terminated ?? s.lastState?.terminated;
    if (t)
      add(
        t.finishedAt,
        `container ${s.name} exited with code ${t.exitCode}`,
        [t.reason, t.message].filter(Boolean).join(': ') || undefined,
        t.exitCode === 0 ? 'Normal' : 'Warning',
      );
    const w = s.state?.waiting;
    if (w?.reason && w.reason !== 'ContainerCreating')
      add(undefined, `container ${s.name} waiting: ${w.reason}`, w.message, 'Warning');
  }
  const ready = p.status?.conditions?.find((c) => c.type === 'Ready' && c.status === 'True');
  if (ready) add(ready.lastTransitionTime, 'ready');
  if (p.metadata?.deletionTimestamp) add(p.metadata.deletionTimestamp, 'being deleted');
  return out;
}

type Add = (e: Omit<TimelineEntry, 'at'> & { at?: string }) => void;

function collector(): { out: TimelineEntry[]; add: Add } {
  const out: TimelineEntry[] = [];
  return { out, add: (e) => out.push({ ...e, ...(e.at ? { at: iso(e.at) } : {}) }) };
}

/** The Job's beginning: created (submit), started (unsuspended). */
function jobStart(job: Job): TimelineEntry[] {
  const { out, add } = collector();
  add({
    at: job.metadata?.creationTimestamp,
    type: 'Normal',
    source: 'job',
    subject: 'Job',
    what: 'created (submitted)',
  });
  if (job.status?.startTime)
    add({ at: job.status.startTime, type: 'Normal', source: 'job', subject: 'Job', what: 'started' });
  return out;
}

/**
 * The runtime's phases as timeline entries, only where its Events no longer tell the story (they
 * expired, or were never readable): the Phases line has them all; here they would only repeat
 * the Events, in an order that one-second timestamps cannot settle.
 */
function phaseEntries(phaseTimes: Record<string, string>, runtimeEventsFrom: number | undefined): TimelineEntry[] {
  const { out, add } = collector();
  for (const [phase, at] of Object.entries(phaseTimes))
    if (runtimeEventsFrom === undefined || ms(at) < runtimeEventsFrom)
      add({
        at,
        type: phase === 'Failed' ? 'Warning' : 'Normal',
        source: 'annotation',
        subject: 'runtime',
        what: `phase ${phase}`,
      });
  return out;
}

/** The terminal record: the runtime's final annotations, the Job's conditions, its deletion. */
function jobEnd(job: Job): TimelineEntry[] {
  const ann = job.metadata?.annotations ?? {};
  const { out, add } = collector();
  if (ann[ANNOTATIONS.submittedAt])
    add({
      at: ann[ANNOTATIONS.submittedAt],
      type: 'Normal',
      source: 'annotation',
      subject: 'runtime',
      what: 'job submitted (recorded)',
    });
  if (ann[ANNOTATIONS.finishedAt]) {
    const why = [ann[ANNOTATIONS.reason], ann[ANNOTATIONS.message]].filter(Boolean).join(': ');
    add({
      at: ann[ANNOTATIONS.finishedAt],
      type: ann[ANNOTATIONS.phase] === 'Failed' ? 'Warning' : 'Normal',
      source: 'annotation',
      subject: 'runtime',
      what: `finished${ann[ANNOTATIONS.phase] ? ` (${ann[ANNOTATIONS.phase]})` : ''}`,
      ...(why ? { detail: why } : {}),
    });
  }
  for (const c of job.status?.conditions ?? []) {
    if (
      c.status !== 'True' ||
      !['Complete', 'Failed', 'FailureTarget', 'SuccessCriteriaMet', 'Suspended'].includes(c.type)
    )
      continue;
    const detail = [c.reason, c.message].filter(Boolean).join(': ');
    add({
      at: c.lastTransitionTime,
      type: c.type === 'Failed' || c.type === 'FailureTarget' ? 'Warning' : 'Normal',
      source: 'job',
      subject: 'Job',
      what: `condition ${c.type}`,
      ...(detail ? { detail } : {}),
    });
  }
  if (job.status?.completionTime)
    add({ at: job.status.completionTime, type: 'Normal', source: 'job', subject: 'Job', what: 'completed' });
  if (job.metadata?.deletionTimestamp)
    add({ at: job.metadata.deletionTimestamp, type: 'Normal', source: 'job', subject: 'Job', what: 'being deleted' });
  return out;
}

function phaseSpans(job: Job, phaseTimes: Record<string, string>, now: Date): PhaseSpan[] {
  const sorted = Object.entries(phaseTimes).sort(
    ([a, ta], [b, tb]) => ms(ta) - ms(tb) || PHASES.indexOf(a as never) - PHASES.indexOf(b as never),
  );
  const current = job.metadata?.annotations?.[ANNOTATIONS.phase];
  return sorted.map(([phase, startedAt], i) => {
    const next = sorted[i + 1];
    if (next) return { phase, startedAt, durationMs: ms(next[1]) - ms(startedAt) };
    if (FINAL_PHASES.has(phase)) return { phase, startedAt };
    return {
      phase,
      startedAt,
      ...(phase === current ? { current: true, durationMs: Math.max(0, now.getTime() - ms(startedAt)) } : {}),
    };
  });
}

/** The first time an Event of one of `reasons` was recorded. */
function firstEvent(entries: readonly TimelineEntry[], ...reasons: string[]): string | undefined {
  return entries
    .filter((e) => e.source === 'event' && reasons.includes(e.what) && e.at)
    .sort((a, b) => ms(a.at) - ms(b.at))[0]?.at;
}

function milestones(
  job: Job,
  phaseTimes: Record<string, string>,
  events: readonly TimelineEntry[],
): Array<[string, string | undefined]> {
  const ann = job.metadata?.annotations ?? {};
  const condition = job.status?.conditions?.find((c) => c.status === 'True' && ['Complete', 'Failed'].includes(c.type));
  const final = Object.keys(phaseTimes).find((p) => FINAL_PHASES.has(p));
  return [
    ['Job created', job.metadata?.creationTimestamp],
    ['Job started', job.status?.startTime ?? firstEvent(events, 'Resumed')],
    ['runtime started', phaseTimes.Starting],
    ['workers registered', phaseTimes.Submitting ?? firstEvent(events, 'AllWorkersRegistered')],
    [
      'job submitted',
      phaseTimes.Running ?? firstEvent(events, 'JobSubmitted', 'Reattached') ?? ann[ANNOTATIONS.submittedAt],
    ],
    ['job ended', phaseTimes.Stopping ?? phaseTimes.CleaningUp],
    [
      'finished',
      (final && phaseTimes[final]) ??
        ann[ANNOTATIONS.finishedAt] ??
        condition?.lastTransitionTime ??
        job.status?.completionTime,
    ],
  ];
}

function stagesOf(points: Array<[string, string | undefined]>): { stages: Stage[]; totalMs?: number } {
  const known = points.filter((p): p is [string, string] => p[1] !== undefined && !Number.isNaN(ms(p[1])));
  const stages: Stage[] = [];
  for (let i = 1; i < known.length; i++)
    stages.push({ from: known[i - 1][0], to: known[i][0], ms: Math.max(0, ms(known[i][1]) - ms(known[i - 1][1])) });
  const first = known[0];
  const last = known[known.length - 1];
  const ended = last?.[0] === 'finished';
  return { stages, ...(first && ended && last !== first ? { totalMs: Math.max(0, ms(last[1]) - ms(first[1])) } : {}) };
}

/**
 * The story of one application: its Job, the Events about this Job (other Jobs' Events, e.g. of
 * an earlier Job of the same name, are dropped by uid) and the Pods with its application-id label.
 */
export function applicationTimeline(
  job: Job,
  events: readonly Event[],
  pods: readonly Pod[],
  opts: TimelineOptions,
): Timeline {
  const uid = job.metadata?.uid;
  const own = events.filter(
    (e) => (!uid || !e.involvedObject?.uid || e.involvedObject.uid === uid) && fromItsSource(e, job),
  );
  const phaseTimes = recordedPhaseTimes(job);
  const eventEntries = own.map(eventEntry);
  const runtimeTimes = eventEntries.filter((e) => e.subject === 'runtime' && e.at).map((e) => ms(e.at));
  const runtimeEventsFrom = runtimeTimes.length ? Math.min(...runtimeTimes) : undefined;
  const all = [
    ...jobStart(job),
    ...phaseEntries(phaseTimes, runtimeEventsFrom),
    ...eventEntries,
    ...pods.flatMap(podEntries),
    ...jobEnd(job),
  ];
  // Stable: entries of one second stay in this order (the Job's start, the runtime's phases, the
  // Events, the Pods, the terminal record) — timestamps have one-second precision.
  const sorted = all
    .map((e, i) => ({ e, i }))
    .sort((a, b) => {
      const ta = ms(a.e.at);
      const tb = ms(b.e.at);
      if (Number.isNaN(ta) !== Number.isNaN(tb)) return Number.isNaN(ta) ? 1 : -1;
      return (Number.isNaN(ta) ? 0 : ta - tb) || a.i - b.i;
    })
    .map((x) => x.e);
  const max = Math.max(2, opts.maxEntries ?? MAX_TIMELINE_ENTRIES);
  const head = Math.min(HEAD_ENTRIES, Math.floor(max / 3));
  const omitted = Math.max(0, sorted.length - max);
  const entries = omitted ? [...sorted.slice(0, head), ...sorted.slice(sorted.length - (max - head))] : sorted;

  const notes: string[] = [];
  const ttl = opts.eventTtlMs ?? EVENT_TTL_MS;
  const created = ms(job.metadata?.creationTimestamp);
  if (opts.eventsRead !== false && !Number.isNaN(created) && opts.now.getTime() - created > ttl) {
    const since = iso(new Date(opts.now.getTime() - ttl));
    notes.push(
      own.length === 0
        ? `no Events remain: the Job is older than the Events' lifetime (1 h by default, kube-apiserver --event-ttl); the story comes from the Job, its annotations and its remaining Pods only`
        : `Events before about ${since} have expired (their lifetime is 1 h by default, kube-apiserver --event-ttl); the earlier story comes from the Job, its annotations and its remaining Pods only`,
    );
  }
  if (opts.eventsRead === false)
    notes.push(
      "the Job's Events could not be read (listing Events in the namespace was refused or failed): the story comes from the Job, its annotations and its Pods only",
    );
  if (Object.keys(phaseTimes).length === 0 && job.metadata?.annotations?.[ANNOTATIONS.phase])
    notes.push(
      'the runtime recorded no phase times (a runtime older than the phase-times annotation): phase durations are unknown',
    );
  return {
    entries,
    omitted,
    ...(omitted ? { omittedAt: head } : {}),
    phases: phaseSpans(job, phaseTimes, opts.now),
    ...stagesOf(milestones(job, phaseTimes, eventEntries)),
    notes,
  };
}

/** 0s, 41s, 5m02s, 1h03m. */
export function duration(msValue: number): string {
  const s = Math.round(msValue / 1000);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(m / 60)}h${String(m % 60).padStart(2, '0')}m`;
}

/** What `status --explain` prints after the status lines. */
export function timelineLines(t: Timeline): string[] {
  const lines: string[] = [];
  if (t.stages.length) {
    const parts = t.stages.map((s, i) => `${i === 0 ? `${s.from} ` : ''}→ ${s.to} ${duration(s.ms)}`);
    lines.push(`Durations: ${parts.join(' ')}${t.totalMs !== undefined ? ` (total ${duration(t.totalMs)})` : ''}`);
  }
  if (t.phases.length)
    lines.push(
      `Phases: ${t.phases.map((p) => `${p.phase} ${p.startedAt}${p.durationMs !== undefined ? ` (${duration(p.durationMs)}${p.current ? ', so far' : ''})` : ''}`).join(', ')}`,
    );
  lines.push('Timeline:');
  const line = (e: TimelineEntry) => {
    const repeat = e.count ? ` (×${e.count}${e.lastAt ? `, last ${e.lastAt}` : ''})` : '';
    const mark = e.type === 'Warning' ? '!' : ' ';
    return `  ${(e.at ?? 'now').padEnd(20)} ${mark} ${e.subject}: ${e.what}${repeat}${e.detail ? ` — ${e.detail}` : ''}`;
  };
  const headCount = t.omittedAt ?? t.entries.length;
  lines.push(...t.entries.slice(0, headCount).map(line));
  if (t.omitted) lines.push(`  … ${t.omitted} entries left out (--output json has the same bounded list) …`);
  lines.push(...t.entries.slice(headCount).map(line));
  for (const n of t.notes) lines.push(`Note: ${n}`);
  return lines;
}
