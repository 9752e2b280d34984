// Whose word on the job's end counts (docs/ha.md, "A job's end counts as the majority of the
// masters reports it"): a terminal status one master reported is checked with the topology — with
// HA, the cluster holding a majority of the masters — before the application acts on it.

import type { JobInfo } from '../engine/port';
import { ZETA_TERMINAL } from '../outcome';
import type { MasterTopology } from '../topology/topology';
import type { Step } from './context';

export class JobEndJudge {
  private unconfirmedSince: number | undefined;
  /** The end a master reported was outvoted by the majority (said once while it lasts). */
  private outvoted = false;

  constructor(
    private readonly s: Step,
    private readonly master: Pick<MasterTopology, 'confirmEnd'>,
  ) {}

  /**
   * The job as the application may act on it, given what one master answered: the same when it is
   * not an end; the majority's answer when there is one; `wait` while no majority answers, up to the
   * engine budget — after that the end as reported.
   */
  async judge(jobId: string, info: JobInfo): Promise<JobInfo | 'wait'> {
    const { clock, log } = this.s.deps;
    if (!info.status || !ZETA_TERMINAL.has(info.status)) {
      this.unconfirmedSince = undefined;
      this.outvoted = false;
      return info;
    }
    const confirmed = await this.s.interruption.guard(this.master.confirmEnd(jobId, info));
    if (confirmed) {
      const outvoted = confirmed.status !== info.status;
      if (outvoted && !this.outvoted)
        log.warn("a master outside the masters' majority reported the job's end; the majority's answer counts", {
          jobId,
          reported: info.status,
          majority: confirmed.status ?? 'unknown',
        });
      this.outvoted = outvoted;
      this.unconfirmedSince = undefined;
      return confirmed;
    }
    const now = clock.now();
    if (this.unconfirmedSince === undefined) {
      log.warn("no majority of the masters confirms the job's end yet; waiting for one", {
        jobId,
        status: info.status,
      });
      this.unconfirmedSince = now;
    }
    if (now - this.unconfirmedSince < this.s.tuning.engineUnreachableMs) return 'wait';
    log.warn("no majority of the masters answered; the job's end is taken as reported", {
      jobId,
      status: info.status,
      waitedMs: now - this.unconfirmedSince,
    });
    return info;
  }
}
