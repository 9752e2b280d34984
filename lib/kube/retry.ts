// The one retry helper for idempotent Kubernetes calls (reads, deletes by uid, patches that set a
// value): retry while the error is transient (no answer, 429, 5xx), with exponential backoff and
// jitter, until the attempts or the time budget run out. Sleeping and the clock are
// injectable, so the runtime's fake clock drives it in unit tests.

import { isTransient } from './errors';

/** Exponential backoff with jitter: attempt 0 → between base/2 and base, doubling up to `max`. */
export function backoffMs(attempt: number, base = 200, max = 5000, random: () => number = Math.random): number {
  const cap = Math.min(max, base * 2 ** Math.min(attempt, 20));
  return Math.round(cap / 2 + (random() * cap) / 2);
}

export interface RetryOptions {
  /** Most attempts in all (default 3). */
  readonly attempts?: number;
  /** No new attempt starts after this many ms since the first (default: no budget); a function is asked anew after each failure. */
  readonly budgetMs?: number | (() => number);
  /** Backoff base and cap in ms (default 200, 2000). */
  readonly baseMs?: number;
  readonly maxMs?: number;
  /** Which errors are worth another attempt (default: isTransient). */
  readonly retryable?: (e: unknown) => boolean;
  /** Called before each wait: for logging. */
  readonly onRetry?: (e: unknown, attempt: number, waitMs: number) => void;
  readonly sleep?: (ms: number) => Promise<void>;
  readonly now?: () => number;
  /** Once aborted, no new attempt starts: the last failure is rethrown (a sleep may end early on it). */
  readonly signal?: AbortSignal;
}

export async function withRetry<T>(fn: (attempt: number) => Promise<T>, opts: RetryOptions = {}): Promise<T> {
  const attempts = opts.attempts ?? 3;
  const retryable = opts.retryable ?? isTransient;
  const now = opts.now ?? Date.now;
  const sleep = opts.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const started = now();
  for (let attempt = 0; ; attempt++) {
    try {
      return await fn(attempt);
    } catch (e) {
      const budget = typeof opts.budgetMs === 'function' ? opts.budgetMs() : opts.budgetMs;
      const left = budget === undefined ? Infinity : started + budget - now();
      if (!retryable(e) || attempt + 1 >= attempts || left <= 0 || opts.signal?.aborted) throw e;
      // The last attempt lands on the budget's end rather than past it.
      const wait = Math.min(backoffMs(attempt, opts.baseMs ?? 200, opts.maxMs ?? 2000), Math.max(1, left));
      opts.onRetry?.(e, attempt, wait);
      await sleep(wait);
    }
  }
}
