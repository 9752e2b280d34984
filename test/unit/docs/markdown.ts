// What the documentation tests read of a Markdown page: its prose, without fenced code blocks.

import { readdirSync } from 'node:fs';
import { join } from 'node:path';

/** The page's lines, each line inside a fenced code block (and the fences) blanked: line numbers stay. */
export function prose(text: string): string[] {
  let fenced = false;
  return text.split('\n').map((line) => {
    if (/^\s*(```|~~~)/.test(line)) {
      fenced = !fenced;
      return '';
    }
    return fenced ? '' : line;
  });
}

/** A prose line without its inline code spans, link targets and HTML tags: the words a reader reads. */
export function words(line: string): string {
  return line
    .replace(/`[^`]*`/g, ' ')
    .replace(/\]\([^)]*\)/g, ']')
    .replace(/<[^>]+>/g, ' ');
}

/** The `.md` files directly in `dir` (relative to the repository root), sorted. */
export function pagesIn(root: string, dir: string): string[] {
  return readdirSync(join(root, dir))
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => `${dir}/${f}`);
}
