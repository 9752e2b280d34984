import {
  type ArrNode,
  type LitNode,
  type Node,
  NumberLiteral,
  type ObjNode,
  type SubstNode,
  type WsPart,
  mergeNodes,
  nest,
} from './ast';
import { concatenate, keyword, lit } from './concatenation';
import { HoconError, type Position } from './errors';
import { type IncludeArgument, type IncludeReader, followInclude } from './include';
import { type HoconLimits, formatSize } from './limits';
import { type PathPiece, formatHoconPath, pathFromPieces } from './path';
import { type Token, describeToken, tokenize } from './tokenizer';

export interface ParseSettings {
  readonly readInclude?: IncludeReader;
  readonly limits: HoconLimits;
  /** Characters parsed so far, the document's and its includes' (shared by all their parsers). */
  readonly spent: { chars: number };
}

/**
 * Parses a whole source into its root object. `basePath` is the include point (for included
 * files), `includeStack` the files including this one, `at` the include statement (or undefined
 * for the document itself).
 */
export function parseRoot(
  text: string,
  filename: string | undefined,
  settings: ParseSettings,
  basePath: readonly string[] = [],
  includeStack: readonly string[] = [],
  at?: Position,
): ObjNode {
  const { limits, spent } = settings;
  const where = at ?? { filename, line: 1, column: 1 };
  const what = at ? `the included file ${filename}` : 'the document';
  if (text.length > limits.maxSourceChars) {
    throw new HoconError(where, `${what} is larger than ${formatSize(limits.maxSourceChars)} characters`);
  }
  spent.chars += text.length;
  if (spent.chars > limits.maxTotalSourceChars) {
    throw new HoconError(
      where,
      `the document and its includes are larger than ${formatSize(limits.maxTotalSourceChars)} characters together`,
    );
  }
  const tokens = tokenize(text, filename, includeStack.length > 0);
  return new Parser(tokens, settings, basePath, includeStack).parseDocument();
}

/**
 * Parses a path expression such as `kubernetes.namespace` or `a."b.c".d` into its segments.
 * @throws HoconError if it is not a valid path.
 */
export function parseHoconPath(path: string, filename = '<path>'): string[] {
  const tokens = tokenize(path, filename);
  const pieces: PathPiece[] = [];
  for (const t of tokens) {
    if (t.kind === 'eof') break;
    const piece = keyPiece(t);
    if (!piece) throw new HoconError(t.pos, `invalid path ${JSON.stringify(path)}: unexpected ${describeToken(t)}`);
    pieces.push(piece);
  }
  return pathFromPieces(pieces, tokens[0].pos, 'path');
}

function keyPiece(t: Token): PathPiece | undefined {
  switch (t.kind) {
    case 'quoted':
      return { text: t.value, quoted: true, whitespace: false };
    case 'unquoted':
    case 'number':
      return { text: t.text, quoted: false, whitespace: false };
    case 'ws':
      return { text: t.text, quoted: false, whitespace: true };
    default:
      return undefined;
  }
}

class Parser {
  private k = 0;
  /** Objects and arrays (and dotted-key segments) around the value being parsed; see `deeper`. */
  private depth: number;

  constructor(
    private readonly tokens: Token[],
    private readonly settings: ParseSettings,
    private readonly basePath: readonly string[],
    private readonly includeStack: readonly string[],
  ) {
    this.depth = basePath.length;
  }

  /** Bounds the nesting, so that a deep document is an error and not a stack overflow. */
  private deeper(levels: number, pos: Position): void {
    this.depth += levels;
    const max = this.settings.limits.maxDepth;
    if (this.depth > max) {
      throw new HoconError(
        pos,
        `nested deeper than ${max} levels (objects, arrays and the segments of dotted keys each count)`,
      );
    }
  }

  parseDocument(): ObjNode {
    this.skipBlank();
    const first = this.peek();
    if (first.kind === 'punct' && first.value === '[') {
      throw new HoconError(first.pos, `expected an object at the root of the document, found '['`);
    }
    if (first.kind === 'punct' && first.value === '{') {
      this.k++;
      const root = this.parseFields(this.basePath, first);
      this.skipBlank();
      const after = this.peek();
      if (after.kind !== 'eof') {
        throw new HoconError(after.pos, `expected end of input after the root object, found ${describeToken(after)}`);
      }
      return root;
    }
    // No root braces: the document is the body of an object that ends at end of input.
    return this.parseFields(this.basePath, undefined);
  }

  private peek(): Token {
    return this.tokens[this.k];
  }

  private next(): Token {
    return this.tokens[this.k++];
  }

  private skipWs(): void {
    while (this.peek().kind === 'ws') this.k++;
  }

  private skipBlank(): void {
    while (this.peek().kind === 'ws' || this.peek().kind === 'newline') this.k++;
  }

  /**
   * Skips whitespace after a field or array element. A comma may follow on a later line and is
   * then the separator (JSON allows `[1\n, 2]`; so does the reference implementation).
   */
  private skipToSeparator(): void {
    this.skipWs();
    if (this.peek().kind !== 'newline') return;
    const atNewline = this.k;
    this.skipBlank();
    if (!this.isPunct(this.peek(), ',')) this.k = atNewline;
  }

  /**
   * The separator after an object's field or an array's element: one ',', a new line, or nothing
   * before the closing bracket or the end of input (which the caller's loop then checks).
   */
  private separator(after: 'field' | 'element'): void {
    const close = after === 'field' ? '}' : ']';
    this.skipToSeparator();
    const sep = this.peek();
    if (this.isPunct(sep, ',')) {
      this.k++;
      this.skipBlank();
      if (this.isPunct(this.peek(), ',')) {
        const expected = after === 'field' ? "a field or '}'" : "a value or ']' in array";
        throw new HoconError(this.peek().pos, `expected ${expected}, found a second ','`);
      }
    } else if (!(sep.kind === 'newline' || sep.kind === 'eof' || this.isPunct(sep, close))) {
      const reserved = sep.kind === 'punct' && (sep.value === ':' || sep.value === '=') ? sep.value : undefined;
      const hint =
        after === 'field' && reserved ? ` (unquoted text cannot contain '${reserved}'; quote the value)` : '';
      const what = after === 'field' ? 'a field' : 'an array element';
      throw new HoconError(
        sep.pos,
        `expected ',', '${close}' or a new line after ${what}, found ${describeToken(sep)}${hint}`,
      );
    }
  }

  private isPunct(t: Token, value: string): boolean {
    return t.kind === 'punct' && t.value === value;
  }

  /**
   * Fields up to the closing '}' (or end of input when `open` is undefined: a root without
   * braces). `objPath` is this object's absolute path, or null inside arrays (where `+=` has no
   * field to refer to).
   */
  private parseFields(objPath: readonly string[] | null, open: Token | undefined): ObjNode {
    const fields = new Map<string, Node>();
    const pos = open?.pos ?? this.peek().pos;
    const add = (key: string, value: Node) => {
      const existing = fields.get(key);
      fields.set(key, existing === undefined ? value : mergeNodes(existing, value));
    };
    for (;;) {
      this.skipBlank();
      const t = this.peek();
      if (t.kind === 'eof') {
        if (open)
          throw new HoconError(
            t.pos,
            `expected '}' to close the object opened at ${open.pos.line}:${open.pos.column}, found end of input`,
          );
        break;
      }
      if (this.isPunct(t, '}')) {
        if (!open) throw new HoconError(t.pos, `unbalanced '}': the document has no opening '{'`);
        this.k++;
        break;
      }
      if (t.kind === 'unquoted' && t.text === 'include') {
        const included = this.parseInclude(objPath);
        for (const [key, value] of included.fields) add(key, value);
      } else {
        const [segments, value] = this.parseField(objPath);
        add(segments[0], nest(segments, value, t.pos));
      }
      this.separator('field');
    }
    return { t: 'obj', fields, pos };
  }

  private parseField(objPath: readonly string[] | null): [string[], Node] {
    const start = this.peek();
    const pieces: PathPiece[] = [];
    for (let piece = keyPiece(start); piece; piece = keyPiece(this.peek())) {
      pieces.push(piece);
      this.k++;
    }
    if (pieces.every((p) => p.whitespace)) {
      const found = this.peek();
      if (found.kind === 'subst')
        throw new HoconError(
          found.pos,
          `substitutions are not allowed in keys${found.pos.included ? '' : ` (found ${found.text})`}`,
        );
      throw new HoconError(start.pos, `expected a key or '}', found ${describeToken(start)}`);
    }
    const segments = pathFromPieces(pieces, start.pos, 'key');
    this.skipWs();
    const lineEnd = this.peek();
    this.skipBlank(); // a newline may separate the key from its separator
    const sep = this.peek();
    const formatted = formatHoconPath(segments);
    const keyText = start.pos.included ? 'a key' : `key ${formatted.includes('"') ? formatted : `"${formatted}"`}`;
    if (sep.kind === 'subst')
      throw new HoconError(
        sep.pos,
        `substitutions are not allowed in keys${sep.pos.included ? '' : ` (found ${sep.text})`}`,
      );
    if (!(sep.kind === 'punct' && ['=', ':', '+=', '{'].includes(sep.value))) {
      const found = lineEnd.kind === 'newline' ? lineEnd : sep; // point at the key's line, not the next one
      throw new HoconError(found.pos, `expected '=' ':' or '{' after ${keyText}, found ${describeToken(found)}`);
    }
    if (!this.isPunct(sep, '{')) {
      this.k++;
      this.skipBlank();
    }
    const fieldPath = objPath && [...objPath, ...segments];
    this.deeper(segments.length - 1, start.pos);
    const value = this.parseValue(fieldPath);
    this.depth -= segments.length - 1;
    if (!value) {
      const found = this.peek();
      throw new HoconError(found.pos, `expected a value for ${keyText}, found ${describeToken(found)}`);
    }
    if (this.isPunct(sep, '+=')) return [segments, this.appendTo(fieldPath, value, sep)];
    return [segments, value];
  }

  /** `a += v` means `a = ${?a} [v]`. */
  private appendTo(fieldPath: readonly string[] | null, value: Node, sep: Token): Node {
    if (!fieldPath)
      throw new HoconError(sep.pos, `'+=' cannot be used inside an array (there is no field to append to)`);
    const self: SubstNode = {
      t: 'subst',
      path: fieldPath,
      prefixLength: this.basePath.length,
      optional: true,
      text: `\${?${formatHoconPath(fieldPath.slice(this.basePath.length))}}`,
      mustBeObject: false,
      pos: sep.pos,
    };
    return { t: 'concat', parts: [self, { t: 'arr', items: [value], pos: value.pos }], pos: sep.pos };
  }

  /**
   * A value is one or more simple values, substitutions, arrays or objects on one line
   * (value concatenation). Returns undefined if there is no value at all.
   */
  private parseValue(objPath: readonly string[] | null): Node | undefined {
    const parts: (Node | WsPart)[] = [];
    const first = this.peek();
    let pendingWs = '';
    for (;;) {
      const t = this.peek();
      if (t.kind === 'ws') {
        // Whitespace counts only between values: leading and trailing whitespace is dropped.
        if (parts.length > 0) pendingWs += t.text;
        this.k++;
        continue;
      }
      const part = this.parsePart(t, objPath);
      if (!part) break;
      if (pendingWs) parts.push({ t: 'ws', text: pendingWs });
      pendingWs = '';
      parts.push(part);
    }
    if (parts.length === 0) return undefined;
    if (parts.length === 1) return first.kind === 'unquoted' ? keyword(parts[0] as LitNode) : (parts[0] as Node);
    return concatenate(parts);
  }

  /** One value of a concatenation, or undefined (nothing consumed) if `t` cannot start one. */
  private parsePart(t: Token, objPath: readonly string[] | null): Node | undefined {
    switch (t.kind) {
      case 'quoted':
        this.k++;
        return lit(t.value, t.value, t.pos);
      case 'number':
        this.k++;
        return lit(NumberLiteral.parse(t.text), t.text, t.pos);
      case 'unquoted':
        this.k++;
        return lit(t.text, t.text, t.pos);
      case 'subst':
        this.k++;
        return {
          t: 'subst',
          path: [...this.basePath, ...t.path],
          prefixLength: this.basePath.length,
          optional: t.optional,
          text: t.text,
          mustBeObject: false,
          pos: t.pos,
        };
      case 'punct':
        if (t.value === '{' || t.value === '[') {
          this.k++;
          this.deeper(1, t.pos);
          const node = t.value === '{' ? this.parseFields(objPath, t) : this.parseArray(t);
          this.depth--;
          return node;
        }
        return undefined;
      default:
        return undefined;
    }
  }

  private parseArray(open: Token): ArrNode {
    const items: Node[] = [];
    for (;;) {
      this.skipBlank();
      const t = this.peek();
      if (this.isPunct(t, ']')) {
        this.k++;
        break;
      }
      if (t.kind === 'eof') {
        throw new HoconError(
          t.pos,
          `expected ']' to close the array opened at ${open.pos.line}:${open.pos.column}, found end of input`,
        );
      }
      const item = this.parseValue(null);
      if (!item) throw new HoconError(t.pos, `expected a value or ']' in array, found ${describeToken(t)}`);
      items.push(item);
      this.separator('element');
    }
    return { t: 'arr', items, pos: open.pos };
  }

  private parseInclude(objPath: readonly string[] | null): ObjNode {
    const keyword = this.next();
    this.skipBlank();
    const arg: IncludeArgument = { shape: '', name: undefined, quotedCount: 0 };
    while (['ws', 'quoted', 'unquoted'].includes(this.peek().kind)) {
      const t = this.next();
      if (t.kind === 'quoted') {
        arg.name = t.value;
        arg.quotedCount++;
        arg.shape += '"';
      } else if (t.kind === 'unquoted') arg.shape += t.text;
    }
    const target = followInclude(keyword, arg, this.peek(), this.settings.readInclude, this.includeStack);
    if (!target) return { t: 'obj', fields: new Map(), pos: keyword.pos };
    // Substitutions in the included file are relative to where it is included ("fixed up").
    const { source, stack } = target;
    return parseRoot(source.text, source.filename, this.settings, objPath ?? [], stack, keyword.pos);
  }
}
