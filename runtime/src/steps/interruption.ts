// The first ending of the application (a failure, SIGTERM, a cancel). Everything that waits — a
// sleep, an API call, the engine — races it, so the lifecycle moves on to cleanup at once.

import type { Clock } from '../clock';
import type { RuntimeFailure } from '../outcome';
import { Latch } from '../util';

export class Interruption {
  private readonly latch = new Latch<RuntimeFailure>();
  private readonly aborted = new AbortController();

  constructor(private readonly clock: Clock) {}

  /** Aborted with the first interruption. */
  get signal(): AbortSignal {
    return this.aborted.signal;
  }

  get value(): RuntimeFailure | undefined {
    return this.latch.value;
  }

  get isSet(): boolean {
    return this.latch.isSet;
  }

  /** Returns true if this was the first interruption (later ones are ignored). */
  set(f: RuntimeFailure): boolean {
    if (!this.latch.set(f)) return false;
    this.aborted.abort();
    return true;
  }

  throwIfSet(): void {
    const f = this.latch.value;
    if (f) throw f;
  }

  /** Sleeps `ms`, waking early on an interruption. */
  pause(ms: number): Promise<void> {
    return this.clock.sleep(ms, this.signal);
  }

  /** Races `p` against the first interruption; `p`'s own late rejection is swallowed. */
  guard<T>(p: Promise<T>): Promise<T> {
    p.catch(() => undefined);
    const signal = this.signal;
    // set() fills the latch before it aborts: once the signal has fired, the value is there.
    if (signal.aborted) return Promise.reject(this.latch.value!);
    return new Promise<T>((resolve, reject) => {
      const onAbort = () => reject(this.latch.value!);
      signal.addEventListener('abort', onAbort, { once: true });
      p.then(
        (v) => {
          signal.removeEventListener('abort', onAbort);
          resolve(v);
        },
        (e: unknown) => {
          signal.removeEventListener('abort', onAbort);
          reject(e);
        },
      );
    });
  }
}
