// Small concurrency helpers.

import { withRetry } from 'seatunnel-app/runtime-support';
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
export async function mapLimit<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
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

export { backoffMs } from 'seatunnel-app/runtime-support';

export interface RetryOptions {
  readonly clock: Clock;
  /** Whether a failure is worth another attempt; any other failure is rethrown at once. */
  readonly retryable: (e: unknown) => boolean;
  /** Backoff (see backoffMs) as [base, max] milliseconds. */
  readonly backoff: readonly [number, number];
  /** The last failure is rethrown once this long has passed since the first attempt… */
  readonly budgetMs?: number;
  /** … or after this many attempts (default: unlimited within the budget). */
  readonly attempts?: number;
  /** Wakes a backoff early; the failure is then rethrown. */
  readonly signal?: AbortSignal;
  readonly onRetry?: (e: unknown, waitMs: number) => void;
}

/** The shared retry helper (lib/kube/retry.ts) driven by the runtime's clock, so unit tests' fake time runs it. */
export function retry<T>(fn: (attempt: number) => Promise<T>, o: RetryOptions): Promise<T> {
  return withRetry(fn, {
    attempts: o.attempts ?? Infinity,
    budgetMs: o.budgetMs,
    baseMs: o.backoff[0],
    maxMs: o.backoff[1],
    retryable: o.retryable,
    signal: o.signal,
    now: () => o.clock.now(),
    sleep: (ms) => o.clock.sleep(ms, o.signal),
    onRetry: o.onRetry && ((e, _attempt, wait) => o.onRetry!(e, wait)),
  });
}

export function errorMessage(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
