import type { Pod, PodTemplate } from 'kubernetes-types/core/v1';
import { memoryLogger } from '../../src/log';
import {
  assess,
  CREATION_TOKEN_ANNOTATION,
  WorkerReconciler,
  type WorkerFailure,
  type WorkerRecord,
} from '../../src/workers/reconciler';
import type { PodSnapshot } from '../../src/workers/snapshot';
import { PodSnapshotStore } from '../../src/workers/snapshot';
import { stampWorker, workerSelector } from 'seatunnel-app/internal/plan/stamp';
import { plan } from '../../../test/support/fixtures';
import { FakeClock, FakeKube, KubeApiError, runOn, running, settle } from './fakes';

const MASTER = 'master-uid';
const ownerRefs = [{ apiVersion: 'v1', kind: 'Pod', name: 'm', uid: MASTER }];
/** A Pod this runtime created: owned by its master, with the worker's creation token. */
const own = { ownerReferences: ownerRefs, annotations: { [CREATION_TOKEN_ANNOTATION]: 'token' } };
const rec = (n: number, phase: WorkerRecord['phase'], extra: Partial<WorkerRecord> = {}): WorkerRecord => ({
  index: n,
  name: `w-${n}`,
  phase,
  seen: false,
  attempts: 1,
  token: 'token',
  ...extra,
});
const snap = (pods: Pod[], extra: Partial<PodSnapshot> = {}): PodSnapshot => ({
  pods: new Map(pods.map((p) => [p.metadata!.name!, p])),
  deleted: new Map(),
  listsStarted: 1,
  syncedList: 1,
  resourceVersion: '1',
  ...extra,
});
const pod = (n: number, status: Pod['status'] = { phase: 'Running' }, meta: Pod['metadata'] = own): Pod => ({
  metadata: { name: `w-${n}`, ...meta },
  status,
});

describe('assess (pure decisions)', () => {
  test('counts running workers and says why the others wait', () => {
    const a = assess(
      [rec(1, 'created'), rec(2, 'created'), rec(3, 'creating'), rec(4, 'new')],
      snap([pod(1), pod(2, { phase: 'Pending' })]),
      MASTER,
    );
    expect(a.failure).toBeUndefined();
    expect(a.running).toBe(1);
    expect(a.created).toBe(2);
    expect(Object.fromEntries(a.waiting)).toEqual({ 'w-2': 'Pending', 'w-3': 'Creating', 'w-4': 'NotCreated' });
    expect(a.newlySeen).toEqual(['w-1', 'w-2']);
  });

  test('a worker that was seen and is gone is lost', () => {
    const a = assess([rec(1, 'created', { seen: true })], snap([]), MASTER);
    expect(a.failure).toEqual({ reason: 'WorkerLost', worker: 'w-1', message: 'worker w-1 was deleted' });
  });

  test('a deletion recorded by the store (tombstone) is a loss even if the reconciler never saw the Pod; its last state is quoted', () => {
    const tomb = pod(1, {
      phase: 'Failed',
      containerStatuses: [
        {
          name: 'seatunnel',
          image: 'x',
          imageID: '',
          ready: false,
          restartCount: 0,
          state: { terminated: { exitCode: 137, reason: 'OOMKilled' } },
        },
      ],
    });
    const a = assess([rec(1, 'created')], { ...snap([]), deleted: new Map([['w-1', tomb]]) }, MASTER);
    expect(a.failure?.message).toBe(
      'worker w-1 was deleted (it had failed: container seatunnel terminated with exit code 137 (OOMKilled))',
    );
  });

  test('created but not observed yet is only a loss once a list started after the create came back without it', () => {
    expect(
      assess([rec(1, 'created', { ackedAtList: 1 })], snap([], { syncedList: 1 }), MASTER).failure,
    ).toBeUndefined();
    expect(
      assess([rec(1, 'created', { ackedAtList: 1 })], snap([], { syncedList: 2, listsStarted: 2 }), MASTER).failure
        ?.reason,
    ).toBe('WorkerLost');
  });

  test('reason-aware: Unschedulable and image pull errors fail with their reason', () => {
    const unsched = pod(2, {
      phase: 'Pending',
      conditions: [
        { type: 'PodScheduled', status: 'False', reason: 'Unschedulable', message: '0/3 nodes are available' },
      ],
    });
    const a = assess([rec(1, 'created'), rec(2, 'created')], snap([pod(1), unsched]), MASTER);
    expect(a.failure).toEqual({
      reason: 'Unschedulable',
      worker: 'w-2',
      message: 'worker w-2 cannot be scheduled: 0/3 nodes are available',
    });
  });

  test('Failed, terminating and Succeeded workers are lost, reported at once', () => {
    expect(assess([rec(1, 'created')], snap([pod(1, { phase: 'Failed' })]), MASTER).failure?.reason).toBe('WorkerLost');
    expect(
      assess([rec(1, 'created')], snap([pod(1, { phase: 'Running' }, { ...own, deletionTimestamp: 'x' })]), MASTER)
        .failure?.message,
    ).toMatch(/is being deleted/);
    // Also while the others are still starting: the application must not wait out the startup timeout.
    const a = assess([rec(1, 'created'), rec(2, 'creating')], snap([pod(1, { phase: 'Succeeded' })]), MASTER);
    expect(a.failure).toEqual({
      reason: 'WorkerLost',
      worker: 'w-1',
      message: 'worker w-1 ended (phase Succeeded) while the application still needs it',
    });
  });

  test('released workers (the runtime deleted them) are never failures', () => {
    expect(assess([rec(1, 'released', { seen: true })], snap([]), MASTER).failure).toBeUndefined();
    expect(assess([rec(1, 'released')], snap([pod(1, { phase: 'Failed' })]), MASTER).failure).toBeUndefined();
  });

  test("a Pod with the worker's name that is not ours is not taken for ours", () => {
    const foreign = pod(
      1,
      { phase: 'Failed' },
      { ownerReferences: [{ apiVersion: 'v1', kind: 'Pod', name: 'old', uid: 'old-master' }] },
    );
    const a = assess([rec(1, 'creating')], snap([foreign]), MASTER);
    expect(a.failure).toBeUndefined();
    expect(a.newlySeen).toEqual([]);
  });

  test('a look-alike (right name, owner reference to this master, no token) is not a worker', () => {
    const lookAlike = pod(1, { phase: 'Running' }, { ownerReferences: ownerRefs });
    const a = assess([rec(1, 'creating')], snap([lookAlike]), MASTER);
    expect(a.running).toBe(0);
    expect(a.newlySeen).toEqual([]);
  });

  test('once the uid is recorded only that Pod counts: a Pod re-created with the same name and token is not it', () => {
    const mine = pod(1, { phase: 'Running' }, { ...own, uid: 'uid-1' });
    const other = pod(1, { phase: 'Running' }, { ...own, uid: 'uid-2' });
    expect(assess([rec(1, 'created', { uid: 'uid-1' })], snap([mine]), MASTER).running).toBe(1);
    const a = assess([rec(1, 'created', { uid: 'uid-1', seen: true })], snap([other]), MASTER);
    expect(a.running).toBe(0);
    expect(a.failure).toEqual({ reason: 'WorkerLost', worker: 'w-1', message: 'worker w-1 was deleted' });
  });

  test('the first failure in worker order wins', () => {
    const a = assess(
      [rec(1, 'created', { seen: true }), rec(2, 'created')],
      snap([pod(2, { phase: 'Failed' })]),
      MASTER,
    );
    expect(a.failure?.worker).toBe('w-1');
  });
});

describe('WorkerReconciler (with a fake API server)', () => {
  const p = plan({ applicationId: 'app-1', workerCount: 1 });
  const template = p.workerTemplate as PodTemplate;

  function setup(count: number, concurrency = 4) {
    const clock = new FakeClock();
    const kube = new FakeKube(clock);
    const log = memoryLogger();
    const store = new PodSnapshotStore(kube, workerSelector('app-1'), { clock, log });
    const failures: WorkerFailure[] = [];
    const r = new WorkerReconciler({
      kube,
      store,
      clock,
      log,
      appId: 'app-1',
      count,
      masterUid: MASTER,
      concurrency,
      stamp: (n) =>
        stampWorker(
          {
            appId: 'app-1',
            namespace: 'ns',
            template,
            master: { name: 'm', uid: MASTER },
            masterHost: '10.0.0.1',
            masterPort: 5801,
          },
          n,
        ),
      onFailure: (f) => failures.push(f),
    });
    return { clock, kube, log, store, r, failures };
  }

  async function createAll(s: ReturnType<typeof setup>): Promise<void> {
    await runOn(s.clock, s.store.start());
    s.r.start();
    await runOn(
      s.clock,
      (async () => {
        while (!s.r.allCreated && s.failures.length === 0) await s.clock.sleep(10);
      })(),
    );
  }

  test('creates every worker once, with at most `concurrency` creates in flight', async () => {
    const s = setup(10, 3);
    s.kube.createDelayMs = 50;
    await createAll(s);
    expect(
      s.kube
        .ops('createPod')
        .map((c) => c.name)
        .sort(),
    ).toEqual(Array.from({ length: 10 }, (_, i) => `app-1-worker-${i + 1}`).sort());
    expect(s.kube.maxInFlightCreates).toBe(3);
    expect(s.failures).toEqual([]);
    await s.store.stop();
  });

  test('a worker deleted behind its back is reported lost (once)', async () => {
    const s = setup(2);
    s.kube.onCreate = (pod) => s.kube.update(pod.metadata!.name!, running);
    await createAll(s);
    await settle();
    s.kube.remove('app-1-worker-2');
    await settle();
    expect(s.failures).toEqual([
      { reason: 'WorkerLost', worker: 'app-1-worker-2', message: 'worker app-1-worker-2 was deleted' },
    ]);
    s.kube.remove('app-1-worker-1');
    await settle();
    expect(s.failures).toHaveLength(1);
    await s.store.stop();
  });

  test("each create carries the worker's random creation token; the uid it answers with is recorded", async () => {
    const s = setup(2);
    await createAll(s);
    const [a, b] = s.r.records;
    expect(a.token).toMatch(/^[0-9a-f]{32}$/);
    expect(b.token).not.toBe(a.token);
    expect(s.kube.pods.get('app-1-worker-1')!.metadata!.annotations![CREATION_TOKEN_ANNOTATION]).toBe(a.token);
    expect(a.uid).toBe(s.kube.pods.get('app-1-worker-1')!.metadata!.uid);
    await s.store.stop();
  });

  test('a restart whose deletion of the old incarnation got no answer never adopts it: deleted again, then a new Pod', async () => {
    const s = setup(1);
    s.kube.onCreate = (pod) => s.kube.update(pod.metadata!.name!, running);
    await createAll(s);
    await settle();
    const oldUid = s.r.records[0].uid!;
    // The API server does not answer the deletion in time (it did not happen either).
    s.kube.failNext.set('deletePod', [new KubeApiError(0, 'ETIMEDOUT', 'no complete answer within 15000 ms')]);
    expect(s.r.restart('app-1-worker-1', oldUid)).toBe(true);
    await runOn(
      s.clock,
      (async () => {
        while (!s.r.allCreated && s.failures.length === 0) await s.clock.sleep(10);
      })(),
    );
    const now = s.kube.pods.get('app-1-worker-1')!;
    expect(now.metadata!.uid).not.toBe(oldUid);
    expect(s.r.records[0].uid).toBe(now.metadata!.uid);
    expect(s.kube.ops('deletePod').map((c) => c.name)).toEqual(['app-1-worker-1 (force)', 'app-1-worker-1 (force)']);
    expect(s.failures).toEqual([]);
    await s.store.stop();
  });

  test("409 after a create whose answer was lost (the Pod carries this runtime's token) adopts it", async () => {
    const s = setup(1);
    const create = s.kube.createPod.bind(s.kube);
    let lost = false;
    s.kube.createPod = async (p) => {
      const made = await create(p);
      if (!lost) {
        lost = true;
        throw new KubeApiError(0, 'NoResponse', `no answer creating ${made.metadata!.name}`);
      }
      return made;
    };
    await createAll(s);
    expect(s.r.records[0].phase).toBe('created');
    expect(s.r.records[0].uid).toBe(s.kube.pods.get('app-1-worker-1')!.metadata!.uid);
    expect(s.kube.ops('deletePod')).toEqual([]);
    expect(s.failures).toEqual([]);
    expect(s.log.lines.some((l) => l.includes('adopted existing worker'))).toBe(true);
    await s.store.stop();
  });

  test('409 with a look-alike (owner reference to this master Pod, application labels, no token) is refused and left alone', async () => {
    const s = setup(1);
    s.kube.seed({
      metadata: {
        name: 'app-1-worker-1',
        labels: { 'seatunnel.apache.org/application-id': 'app-1', 'seatunnel.apache.org/role': 'worker' },
        ownerReferences: ownerRefs,
        annotations: { [CREATION_TOKEN_ANNOTATION]: 'guessed' },
      },
    });
    await createAll(s);
    expect(s.failures[0]).toMatchObject({ reason: 'WorkerCreateRefused', worker: 'app-1-worker-1' });
    expect(s.failures[0].message).toMatch(/this runtime did not create/);
    expect(s.r.records[0].phase).not.toBe('created');
    expect(await s.r.release()).toEqual([]); // cleanup never deletes it either
    expect(s.kube.ops('deletePod')).toEqual([]);
  });

  test('409 with a worker left by an earlier master Pod deletes it (uid precondition) and creates ours', async () => {
    const s = setup(1);
    s.kube.seed({
      metadata: {
        name: 'app-1-worker-1',
        uid: 'stale-uid',
        labels: { 'seatunnel.apache.org/application-id': 'app-1', 'seatunnel.apache.org/role': 'worker' },
        ownerReferences: [{ apiVersion: 'v1', kind: 'Pod', name: 'old', uid: 'old-master' }],
      },
    });
    await createAll(s);
    expect(s.kube.ops('deletePod').map((c) => c.name)).toEqual(['app-1-worker-1']);
    expect(s.kube.ops('createPod')).toHaveLength(2);
    expect(s.kube.pods.get('app-1-worker-1')!.metadata!.ownerReferences![0].uid).toBe(MASTER);
    expect(s.failures).toEqual([]);
  });

  test('409 with a foreign Pod of the same name is refused', async () => {
    const s = setup(1);
    s.kube.seed({ metadata: { name: 'app-1-worker-1', labels: { app: 'someone-else' } } });
    await createAll(s);
    expect(s.failures[0]).toMatchObject({ reason: 'WorkerCreateRefused', worker: 'app-1-worker-1' });
    expect(s.kube.ops('deletePod')).toEqual([]);
  });

  test('a quota refusal (403) fails at once with the API message and stops further creates', async () => {
    const s = setup(6, 1);
    s.kube.failNext.set('createPod', [
      new KubeApiError(
        403,
        'Forbidden',
        'pods "app-1-worker-1" is forbidden: exceeded quota: q, requested: pods=1, used: pods=2, limited: pods=2',
      ),
    ]);
    await createAll(s);
    expect(s.failures).toEqual([
      {
        reason: 'WorkerCreateRefused',
        worker: 'app-1-worker-1',
        message: expect.stringContaining('exceeded quota: q'),
      },
    ]);
    expect(s.kube.ops('createPod')).toHaveLength(1);
  });

  test('an admission rejection (422) fails at once', async () => {
    const s = setup(1);
    s.kube.failNext.set('createPod', [
      new KubeApiError(422, 'Invalid', 'Pod "x" is invalid: spec.containers[0].image: Required value'),
    ]);
    await createAll(s);
    expect(s.failures[0].reason).toBe('WorkerCreateRefused');
  });

  test('no answer / 5xx is retried', async () => {
    const s = setup(1);
    s.kube.failNext.set('createPod', [
      new KubeApiError(0, 'ECONNRESET', 'socket hang up'),
      new KubeApiError(503, 'ServiceUnavailable', 'try later'),
    ]);
    await createAll(s);
    expect(s.kube.ops('createPod')).toHaveLength(3);
    expect(s.r.records[0]).toMatchObject({ phase: 'created', attempts: 3 });
    expect(s.failures).toEqual([]);
  });

  test('release() stops creating and returns the workers whose create was attempted', async () => {
    const s = setup(5, 1);
    s.kube.createDelayMs = 100;
    await runOn(s.clock, s.store.start());
    s.r.start();
    await settle();
    const released = runOn(s.clock, s.r.release());
    const names = await released;
    expect(names).toEqual(['app-1-worker-1']);
    expect(s.kube.ops('createPod')).toHaveLength(1);
    expect(s.r.records.every((x) => x.phase === 'released')).toBe(true);
    s.kube.remove('app-1-worker-1');
    await settle();
    expect(s.failures).toEqual([]);
  });
});
