// The runtime's own log lines, on stderr next to the engine's output (`kubectl logs`):
//   2026-11-29T09:25:00.123Z INFO  runtime: created worker app-1-worker-2 attempt=1
// One line per record; values with spaces are quoted. Never log the job config or credentials.

export type Level = 'DEBUG' | 'INFO' | 'WARN' | 'ERROR';
export type Fields = Readonly<Record<string, string | number | boolean | undefined | null>>;

export interface Logger {
  debug(message: string, fields?: Fields): void;
  info(message: string, fields?: Fields): void;
  warn(message: string, fields?: Fields): void;
  error(message: string, fields?: Fields): void;
}

function value(v: string | number | boolean): string {
  const s = String(v);
  return /^[^\s"=]+$/.test(s) ? s : JSON.stringify(s);
}

export function formatLine(level: Level, message: string, fields: Fields = {}, at = new Date()): string {
  const kv = Object.entries(fields)
    .filter((e): e is [string, string | number | boolean] => e[1] !== undefined && e[1] !== null)
    .map(([k, v]) => `${k}=${value(v)}`)
    .join(' ');
  return `${at.toISOString()} ${level.padEnd(5)} runtime: ${message}${kv ? ` ${kv}` : ''}\n`;
}

export function createLogger(write: (line: string) => void = (l) => process.stderr.write(l), debug = false): Logger {
  const emit = (level: Level) => (message: string, fields?: Fields) => write(formatLine(level, message, fields));
  return {
    debug: debug ? emit('DEBUG') : () => undefined,
    info: emit('INFO'),
    warn: emit('WARN'),
    error: emit('ERROR'),
  };
}

/** A logger that keeps lines in memory (unit tests). */
export function memoryLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  return { ...createLogger((l) => lines.push(l.trimEnd()), true), lines };
}
