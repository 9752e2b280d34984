// Zeta 2.3.8 makes its resource manager on the first /overview and registers the workers that have
// joined by then; a worker that joins later waits for its own heartbeat (every 5 s). The runtime
// therefore asks /overview only once Hazelcast lists every member (issue 30 item 1).
import { JOIN_WAIT_MS } from '../../src/steps/barrier';
import { setup } from './lifecycle-setup';

test('the first /overview waits until the master and every worker have joined the cluster', async () => {
  const s = setup();
  // The workers' containers run at once, but they join Hazelcast 3 s later.
  const t0 = s.clock.now();
  s.engine.joined = () => (s.clock.now() - t0 < 3000 ? 1 : 4);
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
  s.engine.joined = () => 2;
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
  s.engine.joined = () => 2;
  const outcome = await s.run();
  expect(outcome.reason).toBe('StartupTimeout');
  expect(outcome.message).toContain('2/4 members joined the cluster');
  expect(s.engine.joinedAtFirstOverview).toBeUndefined();
});
