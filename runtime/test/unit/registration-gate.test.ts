// Zeta 2.3.8 makes its resource manager on the first /overview and registers the workers that have
// joined by then; a worker that joins later waits for its own heartbeat (every 5 s). The runtime
// therefore asks /overview only once Hazelcast lists every member (issue 30 item 1).
import { JOIN_WAIT_MS } from '../../src/steps/barrier';
import { running } from './fakes';
import { setup } from './lifecycle-setup';

/** n member addresses, for the tests that only count members. */
const addresses = (n: number) => Array.from({ length: n }, (_, i) => `10.9.0.${i + 1}:5801`);

test('the first /overview waits until the master and every worker have joined the cluster', async () => {
  const s = setup();
  // The workers' containers run at once, but they join Hazelcast 3 s later.
  const t0 = s.clock.now();
  s.engine.joined = () => (s.clock.now() - t0 < 3000 ? addresses(1) : addresses(4));
  s.engine.script = () => 'FINISHED';
  const outcome = await s.run();
  expect(outcome.state).toBe('SUCCEEDED');
  expect(s.engine.joinedAtFirstOverview).toBe(4);
  expect(s.engine.submits).toHaveLength(1);
  expect(s.log.lines.some((l) => /asking Zeta for its workers/.test(l) && /joined=4/.test(l))).toBe(true);
});

test('a member list that cannot be read does not hold the workers back: /overview is asked at once', async () => {
  const s = setup();
  s.engine.script = () => 'FINISHED';
  const outcome = await s.run();
  expect(outcome.state).toBe('SUCCEEDED');
  expect(s.engine.joinedAtFirstOverview).toBeUndefined();
  expect(s.log.lines.some((l) => /asking Zeta for its workers/.test(l) && /joined=unknown/.test(l))).toBe(true);
});

test('members that never all join (an HA master gone meanwhile): /overview is asked after JOIN_WAIT_MS anyway', async () => {
  const s = setup();
  s.engine.joined = () => addresses(2);
  s.engine.script = () => 'FINISHED';
  const asked: number[] = [];
  const overview = s.engine.overview.bind(s.engine);
  s.engine.overview = async () => {
    asked.push(s.clock.now());
    return overview();
  };
  const t0 = s.clock.now();
  const outcome = await s.run();
  expect(outcome.state).toBe('SUCCEEDED');
  expect(s.engine.joinedAtFirstOverview).toBe(2);
  expect(asked[0] - t0).toBeGreaterThanOrEqual(JOIN_WAIT_MS);
});

test('members still missing when the deadline comes: StartupTimeout says how many joined', async () => {
  const s = setup({ startupTimeoutMillis: 5000 });
  s.engine.joined = () => addresses(2);
  const outcome = await s.run();
  expect(outcome.reason).toBe('StartupTimeout');
  expect(outcome.message).toContain('2/4 members joined the cluster');
  expect(s.engine.joinedAtFirstOverview).toBeUndefined();
});

// A worker whose JVM runs but never joins (Hazelcast's joiner blacklisted the master while it was
// still starting; seen in a cold CI run): restarted after application.worker-join-timeout-millis, at most twice.
describe('a worker that runs but never joins the cluster', () => {
  /** The engine lists and registers every Running worker except those whose address is in `stuck`. */
  function withStuck(s: ReturnType<typeof setup>, stuck: (ip: string) => boolean) {
    const ipOf = (address: string) => address.slice(0, address.lastIndexOf(':'));
    s.engine.joined = () => s.engine.members().filter((a) => !stuck(ipOf(a)));
    s.engine.register = (pods) =>
      pods.filter(
        (p) => p.status?.phase === 'Running' && !p.metadata?.deletionTimestamp && !stuck(p.status.podIP ?? ''),
      ).length;
  }
  const podOf = (s: ReturnType<typeof setup>, name: string) =>
    s.kube.podsOf('seatunnel.apache.org/role=worker').find((p) => p.metadata?.name === name)!;

  test('is deleted and created again after application.worker-join-timeout-millis; the new one joins, the job is submitted once', async () => {
    const s = setup({ workerJoinTimeoutMillis: 30_000 });
    let stuckIp: string | undefined;
    s.kube.onCreate = (pod) => {
      s.kube.update(pod.metadata!.name!, running);
      // Only the first incarnation of worker 1 is stuck.
      if (pod.metadata!.name === 'app-1-worker-1' && stuckIp === undefined)
        stuckIp = podOf(s, 'app-1-worker-1').status!.podIP;
    };
    withStuck(s, (ip) => ip === stuckIp);
    s.engine.script = () => 'FINISHED';
    const t0 = s.clock.now();
    const outcome = await s.run();
    expect(outcome.state).toBe('SUCCEEDED');
    expect(s.engine.submits).toHaveLength(1);
    const restarted = s.kube.events.filter((e) => e.reason === 'WorkerRestarted');
    expect(restarted).toHaveLength(1);
    expect(restarted[0].type).toBe('Warning');
    expect(restarted[0].message).toMatch(
      new RegExp(
        `^app-1-worker-1 ran 3\\d s without joining the cluster \\(its address ${stuckIp!.replace(/\./g, '\\.')} is not among the 3 members the masters list\\); deleted and created again \\(restart 1 of at most 2\\)$`,
      ),
    );
    // The stuck incarnation was force-deleted (the others only by the cleanup, after the job), and
    // the submission came after the new one registered.
    const deletes = s.kube.calls.filter((c) => c.op === 'deletePod');
    expect(deletes[0].name).toBe('app-1-worker-1 (force)');
    expect(deletes[0].at).toBeLessThan(s.engine.submits[0].at);
    expect(deletes.slice(1).every((c) => c.at >= s.engine.submits[0].at && !c.name!.endsWith('(force)'))).toBe(true);
    expect(s.kube.calls.filter((c) => c.op === 'createPod')).toHaveLength(4);
    expect(s.engine.submits[0].registeredAtSubmit).toBe(3);
    expect(s.engine.submits[0].at - t0).toBeGreaterThanOrEqual(30_000);
  });

  test('one that joins late but within the limit is left alone', async () => {
    const s = setup({ workerJoinTimeoutMillis: 30_000 });
    const t0 = s.clock.now();
    withStuck(s, () => s.clock.now() - t0 < 20_000);
    s.engine.script = () => 'FINISHED';
    const outcome = await s.run();
    expect(outcome.state).toBe('SUCCEEDED');
    expect(s.kube.events.filter((e) => e.reason === 'WorkerRestarted')).toHaveLength(0);
    expect(s.kube.calls.filter((c) => c.op === 'createPod')).toHaveLength(3);
    expect(s.kube.calls.filter((c) => c.op === 'deletePod' && c.at < s.engine.submits[0].at)).toHaveLength(0);
  });

  test('nothing is judged while no master lists its cluster', async () => {
    const s = setup({ startupTimeoutMillis: 120_000, workerJoinTimeoutMillis: 30_000 });
    s.engine.joined = () => undefined;
    s.engine.register = () => 0;
    const outcome = await s.run();
    expect(outcome.reason).toBe('StartupTimeout');
    expect(s.kube.events.filter((e) => e.reason === 'WorkerRestarted')).toHaveLength(0);
  });

  test('one that never joins is restarted twice, then the startup timeout names it', async () => {
    const s = setup({ startupTimeoutMillis: 200_000, workerJoinTimeoutMillis: 30_000 });
    const stuck = new Set<string>();
    s.kube.onCreate = (pod) => {
      s.kube.update(pod.metadata!.name!, running);
      if (pod.metadata!.name === 'app-1-worker-2') stuck.add(podOf(s, 'app-1-worker-2').status!.podIP!);
    };
    withStuck(s, (ip) => stuck.has(ip));
    const outcome = await s.run();
    expect(outcome.reason).toBe('StartupTimeout');
    expect(outcome.message).toContain('2/3 registered with Zeta');
    expect(outcome.message).toContain('running but not joined: app-1-worker-2 (restarted 2 times)');
    expect(
      s.kube.events.filter((e) => e.reason === 'WorkerRestarted').map((e) => e.message!.match(/restart \d/)![0]),
    ).toEqual(['restart 1', 'restart 2']);
    expect(stuck.size).toBe(3);
    expect(s.engine.submits).toHaveLength(0);
  });
});
