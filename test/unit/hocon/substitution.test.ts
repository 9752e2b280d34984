import { HoconError, type HoconValue, type ResolveOptions, parseHocon } from '../../../lib/hocon';

const resolve = (text: string, options?: ResolveOptions) =>
  parseHocon(text, { filename: 'test.conf' }).resolve(options);

function resolveError(text: string, options?: ResolveOptions): HoconError {
  try {
    resolve(text, options);
  } catch (e) {
    if (e instanceof HoconError) return e;
    throw e;
  }
  throw new Error('expected a HoconError');
}

type Case = [name: string, hocon: string, expected: HoconValue];

describe('substitutions', () => {
  const cases: Case[] = [
    ['simple', 'a = 1\nb = ${a}', { a: 1, b: 1 }],
    ['dotted path', 'a.b.c = x\nd = ${a.b.c}', { a: { b: { c: 'x' } }, d: 'x' }],
    ['optional found', 'a = 1\nb = ${?a}', { a: 1, b: 1 }],
    ['quoted key segment', '"a.b" = 1\nc = ${"a.b"}', { 'a.b': 1, c: 1 }],
    ['quoted segment in a longer path', 'a { "b.c" { d = 1 } }\ne = ${a."b.c".d}', { a: { 'b.c': { d: 1 } }, e: 1 }],
    ['whitespace around the path', 'a = 1\nb = ${ a }', { a: 1, b: 1 }],
    [
      'type is preserved',
      'n = 1.5\nt = true\nz = null\nb = [${n}, ${t}, ${z}]',
      { n: 1.5, t: true, z: null, b: [1.5, true, null] },
    ],
    [
      'bigint is preserved',
      'id = 917381145928572929\ncopy = ${id}',
      { id: 917381145928572929n, copy: 917381145928572929n },
    ],
    ['object', 'a { x = 1 }\nb = ${a}', { a: { x: 1 }, b: { x: 1 } }],
    ['array', 'a = [1, 2]\nb = ${a}', { a: [1, 2], b: [1, 2] }],
    ['forward reference', 'b = ${a}\na = 1', { b: 1, a: 1 }],
    ['chain', 'a = ${b}\nb = ${c}\nc = 3', { a: 3, b: 3, c: 3 }],
    ['sees the final value of an overridden key', 'a = 1\nb = ${a}\na = 2', { a: 2, b: 2 }],
    ['sees the merged object', 'a { x = 1 }\nb = ${a}\na { y = 2 }', { a: { x: 1, y: 2 }, b: { x: 1, y: 2 } }],
    ['inside string concatenation', 'host = db\nurl = "jdbc:"${host}":5432"', { host: 'db', url: 'jdbc:db:5432' }],
    [
      'unquoted text around a substitution',
      'who = world\nmsg = hello ${who} again',
      { who: 'world', msg: 'hello world again' },
    ],
    ['number keeps its text in a string', 'v = 1.0\nw = 1e5\ns = v${v} w${w}', { v: 1, w: 100000, s: 'v1.0 w1e5' }],
    ['number text survives a chain of substitutions', 'v = 2.50\nu = ${v}\ns = x${u}', { v: 2.5, u: 2.5, s: 'x2.50' }],
    ['boolean in a string', 't = true\ns = is ${t}', { t: true, s: 'is true' }],
    ['null substitution in a string is empty', 'z = null\ns = a${z}b', { z: null, s: 'ab' }],
    ['literal null in a string is "null"', 's = a null b', { s: 'a null b' }],
    ['substitution in an array', 'a = 1\nb = [${a}, 2]', { a: 1, b: [1, 2] }],
    ['array concatenation', 'a = [1]\nb = ${a} [2]', { a: [1], b: [1, 2] }],
    ['two arrays by substitution', 'a = [1]\nb = [2]\nc = ${a} ${b}', { a: [1], b: [2], c: [1, 2] }],
    [
      'two objects by substitution',
      'a { x = 1 }\nb { y = 2 }\nc = ${a} ${b}',
      { a: { x: 1 }, b: { y: 2 }, c: { x: 1, y: 2 } },
    ],
    ['two strings by substitution keep the space', 'a = x\nb = y\nc = ${a} ${b}', { a: 'x', b: 'y', c: 'x y' }],
    [
      'object inheritance',
      'generic { size = 6, name = generic }\neast = ${generic} { name = east }',
      { generic: { size: 6, name: 'generic' }, east: { size: 6, name: 'east' } },
    ],
    [
      'inheritance with a reference into the new object',
      'base { host = h, port = 1 }\nprod = ${base} { url = "jdbc:"${prod.host}":"${prod.port} }',
      { base: { host: 'h', port: 1 }, prod: { host: 'h', port: 1, url: 'jdbc:h:1' } },
    ],
    ['object refers to its own field', 'bar { foo = 42, baz = ${bar.foo} }', { bar: { foo: 42, baz: 42 } }],
    [
      'own field, overridden later',
      'bar { foo = 42, baz = ${bar.foo} }\nbar { foo = 43 }',
      { bar: { foo: 43, baz: 43 } },
    ],
    [
      'mutually referring objects',
      'bar { a = ${foo.d}, b = 1 }\nbar.b = 3\nfoo { c = ${bar.b}, d = 2 }\nfoo.d = 4',
      { bar: { a: 4, b: 3 }, foo: { c: 3, d: 4 } },
    ],
    [
      'chained inheritance, looked up field by field',
      'a { x = 1 }\nb = ${a} { y = 2 }\nc = ${b} { z = 3 }\nd = ${c.x}${c.y}${c.z}',
      { a: { x: 1 }, b: { x: 1, y: 2 }, c: { x: 1, y: 2, z: 3 }, d: '123' },
    ],
    [
      'a substituted non-object hides earlier object fields from lookups',
      's = str\na { x = 1 }\na = ${s}\nb = ${?a.x}',
      { s: 'str', a: 'str' },
    ],
    [
      'a substituted object merges with earlier and later definitions',
      'o { p = 1 }\na { x = 0, y = 0 }\na = ${o}\na { y = 2 }\nb = [${a.x}, ${a.p}, ${a.y}]',
      { o: { p: 1 }, a: { x: 0, y: 2, p: 1 }, b: [0, 1, 2] },
    ],
    [
      'substitution of a path inside a substituted object',
      'a { b { c = 1 } }\nx = ${a}\ny = ${x.b.c}',
      { a: { b: { c: 1 } }, x: { b: { c: 1 } }, y: 1 },
    ],
    // self-references
    ['self-reference in a string', 'path = "a:b:c"\npath = ${path}":d"', { path: 'a:b:c:d' }],
    ['self-reference with unquoted text', 'a = x\na = ${a}y', { a: 'xy' }],
    ['self-referential array append', 'path = [/bin]\npath = ${path} [/usr/bin]', { path: ['/bin', '/usr/bin'] }],
    ['optional self-reference with array', 'a = ${?a} [1]', { a: [1] }],
    ['optional self-reference twice', 'a = ${?a} [1]\na = ${?a} [2]', { a: [1, 2] }],
    ['optional self-reference in a string', 'a = ${?a}foo', { a: 'foo' }],
    ['self-reference to an object', 'foo { a = 1 }\nfoo = ${foo} { b = 2 }', { foo: { a: 1, b: 2 } }],
    ['plain self-reference to an earlier object', 'foo { a = 1 }\nfoo = ${foo}', { foo: { a: 1 } }],
    ['self-reference in a nested field', 'x { p = 1 }\nx { p = ${x.p}0 }', { x: { p: '10' } }],
    [
      'self-reference looks below even through a path',
      'foo { a { c = 1 } }\nfoo = ${foo.a}\nfoo { a = 2 }',
      { foo: { a: 2, c: 1 } },
    ],
    ['a hidden self-reference is never evaluated', 'foo = ${foo}\nfoo = 42', { foo: 42 }],
    ['a hidden missing substitution is never evaluated', 'foo = ${does-not-exist}\nfoo = 42', { foo: 42 }],
    ['+= on an existing array', 'a = [0]\na += 1', { a: [0, 1] }],
    ['+= inside a block referring to the full path', 'x { a = [0] }\nx { a += 1 }', { x: { a: [0, 1] } }],
    ['self-referencing fields resolve to the same value', 'a = 1\nb = 2\na = ${b}\nb = ${a}', { a: 1, b: 1 }],
    // optional substitutions that find nothing
    ['missing optional field disappears', 'a = ${?nope}\nb = 1', { b: 1 }],
    ['missing optional keeps the earlier value', 'foo = 10\nfoo = ${?FOO}', { foo: 10 }],
    ['missing optional array element disappears', 'a = [1, ${?nope}, 2]', { a: [1, 2] }],
    ['missing optional in a string is empty', 'a = x${?nope}y', { a: 'xy' }],
    ['all parts missing: field disappears', 'a = ${?x}${?y}', {}],
    ['missing optional in an object concatenation', 'a = ${?nope} { x = 1 }', { a: { x: 1 } }],
    ['missing optional in an array concatenation', 'a = ${?nope} [1]', { a: [1] }],
    ['missing optional inside an object', 'a { x = ${?nope}, y = 1 }', { a: { y: 1 } }],
    ['null blocks nothing: it is a value', 'a = null\nb = ${?a}', { a: null, b: null }],
  ];

  it.each(cases)('%s', (_name, hocon, expected) => {
    expect(resolve(hocon)).toEqual(expected);
  });

  it('resolves each substitution occurrence once, even when referenced repeatedly', () => {
    const value = resolve('base { a = 1, b = ${base.a} }\nx = [${base}, ${base}, ${base.b}]');
    expect(value.x).toEqual([{ a: 1, b: 1 }, { a: 1, b: 1 }, 1]);
  });

  it('returns independent copies for values reached through several paths', () => {
    const value = resolve('a { x = 1 }\nb = ${a}') as { a: { x: number }; b: { x: number } };
    value.b.x = 2;
    expect(value.a.x).toBe(1);
  });
});

describe('environment fallback', () => {
  const env = { HOME: '/home/u', DB_HOST: 'db.local', EMPTY: '', 'a.b': 'dotted', PORT: '5432' };
  const cases: [name: string, hocon: string, expected: HoconValue][] = [
    ['required from env', 'home = ${HOME}', { home: '/home/u' }],
    ['optional from env', 'home = ${?HOME}', { home: '/home/u' }],
    ['env values are strings', 'port = ${PORT}', { port: '5432' }],
    [
      'env inside a string',
      'url = "jdbc:postgresql://"${DB_HOST}":"${PORT}/db',
      { url: 'jdbc:postgresql://db.local:5432/db' },
    ],
    ['empty env variable is an empty string', 'e = ${EMPTY}', { e: '' }],
    ['dotted path as variable name', 'v = ${a.b}', { v: 'dotted' }],
    ['config value wins over env', 'HOME = /elsewhere\nh = ${HOME}', { HOME: '/elsewhere', h: '/elsewhere' }],
    ['null in config blocks env', 'HOME = null\nh = ${HOME}', { HOME: null, h: null }],
    ['env overrides a default', 'port = 80\nport = ${?PORT}', { port: '5432' }],
    ['default kept without env', 'user = admin\nuser = ${?DB_USER}', { user: 'admin' }],
    ['self-reference falls back to env', 'HOME = ${HOME}', { HOME: '/home/u' }],
    ['nested field refers to a root-level env name', 'db { host = ${DB_HOST} }', { db: { host: 'db.local' } }],
  ];

  it.each(cases)('%s', (_name, hocon, expected) => {
    expect(resolve(hocon, { env })).toEqual(expected);
  });

  it('does not read process.env unless given', () => {
    expect(resolveError('p = ${PATH}').reason).toContain('no environment variable "PATH" is set');
  });
});

describe('unresolvable substitutions', () => {
  it('names the substitution, its position and the path', () => {
    const e = resolveError('a {\n  b = 1\n  url = "jdbc:"${DB.HOST}\n}');
    expect(e).toMatchObject({ filename: 'test.conf', line: 3, column: 16 });
    expect(e.message).toBe(
      'test.conf:3:16: could not resolve substitution ${DB.HOST}: no value at "DB.HOST" in the configuration, and no environment variable "DB.HOST" is set',
    );
  });

  it.each([
    [
      'self-reference without an earlier value',
      'foo = ${foo}',
      'cycle in substitutions: ${foo} at test.conf:1:7 -> ${foo} at test.conf:1:7',
    ],
    [
      'self-reference before the value',
      'foo = ${foo}\nfoo { a = 1 }',
      'it refers to the field being defined, which has no earlier value',
    ],
    [
      'two-step cycle',
      'bar = ${foo}\nfoo = ${bar}',
      'cycle in substitutions: ${foo} at test.conf:1:7 -> ${bar} at test.conf:2:7 -> ${foo}',
    ],
    [
      'three-step cycle',
      'a = ${b}\nb = ${c}\nc = ${a}',
      'cycle in substitutions: ${b} at test.conf:1:5 -> ${c} at test.conf:2:5 -> ${a} at test.conf:3:5 -> ${b} at test.conf:1:5',
    ],
    [
      'self-referential string without an earlier value',
      'a = ${a}foo',
      'cycle in substitutions: ${a} at test.conf:1:5',
    ],
    [
      'object containing a reference to itself',
      'a { b = ${a} }',
      'cycle in substitutions: ${a} at test.conf:1:9 -> ${a}',
    ],
    ['array containing a reference to itself', 'a = [${a}]', 'cycle in substitutions'],
    ['object field referring to its parent', 'a { x = 1, y = ${a} }', 'cycle in substitutions'],
  ])('%s', (_name, hocon, message) => {
    expect(resolveError(hocon).message).toContain(message);
  });

  it.each([
    [
      'string concatenated with an array',
      'a = [1]\nb = x ${a}',
      '2:5: cannot concatenate an array (from ${a}) with a string',
    ],
    [
      'array concatenated with an object',
      'a { x = 1 }\nb = [1] ${a}',
      'cannot concatenate an array with an object (from ${a})',
    ],
    [
      'object concatenated with a string',
      'a = s\nb = ${a} { x = 1 }',
      '2:5: ${a} is concatenated with an object, so it must be an object, but it is a string',
    ],
    ['+= on a non-array', 'a = 1\na += 2', '2:3: cannot concatenate an array with a number (from ${?a})'],
    ['object in a string', 'a { x = 1 }\nb = "x: "${a}', '2:5: cannot concatenate an object (from ${a}) with a string'],
  ])('type clash: %s', (_name, hocon, message) => {
    expect(resolveError(hocon).message).toContain(message);
  });

  it('treats an optional self-reference cycle as missing', () => {
    expect(resolve('a { b = ${?a} }')).toEqual({ a: {} });
  });
});

describe('allowUnresolved', () => {
  const lines = [
    'env { job.mode = BATCH }',
    'source = [{ plugin_name = Jdbc, url = "jdbc:mysql://"${DB_HOST}":3306/"${DB}, user = ${USER}, password = ${?DB_PASSWORD} }]',
    'tags = [${?TAG}, fixed]',
    'copy = ${source}',
    'ref = ${USER}',
  ];
  const doc = parseHocon(lines.join('\n'), { filename: 'job.conf' });

  it('leaves required ones as their text, including inside strings', () => {
    const report = doc.resolveWithReport({ allowUnresolved: true, env: { DB: 'shop' } });
    expect(report.value).toEqual({
      env: { job: { mode: 'BATCH' } },
      source: [{ plugin_name: 'Jdbc', url: 'jdbc:mysql://${DB_HOST}:3306/shop', user: '${USER}' }],
      tags: ['fixed'],
      copy: [{ plugin_name: 'Jdbc', url: 'jdbc:mysql://${DB_HOST}:3306/shop', user: '${USER}' }],
      ref: '${USER}',
    });
    expect(report.envUsed).toEqual(['DB']);
  });

  it('reports required and optional unresolved substitutions with positions', () => {
    const report = doc.resolveWithReport({ allowUnresolved: true });
    const col = (line: string, text: string) => line.indexOf(text) + 1;
    expect(report.unresolved.map((u) => [u.path, u.optional, u.text, `${u.filename}:${u.line}:${u.column}`])).toEqual([
      ['DB_HOST', false, '${DB_HOST}', `job.conf:2:${col(lines[1], '${DB_HOST}')}`],
      ['DB', false, '${DB}', `job.conf:2:${col(lines[1], '${DB}')}`],
      ['USER', false, '${USER}', `job.conf:2:${col(lines[1], '${USER}')}`],
      ['DB_PASSWORD', true, '${?DB_PASSWORD}', `job.conf:2:${col(lines[1], '${?DB_PASSWORD}')}`],
      ['TAG', true, '${?TAG}', 'job.conf:3:9'],
      ['USER', false, '${USER}', 'job.conf:5:7'], // every occurrence is listed
    ]);
  });

  it('still reports optional ones when everything required resolves', () => {
    const report = parseHocon('a = ${?X}\nb = ${Y}').resolveWithReport({ env: { Y: 'y' } });
    expect(report.value).toEqual({ b: 'y' });
    expect(report.unresolved).toEqual([
      { path: 'X', optional: true, text: '${?X}', filename: undefined, line: 1, column: 5 },
    ]);
  });

  it('keeps quoted paths in the placeholder text as written', () => {
    expect(parseHocon('a = ${"x.y".z}').resolve({ allowUnresolved: true })).toEqual({ a: '${"x.y".z}' });
  });

  it('cannot leave one unresolved where an object or array is required', () => {
    expect(() => parseHocon('a = ${BASE} { x = 1 }').resolve({ allowUnresolved: true })).toThrow(
      'it is concatenated with an object, so it cannot be left unresolved',
    );
    expect(() => parseHocon('a = ${LIST} [1]').resolve({ allowUnresolved: true })).toThrow(
      'cannot concatenate an array with the unresolved substitution ${LIST}',
    );
  });

  it('throws without allowUnresolved', () => {
    expect(() => doc.resolve()).toThrow(HoconError);
  });
});
