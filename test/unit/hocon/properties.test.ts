// Property-based tests of the HOCON parser and resolver: JSON round trips, no exception but
// HoconError on any input, bounded resolution of generated self-referential and expanding
// documents, and no environment value or included text in any message.
import fc from 'fast-check';
import {
  HoconError,
  parseHocon,
  parseJson,
  stringifyJson,
  type HoconLimits,
  type IncludeReader,
} from '../../../lib/hocon';

/** Deep copy with bigint as number, to compare with what JSON.parse reads. */
function asNumbers(v: unknown): unknown {
  if (typeof v === 'bigint') return Number(v);
  if (Array.isArray(v)) return v.map(asNumbers);
  if (v !== null && typeof v === 'object')
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, asNumbers(x)]));
  return v;
}

/** Parses and resolves; returns the HoconError if there is one, rethrows anything else. */
function attempt(fn: () => unknown): { error?: HoconError; value?: unknown } {
  try {
    return { value: fn() };
  } catch (e) {
    if (e instanceof HoconError) return { error: e };
    throw e;
  }
}

const jsonObject = fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 4 }), { maxKeys: 6 });

describe('valid JSON is HOCON with the same meaning', () => {
  test('compact, indented, and with commas at the start of lines', () => {
    fc.assert(
      fc.property(jsonObject, fc.constantFrom(0, 2, '\t'), fc.boolean(), (value, indent, leadingCommas) => {
        let text = JSON.stringify(value, null, indent);
        // JSON.stringify escapes newlines inside strings, so every raw newline is layout.
        if (leadingCommas) text = text.replaceAll(',\n', '\n,');
        const report = parseHocon(text).resolveWithReport();
        expect(asNumbers(report.value)).toEqual(JSON.parse(text));
        expect(JSON.parse(report.toJson())).toEqual(JSON.parse(text));
      }),
      { numRuns: 300 },
    );
  });

  test('parseJson is JSON.parse, with integers beyond 2^53 exact', () => {
    fc.assert(
      fc.property(jsonObject, fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }), (value, id) => {
        const text = JSON.stringify({ ...value, id: 0 }).replace(/"id":0/, `"id":${id}`);
        const parsed = parseJson(text) as Record<string, unknown>;
        expect(BigInt(parsed.id as number | bigint)).toBe(id);
        expect(stringifyJson(parsed as never)).toContain(`"id":${id}`);
      }),
      { numRuns: 200 },
    );
  });
});

// Pieces that matter to the tokenizer and parser, glued at random.
const PIECES = [
  'a',
  'b.c',
  '"q"',
  '1',
  '-2.5e3',
  ' ',
  '\n',
  '\t',
  '{',
  '}',
  '[',
  ']',
  ',',
  ':',
  '=',
  '+=',
  '"',
  '"""',
  '${a}',
  '${?b.c}',
  '${SECRET}',
  '${',
  '}',
  '#',
  '//',
  '\\',
  'include "inc.conf"',
  'include required("nope")',
  'true',
  'null',
  '$',
  '+',
  'é',
  '\u0000',
  '\uD800',
];
const hoconish = fc.array(fc.constantFrom(...PIECES), { maxLength: 40 }).map((parts) => parts.join(''));

// Documents built from fields referring to each other: concatenations, appends, self-references
// and nesting — the material of expansion and recursion attacks.
const FIELDS = ['f0', 'f1', 'f2', 'f3', 'o.f4'];
const field = fc.constantFrom(...FIELDS);
const line = fc.oneof(
  fc.tuple(field, field, field).map(([a, b, c]) => `${a} = \${${b}} \${${c}}`),
  fc.tuple(field, field).map(([a, b]) => `${a} = [\${${b}}, \${${b}}, \${${b}}]`),
  fc.tuple(field, field).map(([a, b]) => `${a} += \${?${b}}`),
  fc.tuple(field, field).map(([a, b]) => `${a} = \${?${a}} \${?${b}}`),
  fc.tuple(field, field).map(([a, b]) => `${a} = \${${b}} { k = \${?${a}} }`),
  fc.tuple(field, field).map(([a, b]) => `${a} = "s"\${${b}}"\${SECRET}"`),
  fc.tuple(field, fc.integer({ min: 0, max: 30 })).map(([a, n]) => `${a} = ${'['.repeat(n)}1${']'.repeat(n)}`),
  field.map((a) => `${a} = [1, 2, 3, 4, 5, 6, 7, 8]`),
  field.map((a) => `${a} = \${SECRET}`),
);
const nasty = fc.array(line, { minLength: 1, maxLength: 25 }).map((lines) => lines.join('\n'));
const SMALL: Partial<HoconLimits> = { maxSteps: 20_000, maxResolvedSize: 5_000, maxResolveDepth: 100, maxDepth: 20 };

describe('robustness', () => {
  test('any input: a value or a HoconError, nothing else', () => {
    fc.assert(
      fc.property(hoconish, fc.boolean(), (text, allowUnresolved) => {
        const readInclude: IncludeReader = (name) =>
          name === 'inc.conf' ? { text: 'i = ${?a}', filename: name } : undefined;
        attempt(() =>
          parseHocon(text, { filename: 'f.conf', readInclude }).resolve({ env: { SECRET: 'x' }, allowUnresolved }),
        );
      }),
      { numRuns: 2000 },
    );
  });

  test('generated expanding and self-referential documents stay within the limits', () => {
    fc.assert(
      fc.property(nasty, (text) => {
        const r = attempt(() => parseHocon(text, { limits: SMALL }).resolveWithReport({ env: { SECRET: 'x' } }));
        if (r.error) expect(r.error.line).toBeGreaterThanOrEqual(1);
        else
          expect(stringifyJson((r.value as { value: never }).value).length).toBeLessThanOrEqual(
            SMALL.maxResolvedSize! * 4,
          );
      }),
      { numRuns: 500 },
    );
  });
});

describe('no secret in any message', () => {
  const secret = fc.stringMatching(/^[A-Za-z0-9]{10,20}$/).map((s) => `Zq${s}`);

  test('values from the environment', () => {
    fc.assert(
      fc.property(nasty, secret, (text, value) => {
        const r = attempt(() => parseHocon(text, { limits: SMALL }).resolve({ env: { SECRET: value } }));
        if (r.error) expect(r.error.message).not.toContain(value);
      }),
      { numRuns: 500 },
    );
  });

  test('text of included files', () => {
    const included = fc.array(
      fc.constantFrom(...PIECES.filter((p) => !p.startsWith('include')), 'SECRET', 'SECRET', '"SECRET"'),
      { maxLength: 30 },
    );
    fc.assert(
      fc.property(included, secret, (parts, value) => {
        const text = parts.join('').replaceAll('SECRET', value);
        const readInclude: IncludeReader = (name) => (name === 'inc.conf' ? { text, filename: name } : undefined);
        const r = attempt(() =>
          parseHocon('a = 1\ninclude "inc.conf"\nb = ${?x} [1]', {
            filename: 'main.conf',
            readInclude,
            limits: SMALL,
          }).resolve(),
        );
        if (r.error) expect(r.error.message).not.toContain(value);
      }),
      { numRuns: 1000 },
    );
  });
});
