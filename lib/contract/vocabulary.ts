// The words the runtime uses to tell its story on the Job, and the words `status`, `list`,
// `cancel` and the timeline read back: the status annotations, the phases and the Event reasons.
// One list each, so a reader and a writer cannot drift apart (test/unit/contract/ checks that every
// annotation the observation code reads has a writer). Changing a value is a breaking change for
// running applications.

/** Status annotations on the application's Job. Who writes each is said beside it. */
export const ANNOTATIONS = {
  /** Runtime: the lifecycle phase (PHASES). */
  phase: 'seatunnel.apache.org/phase',
  /** Runtime: workers registered with Zeta so far / workers wanted. */
  workersRegistered: 'seatunnel.apache.org/workers-registered',
  workersDesired: 'seatunnel.apache.org/workers-desired',
  /** Runtime: while workers wait for a node (an autoscaler adds one, or may): which, and why; removed once all registered. */
  workersWaiting: 'seatunnel.apache.org/workers-waiting',
  /** Runtime: the Zeta job id and its last status. */
  zetaJobId: 'seatunnel.apache.org/job-id',
  zetaJobStatus: 'seatunnel.apache.org/job-status',
  /** Runtime: why the application failed or was cancelled, and the message (bounded). */
  reason: 'seatunnel.apache.org/failure-reason',
  message: 'seatunnel.apache.org/message',
  finishedAt: 'seatunnel.apache.org/finished-at',
  /**
   * `cancel --savepoint` sets it: the runtime stops the job with a savepoint (streaming jobs keep
   * their checkpoints for a restore), removes the workers and exits; then the Job is deleted.
   */
  cancelRequested: 'seatunnel.apache.org/cancel-requested',
  /** Plan: the worker template the runtime stamps workers from. */
  workerTemplate: 'seatunnel.apache.org/worker-template',
  /** Plan: application.name (the Zeta job name), so `list` shows it from the Job alone. */
  applicationName: 'seatunnel.apache.org/application-name',
  /**
   * Plan: application.image-pull-retry-millis, so `status` gives up on a master Pod that cannot
   * pull its image after the same time as the runtime on a worker (ImagePullFailed).
   */
  imagePullRetryMillis: 'seatunnel.apache.org/image-pull-retry-millis',
  /** Plan (HA): masters wanted. Runtime (HA): masters ready, the active master when known, master Pods replaced so far. */
  mastersDesired: 'seatunnel.apache.org/masters-desired',
  mastersReady: 'seatunnel.apache.org/masters-ready',
  activeMaster: 'seatunnel.apache.org/active-master',
  masterFailovers: 'seatunnel.apache.org/master-failovers',
  /** Runtime (HA): workers replaced so far (worker-failure-policy `replace`). */
  workersReplaced: 'seatunnel.apache.org/workers-replaced',
  /**
   * Runtime (HA): written — and confirmed by the API server — BEFORE the coordinator sends the job
   * to Zeta. A coordinator that finds it never submits again (docs/ha.md, "Re-attaching").
   */
  submissionIntent: 'seatunnel.apache.org/submission-intent',
  /**
   * Runtime (HA): the coordinator Pod in charge, written by each coordinator when it starts. A
   * coordinator that finds another's name here has been replaced (it was cut off, its Pod evicted)
   * and must not stop the job or remove anything: it detaches.
   */
  coordinator: 'seatunnel.apache.org/coordinator',
  /** Runtime (HA): set once Zeta acknowledged the submission. */
  submittedAt: 'seatunnel.apache.org/submitted-at',
  /**
   * Runtime (HA): the uid of each worker Pod a coordinator created, as JSON by worker index
   * ({"1":"<uid>",…}). A later coordinator adopts only a Pod whose uid is recorded here.
   */
  workerUids: 'seatunnel.apache.org/worker-uids',
  /**
   * Runtime: when each phase began, as compact JSON ({"Starting":"2026-01-01T00:00:00Z",…}; at most
   * one entry per PHASES value, so it stays small): `status --explain` tells the phases' durations
   * from it once the Events have expired.
   */
  phaseTimes: 'seatunnel.apache.org/phase-times',
  /**
   * Runtime: the job's rows read and written and the rate, from Zeta's job metrics, as compact
   * JSON (./job-rows.ts), at most every ROWS_RECORD_INTERVAL_MS and once more at the end.
   */
  rows: 'seatunnel.apache.org/rows',
} as const;

export type AnnotationKey = keyof typeof ANNOTATIONS;

/**
 * The annotations the runtime writes: the only keys of its Job that the admission fence lets it
 * change (lib/plan/admission-fence.ts, `seatunnel-app-job-fence`); the runtime's Reporter takes no other.
 */
export const RUNTIME_ANNOTATION_KEYS = [
  'phase',
  'workersRegistered',
  'workersDesired',
  'workersWaiting',
  'zetaJobId',
  'zetaJobStatus',
  'reason',
  'message',
  'finishedAt',
  'mastersReady',
  'activeMaster',
  'masterFailovers',
  'workersReplaced',
  'submissionIntent',
  'coordinator',
  'submittedAt',
  'workerUids',
  'phaseTimes',
  'rows',
] as const satisfies readonly AnnotationKey[];
export type RuntimeAnnotationKey = (typeof RUNTIME_ANNOTATION_KEYS)[number];

/** Values of the phase annotation, in lifecycle order; the last three are final. */
export const PHASES = [
  'Starting',
  'CreatingWorkers',
  'WaitingForWorkers',
  'Submitting',
  'Running',
  'Stopping',
  'CleaningUp',
  'Succeeded',
  'Failed',
  'Canceled',
] as const;
export type Phase = (typeof PHASES)[number];
export const FINAL_PHASES: ReadonlySet<string> = new Set<Phase>(['Succeeded', 'Failed', 'Canceled']);

/** Reasons of the Events the runtime records on its Job. */
export const EVENT_REASONS = [
  'QuotedPlaceholder',
  'Reattached',
  'CoordinatorDetached',
  'CoordinatorInCharge',
  'MastersReady',
  'MasterReplaced',
  'ActiveMasterChanged',
  'ActiveMasterRestarted',
  'WorkerReplaced',
  'WorkerRestarted',
  'WorkerRejoined',
  'WorkersCreating',
  'AllWorkersRegistered',
  'JobSubmitted',
  'WorkerLost',
  'WorkerFailed',
  'AdoptionFailed',
  'ApiUnavailable',
  'ApiAvailable',
  'Stopping',
  'CleanupFailed',
  'Succeeded',
  'Failed',
  'Canceled',
] as const;
export type EventReason = (typeof EVENT_REASONS)[number];

/** The component name of the runtime's Events (`source.component`, `reportingComponent`). */
export const EVENT_COMPONENT = 'seatunnel-app-runtime';
