// The lifecycle state machine on virtual time, with fakes of the Kubernetes and engine ports.
import { ANNOTATIONS } from 'seatunnel-app/internal/contract';
import { PHASES } from '../../src/report/reporter';
import { EngineRejected, KubeApiError, pullFailing, running, terminated, unschedulable } from './fakes';
import { once, SEL, setup, whileRunning } from './lifecycle-setup';

type S = ReturnType<typeof setup>;

function eventReasons(s: S): string[] {
  return s.kube.events.map((e) => e.reason!);
}

function eventMessages(s: S): string[] {
  return s.kube.events.map((e) => e.message ?? '');
}

function expectCleanedUp(s: S): void {
  expect(s.kube.podsOf(SEL)).toEqual([]);
  expect(s.engine.shutdownCalls).toBe(1);
}

const JOB = `env { job.mode = "BATCH", big = 9007199254740993 }
source { FakeSource { plugin_output = "fake", row.num = \${ROWS} } }
sink { Console { plugin_input = "fake" } }
`;

test('happy path: workers created, all registered, then exactly one submit; success; workers removed; exit 0', async () => {
  const s = setup({ jobConfig: JOB });
  const out = await s.run();
  expect(out).toMatchObject({ state: 'SUCCEEDED', reason: 'JobFinished', exitCode: 0, zetaStatus: 'FINISHED' });
  expect(s.engineFilesWritten).toBe(1);
  expect(
    s.kube
      .ops('createPod')
      .map((c) => c.name)
      .sort(),
  ).toEqual(['app-1-worker-1', 'app-1-worker-2', 'app-1-worker-3']);
  // exactly one job, submitted after all three registered, with the exact 63-bit id and the resolved config
  expect(s.engine.submits).toHaveLength(1);
  const sub = s.engine.submits[0];
  expect(sub.registeredAtSubmit).toBe(3);
  expect(sub.jobId).toBe('9223372036854775807');
  expect(sub.jobName).toBe(s.p.spec.name);
  // ${ROWS} from the master's environment; numbers beyond 2^53 stay exact
  expect(sub.configJson).toBe(
    '{"env":{"job.mode":"BATCH","job.retry.times":0,"big":9007199254740993},"source":[{"plugin_name":"FakeSource","plugin_output":"fake","row":{"num":"12345678901234567"}}],"sink":[{"plugin_name":"Console","plugin_input":"fake"}]}',
  );
  expect(s.engine.stops).toEqual([]);
  expectCleanedUp(s);
  expect(eventReasons(s)).toEqual(['WorkersCreating', 'AllWorkersRegistered', 'JobSubmitted', 'Succeeded']);
  expect(s.kube.events.every((e) => e.involvedObject.uid === 'job-uid' && e.involvedObject.kind === 'Job')).toBe(true);
  expect(s.kube.annotations).toEqual({
    [ANNOTATIONS.phase]: 'Succeeded',
    [ANNOTATIONS.workersDesired]: '3',
    [ANNOTATIONS.workersRegistered]: '3',
    [ANNOTATIONS.zetaJobId]: '9223372036854775807',
    [ANNOTATIONS.zetaJobStatus]: 'FINISHED',
    [ANNOTATIONS.message]: 'Zeta job 9223372036854775807 ended FINISHED',
    [ANNOTATIONS.finishedAt]: expect.stringMatching(/^2026-01-01T/),
    [ANNOTATIONS.phaseTimes]: expect.any(String),
    // The final counts Zeta's metrics gave with the terminal status (the fake: 100 a poll), no rate.
    [ANNOTATIONS.rows]: '{"read":300,"written":300,"at":"2026-01-01T00:00:01Z"}',
  });
  expect(Object.keys(JSON.parse(s.kube.annotations[ANNOTATIONS.phaseTimes]!) as object)).toEqual(
    expect.arrayContaining([
      'Starting',
      'CreatingWorkers',
      'WaitingForWorkers',
      'Submitting',
      'Running',
      'CleaningUp',
      'Succeeded',
    ]),
  );
  // the phases in lifecycle order (patches waiting in the queue are merged, so some may be skipped)
  const phases = s.kube.annotationPatches.map((a) => a[ANNOTATIONS.phase]).filter((x): x is string => !!x);
  const order = phases.map((x) => PHASES.indexOf(x as (typeof PHASES)[number]));
  expect(order).toEqual([...order].sort((a, b) => a - b));
  expect(phases).toEqual(expect.arrayContaining(['Starting', 'CreatingWorkers', 'Running', 'CleaningUp', 'Succeeded']));
});

test('dependents applied without an owner are adopted by the Job; owned ones are left alone; the worker template never', async () => {
  const s = setup({ secrets: { db: { data: { password: 'p' } } } });
  s.kube.owners.set('Service/app-1', [{ apiVersion: 'batch/v1', kind: 'Job', name: 'app-1', uid: 'job-uid' }]);
  s.kube.owners.set('ConfigMap/app-1-engine', [{ apiVersion: 'v1', kind: 'Other', name: 'x', uid: 'other' }]);
  await s.run();
  const adopted = s.kube
    .ops('setOwnerReferences')
    .map((c) => c.name)
    .sort();
  // The owned Secret, and the job config's (lib/plan/steps/job-config.ts).
  expect(adopted).toEqual(['Secret/app-1-db', 'Secret/app-1.job-config']);
  expect(s.kube.owners.get('Secret/app-1-db')).toEqual([
    {
      apiVersion: 'batch/v1',
      kind: 'Job',
      name: 'app-1',
      uid: 'job-uid',
      controller: false,
      blockOwnerDeletion: false,
    },
  ]);
  // The admission fence's parameter: the runtime reads it and never changes it (issue 27, item 1).
  expect(s.kube.owners.get('PodTemplate/app-1-worker')).toBeUndefined();
});

test('a worker deleted mid-run: detected, the job stopped (it was acknowledged), cleanup, WorkerLost, exit 3', async () => {
  const s = setup();
  s.engine.script = () => 'RUNNING';
  const out = await s.run(
    once(
      () => s.engine.submits.length === 1,
      () => s.kube.remove('app-1-worker-2'),
    ),
  );
  expect(out).toMatchObject({
    state: 'FAILED',
    reason: 'WorkerLost',
    exitCode: 3,
    message: 'worker app-1-worker-2 was deleted',
    zetaStatus: 'CANCELED',
  });
  expect(s.engine.stops).toEqual(['9223372036854775807']);
  expectCleanedUp(s);
  expect(eventReasons(s)).toEqual([
    'WorkersCreating',
    'AllWorkersRegistered',
    'JobSubmitted',
    'WorkerLost',
    'Stopping',
    'Failed',
  ]);
  expect(s.kube.annotations[ANNOTATIONS.reason]).toBe('WorkerLost');
  expect(s.kube.annotations[ANNOTATIONS.phase]).toBe('Failed');
});

test('a worker that fails (OOMKilled) mid-run is lost with the container reason', async () => {
  const s = setup();
  const out = await whileRunning(s, () => s.kube.update('app-1-worker-1', terminated(137, 'OOMKilled')));
  expect(out.reason).toBe('WorkerLost');
  expect(out.message).toBe(
    'worker app-1-worker-1 failed: container seatunnel terminated with exit code 137 (OOMKilled)',
  );
});

/** The values the runtime gave the workers-waiting annotation, in order. */
function nodeWaits(s: S): Array<string | null> {
  return s.kube.annotationPatches
    .filter((p) => ANNOTATIONS.workersWaiting in p)
    .map((p) => p[ANNOTATIONS.workersWaiting]);
}

test('an Unschedulable worker the cluster autoscaler will not scale up for (NotTriggerScaleUp) fails at once, inside the grace period; nothing is submitted', async () => {
  const s = setup({ startupTimeoutMillis: 600_000, scaleUpGraceMillis: 120_000 });
  s.kube.onCreate = (pod) => {
    const name = pod.metadata!.name!;
    s.kube.update(name, name.endsWith('-3') ? unschedulable : running);
    if (name.endsWith('-3'))
      s.kube.addPodEvent(name, 'NotTriggerScaleUp', "pod didn't trigger scale-up: 1 max node group size reached");
  };
  const out = await s.run();
  expect(out).toMatchObject({ state: 'FAILED', reason: 'Unschedulable', exitCode: 3 });
  expect(out.message).toBe(
    "worker app-1-worker-3 cannot be scheduled: 0/3 nodes are available: 3 Insufficient cpu.; the cluster autoscaler will not add a node for it (NotTriggerScaleUp: pod didn't trigger scale-up: 1 max node group size reached)",
  );
  expect(s.clock.now()).toBeLessThan(120_000);
  expect(s.engine.submits).toEqual([]);
  expect(s.engine.stops).toEqual([]);
  // The worker failed before the master's JVM was due to start: no engine was started or stopped.
  expect(s.kube.podsOf(SEL)).toEqual([]);
  expect(s.engine.started).toBe(false);
  expect(s.engine.shutdownCalls).toBe(0);
  expect(eventReasons(s)).toEqual(['WorkersCreating', 'WorkerFailed', 'Failed']);
});

test('an Unschedulable worker the cluster autoscaler scales up for (TriggeredScaleUp) waits past the grace period, says so on the Job, then runs', async () => {
  const s = setup({ startupTimeoutMillis: 600_000, scaleUpGraceMillis: 30_000 });
  s.kube.onCreate = (pod) => {
    const name = pod.metadata!.name!;
    s.kube.update(name, name.endsWith('-3') ? unschedulable : running);
    if (name.endsWith('-3'))
      s.kube.addPodEvent(name, 'TriggeredScaleUp', 'pod triggered scale-up: [{pool-1 3->4 (max: 10)}]');
  };
  // The new node is up after two minutes, well past the grace period.
  const out = await s.run(
    once(
      () => s.clock.now() >= 120_000,
      () => s.kube.update('app-1-worker-3', running),
    ),
  );
  expect(out).toMatchObject({ state: 'SUCCEEDED', reason: 'JobFinished' });
  expect(s.clock.now()).toBeGreaterThanOrEqual(120_000);
  expect(s.engine.submits).toHaveLength(1);
  expect(s.engine.submits[0].registeredAtSubmit).toBe(3);
  // Until its Events are read the runtime has seen no answer (the barrier may look only after they
  // were read); then the scale-up; then nothing waits.
  const waits = nodeWaits(s);
  expect(waits.slice(-2)).toEqual(['1 waiting for a node (scale-up triggered) (app-1-worker-3)', null]);
  expect(waits.slice(0, -2)).toEqual(
    waits.slice(0, -2).map(() => '1 waiting for a node (Unschedulable; no scale-up seen yet) (app-1-worker-3)'),
  );
});

test('an Unschedulable worker no autoscaler answers for fails once the grace period is over, long before the startup timeout', async () => {
  const s = setup({ startupTimeoutMillis: 600_000, scaleUpGraceMillis: 30_000 });
  s.kube.onCreate = (pod) =>
    s.kube.update(pod.metadata!.name!, pod.metadata!.name!.endsWith('-3') ? unschedulable : running);
  const out = await s.run();
  expect(out).toMatchObject({ state: 'FAILED', reason: 'Unschedulable', exitCode: 3 });
  expect(out.message).toBe(
    'worker app-1-worker-3 cannot be scheduled: 0/3 nodes are available: 3 Insufficient cpu.; no autoscaler started adding a node within 30 s (application.scale-up-grace-millis)',
  );
  expect(s.clock.now()).toBeGreaterThanOrEqual(30_000);
  expect(s.clock.now()).toBeLessThan(60_000);
  expect(s.engine.submits).toEqual([]);
  expect(nodeWaits(s)).toEqual(['1 waiting for a node (Unschedulable; no scale-up seen yet) (app-1-worker-3)', null]);
  expectCleanedUp(s);
});

test('with scale-up-grace-millis 0 an Unschedulable worker without a scale-up fails at once, as on a cluster without an autoscaler', async () => {
  const s = setup({ startupTimeoutMillis: 600_000, scaleUpGraceMillis: 0 });
  s.kube.onCreate = (pod) =>
    s.kube.update(pod.metadata!.name!, pod.metadata!.name!.endsWith('-3') ? unschedulable : running);
  const out = await s.run();
  expect(out).toMatchObject({ state: 'FAILED', reason: 'Unschedulable' });
  expect(out.message).toBe('worker app-1-worker-3 cannot be scheduled: 0/3 nodes are available: 3 Insufficient cpu.');
  expect(s.clock.now()).toBeLessThan(10_000);
});

test('an image pull that fails once (ErrImagePull) and then succeeds is retried: the application succeeds', async () => {
  const s = setup({ imagePullRetryMillis: 30_000 });
  s.kube.onCreate = (pod) =>
    s.kube.update(pod.metadata!.name!, pod.metadata!.name!.endsWith('-2') ? pullFailing('ErrImagePull') : running);
  // The kubelet's next pull, 10 s later, works.
  const out = await s.run(
    once(
      () => s.clock.now() >= 10_000,
      () => s.kube.update('app-1-worker-2', running),
    ),
  );
  expect(out).toMatchObject({ state: 'SUCCEEDED', reason: 'JobFinished' });
  expect(s.engine.submits[0].registeredAtSubmit).toBe(3);
});

test('an image pull that keeps failing (ImagePullBackOff) fails the application with the image error once the budget is used', async () => {
  const s = setup({ imagePullRetryMillis: 20_000 });
  s.kube.onCreate = (pod) => s.kube.update(pod.metadata!.name!, pullFailing('ImagePullBackOff'));
  const out = await s.run();
  expect(out).toMatchObject({ state: 'FAILED', reason: 'ImagePullBackOff', exitCode: 3 });
  expect(out.message).toMatch(
    /^worker app-1-worker-1 container seatunnel: ImagePullBackOff: rpc error: i\/o timeout \(still failing after 2\d s; application.image-pull-retry-millis\)$/,
  );
  expect(s.clock.now()).toBeGreaterThanOrEqual(20_000);
  expect(s.clock.now()).toBeLessThan(60_000);
  expectCleanedUp(s);
});

test('startup timeout: one deadline for creation and registration, with the reason in the message', async () => {
  const s = setup({ startupTimeoutMillis: 20_000 });
  s.engine.register = (pods) => Math.min(1, pods.length);
  const out = await s.run();
  expect(out).toMatchObject({ state: 'FAILED', reason: 'StartupTimeout', exitCode: 3 });
  expect(out.message).toMatch(
    /^Timed out starting 3 application workers after 20 s: 3\/3 created, 3 running, 1\/3 registered with Zeta \(totalSlot 2 of 6\)/,
  );
  expect(s.clock.now()).toBeGreaterThanOrEqual(20_000);
  expect(s.engine.submits).toEqual([]);
  expectCleanedUp(s);
  expect(s.kube.annotations[ANNOTATIONS.workersRegistered]).toBe('1');
});

/** The master Pod deleted by hand (`kubectl delete pod`): its SIGTERM, with the deletion visible in the API. */
function deletePodBy(s: ReturnType<typeof setup>, reason?: string) {
  s.kube.masterPod = {
    ...s.kube.masterPod,
    metadata: { ...s.kube.masterPod.metadata, deletionTimestamp: '2026-01-01T00:00:00Z' },
    ...(reason
      ? { status: { conditions: [{ type: 'DisruptionTarget', status: 'True', reason, message: reason }] } }
      : {}),
  };
  s.terminate.abort();
}

test('SIGTERM while the job runs (the master Pod deleted): the job is stopped, workers removed, CANCELED, exit 2', async () => {
  const s = setup();
  s.engine.script = () => 'RUNNING';
  const out = await s.run(
    once(
      () => s.engine.submits.length === 1,
      () => deletePodBy(s),
    ),
  );
  expect(out).toMatchObject({ state: 'CANCELED', reason: 'Terminated', exitCode: 2, zetaStatus: 'CANCELED' });
  expect(s.engine.stops).toEqual(['9223372036854775807']);
  expectCleanedUp(s);
  expect(s.kube.annotations[ANNOTATIONS.phase]).toBe('Canceled');
  expect(eventReasons(s).slice(-2)).toEqual(['Stopping', 'Canceled']);
});

test('SIGTERM before submission (the master Pod deleted): nothing to stop, workers removed, exit 2', async () => {
  const s = setup();
  s.engine.register = () => 0;
  const out = await s.run(
    once(
      () => s.clock.now() > 1000,
      () => deletePodBy(s),
    ),
  );
  expect(out).toMatchObject({ reason: 'Terminated', exitCode: 2 });
  expect(s.engine.submits).toEqual([]);
  expect(s.engine.stops).toEqual([]);
  expectCleanedUp(s);
});

test('SIGTERM while a submission is in flight: once acknowledged, the job is stopped (a late submission cannot escape)', async () => {
  const s = setup();
  s.engine.script = () => 'RUNNING';
  const submit = s.engine.submit.bind(s.engine);
  s.engine.submit = async (req) => {
    deletePodBy(s);
    await s.clock.sleep(3000);
    return submit(req);
  };
  const out = await s.run();
  expect(out.reason).toBe('Terminated');
  expect(s.engine.stops).toEqual(['9223372036854775807']);
});

test.each([
  ['FAILED', 'JobFailed', 1, 'FAILED'],
  ['UNKNOWABLE', 'JobFailed', 1, 'FAILED'],
  ['CANCELED', 'JobCanceled', 2, 'CANCELED'],
  ['SAVEPOINT_DONE', 'JobFinished', 0, 'SUCCEEDED'],
])('Zeta %s → %s, exit %d', async (status, reason, code, state) => {
  const s = setup();
  s.engine.script = (n) => (n >= 2 ? status : 'RUNNING');
  s.engine.errorMsg =
    status === 'FAILED' ? 'java.lang.RuntimeException: ErrorCode:[ASSERT-01]\n\tat x.y(Z.java:1)' : undefined;
  const out = await s.run();
  expect(out).toMatchObject({ reason, exitCode: code, state, zetaStatus: status });
  if (status === 'FAILED')
    expect(out.message).toBe(
      'Zeta job 9223372036854775807 ended FAILED: java.lang.RuntimeException: ErrorCode:[ASSERT-01]',
    );
  expect(s.engine.stops).toEqual([]);
  expectCleanedUp(s);
});

test('a job Zeta refuses at submit is an application failure (exit 1), not retried', async () => {
  const s = setup();
  s.engine.submitError = new EngineRejected(
    "POST /submit-job: HTTP 500: ErrorCode:[API-06], ErrorDescription:[Factory initialize failed] - Unable to create a source for identifier 'FakeSource'.",
    500,
  );
  const out = await s.run();
  expect(out).toMatchObject({ reason: 'JobRejected', exitCode: 1 });
  expect(out.message).toMatch(/^Zeta refused the job: .*API-06/);
  expect(s.engine.submits).toHaveLength(1);
  expectCleanedUp(s);
});

test('a cleanup failure turns SUCCEEDED into FAILED (CleanupFailed, exit 3); every step is still attempted', async () => {
  const s = setup();
  const del = s.kube.deletePod.bind(s.kube);
  s.kube.deletePod = async (name, opts) => {
    if (name === 'app-1-worker-1') throw new KubeApiError(403, 'Forbidden', 'pods "app-1-worker-1" is forbidden');
    return del(name, opts);
  };
  const out = await s.run();
  expect(out).toMatchObject({ state: 'FAILED', reason: 'CleanupFailed', exitCode: 3, zetaStatus: 'FINISHED' });
  expect(out.message).toMatch(/deleting worker app-1-worker-1: .*forbidden/);
  expect(s.kube.ops('deletePod').map((c) => c.name)).toEqual(['app-1-worker-2', 'app-1-worker-3']);
  // No delete by selector (the Role has no deletecollection): the one refused is left.
  expect(s.kube.podsOf(SEL).map((p) => p.metadata?.name)).toEqual(['app-1-worker-1']);
  expect(eventReasons(s)).toContain('CleanupFailed');
});

test('an unresolvable ${VAR} in the job config is a configuration failure (exit 4) before anything starts', async () => {
  const s = setup();
  delete s.env.ROWS;
  const out = await s.run();
  expect(out).toMatchObject({ reason: 'InvalidJobConfig', exitCode: 4 });
  expect(out.message).toMatch(/\$\{ROWS\}.*set ROWS/);
  expect(s.engine.started).toBe(false);
  expect(s.kube.ops('createPod')).toEqual([]);
  expect(s.kube.annotations[ANNOTATIONS.phase]).toBe('Failed');
});

test('the engine dying mid-run ends the application (EngineExited, exit 5) with cleanup', async () => {
  const s = setup();
  s.engine.script = () => 'RUNNING';
  const out = await s.run(
    once(
      () => s.engine.submits.length === 1,
      () => s.engine.crash(137),
    ),
  );
  expect(out).toMatchObject({ reason: 'EngineExited', exitCode: 5 });
  expect(out.message).toMatch(/exited with code 137/);
  expect(s.kube.podsOf(SEL)).toEqual([]);
});

test('restore: a missing checkpoint fails before the engine starts (exit 4); with one, the engine is asked to restore', async () => {
  const missing = setup({ restoreJobId: '4711' });
  missing.engine.restorable = false;
  const out = await missing.run();
  expect(out).toMatchObject({ reason: 'CheckpointNotFound', exitCode: 4 });
  expect(missing.engine.started).toBe(false);

  const ok = setup({ restoreJobId: '4711' });
  await ok.run();
  expect(ok.engine.submits[0].restoreFromJobId).toBe('4711');
  expect(ok.kube.annotations[ANNOTATIONS.zetaJobId]).toBe('4711');
  expect(ok.kube.events.find((e) => e.reason === 'JobSubmitted')!.message).toMatch(
    /restored from the latest checkpoint of job 4711/,
  );
});

test('transient API errors while reading the Job are retried', async () => {
  const s = setup();
  s.kube.failNext.set('getJob', [
    new KubeApiError(503, 'ServiceUnavailable', 'x'),
    new KubeApiError(0, 'ECONNREFUSED', 'y'),
  ]);
  const out = await s.run();
  expect(out.exitCode).toBe(0);
  // two failed reads and the good one before the workers; the own-Job watch reads it once more
  expect(s.kube.ops('getJob').length).toBeGreaterThanOrEqual(3);
  expect(s.kube.ops('createPod')).toHaveLength(3);
});

test('a missing worker template is a configuration failure', async () => {
  const s = setup();
  s.kube.template = undefined;
  const out = await s.run();
  expect(out).toMatchObject({ reason: 'InvalidWorkerTemplate', exitCode: 4 });
});

describe('terminating a streaming job keeps its checkpoints (stop with savepoint)', () => {
  const STREAM =
    'env { job.mode = "STREAMING" }\nsource { FakeSource { plugin_output = "fake" } }\nsink { Console { plugin_input = "fake" } }\n';

  test('SIGTERM by a cancel: one stop with savepoint, SAVEPOINT_DONE, CANCELED with exit 2', async () => {
    const s = setup({ jobConfig: STREAM });
    s.engine.script = () => 'RUNNING';
    const out = await s.run(
      once(
        () => s.engine.submits.length === 1,
        () => {
          s.kube.annotations[ANNOTATIONS.cancelRequested] = 'true';
          s.terminate.abort();
        },
      ),
    );
    expect(out).toMatchObject({ state: 'CANCELED', reason: 'Terminated', exitCode: 2, zetaStatus: 'SAVEPOINT_DONE' });
    expect(s.engine.savepointStops).toEqual([true]);
    expectCleanedUp(s);
  });

  test('a savepoint that does not finish in time is not followed by a plain stop (Zeta 2.3.8 would delete the checkpoints)', async () => {
    const s = setup({ jobConfig: STREAM }, { savepointWaitMs: 2_000 });
    s.engine.script = () => 'RUNNING';
    const stop = s.engine.stopJob.bind(s.engine);
    s.engine.stopJob = async (id: string, savepoint = false) => {
      if (savepoint) {
        s.engine.stops.push(id);
        s.engine.savepointStops.push(true);
        return;
      }
      return stop(id, false);
    };
    const out = await s.run(
      once(
        () => s.engine.submits.length === 1,
        () => s.terminate.abort(),
      ),
    );
    expect(s.engine.savepointStops).toEqual([true]);
    // Nothing in the API says why (the kubelet, a node shutting down): Killed, a failure — checkpoints kept all the same.
    expect(out).toMatchObject({ reason: 'Killed', exitCode: 3, zetaStatus: 'RUNNING' });
    expectCleanedUp(s);
  });

  test('a batch job is stopped without a savepoint', async () => {
    const s = setup({ jobConfig: JOB });
    s.engine.script = () => 'RUNNING';
    await s.run(
      once(
        () => s.engine.submits.length === 1,
        () => s.terminate.abort(),
      ),
    );
    expect(s.engine.savepointStops).toEqual([false]);
  });

  test('a worker loss is not a termination: plain stop', async () => {
    const s = setup({ jobConfig: STREAM });
    s.engine.script = () => 'RUNNING';
    const out = await s.run(
      once(
        () => s.engine.submits.length === 1,
        () => s.kube.remove('app-1-worker-1'),
      ),
    );
    expect(out.reason).toBe('WorkerLost');
    expect(s.engine.savepointStops.every((x) => !x)).toBe(true);
  });
});

describe('cancel: a deleted application is canceled, not failed', () => {
  test('a worker deleted because the Job is being deleted: Terminated (CANCELED, exit 2), not WorkerLost', async () => {
    const s = setup();
    s.engine.script = () => 'RUNNING';
    const out = await s.run(
      once(
        () => s.engine.submits.length === 1,
        () => {
          s.kube.markJobDeleting();
          s.kube.remove('app-1-worker-2');
        },
      ),
    );
    expect(out).toMatchObject({ state: 'CANCELED', reason: 'Terminated', exitCode: 2 });
    expect(eventReasons(s)).not.toContain('WorkerLost');
    expectCleanedUp(s);
  });

  test('the Job noticed as being deleted ends the application as canceled', async () => {
    const s = setup({}, {});
    s.engine.script = () => 'RUNNING';
    const out = await s.run(
      once(
        () => s.engine.submits.length === 1,
        () => {
          s.kube.markJobDeleting();
        },
      ),
    );
    expect(out).toMatchObject({ state: 'CANCELED', reason: 'Terminated', exitCode: 2 });
  });

  test('the Role gone with the deleted Job (issue 28 item 8): each refused write is tried once, and none is a warning or a cleanup failure', async () => {
    const s = setup();
    s.engine.script = () => 'RUNNING';
    const forbidden = (what: string) => new KubeApiError(403, 'Forbidden', `${what} is forbidden`);
    // After the first worker's delete, garbage collection has removed the Role while the master
    // Pod still ends: every later write of the runtime is refused.
    let roleGone = false;
    const tried: string[] = [];
    const del = s.kube.deletePod.bind(s.kube);
    s.kube.deletePod = async (name, opts) => {
      tried.push(name);
      if (roleGone) throw forbidden(`pods "${name}"`);
      roleGone = true;
      return del(name, opts);
    };
    const patch = s.kube.patchJobAnnotations.bind(s.kube);
    s.kube.patchJobAnnotations = async (...a: Parameters<typeof patch>) => {
      if (roleGone) throw forbidden('jobs "app-1"');
      return patch(...a);
    };
    const create = s.kube.createEvent.bind(s.kube);
    s.kube.createEvent = async (e) => {
      if (roleGone) throw forbidden('events');
      return create(e);
    };
    const out = await s.run(
      once(
        () => s.engine.submits.length === 1,
        () => s.kube.markJobDeleting(),
      ),
    );
    expect(out).toMatchObject({ state: 'CANCELED', reason: 'Terminated', exitCode: 2 });
    // One delete per worker: the first went through, the 403s were final.
    expect(tried).toEqual(['app-1-worker-1', 'app-1-worker-2', 'app-1-worker-3']);
    expect(out.message).not.toMatch(/cleanup also failed|forbidden/);
    const lines = s.log.lines;
    expect(lines.filter((l) => / WARN /.test(l) && /forbidden|could not be recorded/.test(l))).toEqual([]);
    // Said once each, quietly: the writes that had nothing left to record on.
    expect(lines.filter((l) => / INFO /.test(l) && /its Role with it/.test(l)).length).toBeGreaterThan(0);
    expect(lines.some((l) => /leftToGarbageCollection=2/.test(l))).toBe(true);
  });

  test('cancel --savepoint (annotation): a streaming job is stopped with a savepoint', async () => {
    const s = setup(
      { jobConfig: 'env { job.mode = "STREAMING" }\nsource { FakeSource {} }\nsink { Console {} }\n' },
      {},
    );
    s.engine.script = () => 'RUNNING';
    const out = await s.run(
      once(
        () => s.engine.submits.length === 1,
        () => s.kube.annotateJob(ANNOTATIONS.cancelRequested, 'savepoint'),
      ),
    );
    expect(out).toMatchObject({ state: 'CANCELED', reason: 'Terminated', exitCode: 2, zetaStatus: 'SAVEPOINT_DONE' });
    expect(s.engine.savepointStops).toEqual([true]);
  });

  test('plain cancel: a streaming job whose application is being deleted gets no stop-job (a plain one would delete its checkpoints)', async () => {
    const s = setup({ jobConfig: 'env { job.mode = "STREAMING" }\nsource { FakeSource {} }\nsink { Console {} }\n' });
    s.engine.script = () => 'RUNNING';
    const out = await s.run(
      once(
        () => s.engine.submits.length === 1,
        () => {
          s.kube.markJobDeleting();
          s.terminate.abort();
        },
      ),
    );
    expect(out).toMatchObject({ state: 'CANCELED', reason: 'Terminated', exitCode: 2 });
    expect(s.engine.stops).toEqual([]);
    expect(eventMessages(s).some((m) => /without a stop-job, so its checkpoints stay/.test(m))).toBe(true);
    expectCleanedUp(s);
  });
});

describe('an unexpected exception still stops the job and removes the workers (InternalError, exit 3)', () => {
  test('thrown by the engine client while the job runs', async () => {
    const s = setup();
    s.engine.script = () => 'RUNNING';
    const jobInfo = s.engine.jobInfo.bind(s.engine);
    let broken = false;
    s.engine.jobInfo = async (id) => {
      if (broken) {
        broken = false; // only once: the stop that follows reads the status normally
        throw new RangeError('Invalid string length');
      }
      return jobInfo(id);
    };
    const out = await s.run(
      once(
        () => s.engine.submits.length === 1,
        () => (broken = true),
      ),
    );
    expect(out).toMatchObject({ state: 'FAILED', reason: 'InternalError', exitCode: 3 });
    expect(out.message).toMatch(/RangeError: Invalid string length/);
    expect(s.engine.stops).toEqual(['9223372036854775807']);
    expectCleanedUp(s);
    expect(s.kube.annotations[ANNOTATIONS.reason]).toBe('InternalError');
  });

  test('thrown where nothing catches it (the process reports it to the lifecycle)', async () => {
    const s = setup();
    s.engine.script = () => 'RUNNING';
    const out = await s.run(
      once(
        () => s.engine.submits.length === 1,
        () => s.unexpected.abort(new TypeError("Cannot read properties of undefined (reading 'status')")),
      ),
    );
    expect(out).toMatchObject({ state: 'FAILED', reason: 'InternalError', exitCode: 3 });
    expect(out.message).toMatch(/^unexpected error: TypeError: Cannot read properties of undefined/);
    expect(s.engine.stops).toEqual(['9223372036854775807']);
    expectCleanedUp(s);
  });

  test('thrown by the engine client during the registration barrier: nothing submitted, workers removed', async () => {
    const s = setup();
    s.engine.overview = async () => {
      throw new TypeError('boom');
    };
    const out = await s.run();
    expect(out).toMatchObject({ reason: 'InternalError', exitCode: 3 });
    expect(s.engine.submits).toEqual([]);
    expectCleanedUp(s);
  });
});

describe('the own Job is watched', () => {
  test('a cancel made while the watch was broken is seen by the read that follows (re-get + re-watch)', async () => {
    const s = setup();
    s.engine.script = () => 'RUNNING';
    const out = await s.run(
      once(
        () => s.engine.submits.length === 1,
        () => {
          s.kube.breakJobWatches();
          s.kube.markJobDeleting();
        },
      ),
    );
    expect(out).toMatchObject({ state: 'CANCELED', reason: 'Terminated', exitCode: 2 });
    expect(out.message).toBe('the application is being deleted (e.g. by `cancel`)');
    expect(s.kube.ops('watchJob').length).toBeGreaterThanOrEqual(2);
    expect(s.kube.openJobWatches).toBe(0);
  });

  test('a watch that expires (410 Gone) is replaced by a fresh read and a new watch', async () => {
    const s = setup();
    s.engine.script = () => 'RUNNING';
    s.kube.failNext.set('watchJob', [new KubeApiError(410, 'Expired', 'too old resource version')]);
    const out = await s.run(
      once(
        () => s.engine.submits.length === 1,
        () => s.kube.annotateJob(ANNOTATIONS.cancelRequested, 'true'),
      ),
    );
    expect(out).toMatchObject({ reason: 'Terminated', message: 'cancel requested' });
    const watchOps = s.kube.calls.filter((c) => c.op === 'watchJob' || c.op === 'getJob').map((c) => c.op);
    // read, watch (410), read again, watch
    expect(watchOps.slice(watchOps.indexOf('watchJob'))).toEqual(
      expect.arrayContaining(['watchJob', 'getJob', 'watchJob']),
    );
    expect(s.kube.ops('watchJob').length).toBeGreaterThanOrEqual(2);
  });

  test('the Job deleted outright: Terminated', async () => {
    const s = setup();
    s.engine.script = () => 'RUNNING';
    const out = await s.run(
      once(
        () => s.engine.submits.length === 1,
        () => s.kube.deleteJob(),
      ),
    );
    expect(out).toMatchObject({ state: 'CANCELED', reason: 'Terminated', exitCode: 2 });
    expect(out.message).toBe("the application's Job was deleted (e.g. by `cancel`)");
    expect(s.kube.podsOf(SEL)).toEqual([]);
  });
});

describe("the master's JVM starts once the workers' containers run", () => {
  /** Records, when the engine is started, the time and how many worker Pods were Running. */
  function watchStart(s: S): { at?: number; running?: number } {
    const seen: { at?: number; running?: number } = {};
    const start = s.engine.start.bind(s.engine);
    s.engine.start = () => {
      seen.at = s.clock.now();
      seen.running = s.kube.podsOf(SEL).filter((p) => p.status?.phase === 'Running').length;
      start();
    };
    return seen;
  }

  /** Runs an application whose worker Pods start Running `runningAt` ms in; when the engine started, and with how many running. */
  async function withWorkersRunningAt(runningAt: number, tuning: Parameters<typeof setup>[1] = {}) {
    const s = setup({}, tuning);
    s.kube.onCreate = () => undefined;
    const seen = watchStart(s);
    const out = await s.run(
      once(
        () => s.clock.now() >= runningAt,
        () => ['app-1-worker-1', 'app-1-worker-2', 'app-1-worker-3'].forEach((n) => s.kube.update(n, running)),
      ),
    );
    expect(out).toMatchObject({ state: 'SUCCEEDED', exitCode: 0 });
    return { s, seen };
  }

  test('so that they are members when its resource manager starts (a later one registers only at its next 5 s heartbeat)', async () => {
    const { s, seen } = await withWorkersRunningAt(2_000);
    expect(seen.running).toBe(3);
    expect(seen.at).toBeGreaterThanOrEqual(2_000);
    expect(s.log.lines.some((l) => /workers running/.test(l))).toBe(true);
  });

  test('but a worker slower than the head start does not hold the master back', async () => {
    const { s, seen } = await withWorkersRunningAt(5_000, { workerHeadStartMs: 1_000 });
    expect(seen.running).toBe(0);
    expect(seen.at).toBeGreaterThanOrEqual(1_000);
    expect(seen.at).toBeLessThan(5_000);
    expect(s.log.lines.some((l) => /starting the engine before every worker runs/.test(l))).toBe(true);
  });
});
