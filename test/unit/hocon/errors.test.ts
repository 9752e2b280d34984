import { HoconError, parseHocon } from '../../../lib/hocon';

function parseError(text: string): HoconError {
  try {
    parseHocon(text, { filename: 'deploy.conf' });
  } catch (e) {
    if (e instanceof HoconError) return e;
    throw e;
  }
  throw new Error(`expected a HoconError for ${JSON.stringify(text)}`);
}

describe('parse errors', () => {
  it('carries filename, line and column separately and in the message', () => {
    const e = parseError('kubernetes {\n  replicas = 2\n  namespace }\n');
    expect(e).toBeInstanceOf(Error);
    expect(e.name).toBe('HoconError');
    expect(e).toMatchObject({ filename: 'deploy.conf', line: 3, column: 13 });
    expect(e.reason).toBe(`expected '=' ':' or '{' after key "namespace", found '}'`);
    expect(e.message).toBe(`deploy.conf:3:13: expected '=' ':' or '{' after key "namespace", found '}'`);
  });

  it('names the full dotted key', () => {
    expect(parseError('application.name = x\nkubernetes.namespace }').message).toBe(
      `deploy.conf:2:22: expected '=' ':' or '{' after key "kubernetes.namespace", found '}'`,
    );
  });

  it('omits the filename when there is none', () => {
    expect(() => parseHocon('a = [')).toThrow(
      /^1:6: expected '\]' to close the array opened at 1:5, found end of input$/,
    );
  });

  const cases: [name: string, hocon: string, message: string][] = [
    // unclosed things
    ['unclosed object', 'a {\n  b = 1\n', `3:1: expected '}' to close the object opened at 1:3, found end of input`],
    ['unclosed root object', '{ a = 1', `1:8: expected '}' to close the object opened at 1:1, found end of input`],
    ['unclosed array', 'a = [1, 2', `1:10: expected ']' to close the array opened at 1:5, found end of input`],
    [
      'unclosed nested array',
      'a = [[1]\nb = 2',
      `2:3: expected ',', ']' or a new line after an array element, found '='`,
    ],
    [
      'unclosed string at end of line',
      'a = "abc\nb = 1',
      `1:5: unterminated quoted string: expected '"', found end of line (use """ for multi-line strings)`,
    ],
    [
      'unclosed string at end of input',
      'a = "abc',
      `1:5: unterminated quoted string: expected '"', found end of input`,
    ],
    [
      'unclosed multi-line string',
      'a = """abc\n',
      `1:5: unterminated multi-line string: expected '"""', found end of input`,
    ],
    ['unbalanced closing brace', 'a = 1\n}', `2:1: unbalanced '}': the document has no opening '{'`],
    ['text after the root object', '{ a = 1 } b = 2', `1:11: expected end of input after the root object, found 'b'`],
    // separators
    ['missing key separator', 'a 1', `1:4: expected '=' ':' or '{' after key "a 1", found end of input`],
    [
      'key alone on its line',
      'kubernetes {\n  namespace\n  replicas = 2\n}',
      `2:12: expected '=' ':' or '{' after key "namespace", found end of line`,
    ],
    ['key with a quoted segment', 'a."b.c" ]', `1:9: expected '=' ':' or '{' after key a."b.c", found ']'`],
    ['stray bracket after a value', 'a = 1 ]', `1:7: expected ',', '}' or a new line after a field, found ']'`],
    [
      'value after an array on the same line',
      'a = [1] b = 2',
      `1:9: cannot concatenate an array with a simple value ('b')`,
    ],
    [
      'colon in an unquoted value',
      'url = jdbc:mysql://host/db',
      `1:11: expected ',', '}' or a new line after a field, found ':' (unquoted text cannot contain ':'; quote the value)`,
    ],
    ['double comma in object', '{ a = 1,, b = 2 }', `1:9: expected a field or '}', found a second ','`],
    ['double comma in array', 'a = [1,,2]', `1:8: expected a value or ']' in array, found a second ','`],
    ['leading comma in array', 'a = [,1]', `1:6: expected a value or ']' in array, found ','`],
    [
      'missing array separator',
      'a : [ 1 2 }',
      `1:11: expected ',', ']' or a new line after an array element, found '}'`,
    ],
    // unexpected tokens
    ['missing value', 'a = ', `1:5: expected a value for key "a", found end of input`],
    ['value is a brace', 'a = }', `1:5: expected a value for key "a", found '}'`],
    ['missing key', '= 1', `1:1: expected a key or '}', found '='`],
    ['array at the root', '[1, 2]', `1:1: expected an object at the root of the document, found '['`],
    ['reserved character', 'a = 1 @ 2', `1:7: '@' is reserved and not allowed outside quotes; quote the value`],
    ['plus sign', 'a = 1 + 2', `1:7: '+' is not allowed outside quotes (did you mean '+='?); quote the value`],
    ['plus in a number', 'a = 1e+', `1:7: '+' is not allowed outside quotes; quote the value`],
    [
      'lone dollar',
      'a = $x',
      `1:5: '$' is not allowed outside quotes (substitutions are written \${path}); quote the value`,
    ],
    [
      'control character in a quoted string',
      'a = "tab\there"',
      `1:9: control character U+0009 is not allowed in a quoted string; use an escape`,
    ],
    [
      'empty path segment',
      'a..b = 1',
      `1:1: invalid key 'a..b': a path cannot start or end with '.' or contain '..' (write an empty key as "")`,
    ],
    [
      'leading dot',
      '.a = 1',
      `1:1: invalid key '.a': a path cannot start or end with '.' or contain '..' (write an empty key as "")`,
    ],
    [
      '+= inside an array',
      'x = [ { a += 1 } ]',
      `1:11: '+=' cannot be used inside an array (there is no field to append to)`,
    ],
    [
      'object concatenated with a string',
      'a = {x=1} "s"',
      `1:11: cannot concatenate an object with a simple value ('s')`,
    ],
    ['array concatenated with an object', 'a = [1] {x=1}', `1:9: cannot concatenate an array with an object`],
    // escapes
    [
      'invalid escape',
      'a = "\\x"',
      `1:6: invalid escape sequence '\\x' in quoted string (valid: \\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)`,
    ],
    ['invalid unicode escape', 'a = "\\u12G4"', `1:6: invalid escape '\\u12G4': expected 4 hex digits after \\u`],
    // substitution syntax
    [
      'unclosed substitution',
      'a = ${',
      `1:7: unclosed substitution: expected '}' to end the substitution started at 1:5, found end of input`,
    ],
    [
      'substitution across a line',
      'a = ${b\n}',
      `1:8: unclosed substitution: expected '}' to end the substitution started at 1:5, found end of line`,
    ],
    ['empty substitution', 'a = ${}', `1:5: empty path in substitution \${}`],
    [
      'substitution path ending with a dot',
      'a = ${a.}',
      `1:5: invalid path in substitution \${a.} 'a.': a path cannot start or end with '.' or contain '..' (write an empty key as "")`,
    ],
    [
      'nested substitution',
      'a = ${${b}}',
      `1:7: bad substitution syntax: unexpected '$' in \${...}; expected a path and '}'`,
    ],
    [
      'bracket in a substitution',
      'a = ${[x]}',
      `1:7: bad substitution syntax: unexpected '[' in \${...}; expected a path and '}'`,
    ],
    [
      'space before ?',
      'a = ${ ?b}',
      `1:8: bad substitution syntax: unexpected '?' in \${...}; expected a path and '}'`,
    ],
    ['substitution as a key', '${a} = 1', `1:1: substitutions are not allowed in keys (found \${a})`],
    ['substitution inside a key', 'a${b} = 1', `1:2: substitutions are not allowed in keys (found \${b})`],
    // include syntax
    [
      'include without a quoted name',
      'include foo',
      `1:1: expected a quoted file name after 'include' (include "x", include file("x"), include required(file("x"))), found 'foo'`,
    ],
    [
      'include used as a key',
      'include = 1',
      `1:1: expected a quoted file name after 'include' (include "x", include file("x"), include required(file("x"))), found '='`,
    ],
  ];

  it.each(cases)('%s', (_name, hocon, message) => {
    expect(parseError(hocon).message).toBe(`deploy.conf:${message}`);
  });

  it('counts lines through multi-line strings', () => {
    expect(parseError('a = """x\ny\nz"""\nb = @').message).toMatch(/^deploy\.conf:4:5: /);
  });
});
