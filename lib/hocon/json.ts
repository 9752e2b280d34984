import { NumberLiteral } from './ast';
import { type HoconValue, Placeholder, type RValue } from './values';

/**
 * Serializes a resolved value as JSON, like `JSON.stringify(value, null, indent)` except that
 * bigint is written as its exact digits (JSON has no size limit on numbers; Zeta reads 64-bit
 * job ids from it). Throws a TypeError for values JSON cannot represent (NaN, Infinity,
 * undefined, functions).
 */
export function stringifyJson(value: HoconValue, indent?: number | string): string {
  return render(value, indentUnit(indent), '');
}

/** Serializes resolver output: numbers exactly as written in the source, keys in source order. */
export function renderResolved(value: RValue, indent?: number | string): string {
  return render(value, indentUnit(indent), '');
}

function indentUnit(indent: number | string | undefined): string {
  if (typeof indent === 'number') return ' '.repeat(Math.min(10, Math.max(0, Math.floor(indent))));
  return (indent ?? '').slice(0, 10);
}

function render(v: unknown, unit: string, current: string): string {
  switch (typeof v) {
    case 'string':
      return JSON.stringify(v);
    case 'boolean':
      return String(v);
    case 'bigint':
      return v.toString();
    case 'number':
      if (!Number.isFinite(v)) throw new TypeError(`cannot represent ${v} in JSON`);
      return JSON.stringify(v);
    case 'object':
      break;
    default:
      throw new TypeError(`cannot represent ${typeof v} in JSON`);
  }
  if (v === null) return 'null';
  if (v instanceof NumberLiteral) return v.text;
  if (v instanceof Placeholder) return JSON.stringify(v.text);
  const isArray = Array.isArray(v);
  const entries: [string | undefined, unknown][] = isArray
    ? v.map((item): [undefined, unknown] => [undefined, item])
    : v instanceof Map
      ? [...(v as Map<string, unknown>)]
      : Object.entries(v);
  const [open, close] = isArray ? ['[', ']'] : ['{', '}'];
  if (entries.length === 0) return open + close;
  const inner = current + unit;
  const items = entries.map(
    ([key, item]) => (key === undefined ? '' : JSON.stringify(key) + (unit ? ': ' : ':')) + render(item, unit, inner),
  );
  return unit ? `${open}\n${inner}${items.join(`,\n${inner}`)}\n${current}${close}` : open + items.join(',') + close;
}
