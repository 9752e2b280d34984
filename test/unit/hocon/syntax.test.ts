import { type HoconValue, parseHocon } from '../../../lib/hocon';

const resolve = (text: string) => parseHocon(text).resolve();

type Case = [name: string, hocon: string, expected: HoconValue];

describe('HOCON syntax', () => {
  const cases: Case[] = [
    // comments
    ['# comment', '# c\na = 1 # trailing\n# end', { a: 1 }],
    ['// comment', '// c\na = 1 // trailing', { a: 1 }],
    ['comment markers inside quotes are text', 'a = "x # y // z"', { a: 'x # y // z' }],
    ['// ends an unquoted string', 'a = foo//bar', { a: 'foo' }],
    ['a single / is text', 'a = a/b', { a: 'a/b' }],
    // root braces
    ['root braces', '{ a = 1 }', { a: 1 }],
    ['root braces with comments around', '# x\n{\n a = 1\n}\n// y\n', { a: 1 }],
    ['no root braces', 'a = 1\nb = 2', { a: 1, b: 2 }],
    ['empty document', '', {}],
    ['only comments', '# nothing\n// here\n', {}],
    ['empty root object', '{}', {}],
    // separators
    ['= separator', 'a = 1', { a: 1 }],
    [': separator', 'a : 1', { a: 1 }],
    ['no space around separator', 'a=1,b:2', { a: 1, b: 2 }],
    ['key { } without separator', 'a { b = 1 }', { a: { b: 1 } }],
    ['key = { }', 'a = { b = 1 }', { a: { b: 1 } }],
    ['quoted key { }', '"a" {}', { a: {} }],
    ['newline after separator', 'a =\n  1', { a: 1 }],
    ['newline between key and {', 'a\n{\n  b = 1\n}', { a: { b: 1 } }],
    // commas and newlines
    ['fields separated by commas', '{ a: 1, b: 2 }', { a: 1, b: 2 }],
    ['fields separated by newlines', '{\n a: 1\n b: 2\n}', { a: 1, b: 2 }],
    ['trailing comma in object', '{ a: 1, b: 2, }', { a: 1, b: 2 }],
    ['trailing comma before newline at root', 'a = 1,\nb = 2,\n', { a: 1, b: 2 }],
    ['array with commas', 'a = [1, 2, 3]', { a: [1, 2, 3] }],
    ['array with newlines', 'a = [\n 1\n 2\n 3\n]', { a: [1, 2, 3] }],
    ['array with trailing comma', 'a = [1, 2, 3,]', { a: [1, 2, 3] }],
    ['array with comma and newline', 'a = [\n 1,\n 2,\n]', { a: [1, 2] }],
    ['empty array', 'a = []', { a: [] }],
    ['nested arrays', 'a = [[1, 2], [3]]', { a: [[1, 2], [3]] }],
    ['array of objects', 'a = [{ x = 1 }, { x = 2 }]', { a: [{ x: 1 }, { x: 2 }] }],
    ['array elements on separate lines with comments', 'a = [\n 1 # one\n 2 // two\n]', { a: [1, 2] }],
    // keys
    ['dotted key', 'a.b.c = 1', { a: { b: { c: 1 } } }],
    ['dotted keys merge', 'a.x = 1, a.y = 2', { a: { x: 1, y: 2 } }],
    ['dotted key and block merge', 'a { x = 1 }\na.y = 2', { a: { x: 1, y: 2 } }],
    ['quoted key is one segment', '"a.b" = 1', { 'a.b': 1 }],
    ['quoted segment in a path', 'a."b.c".d = 1', { a: { 'b.c': { d: 1 } } }],
    ['empty quoted key', '"" = 1', { '': 1 }],
    ['empty quoted middle segment', 'a."".b = 1', { a: { '': { b: 1 } } }],
    ['whitespace inside an unquoted key', 'a b c = 1', { 'a b c': 1 }],
    ['whitespace inside a key is kept as written', 'a  b = 1', { 'a  b': 1 }],
    ['keyword keys are strings', 'true = 1, null = 2', { true: 1, null: 2 }],
    ['number keys keep their text', '3.14 = 1', { '3': { '14': 1 } }],
    ['10.0foo is two segments', '10.0foo = 1', { '10': { '0foo': 1 } }],
    ['foo10.0 is two segments', 'foo10.0 = 1', { foo10: { '0': 1 } }],
    ['quoted number segment', 'foo"10.0" = 1', { 'foo10.0': 1 }],
    ['hyphen and underscore keys', 'my-key_1 = 1', { 'my-key_1': 1 }],
    ['include later in a key is text', 'foo include = 42', { 'foo include': 42 }],
    ['quoted "include" key', '"include" = 42', { include: 42 }],
    ['include-prefixed unquoted key', 'includes = 1', { includes: 1 }],
    ['include as a value', 'a = include, b = [include]', { a: 'include', b: ['include'] }],
    ['key starting with a digit', '0 = a, 1x = b', { '0': 'a', '1x': 'b' }],
    ['__proto__ key is an own property', '"__proto__" { a = 1 }', JSON.parse('{"__proto__":{"a":1}}')],
    // duplicate keys
    ['later non-object overrides', 'a = 1\na = 2', { a: 2 }],
    ['objects merge', 'a { x = 1 }\na { y = 2 }', { a: { x: 1, y: 2 } }],
    ['objects merge deeply', 'a { b { x = 1 } }\na { b { y = 2 } }', { a: { b: { x: 1, y: 2 } } }],
    ['non-object after object replaces', 'a { x = 1 }\na = 5', { a: 5 }],
    ['object after non-object replaces', 'a = 5\na { x = 1 }', { a: { x: 1 } }],
    ['null between objects prevents merging', 'foo { a = 42 }\nfoo = null\nfoo { b = 43 }', { foo: { b: 43 } }],
    ['array replaces array', 'a = [1]\na = [2]', { a: [2] }],
    ['+= appends', 'a = [1]\na += 2', { a: [1, 2] }],
    ['+= without earlier value', 'a += 1\na += 2', { a: [1, 2] }],
    ['+= in nested object', 'x { a += 1 }\nx { a += 2 }', { x: { a: [1, 2] } }],
    ['+= with dotted key', 'x.a += 1\nx.a += { b = 2 }', { x: { a: [1, { b: 2 }] } }],
    // strings
    ['quoted string', 'a = "hello world"', { a: 'hello world' }],
    ['JSON escapes', String.raw`a = "q\" b\\ s\/ \b\f\n\r\t"`, { a: 'q" b\\ s/ \b\f\n\r\t' }],
    ['unicode escape', String.raw`a = "\u00e9\u4e2d"`, { a: 'é中' }],
    ['surrogate pair escape', String.raw`a = "\ud83d\ude00"`, { a: '😀' }],
    ['quoted keywords stay strings', 'a = "true", b = "null", c = "1"', { a: 'true', b: 'null', c: '1' }],
    ['empty string', 'a = ""', { a: '' }],
    ['triple-quoted string', 'a = """line 1\n  line "2"\n"""', { a: 'line 1\n  line "2"\n' }],
    ['triple-quoted string keeps backslashes', 'a = """C:\\dir\\n"""', { a: 'C:\\dir\\n' }],
    ['extra quotes end up in a triple-quoted string', 'a = """foo""""', { a: 'foo"' }],
    ['triple-quoted string concatenates', 'a = """x""" y', { a: 'x y' }],
    ['unquoted string', 'a = hello', { a: 'hello' }],
    ['unquoted path-like string', 'a = /opt/seatunnel/config', { a: '/opt/seatunnel/config' }],
    ['unquoted with dots and hyphens', 'a = apache/seatunnel-2.3.8.tar', { a: 'apache/seatunnel-2.3.8.tar' }],
    ['unicode unquoted string', 'a = héllo', { a: 'héllo' }],
    // concatenation
    ['unquoted words keep inner whitespace', 'a =  foo   bar  baz  ', { a: 'foo   bar  baz' }],
    ['quoted and unquoted concatenate', 'a = foo" bar "baz', { a: 'foo bar baz' }],
    ['keyword in concatenation is text', 'a = true foo, b = null x', { a: 'true foo', b: 'null x' }],
    ['number in concatenation keeps its text', 'a = 1.0 and 1e5', { a: '1.0 and 1e5' }],
    ['number with a unit is a string', 'a = 10s, b = 512 MB', { a: '10s', b: '512 MB' }],
    ['truefoo is a string', 'a = truefoo', { a: 'truefoo' }],
    ['array concatenation', 'a = [1, 2] [3, 4]', { a: [1, 2, 3, 4] }],
    ['array concatenation without space', 'a = [1][2]', { a: [1, 2] }],
    ['object concatenation', 'a = { x = 1 } { y = 2 }', { a: { x: 1, y: 2 } }],
    ['object concatenation merges deeply', 'a = { x { p = 1 } } { x { q = 2 } }', { a: { x: { p: 1, q: 2 } } }],
    ['key { } concatenation', 'a { x = 1 } { x = 2 }', { a: { x: 2 } }],
    ['whitespace-separated values in an array concatenate', 'a = [1 2 3]', { a: ['1 2 3'] }],
    ['arrays in an array concatenate', 'a = [[1, 2] [3, 4]]', { a: [[1, 2, 3, 4]] }],
    [
      'arrays on separate lines are separate elements',
      'a = [\n [1, 2]\n [3, 4]\n]',
      {
        a: [
          [1, 2],
          [3, 4],
        ],
      },
    ],
    // numbers and keywords
    ['integer', 'a = 42', { a: 42 }],
    ['negative integer', 'a = -7', { a: -7 }],
    ['zero', 'a = 0', { a: 0 }],
    ['float', 'a = 3.25', { a: 3.25 }],
    ['1.0 is a number', 'a = 1.0', { a: 1 }],
    ['exponent', 'a = 1e5, b = 2.5E-3, c = -1e+2', { a: 100000, b: 0.0025, c: -100 }],
    ['max safe integer stays number', 'a = 9007199254740991', { a: 9007199254740991 }],
    ['huge integer becomes bigint', 'a = 917381145928572929', { a: 917381145928572929n }],
    ['huge negative integer becomes bigint', 'a = -9223372036854775808', { a: -9223372036854775808n }],
    [
      'integer beyond 64 bits stays exact',
      'a = 123456789012345678901234567890',
      { a: 123456789012345678901234567890n },
    ],
    ['leading zero is not a JSON number', 'a = 0755', { a: '0755' }],
    ['IP address is a string', 'a = 10.0.0.1', { a: '10.0.0.1' }],
    ['date is a string', 'a = 2024-01-31', { a: '2024-01-31' }],
    ['lone hyphen is a string', 'a = -', { a: '-' }],
    ['JVM option is a string', 'a = -Xmx1g', { a: '-Xmx1g' }],
    ['booleans', 'a = true, b = false', { a: true, b: false }],
    ['null', 'a = null', { a: null }],
    ['yes/no/on/off stay strings', 'a = yes, b = no, c = on, d = off', { a: 'yes', b: 'no', c: 'on', d: 'off' }],
    ['TRUE is a string', 'a = TRUE', { a: 'TRUE' }],
    // JSON compatibility
    [
      'plain JSON',
      '{"a": {"b": [1, 2.5, "x", true, null, {}]}, "c": -0.5}',
      { a: { b: [1, 2.5, 'x', true, null, {}] }, c: -0.5 },
    ],
  ];

  it.each(cases)('%s', (_name, hocon, expected) => {
    expect(resolve(hocon)).toEqual(expected);
  });

  it('treats Unicode separators and ASCII control separators as whitespace', () => {
    expect(resolve('a\u00a0=\u2003foo\u202fbar\u001cx')).toEqual({ a: 'foo\u202fbar\u001cx' });
    expect(resolve('\ufeffa = 1')).toEqual({ a: 1 });
  });

  it('accepts CRLF line endings', () => {
    expect(resolve('a = 1\r\nb = [\r\n 2\r\n 3\r\n]\r\n')).toEqual({ a: 1, b: [2, 3] });
  });

  it('keeps keys in insertion order, later duplicates staying in place', () => {
    const value = resolve('z = 1\na = 2\nm { y = 1, b = 2 }\nz = 3\nm.a = 3');
    expect(Object.keys(value)).toEqual(['z', 'a', 'm']);
    expect(Object.keys(value.m as object)).toEqual(['y', 'b', 'a']);
  });

  it('returns bigint only outside the safe integer range', () => {
    const value = resolve('small = 9007199254740991\nbig = 9007199254740993\nneg = -9007199254740993');
    expect(typeof value.small).toBe('number');
    expect(value.big).toBe(9007199254740993n);
    expect(value.neg).toBe(-9007199254740993n);
  });
});
