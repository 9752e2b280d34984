import { NumberLiteral } from './ast';

/**
 * A resolved HOCON value as plain JavaScript data. Numbers are `number`, except integers outside
 * `Number.isSafeInteger` range, which are `bigint` so they stay exact (use `stringifyJson`, not
 * `JSON.stringify`, to serialize them).
 */
export type HoconValue = string | number | bigint | boolean | null | HoconObject | HoconArray;
export interface HoconObject {
  [key: string]: HoconValue;
}
export type HoconArray = HoconValue[];

/** A substitution left as its source text (`allowUnresolved`). */
export class Placeholder {
  constructor(readonly text: string) {}
}

/**
 * Resolver output before conversion to plain data: keeps numbers as written, exact key order
 * (JavaScript objects put integer-like keys first) and unresolved placeholders.
 */
export type RValue = string | boolean | null | NumberLiteral | Placeholder | RMap | RValue[];
export type RMap = Map<string, RValue>;

export function toPlain(v: RValue): HoconValue {
  if (v instanceof NumberLiteral) return v.value;
  if (v instanceof Placeholder) return v.text;
  if (Array.isArray(v)) return v.map(toPlain);
  if (v instanceof Map) {
    const out: HoconObject = {};
    for (const [key, value] of v) setOwn(out, key, toPlain(value));
    return out;
  }
  return v;
}

/** Sets a property even when the key is `__proto__` (plain assignment would change the prototype). */
export function setOwn(obj: HoconObject, key: string, value: HoconValue): void {
  if (key === '__proto__')
    Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
  else obj[key] = value;
}

/**
 * Names a value's type for error messages — never its content: a resolved value may have come
 * from the environment (a Secret) or an included file.
 */
export function describeValue(v: RValue): string {
  if (v === null) return 'null';
  if (v instanceof Map) return 'an object';
  if (Array.isArray(v)) return 'an array';
  if (v instanceof NumberLiteral) return 'a number';
  if (v instanceof Placeholder) return `the unresolved substitution ${v.text}`;
  if (typeof v === 'boolean') return 'a boolean';
  return 'a string';
}
