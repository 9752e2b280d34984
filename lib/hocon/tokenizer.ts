import { HoconError, type Position } from './errors';
import { type PathPiece, pathFromPieces } from './path';

export type Punct = '{' | '}' | '[' | ']' | ',' | ':' | '=' | '+=';

export type Token =
  | { readonly kind: 'punct'; readonly value: Punct; readonly pos: Position }
  | { readonly kind: 'newline'; readonly pos: Position }
  // Whitespace is a token because value concatenation keeps the whitespace between values.
  | { readonly kind: 'ws'; readonly text: string; readonly pos: Position }
  | { readonly kind: 'quoted'; readonly value: string; readonly pos: Position }
  | { readonly kind: 'unquoted'; readonly text: string; readonly pos: Position }
  | { readonly kind: 'number'; readonly text: string; readonly pos: Position }
  | {
      readonly kind: 'subst';
      readonly path: readonly string[];
      readonly optional: boolean;
      readonly text: string;
      readonly pos: Position;
    }
  | { readonly kind: 'eof'; readonly pos: Position };

// Characters that end an unquoted string. Some have no meaning yet: the spec reserves them, so
// they are errors rather than text (a later HOCON version may give them a meaning).
const FORBIDDEN = new Set('$"{}[]:=,+#`^?!@*&\\');
const RESERVED = new Set('`^?!@*&\\');
const PUNCT = new Set('{}[],:=');
// HOCON whitespace: Unicode separators, ASCII whitespace, BOM and the file/group/record/unit
// separators 0x1C-0x1F (which JavaScript's \s does not cover).
// eslint-disable-next-line no-control-regex -- those separators are the point of this pattern
const WHITESPACE = /[\s\x1C-\x1F]/;
function isWhitespace(c: string): boolean {
  const code = c.charCodeAt(0);
  if (code < 128) return code === 32 || (code >= 9 && code <= 13) || (code >= 0x1c && code <= 0x1f);
  return WHITESPACE.test(c);
}
const NUMBER_CHAR = /[0-9eE+\-.]/;
// JSON number syntax. A run of number characters that does not match (1.2.3, 2024-01-01, -)
// is unquoted text, as in the reference implementation.
const JSON_NUMBER = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?$/;

/**
 * Splits HOCON text into tokens. Comments are dropped; the newline ending them is kept.
 * `included`: the text is an included file, whose content messages must not quote.
 */
export function tokenize(text: string, filename?: string, included = false): Token[] {
  return new Lexer(text, filename, included).run();
}

/** Describes a token for "found ..." in error messages (by kind only in an included file). */
export function describeToken(t: Token): string {
  if (t.pos.included) {
    if (t.kind === 'quoted') return 'a quoted string';
    if (t.kind === 'unquoted') return 'unquoted text';
    if (t.kind === 'number') return 'a number';
    if (t.kind === 'subst') return 'a substitution';
  }
  switch (t.kind) {
    case 'punct':
      return `'${t.value}'`;
    case 'newline':
      return 'end of line';
    case 'eof':
      return 'end of input';
    case 'ws':
      return 'whitespace';
    case 'quoted':
      return `quoted string ${JSON.stringify(t.value.length > 30 ? `${t.value.slice(0, 30)}...` : t.value)}`;
    case 'unquoted':
      return `'${t.text}'`;
    case 'number':
      return `number ${t.text}`;
    case 'subst':
      return `substitution ${t.text}`;
  }
}

class Lexer {
  private i = 0;
  private line = 1;
  private lineStart = 0;
  private readonly tokens: Token[] = [];

  constructor(
    private readonly text: string,
    private readonly filename: string | undefined,
    private readonly included: boolean,
  ) {}

  run(): Token[] {
    const { text } = this;
    while (this.i < text.length) {
      const c = text[this.i];
      const pos = this.pos();
      if (c === '\n') {
        this.i++;
        this.newLine();
        this.tokens.push({ kind: 'newline', pos });
      } else if (isWhitespace(c)) {
        this.tokens.push({ kind: 'ws', text: this.readWhitespace(), pos });
      } else if (c === '#' || this.startsComment()) {
        while (this.i < text.length && text[this.i] !== '\n') this.i++;
      } else if (PUNCT.has(c)) {
        this.i++;
        this.tokens.push({ kind: 'punct', value: c as Punct, pos });
      } else if (c === '+') {
        if (text[this.i + 1] !== '=') {
          throw new HoconError(pos, `'+' is not allowed outside quotes (did you mean '+='?); quote the value`);
        }
        this.i += 2;
        this.tokens.push({ kind: 'punct', value: '+=', pos });
      } else if (c === '"') {
        this.tokens.push({ kind: 'quoted', value: this.readQuoted(), pos });
      } else if (c === '$') {
        this.tokens.push(this.readSubstitution());
      } else if (RESERVED.has(c)) {
        throw reserved(pos, c);
      } else if (c === '-' || (c >= '0' && c <= '9')) {
        this.tokens.push(this.readNumberOrText());
      } else {
        this.tokens.push({ kind: 'unquoted', text: this.readUnquoted(), pos });
      }
    }
    this.tokens.push({ kind: 'eof', pos: this.pos() });
    return this.tokens;
  }

  private pos(): Position {
    const pos = { filename: this.filename, line: this.line, column: this.i - this.lineStart + 1 };
    return this.included ? { ...pos, included: true } : pos;
  }

  private newLine(): void {
    this.line++;
    this.lineStart = this.i;
  }

  private startsComment(): boolean {
    return this.text[this.i] === '/' && this.text[this.i + 1] === '/';
  }

  private readWhitespace(): string {
    const start = this.i;
    while (this.i < this.text.length && this.text[this.i] !== '\n' && isWhitespace(this.text[this.i])) this.i++;
    return this.text.slice(start, this.i);
  }

  private readUnquoted(): string {
    const start = this.i;
    while (this.i < this.text.length) {
      const c = this.text[this.i];
      if (isWhitespace(c) || FORBIDDEN.has(c) || this.startsComment()) break;
      this.i++;
    }
    return this.text.slice(start, this.i);
  }

  /**
   * A value starting with '-' or a digit is a number if its run of number characters is a JSON
   * number; otherwise (IP addresses, dates, `-Xmx1g`) it is unquoted text. Text right after a
   * number (`10s`) becomes a separate token that concatenates with it.
   */
  private readNumberOrText(): Token {
    const pos = this.pos();
    const start = this.i;
    while (this.i < this.text.length && NUMBER_CHAR.test(this.text[this.i])) this.i++;
    const run = this.text.slice(start, this.i);
    if (JSON_NUMBER.test(run)) return { kind: 'number', text: run, pos };
    const plus = run.indexOf('+');
    if (plus >= 0) {
      throw new HoconError({ ...pos, column: pos.column + plus }, `'+' is not allowed outside quotes; quote the value`);
    }
    return { kind: 'unquoted', text: run + this.readUnquoted(), pos };
  }

  private readQuoted(): string {
    const { text } = this;
    const open = this.pos();
    if (text.startsWith('"""', this.i)) return this.readTripleQuoted(open);
    this.i++;
    let out = '';
    for (;;) {
      if (this.i >= text.length)
        throw new HoconError(open, "unterminated quoted string: expected '\"', found end of input");
      const c = text[this.i];
      if (c === '"') {
        this.i++;
        return out;
      }
      if (c === '\n') {
        throw new HoconError(
          open,
          `unterminated quoted string: expected '"', found end of line (use """ for multi-line strings)`,
        );
      }
      if (c === '\\') {
        out += this.readEscape();
        continue;
      }
      if (c < ' ') {
        const code = c.charCodeAt(0).toString(16).padStart(4, '0');
        throw new HoconError(
          this.pos(),
          `control character U+${code} is not allowed in a quoted string; use an escape`,
        );
      }
      out += c;
      this.i++;
    }
  }

  private readEscape(): string {
    const pos = this.pos();
    const e = this.text[this.i + 1];
    this.i += 2;
    switch (e) {
      case '"':
      case '\\':
      case '/':
        return e;
      case 'b':
        return '\b';
      case 'f':
        return '\f';
      case 'n':
        return '\n';
      case 'r':
        return '\r';
      case 't':
        return '\t';
      case 'u': {
        const hex = this.text.slice(this.i, this.i + 4);
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) {
          throw new HoconError(
            pos,
            `invalid escape ${this.included ? '\\u' : `'\\u${hex}'`}: expected 4 hex digits after \\u`,
          );
        }
        this.i += 4;
        return String.fromCharCode(parseInt(hex, 16));
      }
      default: {
        const found =
          e === undefined
            ? 'end of input'
            : e === '\n'
              ? 'end of line'
              : this.included
                ? 'an unknown escape'
                : `'\\${e}'`;
        throw new HoconError(
          pos,
          `invalid escape sequence ${found} in quoted string (valid: \\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)`,
        );
      }
    }
  }

  /** `"""` strings: taken verbatim, no escapes; extra quotes before the closing `"""` belong to the text. */
  private readTripleQuoted(open: Position): string {
    const { text } = this;
    const start = this.i + 3;
    const close = text.indexOf('"""', start);
    if (close < 0) throw new HoconError(open, `unterminated multi-line string: expected '"""', found end of input`);
    let end = close + 3;
    while (text[end] === '"') end++;
    for (let k = this.i; k < end; k++) {
      if (text[k] === '\n') {
        this.i = k + 1;
        this.newLine();
      }
    }
    this.i = end;
    return text.slice(start, end - 3);
  }

  private readSubstitution(): Token {
    const { text } = this;
    const pos = this.pos();
    if (text[this.i + 1] !== '{') {
      throw new HoconError(
        pos,
        `'$' is not allowed outside quotes (substitutions are written \${path}); quote the value`,
      );
    }
    const start = this.i;
    this.i += 2;
    const optional = text[this.i] === '?';
    if (optional) this.i++;
    const pieces: PathPiece[] = [];
    for (;;) {
      const here = this.pos();
      const c = text[this.i];
      if (c === undefined || c === '\n') {
        throw new HoconError(
          here,
          `unclosed substitution: expected '}' to end the substitution started at ${pos.line}:${pos.column}, found ${c === undefined ? 'end of input' : 'end of line'}`,
        );
      }
      if (c === '}') {
        this.i++;
        break;
      }
      if (isWhitespace(c)) pieces.push({ text: this.readWhitespace(), quoted: false, whitespace: true });
      else if (c === '"') pieces.push({ text: this.readQuoted(), quoted: true, whitespace: false });
      else if (FORBIDDEN.has(c) || this.startsComment()) {
        throw new HoconError(here, `bad substitution syntax: unexpected '${c}' in \${...}; expected a path and '}'`);
      } else pieces.push({ text: this.readUnquoted(), quoted: false, whitespace: false });
    }
    const raw = text.slice(start, this.i);
    const path = pathFromPieces(pieces, pos, `path in substitution ${raw}`);
    return { kind: 'subst', path, optional, text: raw, pos };
  }
}

function reserved(pos: Position, c: string): HoconError {
  return new HoconError(pos, `'${c}' is reserved and not allowed outside quotes; quote the value`);
}
