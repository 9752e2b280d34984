// Error messages describe kinds and positions, never values that came from the environment (a
// Secret) or text of an included file (a token file): the runtime copies them into the Job's
// annotations and Events (issue 11, item 7).
import { HoconError, parseHocon, type IncludeReader } from '../../../lib/hocon';

const SECRET = 'hunter2-S3cr3t';

function message(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    if (e instanceof HoconError) return e.message;
    throw e;
  }
  throw new Error('expected a HoconError');
}

describe('values from the environment', () => {
  const env = { DB_PASSWORD: SECRET };
  test.each([
    [
      'an array concatenated with it',
      'a = [1] ${DB_PASSWORD}',
      '1:9: cannot concatenate an array with a string (from ${DB_PASSWORD})',
    ],
    [
      'it concatenated with an array',
      'a = ${DB_PASSWORD} [1]',
      '1:5: cannot concatenate an array with a string (from ${DB_PASSWORD})',
    ],
    [
      'it concatenated with an object',
      'a = ${DB_PASSWORD} { x = 1 }',
      '1:5: ${DB_PASSWORD} is concatenated with an object, so it must be an object, but it is a string',
    ],
    [
      'an object with it',
      'o { x = 1 }\na = ${o} "pw="${DB_PASSWORD}',
      '2:10: cannot concatenate an object (from ${o}) with a string',
    ],
  ])('%s: kind and position only', (_name, text, expected) => {
    const m = message(() => parseHocon(text).resolve({ env }));
    expect(m).toBe(expected);
    expect(m).not.toContain(SECRET);
  });

  test('through a field that holds it', () => {
    const m = message(() => parseHocon('pw = ${DB_PASSWORD}\nlist = [1] ${pw}').resolve({ env }));
    expect(m).not.toContain(SECRET);
    expect(m).toBe('2:12: cannot concatenate an array with a string (from ${pw})');
  });
});

describe('text of an included file', () => {
  const files: Record<string, string> = {
    'token.conf': `${SECRET}\n`,
    'quoted.conf': `"${SECRET}"`,
    'assignment.conf': `password = "${SECRET}" ]`,
    'escape.conf': `password = "${SECRET}\\q"`,
    'path.conf': `${SECRET}..x = 1`,
    'clash.conf': `password = [1] ${SECRET}`,
    'object-clash.conf': `password = { a = 1 } ${SECRET}`,
    'include-shape.conf': `include ${SECRET}("x")`,
  };
  const reader: IncludeReader = (name) => (name in files ? { text: files[name], filename: name } : undefined);

  test.each(Object.keys(files))('a syntax error in %s shows where, not what', (name) => {
    const m = message(() => parseHocon(`include "${name}"`, { filename: 'job.conf', readInclude: reader }).resolve());
    expect(m).toMatch(new RegExp(`^${name.replace('.', '\\.')}:\\d+:\\d+: `));
    expect(m).not.toContain(SECRET);
    expect(m).not.toContain(SECRET.slice(0, 7));
  });

  test('a token file included as HOCON names the included file and line', () => {
    expect(message(() => parseHocon('include "token.conf"', { filename: 'job.conf', readInclude: reader }))).toBe(
      "token.conf:1:15: expected '=' ':' or '{' after a key, found end of line",
    );
  });

  test('the document itself is still quoted (the user wrote it)', () => {
    expect(message(() => parseHocon('a = [1] b'))).toBe("1:9: cannot concatenate an array with a simple value ('b')");
  });
});
