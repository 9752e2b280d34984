// Cutting a byte stream into whole lines, bounded: a Pod's log arrives cut anywhere, even inside
// a character. Used by the CLI's \`logs\` (lib/submit/observe/logs.ts) and by the runtime, which
// keeps each worker's last lines before deleting it.

import { StringDecoder } from 'node:string_decoder';

/** Longest line kept; the rest of a longer line is dropped (a runaway line must not fill memory). */
export const MAX_LINE_CHARS = 64 * 1024;

/**
 * Cuts a byte stream into lines (UTF-8, `\r\n` or `\n`) and hands each whole line to `emit`; a
 * line longer than `max` characters is emitted cut, with a note, and its rest is skipped.
 */
export class LineSplitter {
  private readonly decoder = new StringDecoder('utf8');
  private partial = '';
  private skipping = false;

  constructor(
    private readonly emit: (line: string) => void,
    private readonly max = MAX_LINE_CHARS,
  ) {}

  push(chunk: Buffer | string): void {
    let text = typeof chunk === 'string' ? chunk : this.decoder.write(chunk);
    let nl: number;
    while ((nl = text.indexOf('\n')) >= 0) {
      const piece = text.slice(0, nl);
      text = text.slice(nl + 1);
      if (this.skipping) this.skipping = false;
      else {
        const line = stripCr(this.partial + piece);
        this.emit(line.length > this.max ? this.cut(line) : line);
      }
      this.partial = '';
    }
    if (this.skipping) return;
    this.partial += text;
    if (this.partial.length > this.max) {
      this.emit(this.cut(this.partial));
      this.partial = '';
      this.skipping = true;
    }
  }

  /** The end of the stream: a last line without a newline is still a line. */
  end(): void {
    const rest = this.partial + this.decoder.end();
    this.partial = '';
    if (rest && !this.skipping) this.emit(stripCr(rest));
    this.skipping = false;
  }

  private cut(line: string): string {
    return `${line.slice(0, this.max)} [line cut at ${this.max} characters]`;
  }
}

const stripCr = (s: string) => (s.endsWith('\r') ? s.slice(0, -1) : s);
