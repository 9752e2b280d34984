import { parseHocon } from '../../../lib/hocon';

/** Small deterministic PRNG (mulberry32) so failures are reproducible. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ALPHABET = [
  'a',
  'Z',
  '0',
  ' ',
  '.',
  '"',
  '\\',
  '/',
  '$',
  '{',
  '}',
  '#',
  '\n',
  '\t',
  '\u0001',
  'é',
  '中',
  '😀',
  ':',
  '=',
  ',',
];

function generate(rnd: () => number, depth: number): unknown {
  const pick = Math.floor(rnd() * (depth > 3 ? 5 : 7));
  switch (pick) {
    case 0:
      return Array.from({ length: Math.floor(rnd() * 6) }, () => ALPHABET[Math.floor(rnd() * ALPHABET.length)]).join(
        '',
      );
    case 1:
      return Math.floor((rnd() - 0.5) * 2 ** 40);
    case 2:
      return (rnd() - 0.5) * 10 ** Math.floor(rnd() * 40 - 20);
    case 3:
      return rnd() < 0.5;
    case 4:
      return null;
    case 5:
      return Array.from({ length: Math.floor(rnd() * 4) }, () => generate(rnd, depth + 1));
    default:
      return object(rnd, depth + 1);
  }
}

function object(rnd: () => number, depth: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const n = Math.floor(rnd() * 5);
  for (let i = 0; i < n; i++) out[`${String(generate(rnd, 99))}${i}`] = generate(rnd, depth);
  return out;
}

/** JSON.parse, except that integers written as plain digits beyond the safe range are exact bigints (by design). */
function jsonParse(text: string): unknown {
  const exact = (v: unknown): unknown => {
    if (typeof v === 'number' && Number.isInteger(v) && !Number.isSafeInteger(v) && /^-?\d+$/.test(String(v)))
      return BigInt(String(v));
    if (Array.isArray(v)) return v.map(exact);
    if (v !== null && typeof v === 'object')
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, exact(x)]));
    return v;
  };
  return exact(JSON.parse(text));
}

describe('HOCON is a JSON superset', () => {
  it.each(Array.from({ length: 200 }, (_, seed) => [seed]))(
    'random JSON document %i parses like JSON.parse',
    (seed) => {
      const rnd = random(seed + 1);
      const value = object(rnd, 0);
      for (const text of [JSON.stringify(value), JSON.stringify(value, null, 2)]) {
        expect(parseHocon(text).resolve()).toEqual(jsonParse(text));
      }
    },
  );
});
