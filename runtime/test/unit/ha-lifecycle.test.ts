// The coordinator (HA, docs/ha.md) on virtual time: no Zeta in its Pod, the Job owns the workers,
// one submission ever — a replaced coordinator re-attaches — and the masters go at the end.
import { ANNOTATIONS } from 'seatunnel-app/internal/contract';
import { EngineUnavailable } from '../../src/engine/port';
import { KubeApiError } from '../../src/kube/port';
import { running } from './fakes';
import { once, SEL, setup } from './lifecycle-setup';

const HA = { haEnabled: true, haMasters: 2, checkpointPvc: 'ckpt' } as const;
const STS = 'app-1-master';

function haSetup(extra: Parameters<typeof setup>[0] = {}, tuning: Parameters<typeof setup>[1] = {}) {
  const s = setup({ ...HA, ...extra }, tuning);
  s.kube.statefulSet = { metadata: { name: STS }, status: { replicas: 2, readyReplicas: 2 } };
  return s;
}

const reasons = (s: ReturnType<typeof setup>) => s.kube.events.map((e) => e.reason!);

/** Runs the coordinator; once the job is submitted the application is deleted (`cancel`) and the Pod gets SIGTERM. */
const cancelledOnceSubmitted = (s: ReturnType<typeof setup>) =>
  s.run(
    once(
      () => s.engine.submits.length === 1,
      () => {
        s.kube.deleteJob();
        s.terminate.abort();
      },
    ),
  );

test('a coordinator starts no engine, creates workers owned by the Job with the masters listed by name, submits once, removes workers and masters', async () => {
  const s = haSetup();
  const out = await s.run();
  expect(out).toMatchObject({ state: 'SUCCEEDED', reason: 'JobFinished', exitCode: 0 });
  expect(s.engine.started).toBe(false);
  expect(s.engineFilesWritten).toBe(0);
  expect(s.engine.shutdownCalls).toBe(0);
  expect(s.engine.submits).toHaveLength(1);
  const created = s.kube.ops('createPod').map((c) => c.name);
  expect(created.sort()).toEqual(['app-1-worker-1', 'app-1-worker-2', 'app-1-worker-3']);
  expect(s.kube.annotations[ANNOTATIONS.submittedAt]).toMatch(/^2026-/);
  expect(s.kube.ops('deleteStatefulSet').map((c) => c.name)).toEqual([STS]);
  expect(s.kube.statefulSet).toBeUndefined();
  expect(s.kube.podsOf(SEL)).toEqual([]);
  expect(reasons(s)).toEqual(expect.arrayContaining(['MastersReady', 'JobSubmitted', 'Succeeded']));
});

test('workers are owned by the Job (not a Pod that can be replaced) and keep the member list of the plan', async () => {
  const s = haSetup();
  s.engine.script = () => 'RUNNING';
  let seen: ReturnType<typeof s.kube.podsOf> = [];
  await s.run(
    once(
      () => s.engine.submits.length === 1,
      () => {
        seen = s.kube.podsOf(SEL);
        s.terminate.abort();
        s.kube.deleteJob();
      },
    ),
  );
  expect(seen).toHaveLength(3);
  for (const w of seen) {
    expect(w.metadata!.ownerReferences).toEqual([
      {
        apiVersion: 'batch/v1',
        kind: 'Job',
        name: 'app-1',
        uid: 'job-uid',
        controller: false,
        blockOwnerDeletion: false,
      },
    ]);
    const env = Object.fromEntries(w.spec!.containers[0].env!.map((e) => [e.name, e.value]));
    expect(env.ST_DOCKER_MEMBER_LIST).toBe(
      'app-1-master-0.app-1.default.svc:5801,app-1-master-1.app-1.default.svc:5801',
    );
  }
});

test('SIGTERM while the job runs and the Job stays: detached — the job, workers and masters are left, exit 75, no terminal phase', async () => {
  const s = haSetup();
  s.engine.script = () => 'RUNNING';
  const out = await s.run(
    once(
      () => s.engine.submits.length === 1,
      () => s.terminate.abort(),
    ),
  );
  expect(out).toMatchObject({ reason: 'Detached', exitCode: 75 });
  expect(s.engine.stops).toEqual([]);
  expect(s.kube.ops('deletePod')).toEqual([]);
  expect(s.kube.ops('deleteStatefulSet')).toEqual([]);
  expect(s.kube.podsOf(SEL)).toHaveLength(3);
  expect(s.kube.annotations[ANNOTATIONS.phase]).toBe('Running');
  expect(reasons(s)).toContain('CoordinatorDetached');
});

test('SIGTERM because the application is deleted (cancel): the job is stopped, workers and masters removed, CANCELED', async () => {
  const s = haSetup();
  s.engine.script = () => 'RUNNING';
  const out = await cancelledOnceSubmitted(s);
  expect(out).toMatchObject({ state: 'CANCELED', reason: 'Terminated', exitCode: 2 });
  expect(s.engine.stops).toEqual(['9223372036854775807']);
  expect(s.kube.podsOf(SEL)).toEqual([]);
  expect(s.kube.ops('deleteStatefulSet')).toHaveLength(1);
});

test('the application deleted and the Role gone with it before the masters are removed: the StatefulSet is left to garbage collection, no CleanupFailed', async () => {
  const s = haSetup();
  s.engine.script = () => 'RUNNING';
  const tried: string[] = [];
  s.kube.deleteStatefulSet = async (name) => {
    tried.push(name);
    throw new KubeApiError(403, 'Forbidden', `statefulsets.apps "${name}" is forbidden`);
  };
  const out = await cancelledOnceSubmitted(s);
  expect(out).toMatchObject({ state: 'CANCELED', reason: 'Terminated', exitCode: 2 });
  // Tried once: a 403 is final once the application is being deleted.
  expect(tried).toEqual([STS]);
  expect(reasons(s)).not.toContain('CleanupFailed');
  expect(out.message).not.toMatch(/forbidden|cleanup/i);
  expect(s.log.lines.some((l) => / INFO /.test(l) && /the masters go with the Job/.test(l))).toBe(true);
});

test('a 403 removing the masters while the application stands is a cleanup failure, as before', async () => {
  const s = haSetup();
  s.kube.deleteStatefulSet = async (name) => {
    throw new KubeApiError(403, 'Forbidden', `statefulsets.apps "${name}" is forbidden`);
  };
  const out = await s.run();
  expect(out).toMatchObject({ reason: 'CleanupFailed' });
  expect(reasons(s)).toContain('CleanupFailed');
});

/** Workers 1..3 as an earlier coordinator of the Job left them (owned by the Job, running). */
function seedEarlierWorkers(s: ReturnType<typeof haSetup>): void {
  for (let n = 1; n <= 3; n++) {
    s.kube.seed({
      metadata: {
        name: `app-1-worker-${n}`,
        uid: `earlier-${n}`,
        labels: { 'seatunnel.apache.org/application-id': 'app-1', 'seatunnel.apache.org/role': 'worker' },
        ownerReferences: [{ apiVersion: 'batch/v1', kind: 'Job', name: 'app-1', uid: 'job-uid' }],
        annotations: { 'seatunnel.apache.org/creation-token': 'an-earlier-coordinator' },
      },
      spec: { containers: [{ name: 'seatunnel' }] },
    });
    s.kube.update(`app-1-worker-${n}`, running);
  }
}

test('a coordinator started after one that submitted re-attaches: adopts the workers whose uids the Job records, never submits again', async () => {
  const s = haSetup();
  s.kube.annotations[ANNOTATIONS.submittedAt] = '2026-01-01T00:00:00.000Z';
  s.kube.annotations[ANNOTATIONS.workerUids] = '{"1":"earlier-1","2":"earlier-2","3":"earlier-3"}';
  seedEarlierWorkers(s);
  s.engine.status = 'RUNNING';
  let adopted: string[] = [];
  const out = await s.run(
    once(
      () => s.engine.status === 'RUNNING' && reasons(s).includes('Reattached'),
      () => (adopted = s.kube.podsOf(SEL).map((p) => p.metadata!.uid!)),
    ),
  );
  expect(out).toMatchObject({ state: 'SUCCEEDED', reason: 'JobFinished', exitCode: 0 });
  expect(s.engine.submits).toEqual([]);
  expect(reasons(s)).toContain('Reattached');
  expect(reasons(s)).not.toContain('WorkerFailed');
  // The same Pods: none deleted before the end, none created.
  expect(adopted.sort()).toEqual(['earlier-1', 'earlier-2', 'earlier-3']);
  expect(s.kube.ops('createPod').length).toBe(3); // each create answered 409, then adopted
  expect(s.kube.podsOf(SEL)).toEqual([]);
});

test("a Pod with a worker's name, labels and the Job as owner whose uid the Job does not record is replaced, never adopted", async () => {
  const s = haSetup();
  // Workers 1 and 2 recorded; 3 is a look-alike (anyone who may create Pods could have made it).
  s.kube.annotations[ANNOTATIONS.workerUids] = '{"1":"earlier-1","2":"earlier-2"}';
  seedEarlierWorkers(s);
  const out = await s.run();
  expect(out).toMatchObject({ state: 'SUCCEEDED', exitCode: 0 });
  const deleted = s.kube.ops('deletePod').map((c) => c.name);
  // The look-alike went before anything else was removed, and a worker of this coordinator took its name.
  expect(deleted[0]).toBe('app-1-worker-3');
  const recorded = JSON.parse(
    s.kube.annotationPatches
      .map((a) => a[ANNOTATIONS.workerUids])
      .filter((x) => x !== undefined)
      .at(-1)!,
  ) as Record<string, string>;
  expect(recorded['1']).toBe('earlier-1');
  expect(recorded['2']).toBe('earlier-2');
  expect(recorded['3']).toMatch(/^uid-\d+$/);
});

test('each worker a coordinator creates has its uid recorded on the Job', async () => {
  const s = haSetup();
  await s.run();
  const last = s.kube.annotationPatches
    .map((a) => a[ANNOTATIONS.workerUids])
    .filter((x) => x !== undefined)
    .at(-1);
  expect(Object.keys(JSON.parse(last!) as object).sort()).toEqual(['1', '2', '3']);
});

test('submitted before, but no master knows the job any more: JobLost (exit 5) once the failover window has passed', async () => {
  const s = haSetup({}, { engineUnreachableMs: 5_000 });
  s.kube.annotations[ANNOTATIONS.submittedAt] = '2026-01-01T00:00:00.000Z';
  const out = await s.run();
  expect(out).toMatchObject({ state: 'FAILED', reason: 'JobLost', exitCode: 5 });
  expect(out.message).toContain('--restore-job-id 9223372036854775807');
  expect(s.engine.submits).toEqual([]);
});

describe("the masters' REST unanswerable for a minute (a split brain after a master's replacement, healing)", () => {
  // After the job is submitted, every read fails for 60 s, as through a split brain (HTTP 500 "Not Member!").
  const splitFor60s = (s: ReturnType<typeof setup>) => {
    const read = s.engine.jobInfo.bind(s.engine);
    let since: number | undefined;
    s.engine.jobInfo = async (id) => {
      if (s.engine.submits.length === 0) return read(id);
      since ??= s.clock.now();
      if (s.clock.now() - since < 60_000) throw new EngineUnavailable('GET /job-info: HTTP 500: Not Member!');
      return read(id);
    };
  };

  // After the job is submitted, every read through the Service fails for good, as from a master
  // whose view names a member that is gone.
  const serviceStale = (s: ReturnType<typeof setup>) => {
    const read = s.engine.jobInfo.bind(s.engine);
    s.engine.jobInfo = async (id) => {
      if (s.engine.submits.length === 0) return read(id);
      throw new EngineUnavailable('GET /job-info: HTTP 500: Not Member! target: [10.0.0.9]:5801');
    };
  };

  test('the HA coordinator waits it out (up to 2 min) and the job finishes', async () => {
    const s = haSetup();
    splitFor60s(s);
    const out = await s.run();
    expect(out).toMatchObject({ state: 'SUCCEEDED', reason: 'JobFinished', exitCode: 0 });
    expect(s.engine.submits).toHaveLength(1);
  });

  test("the Service's master stale for 5 min (beyond the 2-min budget) while a majority master runs the job: followed through the majority, it finishes, one submission", async () => {
    const s = haSetup();
    serviceStale(s);
    const start = s.clock.now();
    s.engine.majority = (id) => ({ jobId: id, status: s.clock.now() - start < 300_000 ? 'RUNNING' : 'FINISHED' });
    const out = await s.run();
    expect(out).toMatchObject({ state: 'SUCCEEDED', reason: 'JobFinished', exitCode: 0 });
    expect(s.clock.now() - start).toBeGreaterThanOrEqual(300_000);
    expect(s.engine.submits).toHaveLength(1);
  });

  test('the Service stale and no majority answering either: EngineUnreachable once the 2-min budget is spent, as before', async () => {
    const s = haSetup();
    serviceStale(s);
    s.engine.majority = () => undefined;
    const out = await s.run();
    expect(out).toMatchObject({ state: 'FAILED', reason: 'EngineUnreachable', exitCode: 5 });
    // Not two minutes of silence before it: the log says so after 10 s, then every 30 s, with the error.
    const warned = s.log.lines.filter((l) => /the engine's job status cannot be read/.test(l));
    expect(warned.map((l) => Math.round(Number(/forMs=(\d+)/.exec(l)?.[1]) / 10_000))).toEqual([1, 4, 7, 10]);
    expect(warned.every((l) => /Not Member! target/.test(l))).toBe(true);
  });

  test('a master that takes seconds to answer job-info is not asked again at once: reads are as far apart as an answer takes', async () => {
    const s = haSetup();
    const read = s.engine.jobInfo.bind(s.engine);
    const asked: number[] = [];
    s.engine.jobInfo = async (id) => {
      if (s.engine.submits.length === 0) return read(id);
      asked.push(s.clock.now());
      await s.clock.sleep(3_000);
      return read(id);
    };
    const out = await s.run();
    expect(out).toMatchObject({ state: 'SUCCEEDED', exitCode: 0 });
    expect(asked.length).toBeGreaterThan(1);
    const gaps = asked.slice(1).map((t, i) => t - asked[i]);
    // 3 s answering, then 3 s before the next read (not the 500 ms of a fast master).
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(6_000);
  });

  test('a read that fails for a while, then answers: warned, and the log says when it is readable again', async () => {
    const s = haSetup();
    const read = s.engine.jobInfo.bind(s.engine);
    let since: number | undefined;
    s.engine.jobInfo = async (id) => {
      if (s.engine.submits.length === 0) return read(id);
      since ??= s.clock.now();
      if (s.clock.now() - since < 25_000)
        throw new EngineUnavailable('GET /job-info: ETIMEDOUT: no complete answer within 5000 ms');
      return read(id);
    };
    s.engine.majority = () => undefined;
    const out = await s.run();
    expect(out).toMatchObject({ state: 'SUCCEEDED', exitCode: 0 });
    expect(s.log.lines.filter((l) => /the engine's job status cannot be read/.test(l))).toHaveLength(1);
    expect(s.log.lines.some((l) => /the engine's job status is readable again .*afterMs=2\d{4}/.test(l))).toBe(true);
  });

  test('a plain application gives up after 30 s (EngineUnreachable): its one master is the engine', async () => {
    const s = setup();
    splitFor60s(s);
    const out = await s.run();
    expect(out).toMatchObject({ reason: 'EngineUnreachable', exitCode: 5 });
  });
});

test('masters that never become ready: StartupTimeout naming the StatefulSet, nothing submitted', async () => {
  const s = haSetup();
  s.kube.statefulSet = { metadata: { name: STS }, status: { replicas: 2, readyReplicas: 1 } };
  const out = await s.run();
  expect(out).toMatchObject({ reason: 'StartupTimeout', exitCode: 3 });
  expect(out.message).toContain('1/2 ready');
  expect(out.message).toContain(STS);
  expect(s.engine.submits).toEqual([]);
});

describe('worker-failure-policy', () => {
  const deleteWorker2 = (s: ReturnType<typeof setup>) =>
    once(
      () => s.engine.submits.length === 1 && s.kube.pods.has('app-1-worker-2'),
      () => s.kube.remove('app-1-worker-2'),
    );

  test('replace: a lost worker is created again and the job goes on; the engine may restore four times a replacement and four more', async () => {
    const s = haSetup({ haWorkerFailurePolicy: 'replace', haWorkerReplacements: 2 });
    s.engine.script = (n) => (n >= 20 ? 'FINISHED' : 'RUNNING');
    const out = await s.run(deleteWorker2(s));
    expect(out).toMatchObject({ state: 'SUCCEEDED', reason: 'JobFinished' });
    expect(s.kube.ops('createPod').filter((c) => c.name === 'app-1-worker-2')).toHaveLength(2);
    expect(reasons(s)).toContain('WorkerReplaced');
    expect(s.kube.annotations[ANNOTATIONS.workersReplaced]).toBe('1');
    expect(s.engine.submits[0].configJson).toContain('"job.retry.times":12');
  });

  test('replace: a worker on a node that stopped answering (evicted, stuck Terminating) is removed at once and created again', async () => {
    const s = haSetup({ haWorkerFailurePolicy: 'replace', haWorkerReplacements: 2 });
    s.engine.script = (n) => (n >= 40 ? 'FINISHED' : 'RUNNING');
    const out = await s.run(
      once(
        () => s.engine.submits.length === 1 && s.kube.pods.has('app-1-worker-2'),
        () => {
          // The node lost: its kubelet never confirms a deletion, so the object stays until removed without grace.
          s.kube.stuck.add('app-1-worker-2');
          // The taint manager evicts it (tolerationSeconds of the unreachable taint passed).
          s.kube.update('app-1-worker-2', (pod) => {
            pod.metadata = { ...pod.metadata, deletionTimestamp: '2026-01-01T00:00:00Z' };
          });
        },
      ),
    );
    expect(out).toMatchObject({ state: 'SUCCEEDED', reason: 'JobFinished' });
    expect(s.kube.ops('deletePod').map((c) => c.name)).toContain('app-1-worker-2 (force)');
    expect(s.kube.ops('createPod').filter((c) => c.name === 'app-1-worker-2')).toHaveLength(2);
    expect(s.kube.annotations[ANNOTATIONS.workersReplaced]).toBe('1');
  });

  test('replace with no budget left, and fail: the loss ends the application (WorkerLost)', async () => {
    for (const extra of [{ haWorkerFailurePolicy: 'replace', haWorkerReplacements: 0 }, {}] as const) {
      const s = haSetup(extra);
      s.engine.script = () => 'RUNNING';
      const out = await s.run(deleteWorker2(s));
      expect(out).toMatchObject({ reason: 'WorkerLost', exitCode: 3 });
      expect(s.engine.submits[0].configJson).toContain('"job.retry.times":0');
    }
  });
});

test('master replacements counted by earlier coordinators are carried on, and a new one is counted with a MasterReplaced Event', async () => {
  const s = haSetup();
  s.kube.annotations[ANNOTATIONS.masterFailovers] = '2';
  const master = (uid: string) => ({
    metadata: {
      name: 'app-1-master-0',
      uid,
      labels: { 'seatunnel.apache.org/application-id': 'app-1', 'seatunnel.apache.org/role': 'master' },
    },
    spec: { containers: [{ name: 'seatunnel' }] },
  });
  s.kube.seed(master('m-0-a'));
  s.engine.script = (n) => (n >= 40 ? 'FINISHED' : 'RUNNING');
  let replaced = false;
  const out = await s.run(() => {
    if (!replaced && s.engine.submits.length === 1 && s.kube.annotations[ANNOTATIONS.masterFailovers] === '2') {
      replaced = true;
      s.kube.remove('app-1-master-0');
      s.kube.seed(master('m-0-b'));
    }
  });
  expect(out.reason).toBe('JobFinished');
  expect(replaced).toBe(true);
  expect(s.kube.annotations[ANNOTATIONS.masterFailovers]).toBe('3');
  expect(reasons(s).filter((r) => r === 'MasterReplaced')).toHaveLength(1);
});

describe('the coordinator after the last restart', () => {
  const seedWorkers = (s: ReturnType<typeof setup>) => {
    for (let n = 1; n <= 3; n++)
      s.kube.seed({
        metadata: {
          name: `app-1-worker-${n}`,
          labels: { 'seatunnel.apache.org/application-id': 'app-1', 'seatunnel.apache.org/role': 'worker' },
          ownerReferences: [{ apiVersion: 'batch/v1', kind: 'Job', name: 'app-1', uid: 'job-uid' }],
        },
        spec: { containers: [{ name: 'seatunnel' }] },
      });
  };

  test('removes the masters and the workers an earlier coordinator left and fails the application; starts and submits nothing', async () => {
    const s = haSetup();
    seedWorkers(s);
    s.kube.annotations[ANNOTATIONS.submissionIntent] = 'app-1-earlier@2026-01-01T00:00:00.000Z';
    s.engine.status = 'RUNNING';
    // coordinator-restarts 3 (the default): four coordinators failed, counted or not yet counted.
    s.kube.job = { ...s.kube.job, status: { failed: 3, uncountedTerminatedPods: { failed: ['uid-4'] } } };
    const out = await s.run();
    expect(out).toMatchObject({ state: 'FAILED', reason: 'CoordinatorRestartsExhausted', exitCode: 3 });
    expect(out.message).toContain('--restore-job-id 9223372036854775807');
    expect(s.kube.ops('createPod')).toEqual([]);
    expect(s.engine.submits).toEqual([]);
    // The job's checkpoints stay: it ends with its masters and workers, no stop-job.
    expect(s.engine.stops).toEqual([]);
    expect(s.kube.podsOf(SEL)).toEqual([]);
    expect(s.kube.ops('deleteStatefulSet').map((c) => c.name)).toEqual([STS]);
    expect(s.kube.annotations[ANNOTATIONS.phase]).toBe('Failed');
  });

  test('the one before it still re-attaches and follows the job', async () => {
    const s = haSetup();
    s.kube.annotations[ANNOTATIONS.submissionIntent] = 'app-1-earlier@2026-01-01T00:00:00.000Z';
    s.engine.status = 'RUNNING';
    s.kube.job = { ...s.kube.job, status: { failed: 3 } };
    const out = await s.run();
    expect(out).toMatchObject({ state: 'SUCCEEDED', reason: 'JobFinished' });
    expect(s.engine.submits).toEqual([]);
  });
});

/** The two master Pods of the StatefulSet (10.0.0.21, .22), master-0 Zeta's active master. */
function seedMasters(s: ReturnType<typeof setup>): void {
  for (const i of [0, 1])
    s.kube.seed({
      metadata: {
        name: `app-1-master-${i}`,
        uid: `m${i}`,
        labels: { 'seatunnel.apache.org/application-id': 'app-1', 'seatunnel.apache.org/role': 'master' },
      },
      spec: { containers: [{ name: 'seatunnel' }] },
      status: { podIP: `10.0.0.${21 + i}` },
    });
  s.engine.master = s.app.ha!.masterAddresses[0];
}

test('the active master is named on the Job, and a change of it is an Event', async () => {
  const s = haSetup();
  seedMasters(s);
  s.engine.script = (n) => (n >= 30 ? 'FINISHED' : 'RUNNING');
  let during: string | undefined;
  await s.run(
    once(
      () => s.engine.submits.length === 1 && s.clock.now() > 10_000,
      () => {
        during = s.kube.annotations[ANNOTATIONS.activeMaster] ?? undefined;
        s.engine.master = s.app.ha!.masterAddresses[1];
      },
    ),
  );
  expect(during).toBe('app-1-master-0');
  expect(s.kube.annotations[ANNOTATIONS.activeMaster]).toBe('app-1-master-1');
  const changed = s.kube.events.find((e) => e.reason === 'ActiveMasterChanged');
  expect(changed?.message).toBe("Zeta's active master is now app-1-master-1 (was app-1-master-0)");
});

describe('a coordinator replaced while it was cut off', () => {
  test('records itself in charge when it starts, before it creates anything', async () => {
    const s = haSetup();
    await s.run();
    const charge =
      s.kube.ops('patchJobAnnotations')[s.kube.annotationPatches.findIndex((p) => ANNOTATIONS.coordinator in p)];
    expect(s.kube.annotations[ANNOTATIONS.coordinator]).toBe('app-1-m');
    expect(charge.at).toBeLessThanOrEqual(s.kube.ops('createPod')[0].at);
  });

  test('finding another in charge at the end, it stops nothing and removes nothing: detached', async () => {
    const s = haSetup();
    s.engine.script = (n) => (n >= 5 ? 'FAILED' : 'RUNNING');
    const out = await s.run(
      once(
        () => s.engine.submits.length === 1,
        // Cut off meanwhile, its Pod evicted: the Job started another coordinator, which took charge.
        () => s.kube.annotateJob(ANNOTATIONS.coordinator, 'app-1-newer'),
      ),
    );
    expect(out).toMatchObject({ reason: 'Detached', exitCode: 75 });
    expect(out.message).toContain('another coordinator took over');
    expect(s.engine.stops).toEqual([]);
    expect(s.kube.ops('deletePod')).toEqual([]);
    expect(s.kube.ops('deleteStatefulSet')).toEqual([]);
    expect(s.kube.annotations[ANNOTATIONS.phase]).not.toBe('Failed');
  });
});

test('with HA the workers are created only once the masters are ready (a worker resolves their names once, when it starts)', async () => {
  const s = haSetup();
  s.kube.statefulSet = { metadata: { name: STS }, status: { replicas: 2, readyReplicas: 0 } };
  let readyAt = 0;
  const out = await s.run(
    once(
      () => s.clock.now() > 15_000,
      () => {
        readyAt = s.clock.now();
        s.kube.statefulSet = { metadata: { name: STS }, status: { replicas: 2, readyReplicas: 2 } };
      },
    ),
  );
  expect(out).toMatchObject({ state: 'SUCCEEDED' });
  expect(readyAt).toBeGreaterThan(0);
  expect(Math.min(...s.kube.ops('createPod').map((c) => c.at))).toBeGreaterThanOrEqual(readyAt);
});

describe('an active master that answers the job without running it (Zeta 2.3.8 after a failed restore)', () => {
  const NPE =
    'GET /job-info/1: HTTP 500: Cannot invoke "org.apache.seatunnel.api.common.metrics.JobMetrics.toJsonString()" because the return value of "org.apache.seatunnel.engine.server.CoordinatorService.getJobMetrics(long)" is null';

  /** Two master Pods, master-0 active; job-info answers the NPE while `unserved()` says so. */
  function withMasters(s: ReturnType<typeof setup>, unserved: () => boolean) {
    seedMasters(s);
    s.engine.script = (n) => (n >= 40 ? 'FINISHED' : 'RUNNING');
    const read = s.engine.jobInfo.bind(s.engine);
    s.engine.jobInfo = async (id) => {
      if (s.engine.submits.length > 0 && unserved()) throw new EngineUnavailable(NPE);
      return read(id);
    };
  }
  const restarted = (s: ReturnType<typeof setup>) => s.kube.ops('deletePod').map((o) => o.name ?? '');

  test('after 45 s the coordinator restarts that master once; the next one serves the job, which finishes under one submission', async () => {
    const s = haSetup();
    let deletedAt: number | undefined;
    withMasters(s, () => {
      deletedAt ??= restarted(s).includes('app-1-master-0') ? s.clock.now() : undefined;
      return deletedAt === undefined;
    });
    const out = await s.run();
    expect(out).toMatchObject({ state: 'SUCCEEDED', reason: 'JobFinished', exitCode: 0 });
    expect(restarted(s).filter((n) => n.startsWith('app-1-master'))).toEqual(['app-1-master-0']);
    expect(s.engine.submits).toHaveLength(1);
    const event = s.kube.events.find((e) => e.reason === 'ActiveMasterRestarted');
    expect(event?.type).toBe('Warning');
    expect(event?.message).toMatch(/^restarted the active master app-1-master-0: for 4\d s it answered job/);
  });

  test('still unserved after two restarts: EngineUnreachable, and never the last ready master', async () => {
    const s = haSetup();
    withMasters(s, () => {
      // Zeta elects the other master once the active one is gone.
      if (restarted(s).includes(`app-1-master-0`)) s.engine.master = s.app.ha!.masterAddresses[1];
      return true;
    });
    const out = await s.run();
    expect(out).toMatchObject({ state: 'FAILED', reason: 'EngineUnreachable', exitCode: 5 });
    expect(restarted(s).filter((n) => n.startsWith('app-1-master'))).toEqual(['app-1-master-0', 'app-1-master-1']);
    expect(s.engine.submits).toHaveLength(1);
  });

  test('with one ready master nothing is restarted: EngineUnreachable after the usual 2 min', async () => {
    const s = haSetup();
    withMasters(s, () => {
      // The other master went down after the job was submitted.
      s.kube.statefulSet = { metadata: { name: STS }, status: { replicas: 2, readyReplicas: 1 } };
      return true;
    });
    const out = await s.run();
    expect(out).toMatchObject({ state: 'FAILED', reason: 'EngineUnreachable' });
    expect(restarted(s).filter((n) => n.startsWith('app-1-master'))).toEqual([]);
    expect(s.kube.events.map((e) => e.reason)).not.toContain('ActiveMasterRestarted');
  });
});

describe("the job's end as the majority of the masters sees it (a master thawed after a freeze answers for a cluster of its own)", () => {
  /** From poll `from` on, the master the Service reaches reports FAILED while the majority's cluster says `majority()`. */
  function minorityReportsFailed(s: ReturnType<typeof setup>, majority: () => string | undefined, from = 5) {
    let polls = 0;
    const read = s.engine.jobInfo.bind(s.engine);
    s.engine.jobInfo = async (id) => {
      const info = await read(id);
      return s.engine.submits.length > 0 && ++polls >= from ? { jobId: id, status: 'FAILED' } : info;
    };
    s.engine.majority = (id) => {
      const status = majority();
      return status === undefined ? undefined : { jobId: id, status };
    };
  }

  test("the majority runs the job on: the minority's FAILED is not acted on, the job finishes under one submission", async () => {
    const s = haSetup();
    s.engine.script = (n) => (n >= 40 ? 'FINISHED' : 'RUNNING');
    let majorityPolls = 0;
    minorityReportsFailed(s, () => (++majorityPolls >= 20 ? 'FINISHED' : 'RUNNING'));
    const out = await s.run();
    expect(out).toMatchObject({ state: 'SUCCEEDED', reason: 'JobFinished', exitCode: 0 });
    expect(s.engine.submits).toHaveLength(1);
    expect(s.engine.stops).toEqual([]);
    expect(s.kube.annotationPatches.map((p) => p[ANNOTATIONS.zetaJobStatus])).not.toContain('FAILED');
    // Said once while it lasts, not at every poll.
    expect(s.log.lines.filter((l) => /majority=RUNNING/.test(l))).toHaveLength(1);
    expect(s.log.lines.join('\n')).toMatch(
      /a master outside the masters' majority reported the job's end.* reported=FAILED majority=RUNNING/,
    );
  });

  test('the majority confirms the end: the application ends with it at once', async () => {
    const s = haSetup();
    s.engine.script = () => 'RUNNING';
    minorityReportsFailed(s, () => 'FAILED');
    const out = await s.run();
    expect(out).toMatchObject({ state: 'FAILED', reason: 'JobFailed' });
    expect(s.engine.majorityAsks).toHaveLength(1);
  });

  test('no majority answers: the end is taken as reported once the engine budget (2 min) has passed, not before', async () => {
    const s = haSetup();
    s.engine.script = () => 'RUNNING';
    minorityReportsFailed(s, () => undefined);
    const out = await s.run();
    expect(out).toMatchObject({ state: 'FAILED', reason: 'JobFailed' });
    const asks = s.engine.majorityAsks;
    expect(asks.at(-1)! - asks[0]).toBeGreaterThanOrEqual(120_000);
    expect(s.log.lines.join('\n')).toMatch(/no majority of the masters answered; the job's end is taken as reported/);
  });

  test('one master (no HA): its answer is the end, nothing else is asked', async () => {
    const s = setup();
    s.engine.script = (n) => (n >= 3 ? 'FAILED' : 'RUNNING');
    const out = await s.run();
    expect(out).toMatchObject({ state: 'FAILED', reason: 'JobFailed' });
    expect(s.engine.majorityAsks).toEqual([]);
  });
});
