// Polling with a deadline and an error that says what was awaited and what was last seen.

import { inspect } from 'node:util';

export interface WaitOptions {
  /** What is awaited, for the error message, e.g. "Pod ns/p to be Running". */
  description: string;
  timeoutMs?: number;
  intervalMs?: number;
  /** Called before every attempt; throw to abort early (e.g. a supervised process died). */
  guard?: () => void;
}

export class WaitTimeoutError extends Error {}

/**
 * Calls `probe` until it returns something other than undefined/false, and returns that. Errors
 * thrown by `probe` count as "not yet" (the last one is reported on timeout); errors thrown by
 * `guard` abort immediately.
 */
export async function waitFor<T>(
  probe: () => Promise<T | undefined | false> | T | undefined | false,
  opts: WaitOptions,
): Promise<T> {
  const timeoutMs = opts.timeoutMs ?? 60_000;
  const intervalMs = opts.intervalMs ?? 250;
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    opts.guard?.();
    try {
      const v = await probe();
      if (v !== undefined && v !== false) return v;
      lastError = undefined;
    } catch (e) {
      lastError = e;
    }
    if (Date.now() >= deadline) {
      const detail =
        lastError instanceof Error
          ? `; last error: ${lastError.message}`
          : lastError !== undefined
            ? `; last error: ${inspect(lastError)}`
            : '';
      throw new WaitTimeoutError(`timed out after ${timeoutMs} ms waiting for ${opts.description}${detail}`);
    }
    await new Promise((r) => setTimeout(r, Math.min(intervalMs, Math.max(0, deadline - Date.now()))));
  }
}
