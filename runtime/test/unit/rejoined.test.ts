// A worker back from a split of the cluster runs its old tasks beside the ones the cluster restored
// elsewhere (Zeta 2.3.8 does nothing when Hazelcast merges it back). Hazelcast gives a merged member
// a new UUID: the same Pod at the same address under another UUID is such a worker, and the
// runtime deletes and creates it again while the job runs on. A worker created again meanwhile that
// never joins (its joiner gave up on the masters while they were merging) is restarted too.
import type { Pod } from 'kubernetes-types/core/v1';
import { MEMBERSHIP_CHECK_MS } from '../../src/steps/worker-membership';
import { RejoinedWorkers } from '../../src/workers/rejoined';
import type { WorkerIncarnation } from '../../src/workers/unjoined';
import { setup } from './lifecycle-setup';

const pod = (ip: string, phase = 'Running'): Pod => ({
  metadata: { name: 'w' },
  status: { phase, podIP: ip, containerStatuses: [{ name: 'seatunnel', state: { running: {} } } as never] },
});
const cluster = (majority: Record<string, string>, ...minority: Array<Record<string, string>>) => ({
  majority,
  minority,
});
const worker = (name: string, uid: string, ip: string, phase?: string): WorkerIncarnation => ({
  name,
  uid,
  pod: pod(ip, phase),
});

describe('which workers came back from a split', () => {
  const w1 = worker('w-1', 'uid-1', '10.0.1.1');
  const w2 = worker('w-2', 'uid-2', '10.0.1.2');

  test('the first sight of a worker records its UUID; the same UUID again is nothing', () => {
    const r = new RejoinedWorkers();
    const uuids = { '10.0.0.9:5801': 'm', '10.0.1.1:5802': 'a', '10.0.1.2:5802': 'b' };
    expect(r.due([w1, w2], cluster(uuids))).toEqual([]);
    expect(r.due([w1, w2], cluster(uuids))).toEqual([]);
  });

  test('absent from the list (cut off, frozen), then back under a new UUID: due, once', () => {
    const r = new RejoinedWorkers();
    r.due([w1, w2], cluster({ '10.0.1.1:5802': 'a', '10.0.1.2:5802': 'b' }));
    expect(r.due([w1, w2], cluster({ '10.0.1.1:5802': 'a' }))).toEqual([]);
    expect(r.due([w1, w2], cluster({ '10.0.1.1:5802': 'a', '10.0.1.2:5802': 'b2' }))).toEqual([
      { name: 'w-2', uid: 'uid-2', ip: '10.0.1.2', before: 'b', why: 'merged', outsideMs: 0 },
    ]);
    expect(r.due([w1, w2], cluster({ '10.0.1.1:5802': 'a', '10.0.1.2:5802': 'b2' }))).toEqual([]);
  });

  test('a list that could not be read judges nothing and forgets nothing', () => {
    const r = new RejoinedWorkers();
    r.due([w1], cluster({ '10.0.1.1:5802': 'a' }));
    expect(r.due([w1], undefined)).toEqual([]);
    expect(r.due([w1], cluster({ '10.0.1.1:5802': 'a2' }))).toHaveLength(1);
  });

  test('a new incarnation (another Pod uid under the name) starts its own record', () => {
    const r = new RejoinedWorkers();
    r.due([w1], cluster({ '10.0.1.1:5802': 'a' }));
    const again = worker('w-1', 'uid-1b', '10.0.1.1');
    expect(r.due([again], cluster({ '10.0.1.1:5802': 'fresh' }))).toEqual([]);
  });

  test('a worker whose container does not run is not judged', () => {
    const r = new RejoinedWorkers();
    const pending = worker('w-1', 'uid-1', '10.0.1.1', 'Pending');
    r.due([pending], cluster({ '10.0.1.1:5802': 'a' }));
    expect(r.due([pending], cluster({ '10.0.1.1:5802': 'a2' }))).toEqual([]);
  });

  test('dropped by the majority and listed under its old UUID by a master on the other side: due at the second sighting, once', () => {
    const r = new RejoinedWorkers();
    r.due([w1, w2], cluster({ '10.0.1.1:5802': 'a', '10.0.1.2:5802': 'b' }));
    // Cut off: absent from every list that answers.
    expect(r.due([w1, w2], cluster({ '10.0.1.1:5802': 'a' }))).toEqual([]);
    // Healed: its side's master answers again, still listing it under its old UUID.
    const healed = cluster({ '10.0.1.1:5802': 'a' }, { '10.0.0.8:5801': 'm2', '10.0.1.2:5802': 'b' });
    expect(r.due([w1, w2], healed)).toEqual([]);
    expect(r.due([w1, w2], healed)).toEqual([
      { name: 'w-2', uid: 'uid-2', ip: '10.0.1.2', before: 'b', why: 'other-side', outsideMs: 0 },
    ]);
    expect(r.due([w1, w2], healed)).toEqual([]);
  });

  test("not due on the other side's word: a sighting between two absences, another UUID, a worker the majority lists, one never seen", () => {
    const r = new RejoinedWorkers();
    r.due([w1, w2], cluster({ '10.0.1.1:5802': 'a', '10.0.1.2:5802': 'b' }));
    const other = (uuids: Record<string, string>) => cluster({ '10.0.1.1:5802': 'a' }, uuids);
    // Sightings that are not in a row.
    expect(r.due([w1, w2], other({ '10.0.1.2:5802': 'b' }))).toEqual([]);
    expect(r.due([w1, w2], other({}))).toEqual([]);
    expect(r.due([w1, w2], other({ '10.0.1.2:5802': 'b' }))).toEqual([]);
    expect(r.due([w1, w2], other({}))).toEqual([]);
    // Listed on the other side under another UUID: not the member the majority dropped.
    expect(r.due([w1, w2], other({ '10.0.1.2:5802': 'x' }))).toEqual([]);
    expect(r.due([w1, w2], other({ '10.0.1.2:5802': 'x' }))).toEqual([]);
    // Listed by both sides: the majority's word stands.
    const both = cluster({ '10.0.1.1:5802': 'a', '10.0.1.2:5802': 'b' }, { '10.0.1.2:5802': 'b' });
    expect(r.due([w1, w2], both)).toEqual([]);
    expect(r.due([w1, w2], both)).toEqual([]);
    // Never listed by the majority: nothing on record to compare with.
    const fresh = new RejoinedWorkers();
    expect(fresh.due([w1], cluster({}, { '10.0.1.1:5802': 'a' }))).toEqual([]);
    expect(fresh.due([w1], cluster({}, { '10.0.1.1:5802': 'a' }))).toEqual([]);
  });

  test('dropped by the majority and listed by nobody: due once it has been outside for the limit with its Pod Ready, once', () => {
    const r = new RejoinedWorkers(undefined, 45_000);
    const ready = (w: WorkerIncarnation, isReady: boolean): WorkerIncarnation => ({
      ...w,
      pod: {
        ...w.pod!,
        status: { ...w.pod!.status, conditions: [{ type: 'Ready', status: isReady ? 'True' : 'False' }] },
      },
    });
    r.due([ready(w1, true), ready(w2, true)], cluster({ '10.0.1.1:5802': 'a', '10.0.1.2:5802': 'b' }), 0);
    const without2 = cluster({ '10.0.1.1:5802': 'a' });
    // Cut off: outside, its Pod not Ready (its node stopped answering) — not due, however long.
    expect(r.due([ready(w1, true), ready(w2, false)], without2, 10_000)).toEqual([]);
    expect(r.due([ready(w1, true), ready(w2, false)], without2, 60_000)).toEqual([]);
    // Healed, still outside (never merged): due at once, the limit having passed, and only once.
    expect(r.due([ready(w1, true), ready(w2, true)], without2, 65_000)).toEqual([
      { name: 'w-2', uid: 'uid-2', ip: '10.0.1.2', before: 'b', why: 'outside', outsideMs: 55_000 },
    ]);
    expect(r.due([ready(w1, true), ready(w2, true)], without2, 70_000)).toEqual([]);
    // Back in the list before the limit: nothing.
    const r2 = new RejoinedWorkers(undefined, 45_000);
    r2.due([ready(w1, true)], cluster({ '10.0.1.1:5802': 'a' }), 0);
    expect(r2.due([ready(w1, true)], cluster({}), 10_000)).toEqual([]);
    expect(r2.due([ready(w1, true)], cluster({ '10.0.1.1:5802': 'a' }), 40_000)).toEqual([]);
    expect(r2.due([ready(w1, true)], cluster({}), 50_000)).toEqual([]);
    expect(r2.due([ready(w1, true)], cluster({}), 90_000)).toHaveLength(0);
    expect(r2.due([ready(w1, true)], cluster({}), 95_000)).toHaveLength(1);
  });

  test('member addresses that are not the Pod IPs are matched through the dial rewrite', () => {
    const r = new RejoinedWorkers((ip) => ip.replace(/^10\.0\./, '127.0.'));
    r.due([w1], cluster({ '127.0.1.1:5802': 'a' }));
    expect(r.due([w1], cluster({ '127.0.1.1:5802': 'a2' })).map((w) => w.name)).toEqual(['w-1']);
  });
});

describe('the runtime restarts a worker that came back from a split', () => {
  /** Each Running worker listed under a UUID of its address; `merged` addresses under a second one after `after`. */
  function listing(s: ReturnType<typeof setup>, merged: () => Set<string>) {
    s.engine.uuids = () =>
      Object.fromEntries(
        s.engine.members().map((a) => {
          const ip = a.slice(0, a.lastIndexOf(':'));
          return [a, merged().has(ip) ? `${ip}-after-merge` : `${ip}-first`];
        }),
      );
  }
  const workerIp = (s: ReturnType<typeof setup>, name: string) =>
    s.kube.podsOf('seatunnel.apache.org/role=worker').find((p) => p.metadata?.name === name)?.status?.podIP;

  test('deleted and created again while the job runs on: one WorkerRejoined Event, one submission', async () => {
    const s = setup();
    s.engine.script = (n) => (n >= 120 ? 'FINISHED' : 'RUNNING');
    const t0 = s.clock.now();
    let mergedIp: string | undefined;
    listing(s, () => {
      if (mergedIp === undefined && s.clock.now() - t0 > 20_000) mergedIp = workerIp(s, 'app-1-worker-2');
      return new Set(mergedIp ? [mergedIp] : []);
    });
    const outcome = await s.run();
    expect(outcome.state).toBe('SUCCEEDED');
    expect(s.engine.submits).toHaveLength(1);
    const events = s.kube.events.filter((e) => e.reason === 'WorkerRejoined');
    expect(events).toHaveLength(1);
    expect(events[0].type).toBe('Warning');
    expect(events[0].message).toMatch(
      /^app-1-worker-2 \(10\.[0-9.]+\) came back from a split of the cluster .* deleted and created again$/,
    );
    // The old incarnation was force-deleted during the run, after the submission; a new one created.
    const forced = s.kube.calls.filter((c) => c.op === 'deletePod' && c.name!.endsWith('(force)'));
    expect(forced.map((c) => c.name)).toEqual(['app-1-worker-2 (force)']);
    expect(forced[0].at).toBeGreaterThan(s.engine.submits[0].at);
    expect(forced[0].at - t0).toBeLessThanOrEqual(20_000 + 2 * MEMBERSHIP_CHECK_MS);
    expect(s.kube.calls.filter((c) => c.op === 'createPod')).toHaveLength(4);
  });

  test('dropped by the majority while a master on the other side still lists it: restarted before any merge, at the second check', async () => {
    const s = setup();
    s.engine.script = (n) => (n >= 120 ? 'FINISHED' : 'RUNNING');
    const t0 = s.clock.now();
    let apart: { ip: string; since: number } | undefined;
    const byIp = (uuids: Readonly<Record<string, string>>, keep: (ip: string) => boolean) =>
      Object.fromEntries(Object.entries(uuids).filter(([a]) => keep(a.slice(0, a.lastIndexOf(':')))));
    listing(s, () => new Set());
    const all = s.engine.uuids;
    // 20 s in, worker-2's first incarnation leaves the majority's list for the other side (its UUID unchanged).
    const firstIp = () => {
      if (apart === undefined && s.clock.now() - t0 > 20_000) {
        const ip = workerIp(s, 'app-1-worker-2');
        if (ip) apart = { ip, since: s.clock.now() };
      }
      return apart?.ip;
    };
    s.engine.uuids = () => {
      const u = all();
      const ip = firstIp();
      return u && byIp(u, (a) => a !== ip);
    };
    s.engine.minorityUuids = () => {
      const u = all();
      const ip = firstIp();
      return u && ip ? [byIp(u, (a) => a === ip)] : [];
    };
    const outcome = await s.run();
    expect(outcome.state).toBe('SUCCEEDED');
    expect(s.engine.submits).toHaveLength(1);
    const events = s.kube.events.filter((e) => e.reason === 'WorkerRejoined');
    expect(events.map((e) => e.message)).toEqual([
      expect.stringMatching(
        /^app-1-worker-2 \(10\.[0-9.]+\) came back from a split of the cluster \(a partition or a freeze: the masters holding the majority dropped it, a master on the other side still lists it\); .* deleted and created again$/,
      ),
    ]);
    const forced = s.kube.calls.filter((c) => c.op === 'deletePod' && c.name!.endsWith('(force)'));
    expect(forced.map((c) => c.name)).toEqual(['app-1-worker-2 (force)']);
    // Seen on the other side in two checks in a row: the second is at most two check periods later.
    expect(forced[0].at - apart!.since).toBeGreaterThanOrEqual(MEMBERSHIP_CHECK_MS);
    expect(forced[0].at - apart!.since).toBeLessThanOrEqual(2 * MEMBERSHIP_CHECK_MS);
    expect(s.kube.calls.filter((c) => c.op === 'createPod')).toHaveLength(4);
  });

  test('dropped by the majority and never merged back, its Pod Ready: restarted after the join limit', async () => {
    const s = setup({}, { workerJoinLimitMs: 45_000 });
    s.engine.script = (n) => (n >= 200 ? 'FINISHED' : 'RUNNING');
    const t0 = s.clock.now();
    let outside: { ip: string; since: number } | undefined;
    listing(s, () => new Set());
    const all = s.engine.uuids;
    // 20 s in, worker-2's first incarnation leaves every list for good (its master merged, it did not).
    s.engine.uuids = () => {
      const u = all();
      if (outside === undefined && s.clock.now() - t0 > 20_000) {
        const ip = workerIp(s, 'app-1-worker-2');
        if (ip) outside = { ip, since: s.clock.now() };
      }
      return u && Object.fromEntries(Object.entries(u).filter(([a]) => !outside || !a.startsWith(`${outside.ip}:`)));
    };
    const outcome = await s.run();
    expect(outcome.state).toBe('SUCCEEDED');
    expect(s.engine.submits).toHaveLength(1);
    expect(s.kube.events.filter((e) => e.reason === 'WorkerRejoined').map((e) => e.message)).toEqual([
      expect.stringMatching(
        /^app-1-worker-2 \(10\.[0-9.]+\) came back from a split of the cluster \(a partition or a freeze: the masters holding the majority have not listed it for 4[5-9] s while its Pod is Ready\); .* deleted and created again$/,
      ),
    ]);
    const forced = s.kube.calls.filter((c) => c.op === 'deletePod' && c.name!.endsWith('(force)'));
    expect(forced.map((c) => c.name)).toEqual(['app-1-worker-2 (force)']);
    expect(forced[0].at - outside!.since).toBeGreaterThanOrEqual(45_000);
    expect(forced[0].at - outside!.since).toBeLessThanOrEqual(45_000 + 2 * MEMBERSHIP_CHECK_MS);
  });

  test('workers under the UUIDs they joined with are left alone', async () => {
    const s = setup();
    s.engine.script = (n) => (n >= 120 ? 'FINISHED' : 'RUNNING');
    listing(s, () => new Set());
    const outcome = await s.run();
    expect(outcome.state).toBe('SUCCEEDED');
    expect(s.kube.events.filter((e) => e.reason === 'WorkerRejoined')).toHaveLength(0);
    expect(s.kube.calls.filter((c) => c.op === 'createPod')).toHaveLength(3);
  });
});

describe('the runtime restarts a worker created during the run that never joins', () => {
  /** Each Running worker under a stable UUID of its address, except the Pods `hidden` names by uid. */
  function listing(s: ReturnType<typeof setup>, hidden: (uid: string, name: string) => boolean) {
    s.engine.uuids = () => {
      const pods = s.kube.podsOf('seatunnel.apache.org/role=worker');
      return Object.fromEntries(
        s.engine
          .members()
          .filter((a) => {
            const ip = a.slice(0, a.lastIndexOf(':'));
            const pod = pods.find((p) => p.status?.podIP === ip);
            return !pod || !hidden(pod.metadata!.uid!, pod.metadata!.name!);
          })
          .map((a) => [a, `${a}-uuid`]),
      );
    };
  }

  test('restarted after the join limit (WorkerRestarted), while a worker the job started with that left the list is not', async () => {
    const s = setup({}, { workerJoinLimitMs: 45_000 });
    s.engine.script = (n) => (n >= 400 ? 'FINISHED' : 'RUNNING');
    const t0 = s.clock.now();
    const uidsOf = new Map<string, string[]>();
    const incarnation = (uid: string, name: string) => {
      const seen = uidsOf.get(name) ?? [];
      if (!seen.includes(uid)) uidsOf.set(name, [...seen, uid]);
      return (uidsOf.get(name) ?? []).indexOf(uid);
    };
    let merged = false;
    let cutOff = false;
    listing(s, (uid, name) => {
      const i = incarnation(uid, name);
      // worker-3 is cut off 30 s in and stays out of the list: it joined once, it is not "never joined".
      // Its node stops answering: the node controller marks its Pod not Ready.
      if (name === 'app-1-worker-3') {
        const cut = s.clock.now() - t0 > 30_000;
        if (cut && !cutOff) {
          cutOff = true;
          s.kube.update(name, (p) => {
            p.status = { ...p.status, conditions: [{ type: 'Ready', status: 'False' }] };
          });
        }
        return cut;
      }
      // worker-2's second incarnation (after its restart below) never joins; the third does.
      return name === 'app-1-worker-2' && i === 1;
    });
    // worker-2 merges back under a new UUID 20 s in: restarted (WorkerRejoined), as in the test above.
    const uuids = s.engine.uuids;
    s.engine.uuids = () => {
      const u = uuids();
      if (!u) return u;
      if (s.clock.now() - t0 > 20_000) merged = true;
      const first = uidsOf.get('app-1-worker-2')?.[0];
      const pod = s.kube.podsOf('seatunnel.apache.org/role=worker').find((p) => p.metadata?.uid === first);
      return Object.fromEntries(
        Object.entries(u).map(([a, id]) =>
          merged && pod && a.startsWith(`${pod.status?.podIP}:`) ? [a, `${id}-after-merge`] : [a, id],
        ),
      );
    };
    const outcome = await s.run();
    expect(outcome.state).toBe('SUCCEEDED');
    expect(s.engine.submits).toHaveLength(1);
    expect(s.kube.events.filter((e) => e.reason === 'WorkerRejoined').map((e) => e.message!.split(' ')[0])).toEqual([
      'app-1-worker-2',
    ]);
    const restarted = s.kube.events.filter((e) => e.reason === 'WorkerRestarted');
    expect(restarted.map((e) => e.message)).toEqual([
      expect.stringMatching(
        /^app-1-worker-2 ran 4[5-9] s without joining the cluster \(its address 10\.[0-9.]+ is not among the \d+ members the masters list\); deleted and created again \(restart 1 of at most 2\)$/,
      ),
    ]);
    // worker-2: the first incarnation force-deleted at its merge, the second at the join limit.
    const forced = s.kube.calls.filter((c) => c.op === 'deletePod' && c.name!.endsWith('(force)'));
    expect(forced.map((c) => c.name)).toEqual(['app-1-worker-2 (force)', 'app-1-worker-2 (force)']);
    expect(forced[1].at - forced[0].at).toBeGreaterThanOrEqual(45_000);
    expect(uidsOf.get('app-1-worker-2')).toHaveLength(3);
    expect(uidsOf.get('app-1-worker-3')).toHaveLength(1);
  });
});
