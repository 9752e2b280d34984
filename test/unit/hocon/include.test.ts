import * as path from 'node:path';
import { HoconError, type IncludeReader, parseHocon } from '../../../lib/hocon';
import { fileIncludeReader, parseHoconFile } from '../../../lib/hocon/file-include';

/** An in-memory file system; relative names resolve against the including file's directory. */
function memoryReader(files: Record<string, string>, calls: [string, string | undefined][] = []): IncludeReader {
  return (name, from) => {
    calls.push([name, from]);
    const filename =
      from === undefined || name.startsWith('/') ? name : path.posix.join(path.posix.dirname(from), name);
    return filename in files ? { text: files[filename], filename } : undefined;
  };
}

const parse = (text: string, files: Record<string, string>, filename = 'main.conf') =>
  parseHocon(text, { filename, readInclude: memoryReader(files) });

describe('include', () => {
  const files = {
    'x.conf': 'x = 1\nshared = from-x',
    'obj.conf': 'o { a = 1 }',
    'foo.conf': 'x = 10\ny = ${x}',
    'uses-root.conf': 'y = ${top}',
    'uses-env.conf': 'home = ${HOME}',
    'append.conf': 'list += 1',
    'array.conf': '[1, 2]',
    'bad.conf': 'a = {',
    'cycle-a.conf': 'include "cycle-b.conf"',
    'cycle-b.conf': 'include "cycle-a.conf"',
    'conf/sub/a.conf': 'a = 1\ninclude "b.conf"',
    'conf/sub/b.conf': 'b = 2\ninclude "../c.conf"',
    'conf/c.conf': 'c = 3',
  };

  const cases: [name: string, hocon: string, expected: unknown][] = [
    ['plain include', 'include "x.conf"', { x: 1, shared: 'from-x' }],
    ['file()', 'include file("x.conf")', { x: 1, shared: 'from-x' }],
    ['required(file())', 'include required(file("x.conf"))', { x: 1, shared: 'from-x' }],
    ['required()', 'include required("x.conf")', { x: 1, shared: 'from-x' }],
    ['whitespace inside the parentheses', 'include required( file( "x.conf" ) )', { x: 1, shared: 'from-x' }],
    ['newline after include', 'include\n  "x.conf"', { x: 1, shared: 'from-x' }],
    ['missing plain include is ignored', 'include "nope.conf"\na = 1', { a: 1 }],
    ['missing file() include is ignored', 'include file("nope.conf")\na = 1', { a: 1 }],
    ['included keys override earlier ones', 'shared = mine\ninclude "x.conf"', { shared: 'from-x', x: 1 }],
    ['later keys override included ones', 'include "x.conf"\nshared = mine', { x: 1, shared: 'mine' }],
    ['included objects merge', 'o { b = 2 }\ninclude "obj.conf"', { o: { b: 2, a: 1 } }],
    ['include inside an object', 'a { include "x.conf" }', { a: { x: 1, shared: 'from-x' } }],
    ['include inside a dotted-key object', 'a.b { include "x.conf" }', { a: { b: { x: 1, shared: 'from-x' } } }],
    ['include with commas', '{ p = 0, include "x.conf", q = 2 }', { p: 0, x: 1, shared: 'from-x', q: 2 }],
    ['substitutions are fixed up to the include point', 'a { include "foo.conf" }', { a: { x: 10, y: 10 } }],
    ['fixed-up substitution sees a later override', 'a { include "foo.conf" }\na { x = 42 }', { a: { x: 42, y: 42 } }],
    ['substitution falls back to the root', 'top = 1\na { include "uses-root.conf" }', { top: 1, a: { y: 1 } }],
    [
      '+= in an included file appends at the include point',
      'a { list = [0], include "append.conf" }',
      { a: { list: [0, 1] } },
    ],
    ['includes relative to the including file', 'include "conf/sub/a.conf"', { a: 1, b: 2, c: 3 }],
  ];

  it.each(cases)('%s', (_name, hocon, expected) => {
    expect(parse(hocon, files).resolve()).toEqual(expected);
  });

  it('uses the unprefixed name for environment fallback', () => {
    expect(parse('a { include "uses-env.conf" }', files).resolve({ env: { HOME: '/home/u' } })).toEqual({
      a: { home: '/home/u' },
    });
  });

  it('passes the name as written and the including filename to readInclude', () => {
    const calls: [string, string | undefined][] = [];
    parseHocon('include "conf/sub/a.conf"', { filename: 'main.conf', readInclude: memoryReader(files, calls) });
    expect(calls).toEqual([
      ['conf/sub/a.conf', 'main.conf'],
      ['b.conf', 'conf/sub/a.conf'],
      ['../c.conf', 'conf/sub/b.conf'],
    ]);
  });

  it.each([
    ['required missing', 'include required("nope.conf")', `main.conf:1:1: required include "nope.conf" not found`],
    [
      'required file() missing',
      'include required(file("nope.conf"))',
      `main.conf:1:1: required include "nope.conf" not found`,
    ],
    [
      'url()',
      'include url("https://example.invalid/a.conf")',
      `main.conf:1:1: include url(...) is not supported; only files can be included`,
    ],
    [
      'classpath()',
      'include classpath("a.conf")',
      `main.conf:1:1: include classpath(...) is not supported; only files can be included`,
    ],
    [
      'required(url())',
      'include required(url("https://example.invalid/a.conf"))',
      `main.conf:1:1: include url(...) is not supported; only files can be included`,
    ],
    [
      'plain URL',
      'include "https://example.invalid/a.conf"',
      `main.conf:1:1: include of a URL is not supported; only files can be included`,
    ],
    [
      'array at the root of an included file',
      'include "array.conf"',
      `array.conf:1:1: expected an object at the root of the document, found '['`,
    ],
    [
      'syntax error in an included file',
      'a = 1\ninclude "bad.conf"',
      `bad.conf:1:6: expected '}' to close the object opened at 1:5, found end of input`,
    ],
    [
      'cycle',
      'include "cycle-a.conf"',
      `cycle-b.conf:1:1: include cycle: main.conf -> cycle-a.conf -> cycle-b.conf -> cycle-a.conf`,
    ],
    [
      'unknown wrapper',
      'include resource("x.conf")',
      `main.conf:1:1: expected a quoted file name after 'include' (include "x", include file("x"), include required(file("x"))), found 'resource("...")'`,
    ],
    [
      'two names',
      'include "a" "b"',
      `main.conf:1:1: expected a quoted file name after 'include' (include "x", include file("x"), include required(file("x"))), found '"...""..."'`,
    ],
  ])('error: %s', (_name, hocon, message) => {
    expect(() => parse(hocon, files)).toThrow(HoconError);
    expect(() => parse(hocon, files)).toThrow(message);
  });

  it('is an error when no readInclude is given', () => {
    expect(() => parseHocon('include "x.conf"')).toThrow(
      `1:1: cannot include "x.conf": includes are not enabled (no readInclude was given)`,
    );
  });
});

describe('file-include helper', () => {
  const dir = path.join(__dirname, 'fixtures', 'include');

  it('reads includes relative to each including file', () => {
    expect(parseHoconFile(path.join(dir, 'main.conf')).resolve()).toEqual({
      kubernetes: { namespace: 'data', replicas: 3 },
      application: { name: 'orders-sync', image: 'apache/seatunnel:2.3.8', 'job-name': 'orders-sync-job' },
    });
  });

  it('reports errors with the included file name', () => {
    const broken = path.join(dir, 'broken.conf');
    expect(() => parseHoconFile(broken)).toThrow(`${broken}:1:1: required include "does-not-exist.conf" not found`);
  });

  it('resolves names against baseDir for sources without a filename', () => {
    const doc = parseHocon('include "common/defaults.conf"', { readInclude: fileIncludeReader({ baseDir: dir }) });
    expect(doc.resolve()).toEqual({ kubernetes: { namespace: 'data', replicas: 1 } });
  });

  it('treats a missing file as not found', () => {
    expect(fileIncludeReader()('no-such-file.conf', path.join(dir, 'main.conf'))).toBeUndefined();
  });
});
