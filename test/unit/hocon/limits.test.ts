// Hostile input: every way a small document could ask for unbounded memory, time or stack ends in
// a HoconError at the place it happened (issue 11, item 15).
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_LIMITS, HoconError, parseHocon, parseJson, stringifyJson } from '../../../lib/hocon';
import { fileIncludeReader, InputFileError, readTextFile } from '../../../lib/hocon/file-include';

function hoconError(fn: () => unknown): HoconError {
  try {
    fn();
  } catch (e) {
    if (e instanceof HoconError) return e;
    throw e;
  }
  throw new Error('expected a HoconError');
}

const resolveError = (text: string, filename = 'job.conf') =>
  hoconError(() => parseHocon(text, { filename }).resolve());

describe('depth: an error at the place, never a stack overflow', () => {
  test.each([
    ['objects', `a = ${'{b = '.repeat(2000)}1${'}'.repeat(2000)}`],
    ['arrays', `a = ${'['.repeat(5000)}${']'.repeat(5000)}`],
    ['a dotted key', `a${'.b'.repeat(5000)} = 1`],
    ['objects without separators', `a ${'{b '.repeat(2000)}${'}'.repeat(2000)}`],
  ])('nesting 2000+ levels of %s', (_name, text) => {
    const e = resolveError(text);
    expect(e.message).toMatch(/^job\.conf:1:\d+: nested deeper than 100 levels/);
  });

  test('100 levels are fine', () => {
    expect(() => parseHocon(`a = ${'['.repeat(99)}${']'.repeat(99)}`).resolve()).not.toThrow();
  });

  test('a chain of 5000 substitutions', () => {
    let text = '';
    for (let i = 0; i < 5000; i++) text += `a${i} = \${a${i + 1}}\n`;
    const e = resolveError(`${text}a5000 = 1\n`);
    expect(e.reason).toMatch(/^resolving goes deeper than 1000 levels/);
    expect(e.filename).toBe('job.conf');
  });

  test('3000 appends to one field (each refers to the one before)', () => {
    let text = 'a = []\n';
    for (let i = 0; i < 3000; i++) text += `a += ${i}\n`;
    expect(resolveError(text).reason).toMatch(/^resolving goes deeper than/);
  });

  test('includes nested inside deep objects count their include point', () => {
    const reader = () => ({ text: 'x { y { z = 1 } }', filename: 'inner.conf' });
    const text = `${'a { '.repeat(99)}include "inner.conf"${' }'.repeat(99)}`;
    const e = hoconError(() => parseHocon(text, { filename: 'main.conf', readInclude: reader }).resolve());
    expect(e.message).toBe(
      'inner.conf:1:7: nested deeper than 100 levels (objects, arrays and the segments of dotted keys each count)',
    );
  });

  test('an override path with more segments than the depth allows', () => {
    expect(hoconError(() => parseHocon('a = 1').withOverride(Array(200).fill('x').join('.'), 1)).reason).toMatch(
      /more than 100 segments/,
    );
  });
});

describe('expansion budget', () => {
  // The reproduction: 539 bytes asking for a 1.3 * 10^9-element array.
  const doubling = (() => {
    let text = 'a0 = [1,2,3,4,5,6,7,8,9,10]\n';
    for (let i = 1; i < 28; i++) text += `a${i} = \${a${i - 1}} \${a${i - 1}}\n`;
    return text;
  })();

  test('an array doubled by concatenation', () => {
    expect(doubling.length).toBeLessThan(600);
    const e = resolveError(doubling);
    expect(e.reason).toMatch(
      /^resolving takes more than 2000000 steps|^the resolved configuration would be larger than/,
    );
    expect(e.message).toMatch(/^job\.conf:\d+:\d+: /);
  });

  test('a string doubled by concatenation', () => {
    let text = 's0 = "xxxxxxxxxxxxxxxx"\n';
    for (let i = 1; i < 40; i++) text += `s${i} = \${s${i - 1}}\${s${i - 1}}\n`;
    expect(resolveError(text).reason).toMatch(/steps|larger than/);
  });

  test('one array referenced many times (shared in memory, copied in the output)', () => {
    const text = `big = [${Array(1000).fill(1).join(',')}]\nx = [${Array(20000).fill('${big}').join(',')}]\n`;
    const e = resolveError(text);
    expect(e.reason).toMatch(/^the resolved configuration would be larger than 8388608/);
    expect(e.line).toBe(2);
  });

  test('repeated self-referential object merges', () => {
    let text = 'a = {}\n';
    for (let i = 0; i < 400; i++) text += `a = \${a} { x${i} = 1 }\n`;
    expect(resolveError(text).reason).toMatch(/^resolving takes more than 2000000 steps/);
  });

  test('the limits can be tightened per document and per resolution', () => {
    const text = 'a = [1, 2, 3]\nb = ${a} ${a}';
    expect(parseHocon(text).resolve()).toEqual({ a: [1, 2, 3], b: [1, 2, 3, 1, 2, 3] });
    expect(hoconError(() => parseHocon(text, { limits: { maxResolvedSize: 5 } }).resolve()).message).toMatch(
      /^2:5: the resolved configuration would be larger than 5/,
    );
    expect(hoconError(() => parseHocon(text).resolve({ limits: { maxSteps: 10 } })).reason).toMatch(
      /more than 10 steps/,
    );
  });

  test('real configurations are far below the defaults', () => {
    const job = `env { parallelism = 2, job.mode = BATCH }\nsource { Jdbc { url = "jdbc:postgresql://"\${DB_HOST}":5432/app", query = "select * from t" } }\nsink { Console {} }\n`;
    const big =
      Array.from({ length: 2000 }, (_, i) => `k${i} { a = ${i}, b = "v${i}", c = [1, 2, \${?X}] }`).join('\n') +
      '\n' +
      job;
    expect(() =>
      parseHocon(big).resolve({ env: { DB_HOST: 'db' }, limits: { maxSteps: DEFAULT_LIMITS.maxSteps / 20 } }),
    ).not.toThrow();
  });
});

describe('source size', () => {
  test('a document larger than the cap', () => {
    const e = hoconError(() => parseHocon(`a = "${'x'.repeat(1024 * 1024)}"`, { filename: 'big.conf' }));
    expect(e.message).toBe('big.conf:1:1: the document is larger than 1 MiB characters');
  });

  test('includes count towards a total', () => {
    const reader = (name: string) => ({ text: `${name.replace('.conf', '')} = "${'x'.repeat(600)}"`, filename: name });
    const text = Array.from({ length: 10 }, (_, i) => `include "f${i}.conf"`).join('\n');
    const e = hoconError(() =>
      parseHocon(text, { filename: 'main.conf', readInclude: reader, limits: { maxTotalSourceChars: 5000 } }),
    );
    expect(e.message).toMatch(
      /^main\.conf:\d+:1: the document and its includes are larger than 5000 characters together/,
    );
  });
});

describe('include reads regular files of bounded size only', () => {
  const dir = mkdtempSync(join(tmpdir(), 'hocon-limits-'));
  mkdirSync(join(dir, 'a-directory'));
  writeFileSync(join(dir, 'big.conf'), `a = "${'x'.repeat(2048)}"`);
  writeFileSync(join(dir, 'ok.conf'), 'ok = true');
  const parse = (text: string, maxBytes?: number) =>
    parseHocon(text, { filename: join(dir, 'main.conf'), readInclude: fileIncludeReader({ maxBytes }) }).resolve();

  test.each([
    [
      'a device',
      'include "/dev/zero"',
      /^.*main\.conf:1:1: cannot include "\/dev\/zero": \/dev\/zero: is a device, expected a regular file$/,
    ],
    [
      'a directory',
      'a = 1\ninclude "a-directory"',
      /main\.conf:2:1: cannot include "a-directory": .*a-directory: is a directory, expected a regular file$/,
    ],
    [
      'a required device',
      'include required(file("/dev/null"))',
      /main\.conf:1:1: cannot include "\/dev\/null": \/dev\/null: is a device/,
    ],
  ])('%s is a configuration error at the include', (_name, text, message) => {
    expect(hoconError(() => parse(text)).message).toMatch(message);
  });

  test('a named pipe is refused without waiting for a writer', () => {
    const fifo = join(dir, 'pipe.conf');
    execFileSync('mkfifo', [fifo]);
    expect(hoconError(() => parse('include "pipe.conf"')).message).toMatch(
      /pipe\.conf: is a named pipe, expected a regular file$/,
    );
  });

  test('a file larger than the cap', () => {
    expect(hoconError(() => parse('include "big.conf"', 1024)).message).toMatch(
      /main\.conf:1:1: cannot include "big\.conf": .*big\.conf: is larger than 1 KiB bytes$/,
    );
    expect(parse('include "big.conf"\ninclude "ok.conf"')).toMatchObject({ ok: true });
  });

  test('a missing file is still just "not found"', () => {
    expect(parse('include "nope.conf"\ninclude "ok.conf"')).toEqual({ ok: true });
  });

  test('readTextFile: errors are typed, with the errno code', () => {
    expect(() => readTextFile(join(dir, 'nope'))).toThrow(
      new InputFileError(`${join(dir, 'nope')}: file not found`, 'ENOENT'),
    );
    expect(() => readTextFile('/dev/zero')).toThrow(InputFileError);
    expect(readTextFile(join(dir, 'ok.conf'))).toBe('ok = true');
  });
});

describe('JSON', () => {
  test('a comma on the line after a value (valid JSON) parses, in objects and arrays', () => {
    expect(parseHocon('{"a": [1\n, 2]\n, "b": 3}').resolve()).toEqual({ a: [1, 2], b: 3 });
    expect(parseHocon('a = 1\n\n, b = 2').resolve()).toEqual({ a: 1, b: 2 });
  });

  test('parseJson keeps 63-bit integers exact and is otherwise JSON.parse', () => {
    expect(parseJson('{"jobId":9223372036854775807,"n":[1.5,-2],"s":"x"}')).toEqual({
      jobId: 9223372036854775807n,
      n: [1.5, -2],
      s: 'x',
    });
    expect(parseJson('{"jobId":1234}')).toEqual({ jobId: 1234 });
    expect(parseJson('[1, "9007199254740993"]')).toEqual([1, '9007199254740993']);
    expect(stringifyJson(parseJson('{"id":9007199254740993}'))).toBe('{"id":9007199254740993}');
    expect(() => parseJson('{"a":1,}')).toThrow(SyntaxError);
  });
});
