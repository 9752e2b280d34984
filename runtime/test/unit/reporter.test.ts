import { ANNOTATIONS } from 'seatunnel-app/internal/contract';
import { memoryLogger } from '../../src/log';
import { Reporter } from '../../src/report/reporter';
import { FakeClock, FakeKube, KubeApiError, runOn } from './fakes';

function setup() {
  const clock = new FakeClock();
  const kube = new FakeKube(clock);
  const reporter = new Reporter(kube, { name: 'app-1' }, { podName: 'app-1-m' }, clock, memoryLogger());
  return { clock, kube, reporter };
}

test('Events carry the Job (with its uid once known) and keep their order; queued annotation patches are merged', async () => {
  const { clock, kube, reporter } = setup();
  reporter.setJobUid('job-uid');
  reporter.annotate({ phase: 'Starting', workersDesired: '3' });
  reporter.event('Normal', 'WorkersCreating', 'creating 3');
  reporter.annotate({ phase: 'CreatingWorkers' });
  reporter.annotate({ workersRegistered: '1' });
  reporter.event('Warning', 'WorkerLost', 'x'.repeat(2000));
  expect(await runOn(clock, reporter.flush(10_000))).toBe(true);
  expect(kube.calls.map((c) => c.op)).toEqual([
    'patchJobAnnotations',
    'createEvent',
    'patchJobAnnotations',
    'createEvent',
  ]);
  expect(kube.annotationPatches[1]).toEqual({
    [ANNOTATIONS.phase]: 'CreatingWorkers',
    [ANNOTATIONS.workersRegistered]: '1',
    [ANNOTATIONS.phaseTimes]: expect.stringContaining('"CreatingWorkers"'),
  });
  const [first, second] = kube.events;
  expect(first.involvedObject).toEqual({
    apiVersion: 'batch/v1',
    kind: 'Job',
    name: 'app-1',
    namespace: 'ns',
    uid: 'job-uid',
  });
  expect(first).toMatchObject({
    reason: 'WorkersCreating',
    type: 'Normal',
    source: { component: 'seatunnel-app-runtime' },
    count: 1,
  });
  expect(second.message!.length).toBe(1024);
  expect(first.metadata.name! < second.metadata.name!).toBe(true);
});

test('null removes an annotation', async () => {
  const { clock, kube, reporter } = setup();
  reporter.annotate({ reason: 'WorkerLost' });
  reporter.annotate({ reason: null });
  await runOn(clock, reporter.flush(1000));
  expect(kube.annotations[ANNOTATIONS.reason]).toBeUndefined();
});

test('transient errors and 403 (RBAC catching up after an API server restart) are retried; other errors drop the write', async () => {
  const { clock, kube, reporter } = setup();
  kube.failNext.set('createEvent', [
    new KubeApiError(0, 'ECONNREFUSED', 'down'),
    new KubeApiError(403, 'Forbidden', 'not yet'),
    new KubeApiError(422, 'Invalid', 'bad'),
  ]);
  reporter.event('Normal', 'JobSubmitted', 'a');
  reporter.event('Normal', 'JobSubmitted', 'b');
  expect(await runOn(clock, reporter.flush(60_000))).toBe(false); // 'a' was given up
  expect(kube.events.map((e) => e.message)).toEqual(['b']);
  expect(kube.ops('createEvent')).toHaveLength(4);
});

test('once the application is being deleted a 403 is final: its Role goes with the Job, so the write ends at once, quietly', async () => {
  const clock = new FakeClock();
  const kube = new FakeKube(clock);
  const log = memoryLogger();
  const reporter = new Reporter(kube, { name: 'app-1' }, { podName: 'app-1-m' }, clock, log);
  reporter.markApplicationDeleted();
  kube.failNext.set('createEvent', [
    new KubeApiError(403, 'Forbidden', 'gone'),
    new KubeApiError(0, 'ECONNREFUSED', 'down'),
  ]);
  reporter.event('Warning', 'Canceled', 'a');
  reporter.event('Warning', 'Canceled', 'b');
  // 'a' ended at its first 403 — not given up: the Job it would be recorded on goes too.
  expect(await runOn(clock, reporter.flush(60_000))).toBe(true);
  expect(kube.events.map((e) => e.message)).toEqual(['b']); // a transient error is still retried
  expect(kube.ops('createEvent')).toHaveLength(3);
  expect(log.lines.filter((l) => l.includes(' WARN ') && !l.includes('retrying'))).toEqual([]);
  expect(log.lines.filter((l) => l.includes('the application is being deleted, its Role with it'))).toHaveLength(1);
});

test('before the application is being deleted, a write refused for good is a warning and flush says so', async () => {
  const clock = new FakeClock();
  const kube = new FakeKube(clock);
  const log = memoryLogger();
  const reporter = new Reporter(kube, { name: 'app-1' }, { podName: 'app-1-m' }, clock, log);
  kube.failNext.set('createEvent', [new KubeApiError(422, 'Invalid', 'bad')]);
  reporter.event('Warning', 'Canceled', 'a');
  expect(await runOn(clock, reporter.flush(60_000))).toBe(false);
  expect(log.lines.filter((l) => l.includes(' WARN ') && l.includes('on the Job failed'))).toHaveLength(1);
});

test('flush gives up after its budget when the API does not answer', async () => {
  const { clock, kube, reporter } = setup();
  kube.failNext.set(
    'patchJobAnnotations',
    Array.from({ length: 1000 }, () => new KubeApiError(503, 'ServiceUnavailable', 'down')),
  );
  reporter.annotate({ phase: 'Failed' });
  expect(await runOn(clock, reporter.flush(5000))).toBe(false);
});

test('each phase records when it began, once, in one bounded annotation; an earlier runtime of the Job keeps its earlier times', async () => {
  const { clock, kube, reporter } = setup();
  const t0 = clock
    .wallTime()
    .toISOString()
    .replace(/\.\d+Z$/, 'Z');
  reporter.annotate({ phase: 'Starting' });
  await runOn(clock, reporter.flush(1000));
  await runOn(clock, clock.sleep(5000));
  const t1 = clock
    .wallTime()
    .toISOString()
    .replace(/\.\d+Z$/, 'Z');
  reporter.annotate({ phase: 'Running', zetaJobId: '7' });
  reporter.annotate({ phase: 'Running' });
  await runOn(clock, reporter.flush(1000));
  expect(JSON.parse(kube.annotations[ANNOTATIONS.phaseTimes]!)).toEqual({ Starting: t0, Running: t1 });

  // a restarted coordinator: its own Starting is later than the recorded one; unknown keys are dropped
  const next = new Reporter(kube, { name: 'app-1' }, { podName: 'app-1-m2' }, clock, memoryLogger());
  next.annotate({ phase: 'Starting' });
  next.seedPhaseTimes(JSON.stringify({ Starting: '2025-01-01T00:00:00Z', Bogus: 'x' }));
  next.annotate({ phase: 'Succeeded' });
  await runOn(clock, next.flush(1000));
  const times = JSON.parse(kube.annotations[ANNOTATIONS.phaseTimes]!) as Record<string, string>;
  expect(Object.keys(times).sort()).toEqual(['Starting', 'Succeeded']);
  expect(times.Starting).toBe('2025-01-01T00:00:00Z');
  next.seedPhaseTimes('not json');
  expect(kube.annotations[ANNOTATIONS.phaseTimes]!.length).toBeLessThan(400);
});
