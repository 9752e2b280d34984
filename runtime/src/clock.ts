// Time as the runtime sees it: a monotonic clock for deadlines and sleeps, and the wall clock for
// what is written into the Job. Unit tests drive the lifecycle with a fake one.

export interface Clock {
  /** Monotonic milliseconds; only differences mean something. */
  now(): number;
  /** Wall-clock time, for annotations and Events. */
  wallTime(): Date;
  /** Resolves after `ms`, or early (without error) when `signal` aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const systemClock: Clock = {
  now: () => performance.now(),
  wallTime: () => new Date(),
  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      if (signal?.aborted) return resolve();
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, Math.max(0, ms));
      signal?.addEventListener('abort', done, { once: true });
    });
  },
};
