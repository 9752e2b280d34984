// The Kubernetes API server goes away while the job runs (a control-plane upgrade or restart): the
// job is Zeta's business and keeps running; the runtime waits as long as
// application.api-outage-tolerance-millis, then its watches resume and the annotations and Events
// catch up. Only an outage longer than the tolerance ends the application (ApiUnavailable).
import { ANNOTATIONS } from 'seatunnel-app/runtime-support';
import { SEL, setup } from './lifecycle-setup';

const MIN = 60_000;

/** The API server away from the moment the job runs, for `forMs`. */
function outageWhileRunning(s: ReturnType<typeof setup>, forMs: number) {
  let from: number | undefined;
  return {
    get from() {
      return from;
    },
    step: () => {
      if (from === undefined && s.engine.submits.length === 1 && s.kube.annotations[ANNOTATIONS.phase] === 'Running') {
        from = s.clock.now();
        s.kube.goDown();
      } else if (from !== undefined && s.kube.down && s.clock.now() - from >= forMs) s.kube.comeBack();
    },
  };
}

test.each([
  ['one local master', {}],
  ['HA', { haEnabled: true, haMasters: 2, checkpointPvc: 'ckpt' }],
] as const)(
  '%s: a streaming job runs through a 5 minute outage; nothing fails, the story catches up',
  async (_n, props) => {
    const s = setup({ ...props });
    s.kube.statefulSet = { metadata: { name: 'app-1-master' }, status: { replicas: 2, readyReplicas: 2 } };
    // Runs until cancelled, well past the outage.
    s.engine.script = () => 'RUNNING';
    const outage = outageWhileRunning(s, 5 * MIN);
    let statusDuring: string | undefined;
    const out = await s.run(() => {
      outage.step();
      if (s.kube.down) s.engine.status = 'RUNNING';
      // Ten minutes in, well after the API is back: the job is cancelled as a user would.
      if (outage.from !== undefined && !s.kube.down && s.clock.now() - outage.from > 10 * MIN && !statusDuring) {
        statusDuring = s.kube.annotations[ANNOTATIONS.phase] ?? 'none';
        s.kube.annotateJob(ANNOTATIONS.cancelRequested, 'true');
      }
    });
    expect(statusDuring).toBe('Running');
    expect(out).toMatchObject({ state: 'CANCELED', reason: 'Terminated' });
    expect(s.engine.submits).toHaveLength(1);
    expect(s.kube.podsOf(SEL)).toEqual([]);
    expect(s.log.lines.join('\n')).not.toMatch(/ApiUnavailable/);
  },
);

test('a batch job that finished during the outage ends SUCCEEDED once the API answers: workers removed, the end recorded', async () => {
  const s = setup();
  let polls = 0;
  s.engine.script = () => (++polls > 20 && s.kube.down ? 'FINISHED' : 'RUNNING');
  const outage = outageWhileRunning(s, 3 * MIN);
  const out = await s.run(() => outage.step());
  expect(out).toMatchObject({ state: 'SUCCEEDED', reason: 'JobFinished', exitCode: 0 });
  expect(s.kube.podsOf(SEL)).toEqual([]);
  expect(s.kube.annotations[ANNOTATIONS.phase]).toBe('Succeeded');
  // Learnt during the outage, written after it.
  expect(s.kube.annotations[ANNOTATIONS.zetaJobStatus]).toBe('FINISHED');
  expect(s.kube.events.map((e) => e.reason)).toContain('Succeeded');
  // It ended once the API was back: the deletes could not happen earlier.
  const lastDelete = Math.max(...s.kube.ops('deletePod').map((c) => c.at));
  expect(lastDelete - outage.from!).toBeGreaterThanOrEqual(3 * MIN);
});
