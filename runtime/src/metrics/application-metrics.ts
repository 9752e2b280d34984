// The runtime's own metrics: what it tells the Job (the status annotations, StatusPatch) is also
// kept here, so /metrics says the same as `status` — and keeps saying it while the API server is
// away, when the annotations cannot be written. Fed by the reporter (every patch it is given) and
// read by the metrics server.

import { parseRowsAnnotation, PHASES } from 'seatunnel-app/runtime-support';
import type { Clock } from '../clock';
import type { StatusPatch } from '../report/reporter';
import { sample, type Family, type Labels } from './exposition';

export interface ApplicationIdentity {
  readonly appId: string;
  readonly jobName: string;
  readonly jobId: string;
  readonly ha: boolean;
}

const count = (v: string | null | undefined): number | undefined => {
  const n = v == null || v === '' ? NaN : Number(v);
  return Number.isFinite(n) && n >= 0 ? n : undefined;
};

export class ApplicationMetrics {
  private phase: string | undefined;
  private readonly numbers: Partial<Record<NumberKey, number>> = {};
  private jobStatus: string | undefined;
  private submittingAt: number | undefined;
  private submitToRunningSeconds: number | undefined;

  constructor(
    readonly identity: ApplicationIdentity,
    private readonly clock: Clock,
  ) {}

  /** The labels every sample of this application carries. */
  get labels(): Labels {
    return { application: this.identity.appId };
  }

  /** A patch the reporter was given (before it is written: the API server may be away). */
  record(patch: StatusPatch): void {
    if (patch.phase) this.phaseSeen(patch.phase, patch.phaseTimes);
    for (const [key, annotation] of NUMBER_ANNOTATIONS) {
      const n = count(patch[annotation]);
      if (n !== undefined) this.numbers[key] = n;
    }
    if (patch.zetaJobStatus) this.jobStatus = patch.zetaJobStatus;
    const rows = parseRowsAnnotation(patch.rows ?? undefined);
    if (rows) {
      this.numbers.rowsRead = rows.read;
      this.numbers.rowsWritten = rows.written;
      if (rows.perSecond !== undefined) this.numbers.rowsPerSecond = rows.perSecond;
    }
  }

  private phaseSeen(phase: string, phaseTimes: string | null | undefined): void {
    this.phase = phase;
    if (phase === 'Submitting') this.submittingAt ??= this.clock.now();
    if (phase !== 'Running' || this.submitToRunningSeconds !== undefined) return;
    if (this.submittingAt !== undefined) {
      this.submitToRunningSeconds = (this.clock.now() - this.submittingAt) / 1000;
      return;
    }
    // A coordinator that re-attached did not see the submission: the times recorded on the Job
    // (whole seconds) still tell it.
    try {
      const times = JSON.parse(phaseTimes ?? '{}') as Record<string, unknown>;
      const [from, to] = [Date.parse(String(times.Submitting)), Date.parse(String(times.Running))];
      if (Number.isFinite(from) && Number.isFinite(to) && to >= from) this.submitToRunningSeconds = (to - from) / 1000;
    } catch {
      // not recorded: the gauge stays absent
    }
  }

  families(): Family[] {
    const { identity, labels } = this;
    const n = this.numbers;
    const gauge = (name: string, help: string, value: number | undefined, type = 'gauge'): Family => ({
      name,
      help,
      type,
      samples: value === undefined ? [] : [sample(name, labels, value)],
    });
    return [
      {
        name: 'seatunnel_app_info',
        help: 'The application: its Zeta job name and id, and whether it runs with HA masters.',
        type: 'gauge',
        samples: [
          sample(
            'seatunnel_app_info',
            { ...labels, job_name: identity.jobName, job_id: identity.jobId, ha: String(identity.ha) },
            1,
          ),
        ],
      },
      {
        name: 'seatunnel_app_phase',
        help: "The application's lifecycle phase (1 for the current one), as `status` shows it.",
        type: 'gauge',
        samples: this.phase
          ? PHASES.map((p) => sample('seatunnel_app_phase', { ...labels, phase: p }, p === this.phase ? 1 : 0))
          : [],
      },
      {
        name: 'seatunnel_app_job_status',
        help: "The Zeta job's last status the runtime read (1 for it).",
        type: 'gauge',
        samples: this.jobStatus ? [sample('seatunnel_app_job_status', { ...labels, status: this.jobStatus }, 1)] : [],
      },
      gauge(
        'seatunnel_app_workers_desired',
        'Workers the application runs (application.worker-count).',
        n.workersDesired,
      ),
      gauge(
        'seatunnel_app_workers_registered',
        "Workers registered with Zeta's resource manager.",
        n.workersRegistered,
      ),
      gauge('seatunnel_app_masters_ready', 'HA masters ready (the StatefulSet says so).', n.mastersReady),
      gauge('seatunnel_app_master_failovers_total', 'HA master Pods replaced so far.', n.masterFailovers, 'counter'),
      gauge(
        'seatunnel_app_workers_replaced_total',
        'Workers replaced so far (worker-failure-policy replace).',
        n.workersReplaced,
        'counter',
      ),
      gauge(
        'seatunnel_app_submit_to_running_seconds',
        'Seconds from the submission of the job to Zeta reporting it RUNNING.',
        this.submitToRunningSeconds,
      ),
      gauge(
        'seatunnel_app_rows_read_total',
        "Rows the job's sources read (Zeta's job metrics, recorded every 10 s).",
        n.rowsRead,
        'counter',
      ),
      gauge(
        'seatunnel_app_rows_written_total',
        "Rows the job's sinks wrote (Zeta's job metrics, recorded every 10 s).",
        n.rowsWritten,
        'counter',
      ),
      gauge(
        'seatunnel_app_rows_written_per_second',
        'Rows written per second between the last two recordings.',
        n.rowsPerSecond,
      ),
    ];
  }
}

type NumberKey =
  | 'workersDesired'
  | 'workersRegistered'
  | 'mastersReady'
  | 'masterFailovers'
  | 'workersReplaced'
  | 'rowsRead'
  | 'rowsWritten'
  | 'rowsPerSecond';

const NUMBER_ANNOTATIONS = [
  ['workersDesired', 'workersDesired'],
  ['workersRegistered', 'workersRegistered'],
  ['mastersReady', 'mastersReady'],
  ['masterFailovers', 'masterFailovers'],
  ['workersReplaced', 'workersReplaced'],
] as const satisfies ReadonlyArray<readonly [NumberKey, keyof StatusPatch]>;
