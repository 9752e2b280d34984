// How long to wait for one job-info answer. Zeta builds it from the job's whole DAG and every
// worker's live metrics; for a job of thousands of tables on a master with a fraction of a core that
// takes longer than a status read usually may — seen on three real nodes: a stream of 2,100 tables
// on masters of 0.2 core answered SCHEDULED in time, then never within 5 s once RUNNING, and the
// application ended EngineUnreachable with its job running. A read abandoned at its timeout is
// asked again at once, so the master also works on answers nobody waits for any more. So the wait
// follows the answers: doubled after a read that timed out, three times an answer's own time after
// it; never under the floor, never over the ceiling.

export const ANSWER_FLOOR_MS = 5_000;
export const ANSWER_CEILING_MS = 60_000;
/** A later answer may be this much slower than the last one and still be waited for. */
const HEADROOM = 3;

export class AnswerTime {
  private current: number;

  constructor(
    private readonly floorMs = ANSWER_FLOOR_MS,
    private readonly ceilingMs = ANSWER_CEILING_MS,
  ) {
    this.current = floorMs;
  }

  /** How long the next read waits for its answer. */
  get timeoutMs(): number {
    return this.current;
  }

  /** A read answered after `ms`. */
  answered(ms: number): void {
    this.current = this.clamp(HEADROOM * ms);
  }

  /** A read got no answer within its timeout. */
  timedOut(): void {
    this.current = this.clamp(2 * this.current);
  }

  private clamp(ms: number): number {
    return Math.min(this.ceilingMs, Math.max(this.floorMs, Math.round(ms)));
  }
}
