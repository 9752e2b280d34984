// What a command prints: human lines on stdout (SeaTunnel's `Application ID:` / `Job ID:` /
// `Status:` lines), or one JSON document with `--output json` for scripts. Warnings and progress
// go to stderr so stdout stays parseable. Every printer escapes control characters (printable.ts):
// much of what is printed comes from the cluster.

import { printable, printableJson } from './printable';

import { bigintsAsText } from '../model/issues';

/** What `--output json` prints: one object, or an array of them (list). */
export type JsonDocument = Record<string, unknown> | Array<Record<string, unknown>>;

export interface Output {
  readonly json: boolean;
  result(data: JsonDocument, lines: readonly string[]): void;
  line(text: string): void;
  warn(text: string): void;
  error(text: string): void;
  /**
   * Progress while waiting (stderr). When `interactive`, each call redraws one line in place and
   * `done` ends it; otherwise each call is a plain line. Optional: outputs without it show none.
   */
  progress?(text: string, done?: boolean): void;
  /** True when progress can be redrawn in place (stderr is a terminal). */
  readonly interactive?: boolean;
}

export function consoleOutput(
  json: boolean,
  stdout: NodeJS.WritableStream = process.stdout,
  stderr: NodeJS.WritableStream = process.stderr,
): Output {
  const interactive = (stderr as NodeJS.WriteStream).isTTY === true && process.env.TERM !== 'dumb';
  let open = false;
  const endLine = () => {
    if (open) stderr.write('\n');
    open = false;
  };
  return {
    json,
    interactive,
    result(data, lines) {
      endLine();
      if (json) stdout.write(`${printableJson(JSON.stringify(data, bigintsAsText, 2))}\n`);
      else for (const l of lines) stdout.write(`${printable(l)}\n`);
    },
    line(text) {
      endLine();
      if (!json) stdout.write(`${printable(text)}\n`);
    },
    warn(text) {
      endLine();
      stderr.write(`warning: ${printable(text, true)}\n`);
    },
    error(text) {
      endLine();
      stderr.write(`${printable(text, true)}\n`);
    },
    progress(raw, done) {
      const text = printable(raw);
      if (!interactive) {
        if (text) stderr.write(`${text}\n`);
        return;
      }
      const columns = (stderr as NodeJS.WriteStream).columns || 100;
      const fitted = text.length >= columns ? `${text.slice(0, Math.max(0, columns - 2))}…` : text;
      stderr.write(`\r\x1b[2K${fitted}`);
      open = true;
      if (done) endLine();
    },
  };
}

/**
 * Rows as lines of left-aligned columns two spaces apart, every cell escaped first (so the widths
 * are those printed). The last column is not padded: put free text (a name) there, where a wide
 * character cannot shift the columns after it.
 */
export function table(rows: ReadonlyArray<readonly string[]>): string[] {
  const cells = rows.map((r) => r.map((c) => printable(c)));
  const widths: number[] = [];
  for (const r of cells) r.forEach((c, i) => (widths[i] = Math.max(widths[i] ?? 0, c.length)));
  return cells.map((r) =>
    r
      .map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i])))
      .join('  ')
      .trimEnd(),
  );
}
