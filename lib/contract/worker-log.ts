// The workers' last log lines, kept after the end (docs/runtime.md, "The workers' last lines"):
// before the runtime deletes the workers it reads a bounded tail of each one's log and writes it
// into its own log, one runtime line per worker line, which survives in the finished Job's Pod
// (until the Job's TTL). The CLI's `logs` finds those lines again by this mark when the worker
// Pods are gone.

/** What is kept of each worker's log, at most. */
export const WORKER_LOG_TAIL = {
  /** The last lines asked of the API (PodLogOptions.tailLines). */
  lines: 200,
  /** Bytes kept per worker (the newest lines win). */
  bytesPerWorker: 32 * 1024,
  /** Bytes kept of all workers together: with many workers each keeps its share of this. */
  bytesInAll: 512 * 1024,
  /** How long reading one worker's log may take. */
  readTimeoutMs: 5_000,
} as const;

/** The runtime log message of a recorded worker line: `worker log <pod> | <line>`. */
const MARK = 'worker log ';
const SEPARATOR = ' | ';

/** The runtime log message that carries one line of `pod`'s log. */
export function recordedWorkerLine(pod: string, line: string): string {
  return `${MARK}${pod}${SEPARATOR}${line}`;
}

/**
 * The worker line a line of the runtime's log carries, if it is one: after the runtime's own
 * prefix (`<time> INFO  runtime: `), with or without the API's `--timestamps` in front.
 */
export function parseRecordedWorkerLine(logLine: string): { pod: string; line: string } | undefined {
  const m = /^(?:\S+ )?\S+ INFO {2}runtime: worker log (\S+) \| (.*)$/.exec(logLine);
  return m ? { pod: m[1], line: m[2] } : undefined;
}
