// What resolving may cost (HoconLimits): recursion depth, steps of work, and the size of what it
// builds. Self-references and repeated substitutions let a few hundred bytes ask for gigabytes or
// for more recursion than the stack holds; every bound is a HoconError at the place it is crossed.

import { HoconError, type Position } from './errors';
import type { HoconLimits } from './limits';
import { Placeholder, type RMap, type RValue } from './values';

export class ResolveBudget {
  /** Recursion depth of the resolver's `field`/`value`. */
  private depth = 0;
  private steps = 0;
  /** The size of every array and object built (see `HoconLimits.maxResolvedSize`); shared ones count per use. */
  private readonly sizes = new WeakMap<object, number>();

  constructor(private readonly limits: HoconLimits) {}

  /** Runs one level of the recursion, bounded by `maxResolveDepth`. */
  nested<T>(pos: Position, fn: () => T): T {
    if (this.depth >= this.limits.maxResolveDepth) {
      throw new HoconError(
        pos,
        `resolving goes deeper than ${this.limits.maxResolveDepth} levels: substitutions refer to substitutions (or a field refers to its earlier definitions) too many times in a row`,
      );
    }
    this.depth++;
    try {
      return fn();
    } finally {
      this.depth--;
    }
  }

  /** Counts work; self-references and repeated substitutions can otherwise make it grow without bound. */
  spend(n: number, pos: Position): void {
    this.steps += n;
    if (this.steps > this.limits.maxSteps) {
      throw new HoconError(
        pos,
        `resolving takes more than ${this.limits.maxSteps} steps: substitutions, concatenations or self-references expand the configuration too much`,
      );
    }
  }

  /** Records the size of a container just built from measured parts and checks it. */
  measured<T extends RValue[] | RMap>(v: T, pos: Position): T {
    this.spend(Array.isArray(v) ? v.length : v.size, pos);
    if (this.sizeOf(v) > this.limits.maxResolvedSize) throw this.tooLarge(pos);
    return v;
  }

  /** Counts and checks a string about to be joined from parts of `length` characters in all. */
  text(length: number, pos: Position): void {
    this.spend(length, pos);
    if (1 + length > this.limits.maxResolvedSize) throw this.tooLarge(pos);
  }

  private sizeOf(v: RValue): number {
    if (typeof v === 'string') return 1 + v.length;
    if (v instanceof Placeholder) return 1 + v.text.length;
    if (Array.isArray(v) || v instanceof Map) {
      const known = this.sizes.get(v);
      if (known !== undefined) return known;
      let size = 1;
      if (Array.isArray(v)) for (const item of v) size += this.sizeOf(item);
      else for (const [key, item] of v) size += key.length + this.sizeOf(item);
      this.sizes.set(v, size);
      return size;
    }
    return 1;
  }

  private tooLarge(pos: Position): HoconError {
    return new HoconError(
      pos,
      `the resolved configuration would be larger than ${this.limits.maxResolvedSize} (values plus characters): substitutions or concatenations repeat too much`,
    );
  }
}
