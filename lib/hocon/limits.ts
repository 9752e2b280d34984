/**
 * Bounds on what reading and resolving a document may cost. A HOCON file is small, but includes,
 * substitutions and self-references let a few hundred bytes ask for gigabytes (`b = ${a} ${a}`,
 * doubled 27 times) or for more recursion than the stack holds. Exceeding a bound is a
 * `HoconError` at the place where it happened, like any other configuration error.
 */
export interface HoconLimits {
  /** Largest source: the document, and each included file (characters; readers cap bytes alike). */
  readonly maxSourceChars: number;
  /** The document and all its includes together (characters). */
  readonly maxTotalSourceChars: number;
  /** Deepest nesting of objects and arrays, counting each segment of a dotted key as a level. */
  readonly maxDepth: number;
  /** Deepest recursion while resolving (substitutions referring to substitutions, self-references, nesting). */
  readonly maxResolveDepth: number;
  /** Work while resolving: values visited plus elements, fields and characters copied. */
  readonly maxSteps: number;
  /** Size of the resolved value: one per value plus one per character of strings and keys. */
  readonly maxResolvedSize: number;
}

export const DEFAULT_LIMITS: HoconLimits = {
  maxSourceChars: 1024 * 1024,
  maxTotalSourceChars: 4 * 1024 * 1024,
  maxDepth: 100,
  maxResolveDepth: 1000,
  // Real configurations take about one step per 4 characters and resolve to about their own size;
  // these leave ample room (a 4 MiB document takes 1 M steps) and still end any expansion soon.
  maxSteps: 2_000_000,
  maxResolvedSize: 8 * 1024 * 1024,
};

export function limitsWith(overrides: Partial<HoconLimits> | undefined): HoconLimits {
  return overrides ? { ...DEFAULT_LIMITS, ...overrides } : DEFAULT_LIMITS;
}

/** "1 MiB" for round sizes, the plain number otherwise. */
export function formatSize(n: number): string {
  if (n >= 1024 * 1024 && n % (1024 * 1024) === 0) return `${n / (1024 * 1024)} MiB`;
  if (n >= 1024 && n % 1024 === 0) return `${n / 1024} KiB`;
  return String(n);
}
