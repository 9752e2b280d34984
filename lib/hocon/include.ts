// Include statements: which file `include ...` names, and the source it leads to. The parser
// (parser.ts) collects the statement's tokens and parses the source it is handed back.

import { HoconError } from './errors';
import { describeToken, type Token } from './tokenizer';

/** The text of an included file and the name to report (and to resolve its own includes against). */
export interface IncludedSource {
  readonly text: string;
  readonly filename: string;
}

/**
 * Finds the file named by an include statement. `name` is as written in the include;
 * `from` is the filename of the including source (undefined if it has none), so relative names
 * can be resolved against its directory. Return undefined if there is no such file.
 */
export type IncludeReader = (name: string, from: string | undefined) => IncludedSource | undefined;

/**
 * The tokens after `include`, as the parser collected them: `file("x")` tokenizes as unquoted
 * `file(`, quoted `x`, unquoted `)`, so `shape` is the unquoted text with '"' standing for each
 * quoted name (it can never occur in unquoted text), `name` the quoted text.
 */
export interface IncludeArgument {
  shape: string;
  name: string | undefined;
  quotedCount: number;
}

/** An include statement's argument, as `include "x"`, `include file("x")`, `include required(...)`. */
const INCLUDE_SHAPE = /^(?:(required)\((?:(file|url|classpath)\("\)|")\)|(?:(file|url|classpath)\("\)|"))$/;
const LOOKS_LIKE_URL = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//;
const MAX_INCLUDE_DEPTH = 50;

/**
 * The source an include statement leads to, and the include stack to parse it under (the files
 * including it, itself last); undefined for an optional include whose file does not exist.
 * `keyword` is the `include` token, `after` the token following the argument.
 * @throws HoconError for a malformed argument, a URL or classpath include, an unreadable or missing
 * required file, or a cycle.
 */
export function followInclude(
  keyword: Token,
  arg: IncludeArgument,
  after: Token,
  readInclude: IncludeReader | undefined,
  includeStack: readonly string[],
): { source: IncludedSource; stack: string[] } | undefined {
  const { shape, name } = arg;
  const m = arg.quotedCount === 1 ? INCLUDE_SHAPE.exec(shape) : null;
  if (!m || name === undefined) {
    const found =
      shape === ''
        ? describeToken(after)
        : keyword.pos.included
          ? 'something else'
          : `'${shape.replaceAll('"', '"..."')}'`;
    throw new HoconError(
      keyword.pos,
      `expected a quoted file name after 'include' (include "x", include file("x"), include required(file("x"))), found ${found}`,
    );
  }
  const required = m[1] !== undefined;
  const kind = m[2] ?? m[3] ?? 'plain';
  if (kind === 'url' || kind === 'classpath' || (kind === 'plain' && LOOKS_LIKE_URL.test(name))) {
    throw new HoconError(
      keyword.pos,
      `include ${kind === 'plain' ? 'of a URL' : `${kind}(...)`} is not supported; only files can be included`,
    );
  }
  const from = keyword.pos.filename;
  const shown = keyword.pos.included ? 'a file' : JSON.stringify(name);
  if (!readInclude) {
    throw new HoconError(keyword.pos, `cannot include ${shown}: includes are not enabled (no readInclude was given)`);
  }
  let source: IncludedSource | undefined;
  try {
    source = readInclude(name, from);
  } catch (e) {
    // A directory, a device, a file too large or unreadable: a configuration error at the include.
    if (e instanceof HoconError) throw e;
    throw new HoconError(keyword.pos, `cannot include ${shown}: ${e instanceof Error ? e.message : String(e)}`);
  }
  if (!source) {
    if (required) throw new HoconError(keyword.pos, `required include ${shown} not found`);
    return undefined;
  }
  const stack = includeStack.length > 0 || from === undefined ? includeStack : [from];
  if (stack.includes(source.filename) || stack.length >= MAX_INCLUDE_DEPTH) {
    throw new HoconError(keyword.pos, `include cycle: ${[...stack, source.filename].join(' -> ')}`);
  }
  return { source, stack: [...stack, source.filename] };
}
