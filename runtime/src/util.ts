// Small concurrency helpers.

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

export { backoffMs } from 'seatunnel-app/internal/kube/retry';

export function errorMessage(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
