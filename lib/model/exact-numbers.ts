// A number literal beyond a double's range (`1e400`) resolves to Infinity, which messages would
// print as "null". The resolved document's exact JSON still has the literal; this puts it back
// into the plain tree as an OutOfRangeNumber, so the option's error shows what was written.

import { OutOfRangeNumber } from './issues';

type Tree = Record<string, unknown>;

const hasNonFinite = (v: unknown): boolean => {
  if (typeof v === 'number') return !Number.isFinite(v);
  if (Array.isArray(v)) return v.some(hasNonFinite);
  if (typeof v === 'object' && v !== null) return Object.values(v).some(hasNonFinite);
  return false;
};

// A JSON string literal (skipped as a whole) or a JSON number.
const TOKEN = /"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g;
const MARK = '\u0000number:';

/**
 * Replaces every non-finite number in `tree` (resolved from the same document as `exactJson`) by
 * its literal text. Numbers are found by key in a shadow tree, not by order, so key order does not
 * matter. `tree` is changed in place.
 */
export function restoreOutOfRangeNumbers(tree: Tree, exactJson: () => string): void {
  if (!hasNonFinite(tree)) return;
  const marked = exactJson().replace(TOKEN, (tok) =>
    tok.startsWith('"') || Number.isFinite(Number(tok)) ? tok : JSON.stringify(`${MARK}${tok}`),
  );
  const walk = (real: unknown, shadow: unknown) => {
    if (typeof real !== 'object' || real === null || typeof shadow !== 'object' || shadow === null) return;
    for (const k of Object.keys(real)) {
      const r = (real as Tree)[k];
      const s = (shadow as Tree)[k];
      if (typeof r === 'number' && !Number.isFinite(r) && typeof s === 'string' && s.startsWith(MARK)) {
        (real as Tree)[k] = new OutOfRangeNumber(s.slice(MARK.length));
      } else walk(r, s);
    }
  };
  walk(tree, JSON.parse(marked));
}
