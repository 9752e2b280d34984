import type { Pod } from 'kubernetes-types/core/v1';
import { memoryLogger } from '../../src/log';
import { PodSnapshotStore } from '../../src/workers/snapshot';
import { FakeClock, FakeKube, KubeApiError, runOn, settle } from './fakes';

const SEL = 'seatunnel.apache.org/application-id=app-1,seatunnel.apache.org/role=worker';
const labels = { 'seatunnel.apache.org/application-id': 'app-1', 'seatunnel.apache.org/role': 'worker' };
const worker = (n: number): Pod => ({ metadata: { name: `app-1-worker-${n}`, labels }, status: { phase: 'Running' } });

function setup(opts: { resyncMs?: number; failureBudgetMs?: number } = {}) {
  const clock = new FakeClock();
  const kube = new FakeKube(clock);
  const log = memoryLogger();
  const store = new PodSnapshotStore(kube, SEL, {
    clock,
    log,
    resyncMs: opts.resyncMs ?? 30_000,
    failureBudgetMs: opts.failureBudgetMs ?? 60_000,
    backoff: () => 100,
  });
  return { clock, kube, log, store };
}

test('lists, then watches from the list resourceVersion; events update the snapshot', async () => {
  const { clock, kube, store } = setup();
  kube.seed(worker(1));
  kube.seed({ metadata: { name: 'other', labels: { app: 'x' } } });
  await runOn(clock, store.start());
  expect([...store.snapshot().pods.keys()]).toEqual(['app-1-worker-1']);
  const listRv = store.snapshot().resourceVersion;
  expect(kube.ops('watchPods')).toHaveLength(1);
  kube.seed(worker(2));
  kube.remove('app-1-worker-1');
  await settle();
  expect([...store.snapshot().pods.keys()]).toEqual(['app-1-worker-2']);
  expect(store.snapshot().deleted.has('app-1-worker-1')).toBe(true);
  expect(Number(store.snapshot().resourceVersion)).toBeGreaterThan(Number(listRv));
  await store.stop();
});

test('a dropped watch resumes from the last resourceVersion: a change made while it was down is delivered, without a re-list', async () => {
  const { clock, kube, store } = setup();
  kube.seed(worker(1));
  kube.seed(worker(2));
  await runOn(clock, store.start());
  kube.breakWatches();
  await settle();
  // while disconnected
  kube.remove('app-1-worker-2');
  clock.advance(200); // backoff
  await settle();
  expect(kube.ops('watchPods')).toHaveLength(2);
  expect(kube.ops('listPods')).toHaveLength(1);
  expect(store.snapshot().pods.has('app-1-worker-2')).toBe(false);
  expect(store.snapshot().deleted.has('app-1-worker-2')).toBe(true);
  expect(store.stats.watchErrors).toBe(1);
  await store.stop();
});

test('410 Gone (expired resourceVersion) re-lists; a Pod that vanished in the gap is recorded as deleted', async () => {
  const { clock, kube, store } = setup();
  kube.seed(worker(1));
  kube.seed(worker(2));
  await runOn(clock, store.start());
  const seen: number[] = [];
  store.subscribe((s) => seen.push(s.pods.size));
  kube.breakWatches();
  await settle();
  kube.remove('app-1-worker-1'); // the history is lost: the API server restarted
  kube.expiredBefore = kube.currentRv; // every resourceVersion the store has seen
  clock.advance(200);
  await settle();
  // the watch got ERROR 410, the store re-listed
  expect(store.stats.expired).toBe(1);
  expect(kube.ops('listPods')).toHaveLength(2);
  expect([...store.snapshot().pods.keys()]).toEqual(['app-1-worker-2']);
  expect(store.snapshot().deleted.has('app-1-worker-1')).toBe(true);
  expect(store.snapshot().syncedList).toBe(2);
  expect(kube.openWatches).toBe(1);
  expect(seen).toContain(1);
  await store.stop();
});

test('an HTTP 410 on the watch request re-lists too', async () => {
  const { clock, kube, store } = setup();
  await runOn(clock, store.start());
  kube.failNext.set('watchPods', [new KubeApiError(410, 'Expired', 'too old')]);
  kube.breakWatches();
  await settle();
  clock.advance(200);
  await settle();
  expect(store.stats.expired).toBeGreaterThanOrEqual(1);
  expect(kube.ops('listPods').length).toBeGreaterThanOrEqual(2);
  await store.stop();
});

test('re-lists every resync period even when the watch is healthy', async () => {
  const { clock, kube, store } = setup({ resyncMs: 1000 });
  await runOn(clock, store.start());
  clock.advance(1000);
  await settle();
  clock.advance(1000);
  await settle();
  expect(kube.ops('listPods')).toHaveLength(3);
  await store.stop();
});

test('failures beyond the budget are fatal; within it they are retried', async () => {
  const { clock, kube, store } = setup({ failureBudgetMs: 1000 });
  await runOn(clock, store.start());
  let fatal: Error | undefined;
  store.onFatal((e) => (fatal = e));
  const down = () => new KubeApiError(0, 'ECONNREFUSED', 'connect ECONNREFUSED');
  kube.failNext.set('watchPods', Array.from({ length: 100 }, down));
  kube.breakWatches();
  for (let i = 0; i < 8 && !fatal; i++) {
    await settle();
    clock.advance(100);
  }
  expect(fatal).toBeUndefined(); // ~800 ms of failures: still within the budget
  expect(kube.ops('watchPods').length).toBeGreaterThan(5); // retried
  for (let i = 0; i < 10 && !fatal; i++) {
    await settle();
    clock.advance(100);
  }
  expect(fatal?.message).toMatch(/watching worker Pods failed for \d+ s: .*ECONNREFUSED/);
  await store.stop();
});

test('403 on the first list is fatal at once; after the store has worked it is retried (RBAC warming up after an API server restart)', async () => {
  const first = setup();
  first.kube.failNext.set('listPods', [new KubeApiError(403, 'Forbidden', 'pods is forbidden')]);
  await expect(runOn(first.clock, first.store.start())).rejects.toThrow(/forbidden/);

  const { clock, kube, store } = setup();
  await runOn(clock, store.start());
  let fatal: Error | undefined;
  store.onFatal((e) => (fatal = e));
  kube.failNext.set('watchPods', [
    new KubeApiError(403, 'Forbidden', 'pods is forbidden'),
    new KubeApiError(403, 'Forbidden', 'pods is forbidden'),
  ]);
  kube.breakWatches();
  for (let i = 0; i < 5; i++) {
    await settle();
    clock.advance(200);
  }
  expect(fatal).toBeUndefined();
  expect(kube.openWatches).toBe(1);
  await store.stop();
});
