// status --explain's story (lib/submit/observe/timeline.ts), table-driven over what Kubernetes keeps of an
// application: its Job (conditions, the runtime's annotations), its Events, its Pods.
import type { Job } from 'kubernetes-types/batch/v1';
import type { Event, Pod } from 'kubernetes-types/core/v1';
import { LABELS } from '../../../lib/model/reserved';
import { ANNOTATIONS } from '../../../lib/contract';
import { applicationTimeline, duration, timelineLines, type Timeline } from '../../../lib/submit/observe/timeline';

const T0 = Date.parse('2026-03-01T10:00:00Z');
const at = (s: number) => new Date(T0 + s * 1000).toISOString().replace(/\.\d+Z$/, 'Z');

function job(o: {
  annotations?: Record<string, string>;
  conditions?: Array<[string, number, string?, string?]>;
  startTime?: number;
  completionTime?: number;
}): Job {
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: {
      name: 'app-1',
      namespace: 'ns',
      uid: 'uid-1',
      creationTimestamp: at(0),
      annotations: o.annotations ?? {},
    },
    spec: { template: { spec: { containers: [] } } },
    status: {
      ...(o.startTime !== undefined ? { startTime: at(o.startTime) } : {}),
      ...(o.completionTime !== undefined ? { completionTime: at(o.completionTime) } : {}),
      conditions: (o.conditions ?? []).map(([type, s, reason, message]) => ({
        type,
        status: 'True',
        lastTransitionTime: at(s),
        ...(reason ? { reason } : {}),
        ...(message ? { message } : {}),
      })),
    },
  };
}

const phases = (p: Record<string, number>) => ({
  [ANNOTATIONS.phaseTimes]: JSON.stringify(Object.fromEntries(Object.entries(p).map(([k, s]) => [k, at(s)]))),
});

function ev(reason: string, s: number, o: Partial<Event> & { by?: string; uid?: string } = {}): Event {
  const by = o.by ?? 'seatunnel-app-runtime';
  return {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name: `app-1.${reason}.${s}`, namespace: 'ns' },
    involvedObject: { kind: 'Job', name: 'app-1', namespace: 'ns', uid: o.uid ?? 'uid-1' },
    reason,
    message: o.message ?? `${reason} message`,
    type: o.type ?? 'Normal',
    source: { component: by },
    // The runtime reports from the Job's Pod (`<job>-xxxxx`).
    ...(by === 'seatunnel-app-runtime' ? { reportingComponent: by, reportingInstance: 'app-1-x7k2p' } : {}),
    firstTimestamp: at(s),
    lastTimestamp: at(s),
    count: 1,
    ...o,
  };
}

function worker(i: number, created: number, running?: number): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: `app-1-worker-${i}`,
      creationTimestamp: at(created),
      labels: { [LABELS.role]: 'worker', [LABELS.applicationId]: 'app-1' },
    },
    spec: { containers: [], nodeName: `node-${i}` },
    status: {
      phase: running !== undefined ? 'Running' : 'Pending',
      conditions: [{ type: 'PodScheduled', status: 'True', lastTransitionTime: at(created + 1) }],
      containerStatuses:
        running !== undefined
          ? [
              {
                name: 'seatunnel',
                image: 'x',
                imageID: '',
                ready: true,
                restartCount: 0,
                state: { running: { startedAt: at(running) } },
              },
            ]
          : [],
    },
  };
}

const NOW = new Date(T0 + 10 * 60 * 1000);
const whats = (t: Timeline) => t.entries.map((e) => `${e.subject}: ${e.what}`);

interface Case {
  name: string;
  job: Job;
  events: Event[];
  pods: Pod[];
  now?: Date;
  check: (t: Timeline, text: string[]) => void;
}

const cases: Case[] = [
  {
    name: 'success: every milestone, per-phase durations, worker Pods while they exist',
    job: job({
      startTime: 1,
      completionTime: 125,
      conditions: [['Complete', 125]],
      annotations: {
        [ANNOTATIONS.phase]: 'Succeeded',
        [ANNOTATIONS.finishedAt]: at(124),
        ...phases({
          Starting: 3,
          CreatingWorkers: 4,
          WaitingForWorkers: 5,
          Submitting: 40,
          Running: 41,
          CleaningUp: 120,
          Succeeded: 124,
        }),
      },
    }),
    events: [
      ev('SuccessfulCreate', 1, { by: 'job-controller', message: 'Created pod: app-1-master-x' }),
      ev('WorkersCreating', 4),
      ev('AllWorkersRegistered', 40),
      ev('JobSubmitted', 41, { message: 'submitted Zeta job 917 (demo)' }),
      ev('Succeeded', 124),
      ev('Completed', 125, { by: 'job-controller' }),
    ],
    pods: [worker(0, 4, 10), worker(1, 4, 12)],
    check: (t, text) => {
      expect(t.stages.map((s) => [s.to, s.ms / 1000])).toEqual([
        ['Job started', 1],
        ['runtime started', 2],
        ['workers registered', 37],
        ['job submitted', 1],
        ['job ended', 79],
        ['finished', 4],
      ]);
      expect(t.totalMs).toBe(124_000);
      expect(t.phases.map((p) => [p.phase, p.durationMs])).toEqual([
        ['Starting', 1000],
        ['CreatingWorkers', 1000],
        ['WaitingForWorkers', 35_000],
        ['Submitting', 1000],
        ['Running', 79_000],
        ['CleaningUp', 4000],
        ['Succeeded', undefined],
      ]);
      const w = whats(t);
      expect(w[0]).toBe('Job: created (submitted)');
      expect(w.indexOf('Pod app-1-worker-1 (worker): container seatunnel running')).toBeGreaterThan(
        w.indexOf('runtime: WorkersCreating'),
      );
      expect(w.indexOf('runtime: JobSubmitted')).toBeGreaterThan(w.indexOf('runtime: AllWorkersRegistered'));
      expect(w).toContain('Pod app-1-worker-0 (worker): scheduled');
      expect(t.notes).toEqual([]);
      // the runtime's Events tell the phases from WorkersCreating on: the timeline does not repeat
      // them (the Phases line has all); Starting, before any runtime Event, is told from the annotation
      expect(w.filter((x) => x.startsWith('runtime: phase'))).toEqual(['runtime: phase Starting']);
      expect(text[0]).toBe(
        'Durations: Job created → Job started 1s → runtime started 2s → workers registered 37s → job submitted 1s → job ended 1m19s → finished 4s (total 2m04s)',
      );
      expect(text).toContain('Timeline:');
    },
  },
  {
    name: 'worker lost: the Warning with its reason, the failure record; workers already deleted',
    job: job({
      startTime: 0,
      conditions: [
        ['FailureTarget', 70, 'PodFailurePolicy'],
        ['Failed', 71, 'PodFailurePolicy', 'Container seatunnel for pod ns/app-1-master-x failed with exit code 3'],
      ],
      annotations: {
        [ANNOTATIONS.phase]: 'Failed',
        [ANNOTATIONS.reason]: 'WorkerLost',
        [ANNOTATIONS.message]: 'worker Pod app-1-worker-1 was deleted',
        [ANNOTATIONS.finishedAt]: at(69),
        ...phases({
          Starting: 2,
          CreatingWorkers: 3,
          WaitingForWorkers: 3,
          Submitting: 20,
          Running: 21,
          Stopping: 60,
          CleaningUp: 61,
          Failed: 69,
        }),
      },
    }),
    events: [
      ev('WorkerLost', 60, { type: 'Warning', message: 'WorkerLost: worker Pod app-1-worker-1 was deleted' }),
      ev('Failed', 69, { type: 'Warning' }),
    ],
    pods: [],
    check: (t, text) => {
      const lost = t.entries.find((e) => e.what === 'WorkerLost')!;
      expect(lost).toMatchObject({
        type: 'Warning',
        subject: 'runtime',
        at: at(60),
        detail: 'WorkerLost: worker Pod app-1-worker-1 was deleted',
      });
      expect(t.entries.find((e) => e.what === 'finished (Failed)')!.detail).toBe(
        'WorkerLost: worker Pod app-1-worker-1 was deleted',
      );
      expect(t.entries.some((e) => e.what === 'condition Failed' && e.detail?.includes('exit code 3'))).toBe(true);
      expect(t.stages[t.stages.length - 1]).toEqual({ from: 'job ended', to: 'finished', ms: 9000 });
      expect(
        text.some((l) => /! runtime: WorkerLost — WorkerLost: worker Pod app-1-worker-1 was deleted$/.test(l)),
      ).toBe(true);
    },
  },
  {
    name: 'cancel: Stopping, CleaningUp, Canceled; an aggregated Event shows its count',
    job: job({
      startTime: 0,
      annotations: {
        [ANNOTATIONS.phase]: 'Canceled',
        [ANNOTATIONS.finishedAt]: at(50),
        ...phases({ Starting: 1, Running: 10, Stopping: 40, CleaningUp: 42, Canceled: 50 }),
      },
    }),
    events: [
      ev('Stopping', 40, { message: 'stopping Zeta job 917' }),
      ev('SuccessfulDelete', 45, { by: 'job-controller', count: 3, lastTimestamp: at(48) }),
    ],
    pods: [],
    check: (t, text) => {
      expect(t.phases.map((p) => p.phase)).toEqual(['Starting', 'Running', 'Stopping', 'CleaningUp', 'Canceled']);
      expect(t.entries.find((e) => e.what === 'SuccessfulDelete')).toMatchObject({
        count: 3,
        lastAt: at(48),
        subject: 'job-controller',
      });
      expect(text.some((l) => l.includes('job-controller: SuccessfulDelete (×3, last 2026-03-01T10:00:48Z)'))).toBe(
        true,
      );
      expect(t.stages.map((s) => s.to)).toEqual([
        'Job started',
        'runtime started',
        'job submitted',
        'job ended',
        'finished',
      ]);
    },
  },
  {
    name: 'HA failover: masters ready, a master replaced (events.k8s.io series), a coordinator re-attached; Events of an earlier Job of the name are dropped',
    job: job({
      startTime: 0,
      annotations: {
        [ANNOTATIONS.phase]: 'Running',
        [ANNOTATIONS.submittedAt]: at(30),
        [ANNOTATIONS.masterFailovers]: '2',
        ...phases({ Starting: 2, CreatingWorkers: 20, WaitingForWorkers: 21, Submitting: 29, Running: 30 }),
      },
    }),
    events: [
      ev('MastersReady', 19),
      ev('JobSubmitted', 30),
      {
        ...ev('MasterReplaced', 200, { type: 'Normal' }),
        firstTimestamp: undefined,
        lastTimestamp: undefined,
        count: undefined,
        eventTime: `${at(200).slice(0, -1)}.123456Z`,
        series: { count: 2, lastObservedTime: `${at(260).slice(0, -1)}.000001Z` },
        reportingComponent: 'seatunnel-app-runtime',
      },
      ev('Reattached', 300, { message: 're-attached to Zeta job 917 (RUNNING); it is not submitted again' }),
      ev('WorkersCreating', 5, { uid: 'uid-of-an-earlier-job' }),
    ],
    pods: [],
    check: (t) => {
      const replaced = t.entries.find((e) => e.what === 'MasterReplaced')!;
      expect(replaced).toMatchObject({ at: at(200), count: 2, lastAt: at(260) });
      expect(t.entries.some((e) => e.what === 'WorkersCreating')).toBe(false);
      // only the phase from before the earliest remaining runtime Event is told from the annotation
      expect(whats(t).filter((x) => x.startsWith('runtime: phase'))).toEqual(['runtime: phase Starting']);
      expect(
        whats(t)
          .filter((w) => w.startsWith('runtime: '))
          .slice(-2),
      ).toEqual(['runtime: MasterReplaced', 'runtime: Reattached']);
      // a live application: the current phase counts until now; no total yet
      expect(t.phases[t.phases.length - 1]).toMatchObject({ phase: 'Running', current: true, durationMs: 570_000 });
      expect(t.totalMs).toBeUndefined();
    },
  },
  {
    name: 'Events expired: the Job and its annotations still tell the phases and the failure, and the output says the Events are gone',
    job: job({
      startTime: 0,
      conditions: [['Failed', 95, 'PodFailurePolicy', 'exit code 1']],
      annotations: {
        [ANNOTATIONS.phase]: 'Failed',
        [ANNOTATIONS.reason]: 'JobFailed',
        [ANNOTATIONS.message]: 'Zeta job 917 ended FAILED: java.lang.RuntimeException: sink unreachable',
        [ANNOTATIONS.finishedAt]: at(94),
        ...phases({
          Starting: 2,
          CreatingWorkers: 3,
          WaitingForWorkers: 4,
          Submitting: 30,
          Running: 31,
          CleaningUp: 90,
          Failed: 94,
        }),
      },
    }),
    events: [],
    pods: [],
    now: new Date(T0 + 3 * 3600_000),
    check: (t, text) => {
      expect(t.notes).toHaveLength(1);
      expect(t.notes[0]).toMatch(/^no Events remain: .*1 h by default, kube-apiserver --event-ttl/);
      expect(t.stages.map((s) => s.to)).toEqual([
        'Job started',
        'runtime started',
        'workers registered',
        'job submitted',
        'job ended',
        'finished',
      ]);
      expect(t.entries.find((e) => e.what === 'finished (Failed)')!.detail).toContain('sink unreachable');
      expect(whats(t).filter((x) => x.startsWith('runtime: phase'))).toEqual(
        ['Starting', 'CreatingWorkers', 'WaitingForWorkers', 'Submitting', 'Running', 'CleaningUp', 'Failed'].map(
          (p) => `runtime: phase ${p}`,
        ),
      );
      expect(text[text.length - 1]).toMatch(/^Note: no Events remain/);
    },
  },
];

describe.each(cases)('$name', (c) => {
  test('timeline', () => {
    const t = applicationTimeline(c.job, c.events, c.pods, { now: c.now ?? NOW });
    c.check(t, timelineLines(t));
    // entries are in time order (the undated ones last)
    const times = t.entries.filter((e) => e.at).map((e) => Date.parse(e.at!));
    expect(times).toEqual([...times].sort((a, b) => a - b));
  });
});

test('the output is bounded: the first and the last entries are kept, the middle is counted', () => {
  const events = Array.from({ length: 200 }, (_, i) => ev(`Reason${i}`, i + 1));
  const t = applicationTimeline(job({}), events, [], { now: NOW, maxEntries: 30 });
  expect(t.entries).toHaveLength(30);
  expect(t.omitted).toBe(171);
  expect(t.entries[0].what).toBe('created (submitted)');
  expect(t.entries[t.entries.length - 1].what).toBe('Reason199');
  const text = timelineLines(t);
  expect(text.filter((l) => l.startsWith('  '))).toHaveLength(31);
  expect(text[t.omittedAt! + 1]).toBe('  … 171 entries left out (--output json has the same bounded list) …');
});

test('a phase-times annotation that is not ours is ignored; a runtime that recorded none is named', () => {
  const t = applicationTimeline(
    job({ annotations: { [ANNOTATIONS.phase]: 'Running', [ANNOTATIONS.phaseTimes]: '{"Running":' } }),
    [],
    [],
    { now: NOW },
  );
  expect(t.phases).toEqual([]);
  expect(t.notes).toEqual([expect.stringContaining('no phase times')]);
});

test('durations read at a glance', () => {
  expect([0, 999, 41_000, 302_000, 3_780_000].map(duration)).toEqual(['0s', '1s', '41s', '5m02s', '1h03m']);
});

test("an Event that says the runtime wrote it but comes from another Pod than this Job's (another application's runtime) is left out", () => {
  const forged = (instance: string | undefined) =>
    ev('Succeeded', 50, {
      message: 'all done, nothing to see',
      ...(instance === undefined ? {} : { reportingInstance: instance }),
    });
  const t = applicationTimeline(
    job({}),
    [
      ev('WorkersCreating', 4),
      { ...forged('other-app-x7k2p'), reportingInstance: 'other-app-x7k2p' },
      { ...forged(undefined), reportingComponent: undefined, reportingInstance: undefined },
      { ...forged('app-1-worker-1'), reportingInstance: 'app-1-worker-1' },
      ev('SuccessfulCreate', 1, { by: 'job-controller', message: 'Created pod: app-1-x7k2p' }),
    ],
    [],
    { now: new Date(T0 + 60_000) },
  );
  expect(t.entries.filter((e) => e.source === 'event').map((e) => `${e.subject}: ${e.what}`)).toEqual([
    'job-controller: SuccessfulCreate',
    'runtime: WorkersCreating',
  ]);
});
