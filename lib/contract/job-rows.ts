// The job's progress in rows, as the runtime records it on the Job (`seatunnel.apache.org/rows`)
// and `status`, `list` and `status --wait` read it back (issue 28 item 4). The counts are Zeta's
// own job metrics (job-info's `metrics.SourceReceivedCount` / `SinkWriteCount`, summed over every
// source and sink); the rate is the runtime's, from two of its readings.

/** How often at most the runtime writes the rows annotation (each write is a PATCH of the Job). */
export const ROWS_RECORD_INTERVAL_MS = 10_000;

export interface JobRows {
  /** Rows the sources read so far. */
  readonly read: number;
  /** Rows the sinks wrote so far. */
  readonly written: number;
  /** Rows written per second between the runtime's last two readings; absent after the first. */
  readonly perSecond?: number;
  /** When the runtime read the counts (ISO time, whole seconds). */
  readonly at: string;
}

const count = (v: unknown): number | undefined => {
  const n = typeof v === 'string' && /^\d{1,16}$/.test(v) ? Number(v) : v;
  return typeof n === 'number' && Number.isSafeInteger(n) && n >= 0 ? n : undefined;
};

/** The rows annotation's value: compact JSON, well under 200 bytes. */
export function rowsAnnotation(rows: JobRows): string {
  return JSON.stringify({
    read: rows.read,
    written: rows.written,
    ...(rows.perSecond !== undefined ? { perSecond: rows.perSecond } : {}),
    at: rows.at,
  });
}

/** Reads the annotation back; undefined for anything that is not what the runtime writes. */
export function parseRowsAnnotation(text: string | undefined): JobRows | undefined {
  if (!text || text.length > 512) return undefined;
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!v || typeof v !== 'object') return undefined;
  const o = v as Record<string, unknown>;
  const read = count(o.read);
  const written = count(o.written);
  const perSecond = count(o.perSecond);
  if (read === undefined || written === undefined || typeof o.at !== 'string' || Number.isNaN(Date.parse(o.at)))
    return undefined;
  return { read, written, ...(perSecond !== undefined ? { perSecond } : {}), at: o.at };
}

/**
 * The rows in Zeta's job-info `metrics` (2.3.8: `SourceReceivedCount` and `SinkWriteCount`, numbers
 * or decimal strings); undefined when either is missing.
 */
export function rowsOfZetaMetrics(metrics: unknown): { read: number; written: number } | undefined {
  if (!metrics || typeof metrics !== 'object') return undefined;
  const m = metrics as Record<string, unknown>;
  const read = count(m.SourceReceivedCount);
  const written = count(m.SinkWriteCount);
  return read === undefined || written === undefined ? undefined : { read, written };
}
