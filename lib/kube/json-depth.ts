// JSON.parse has no depth limit, and deep nesting is what makes it expensive: a 10 MB answer of
// `[` took the CLI to about 1.2 GB of memory well inside the 32 MiB body cap. An API server's
// answers nest a few dozen levels at most (a CRD's schema perhaps a hundred), so an answer nested
// deeper than MAX_JSON_DEPTH is refused before it is parsed, by one pass over its text.

/** Deeper than any object the Kubernetes API returns. */
export const MAX_JSON_DEPTH = 512;

const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** Whether `text`, read as JSON, nests arrays and objects deeper than `max` (strings are skipped). */
export function nestsDeeperThan(text: string, max: number = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      for (i++; i < text.length; i++) {
        const s = text.charCodeAt(i);
        if (s === BACKSLASH) i++;
        else if (s === QUOTE) break;
      }
    } else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      if (++depth > max) return true;
    } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) depth--;
  }
  return false;
}
