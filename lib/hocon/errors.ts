/** Where something is in a HOCON source: 1-based line and column (column counts UTF-16 code units). */
export interface Position {
  readonly filename: string | undefined;
  readonly line: number;
  readonly column: number;
  /**
   * The source here is an included file. Its text may be a secret (a token file, a credentials
   * snippet), so messages describe what is there by kind and position, never by content.
   */
  readonly included?: boolean;
}

/**
 * Any problem reading or resolving HOCON: syntax errors, unsupported or unreadable includes,
 * unresolvable or cyclic substitutions, type clashes in concatenations, exceeded limits.
 *
 * `message` is `file:line:column: reason` (just `line:column: reason` when the source has no
 * file name); the parts are also available separately. Messages never contain a resolved value
 * (it may have come from the environment or an include) nor text of an included file: they name
 * kinds, keys of the document itself, substitutions as written, and positions.
 */
export class HoconError extends Error {
  /** File the problem is in, as given to `parseHocon` (or returned by `readInclude`). */
  readonly filename: string | undefined;
  readonly line: number;
  readonly column: number;
  /** The message without the location prefix. */
  readonly reason: string;

  constructor(pos: Position, reason: string) {
    super(`${formatPosition(pos)}: ${reason}`);
    this.name = 'HoconError';
    this.filename = pos.filename;
    this.line = pos.line;
    this.column = pos.column;
    this.reason = reason;
  }
}

export function formatPosition(pos: Position): string {
  return pos.filename === undefined ? `${pos.line}:${pos.column}` : `${pos.filename}:${pos.line}:${pos.column}`;
}
