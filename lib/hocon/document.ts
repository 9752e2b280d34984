import { type Node, NumberLiteral, type ObjNode, mergeObjects, nest } from './ast';
import { HoconError, type Position } from './errors';
import { renderResolved } from './json';
import { type HoconLimits, limitsWith } from './limits';
import type { IncludeReader } from './include';
import { parseHoconPath, parseRoot } from './parser';
import { type ResolveOptions, Resolver } from './resolver';
import type { UnresolvedSubstitution } from './substitution-fallback';
import { type HoconObject, type HoconValue, toPlain } from './values';

export interface ParseOptions {
  /** Name of the source, used in error messages and passed to `readInclude` as `from`. */
  readonly filename?: string;
  /**
   * Reads included files. Without it, an `include` statement is an error. `url(...)` and
   * `classpath(...)` includes are never supported. See `fileIncludeReader` in `./file-include`
   * for one that reads the file system.
   */
  readonly readInclude?: IncludeReader;
  /** Tighter or looser bounds than `DEFAULT_LIMITS` (they also apply when resolving the document). */
  readonly limits?: Partial<HoconLimits>;
}

/** The result of resolving a document, with what could not be resolved. */
export interface ResolveReport {
  readonly value: HoconObject;
  /**
   * Substitutions that found nothing: optional ones (their fields/elements were left out) and,
   * with `allowUnresolved`, required ones (left as their text). In resolution order.
   */
  readonly unresolved: readonly UnresolvedSubstitution[];
  /** Environment variables that supplied a value, by name. */
  readonly envUsed: readonly string[];
  /**
   * The value as JSON with numbers exactly as written in the source (`1.0` stays `1.0`, 64-bit
   * ids stay exact) and keys in source order, even integer-like keys that JavaScript objects
   * would reorder.
   */
  toJson(indent?: number | string): string;
}

/**
 * Parses HOCON text. Substitutions are not resolved yet: apply overrides with `withOverride`,
 * then call `resolve`.
 * @throws HoconError on syntax errors, on failed includes and when a limit is exceeded.
 */
export function parseHocon(text: string, options: ParseOptions = {}): HoconDocument {
  const limits = limitsWith(options.limits);
  return new HoconDocument(
    parseRoot(text, options.filename, { readInclude: options.readInclude, limits, spent: { chars: 0 } }),
    limits,
  );
}

/** A parsed, not yet resolved HOCON document. Immutable: `withOverride` returns a new document. */
export class HoconDocument {
  /** @internal Use `parseHocon`. */
  constructor(
    private readonly root: ObjNode,
    private readonly limits: HoconLimits,
  ) {}

  /**
   * Returns a document in which `path` (a HOCON path: `a.b`, `a."b.c".d`) is set to `value`, as
   * if `path = value` were appended to the source: an object value merges with an existing
   * object, anything else replaces. Substitutions anywhere in the document see the new value.
   * Strings are taken literally (not parsed as HOCON), as with `-Dkey=value`.
   * @throws HoconError for an invalid path; TypeError for values HOCON cannot hold (NaN, undefined, ...).
   */
  withOverride(path: string, value: HoconValue): HoconDocument {
    const pos: Position = { filename: `<override ${path}>`, line: 1, column: 1 };
    const segments = parseHoconPath(path, '<override>');
    if (segments.length > this.limits.maxDepth)
      throw new HoconError(pos, `the path has more than ${this.limits.maxDepth} segments`);
    const patch: ObjNode = { t: 'obj', fields: new Map([[segments[0], nest(segments, toNode(value, pos), pos)]]), pos };
    return new HoconDocument(mergeObjects(this.root, patch), this.limits);
  }

  /** `withOverride` for each entry, in order. */
  withOverrides(
    overrides: Readonly<Record<string, HoconValue>> | Iterable<readonly [string, HoconValue]>,
  ): HoconDocument {
    const entries = Symbol.iterator in overrides ? overrides : Object.entries(overrides);
    return [...entries].reduce<HoconDocument>((doc, [path, value]) => doc.withOverride(path, value), this);
  }

  /**
   * Resolves all substitutions and returns the configuration as plain data.
   * @throws HoconError naming the substitution and its position if a required one cannot be
   * resolved (unless `allowUnresolved`), on cycles, on type clashes in concatenations, and when
   * resolving exceeds a limit (`HoconLimits`: depth, steps, resolved size).
   */
  resolve(options: ResolveOptions = {}): HoconObject {
    return this.resolveWithReport(options).value;
  }

  /** Like `resolve`, also reporting unresolved substitutions and offering exact JSON output. */
  resolveWithReport(options: ResolveOptions = {}): ResolveReport {
    const resolver = new Resolver(this.root, options, { ...this.limits, ...options.limits });
    const resolved = resolver.resolveRoot();
    return {
      value: toPlain(resolved) as HoconObject,
      unresolved: [...resolver.unresolved.values()],
      envUsed: [...resolver.envUsed],
      toJson: (indent) => renderResolved(resolved, indent),
    };
  }
}

function toNode(value: HoconValue, pos: Position): Node {
  const lit = (v: string | boolean | null | NumberLiteral, text: string): Node => ({ t: 'lit', value: v, text, pos });
  switch (typeof value) {
    case 'string':
      return lit(value, value);
    case 'boolean':
      return lit(value, String(value));
    case 'number':
      if (!Number.isFinite(value)) throw new TypeError(`cannot use ${value} as a HOCON value`);
      return lit(new NumberLiteral(String(value), value), String(value));
    case 'bigint':
      return lit(new NumberLiteral(value.toString(), value), value.toString());
    case 'object': {
      if (value === null) return lit(null, 'null');
      if (Array.isArray(value)) return { t: 'arr', items: value.map((v) => toNode(v, pos)), pos };
      const proto: unknown = Object.getPrototypeOf(value);
      if (proto !== Object.prototype && proto !== null)
        throw new TypeError('override values must be plain objects, arrays or primitives');
      return { t: 'obj', fields: new Map(Object.entries(value).map(([k, v]) => [k, toNode(v, pos)])), pos };
    }
    default:
      throw new TypeError(`cannot use a ${typeof value} as a HOCON value`);
  }
}
