// Zeta 2.3.8 makes its resource manager on the first /overview and registers the workers that have
// joined by then; a worker that joins later waits for its own heartbeat (every 5 s). The runtime
// therefore asks /overview only once Hazelcast lists every member (issue 30 item 1).
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

test('members that never join: StartupTimeout says how many joined', async () => {
  const s = setup({ startupTimeoutMillis: 20_000 });
  s.engine.joined = () => 2;
  const outcome = await s.run();
  expect(outcome.reason).toBe('StartupTimeout');
  expect(outcome.message).toContain('2/4 members joined the cluster');
  expect(s.engine.joinedAtFirstOverview).toBeUndefined();
});
