// What a substitution becomes when the configuration has no value at its path: the environment's
// value, nothing (`${?x}`), its own text (`allowUnresolved`), or an error that says why — a cycle,
// a self-reference with nothing earlier, or a missing path. It also keeps the record the caller
// reports: the substitutions left unresolved and the environment variables read.

import type { SubstNode } from './ast';
import { HoconError, formatPosition } from './errors';
import { formatHoconPath } from './path';
import { Placeholder, type RValue } from './values';

/** A substitution that found no value in the configuration or the environment. */
export interface UnresolvedSubstitution {
  /** The path looked up, e.g. `DB_HOST` or `a."b.c"`. */
  readonly path: string;
  /** `${?...}`: its field or array element was left out instead. */
  readonly optional: boolean;
  /** As written, e.g. `${?DB_HOST}`. */
  readonly text: string;
  readonly filename: string | undefined;
  readonly line: number;
  readonly column: number;
}

/** An optional substitution found nothing: the field, element or concatenation part disappears. */
export const UNDEF = Symbol('undefined');

/**
 * Thrown when resolution re-enters a substitution or concatenation that is still being resolved;
 * the innermost substitution catches it and treats its path as missing (spec: an optional
 * substitution in a cycle is undefined). `chain` is the substitutions involved, for the message.
 */
export class Cycle extends Error {
  constructor(readonly chain: readonly SubstNode[]) {
    super('substitution cycle');
  }
}

/** Why the configuration has no value: nothing at the path, only the field being defined, or a cycle. */
export type Missing = 'absent' | 'self' | Cycle;

/** A substitution for messages: as written, or by kind in an included file (its text may be a secret). */
export function shown(s: SubstNode): string {
  return s.pos.included ? 'a substitution' : s.text;
}

export class SubstitutionFallback {
  readonly unresolved = new Map<SubstNode, UnresolvedSubstitution>();
  readonly envUsed = new Set<string>();

  constructor(
    private readonly env: Readonly<Record<string, string | undefined>> | undefined,
    private readonly allowUnresolved: boolean,
  ) {}

  /** The value of `s`, whose path the configuration does not give (`why`). */
  valueOf(s: SubstNode, why: Missing): RValue | typeof UNDEF {
    const name = s.path.slice(s.prefixLength).join('.');
    const { env } = this;
    const value = env && Object.prototype.hasOwnProperty.call(env, name) ? env[name] : undefined;
    if (value !== undefined) {
      this.envUsed.add(name);
      return value;
    }
    if (s.optional) return this.missing(s);
    if (why instanceof Cycle) {
      const chain = [...why.chain, why.chain[0] ?? s]
        .map((x) => `${shown(x)} at ${formatPosition(x.pos)}`)
        .join(' -> ');
      throw new HoconError(s.pos, `cycle in substitutions: ${chain}`);
    }
    if (this.allowUnresolved && !s.mustBeObject) {
      this.missing(s);
      return new Placeholder(s.text);
    }
    const reason =
      s.mustBeObject && this.allowUnresolved
        ? 'it is concatenated with an object, so it cannot be left unresolved'
        : why === 'self'
          ? 'it refers to the field being defined, which has no earlier value to fall back on'
          : `no value at ${s.pos.included ? 'its path' : JSON.stringify(name)} in the configuration`;
    const variable = s.pos.included ? 'of its name' : JSON.stringify(name);
    throw new HoconError(
      s.pos,
      `could not resolve substitution ${shown(s)}: ${reason}, and no environment variable ${variable} is set`,
    );
  }

  private missing(s: SubstNode): typeof UNDEF {
    this.unresolved.set(s, {
      path: formatHoconPath(s.path.slice(s.prefixLength)),
      optional: s.optional,
      text: s.text,
      filename: s.pos.filename,
      line: s.pos.line,
      column: s.pos.column,
    });
    return UNDEF;
  }
}
