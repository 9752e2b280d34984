import { HoconError, type Position } from './errors';

/**
 * One lexical piece of a path expression (a key or the inside of `${...}`). Paths are split on
 * `.` only outside quotes, so the pieces must remember whether they were quoted; numbers are
 * kept as written (`10.0foo` is the path `10` / `0foo`).
 */
export interface PathPiece {
  readonly text: string;
  readonly quoted: boolean;
  readonly whitespace: boolean;
}

/** Builds path segments from the pieces of a key or substitution; `what` names it in errors. */
export function pathFromPieces(pieces: readonly PathPiece[], pos: Position, what: string): string[] {
  let start = 0;
  let end = pieces.length;
  // Whitespace around a path expression is not part of it; whitespace inside is ("a b" : 1).
  while (start < end && pieces[start].whitespace) start++;
  while (end > start && pieces[end - 1].whitespace) end--;
  if (start === end) throw new HoconError(pos, `empty ${what}`);
  const raw = () =>
    pieces
      .slice(start, end)
      .map((p) => (p.quoted ? JSON.stringify(p.text) : p.text))
      .join('');
  const segments: string[] = [];
  let current = '';
  let hasCurrent = false; // distinguishes an empty quoted segment ("") from a missing one (a..b)
  for (const piece of pieces.slice(start, end)) {
    if (piece.quoted) {
      current += piece.text;
      hasCurrent = true;
      continue;
    }
    for (const ch of piece.text) {
      if (ch !== '.') {
        current += ch;
        hasCurrent = true;
        continue;
      }
      if (!hasCurrent) throw emptySegment(pos, what, raw);
      segments.push(current);
      current = '';
      hasCurrent = false;
    }
  }
  if (!hasCurrent) throw emptySegment(pos, what, raw);
  segments.push(current);
  return segments;
}

function emptySegment(pos: Position, what: string, raw: () => string): HoconError {
  return new HoconError(
    pos,
    `invalid ${what}${pos.included ? '' : ` '${raw()}'`}: a path cannot start or end with '.' or contain '..' (write an empty key as "")`,
  );
}

const PLAIN_SEGMENT = /^[A-Za-z0-9_\-/]+$/;

/**
 * Renders path segments as a HOCON path expression, quoting segments that need it:
 * `['a', 'b.c', '']` → `a."b.c".""`.
 */
export function formatHoconPath(segments: readonly string[]): string {
  return segments.map((s) => (PLAIN_SEGMENT.test(s) && !s.includes('//') ? s : JSON.stringify(s))).join('.');
}
