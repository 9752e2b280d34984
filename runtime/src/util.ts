// Small concurrency helpers.

import type { Clock } from './clock';

/** Holds the first value it is given; later ones are ignored. */
export class Latch<T> {
  private resolveFn!: (v: T) => void;
  private settled: { value: T } | undefined;
  readonly promise: Promise<T>;

  constructor() {
    this.promise = new Promise<T>((r) => (this.resolveFn = r));
  }

  /** Returns true if this call set the value. */
  set(value: T): boolean {
    if (this.settled) return false;
    this.settled = { value };
    this.resolveFn(value);
    return true;
  }

  get value(): T | undefined {
    return this.settled?.value;
  }

  get isSet(): boolean {
    return this.settled !== undefined;
  }
}

/** Runs `fn` over `items` with at most `limit` calls in flight; results in input order. */
export async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const lanes = Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i], i);
    }
  });
  await Promise.all(lanes);
  return results;
}

/** Exponential backoff with full jitter: attempt 0 → up to `base`, doubling up to `max`. */
export function backoffMs(attempt: number, base = 200, max = 5000, random: () => number = Math.random): number {
  const cap = Math.min(max, base * 2 ** Math.min(attempt, 20));
  return Math.round(cap / 2 + (random() * cap) / 2);
}

export interface RetryOptions {
  readonly clock: Clock;
  /** Whether a failure is worth another attempt; any other failure is rethrown at once. */
  readonly retryable: (e: unknown) => boolean;
  /** Backoff (see backoffMs) as [base, max] milliseconds. */
  readonly backoff: readonly [number, number];
  /** The last failure is rethrown once this long has passed since the first attempt… */
  readonly budgetMs?: number;
  /** … or after this many attempts. */
  readonly attempts?: number;
  /** Wakes a backoff early; the failure is then rethrown. */
  readonly signal?: AbortSignal;
  readonly onRetry?: (e: unknown, waitMs: number) => void;
}

/**
 * Calls `fn` until it resolves, waiting with backoff between attempts; rethrows the last failure
 * when it is not retryable or the budget is spent. Generic on purpose (a clock and a predicate):
 * the callers decide what a failure means.
 */
export async function retry<T>(fn: (attempt: number) => Promise<T>, o: RetryOptions): Promise<T> {
  const started = o.clock.now();
  for (let attempt = 0; ; attempt++) {
    try {
      return await fn(attempt);
    } catch (e) {
      const left = o.budgetMs === undefined ? Infinity : started + o.budgetMs - o.clock.now();
      if (!o.retryable(e) || o.signal?.aborted || left <= 0 || (o.attempts !== undefined && attempt + 1 >= o.attempts)) throw e;
      const wait = Math.min(backoffMs(attempt, o.backoff[0], o.backoff[1]), Math.max(1, left));
      o.onRetry?.(e, wait);
      await o.clock.sleep(wait, o.signal);
    }
  }
}

/** `[host]:port` for IPv6 addresses, `host:port` otherwise. */
export function hostPort(host: string, port: number): string {
  return `${host.includes(':') ? `[${host}]` : host}:${port}`;
}

export function errorMessage(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
