import { type HoconValue, parseHocon, stringifyJson } from '../../../lib/hocon';

describe('stringifyJson', () => {
  const sameAsJson: [name: string, value: HoconValue][] = [
    ['string with escapes', 'a "q" \\ \n \u0001 é'],
    ['number', -12.5],
    ['boolean', true],
    ['null', null],
    ['empty object and array', { a: {}, b: [] }],
    ['nested', { a: [1, { b: [null, 'x'] }], c: { d: false } }],
  ];

  it.each(sameAsJson)('matches JSON.stringify: %s', (_name, value) => {
    expect(stringifyJson(value)).toBe(JSON.stringify(value));
    expect(stringifyJson(value, 2)).toBe(JSON.stringify(value, null, 2));
    expect(stringifyJson(value, '\t')).toBe(JSON.stringify(value, null, '\t'));
  });

  it('writes bigint as exact digits', () => {
    expect(stringifyJson({ jobId: 917381145928572929n, neg: -9223372036854775808n })).toBe(
      '{"jobId":917381145928572929,"neg":-9223372036854775808}',
    );
  });

  it('round-trips a parsed 64-bit id exactly', () => {
    const value = parseHocon('job.id = 917381145928572929').resolve();
    expect(stringifyJson(value)).toBe('{"job":{"id":917381145928572929}}');
  });

  it.each([
    ['NaN', Number.NaN],
    ['Infinity', Number.POSITIVE_INFINITY],
    ['undefined', undefined as unknown as HoconValue],
  ])('rejects %s', (_name, value) => {
    expect(() => stringifyJson({ a: value })).toThrow(TypeError);
  });

  it('writes a __proto__ key as data', () => {
    const value = parseHocon('"__proto__" { a = 1 }').resolve();
    expect(stringifyJson(value)).toBe('{"__proto__":{"a":1}}');
  });
});

describe('ResolveReport.toJson', () => {
  it('keeps numbers as written', () => {
    const report = parseHocon('a = 1.0\nb = 1e5\nc = -0.50\nd = 917381145928572929\ne = 3').resolveWithReport();
    expect(report.toJson()).toBe('{"a":1.0,"b":1e5,"c":-0.50,"d":917381145928572929,"e":3}');
    expect(report.value).toEqual({ a: 1, b: 100000, c: -0.5, d: 917381145928572929n, e: 3 });
  });

  it('keeps numbers as written through substitutions', () => {
    expect(parseHocon('a = 2.50\nb = ${a}').resolveWithReport().toJson()).toBe('{"a":2.50,"b":2.50}');
  });

  it('keeps source key order, even for integer-like keys', () => {
    const report = parseHocon('b = 1\n"10" = 2\na = 3\n"2" = 4').resolveWithReport();
    expect(report.toJson()).toBe('{"b":1,"10":2,"a":3,"2":4}');
    // A JavaScript object cannot keep that order:
    expect(Object.keys(report.value)).toEqual(['2', '10', 'b', 'a']);
  });

  it('writes unresolved placeholders as strings', () => {
    const report = parseHocon('url = "jdbc:"${DB}\nraw = ${X}').resolveWithReport({ allowUnresolved: true });
    expect(report.toJson(2)).toBe('{\n  "url": "jdbc:${DB}",\n  "raw": "${X}"\n}');
  });

  it('produces valid JSON with indentation', () => {
    const text = parseHocon('a { b = [1, 2.0, { c = x }], d = {} , e = [] }').resolveWithReport().toJson(2);
    expect(JSON.parse(text)).toEqual({ a: { b: [1, 2, { c: 'x' }], d: {}, e: [] } });
    expect(text).toBe(
      '{\n  "a": {\n    "b": [\n      1,\n      2.0,\n      {\n        "c": "x"\n      }\n    ],\n    "d": {},\n    "e": []\n  }\n}',
    );
  });

  it('writes override numbers in JavaScript notation', () => {
    const report = parseHocon('a = 1')
      .withOverride('a', 1e21)
      .withOverride('b', 12345678901234567890n)
      .resolveWithReport();
    expect(report.toJson()).toBe('{"a":1e+21,"b":12345678901234567890}');
  });
});
