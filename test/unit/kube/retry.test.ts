// The one retry helper: transient errors are retried with backoff until attempts or the time
// budget run out; anything else fails at once.
import { KubeApiError, withRetry } from '../../../lib/kube';

function script(errors: Error[], value = 'ok') {
  let calls = 0;
  return {
    fn: async () => {
      const e = errors[calls++];
      if (e) throw e;
      return value;
    },
    get calls() {
      return calls;
    },
  };
}

const virtual = () => {
  let t = 0;
  const waits: number[] = [];
  return { now: () => t, sleep: async (ms: number) => void (waits.push(ms), (t += ms)), waits };
};

test('transient errors (no answer, 429, 5xx) are retried until the call succeeds', async () => {
  const s = script([
    new KubeApiError(0, 'ECONNRESET', 'reset'),
    new KubeApiError(429, 'TooManyRequests', 'slow down'),
    new KubeApiError(503, 'ServiceUnavailable', 'x'),
  ]);
  const clock = virtual();
  expect(await withRetry(s.fn, { attempts: 4, ...clock })).toBe('ok');
  expect(s.calls).toBe(4);
  expect(clock.waits).toHaveLength(3);
});

test('a non-transient error fails at once; the last transient one is rethrown when attempts run out', async () => {
  const notFound = new KubeApiError(404, 'NotFound', 'gone');
  const s = script([notFound]);
  await expect(withRetry(s.fn, virtual())).rejects.toBe(notFound);
  expect(s.calls).toBe(1);
  const down = new KubeApiError(503, 'ServiceUnavailable', 'down');
  const t = script([down, down, down, down]);
  await expect(withRetry(t.fn, { attempts: 3, ...virtual() })).rejects.toBe(down);
  expect(t.calls).toBe(3);
});

test('the time budget stops retrying even with attempts left; a budget function is asked after each failure', async () => {
  const down = new KubeApiError(0, 'ETIMEDOUT', 'slow');
  const clock = virtual();
  const s = script(Array.from({ length: 100 }, () => down));
  let budget = 10_000;
  await expect(
    withRetry(s.fn, {
      attempts: Infinity,
      budgetMs: () => budget,
      baseMs: 1000,
      maxMs: 1000,
      onRetry: () => (s.calls === 3 ? (budget = 0) : undefined),
      ...clock,
    }),
  ).rejects.toBe(down);
  expect(s.calls).toBe(4);
});
