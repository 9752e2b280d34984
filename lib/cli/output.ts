// What a command prints: human lines on stdout (SeaTunnel's `Application ID:` / `Job ID:` /
// `Status:` lines), or one JSON document with `--output json` for scripts. Warnings and progress
// go to stderr so stdout stays parseable.

export interface Output {
  readonly json: boolean;
  result(data: Record<string, unknown>, lines: readonly string[]): void;
  line(text: string): void;
  warn(text: string): void;
  error(text: string): void;
}

export function consoleOutput(json: boolean, stdout: NodeJS.WritableStream = process.stdout, stderr: NodeJS.WritableStream = process.stderr): Output {
  return {
    json,
    result(data, lines) {
      if (json) stdout.write(`${JSON.stringify(data, (_k, v) => (typeof v === 'bigint' ? v.toString() : v), 2)}\n`);
      else for (const l of lines) stdout.write(`${l}\n`);
    },
    line(text) {
      if (!json) stdout.write(`${text}\n`);
    },
    warn(text) {
      stderr.write(`warning: ${text}\n`);
    },
    error(text) {
      stderr.write(`${text}\n`);
    },
  };
}
