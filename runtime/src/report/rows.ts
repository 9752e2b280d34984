// The job's rows on the Job (issue 28 item 4): the runtime reads Zeta's job-info every second
// anyway; this writes what it says of the rows at most every ROWS_RECORD_INTERVAL_MS (each write
// is a PATCH of the Job, and `status` needs no finer grain), with the rate since the last
// recording, and once more at the end with the final counts.

import { ROWS_RECORD_INTERVAL_MS, rowsAnnotation } from 'seatunnel-app/runtime-support';
import type { Clock } from '../clock';
import type { StatusPatch } from './reporter';

export class RowsRecorder {
  private last: { readonly at: number; readonly read: number; readonly written: number; rate?: number } | undefined;

  constructor(
    private readonly clock: Clock,
    private readonly annotate: (patch: StatusPatch) => void,
  ) {}

  /** A reading of the counts; `final`: the job's end, recorded whatever the interval. */
  seen(rows: { readonly read: number; readonly written: number }, final = false): void {
    const now = this.clock.now();
    const last = this.last;
    if (last && !final && now - last.at < ROWS_RECORD_INTERVAL_MS) return;
    const seconds = last ? (now - last.at) / 1000 : 0;
    const rate = last && seconds > 0 ? Math.max(0, Math.round((rows.written - last.written) / seconds)) : undefined;
    // Nothing new to say: the same counts and a rate already at what it would be.
    if (last && !final && rows.read === last.read && rows.written === last.written && last.rate === rate) return;
    this.annotate({
      rows: rowsAnnotation({
        read: rows.read,
        written: rows.written,
        ...(rate !== undefined && !final ? { perSecond: rate } : {}),
        at: this.clock
          .wallTime()
          .toISOString()
          .replace(/\.\d+Z$/, 'Z'),
      }),
    });
    this.last = { at: now, read: rows.read, written: rows.written, ...(rate !== undefined ? { rate } : {}) };
  }
}
