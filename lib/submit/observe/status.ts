// status: the application's state derived from Kubernetes alone — the Job (conditions, suspend,
// deletion, the runtime's status annotations), the application's Pods (by the application-id
// label) and, when the master Pod does not exist, the Job's Warning events. Never from the
// master (no connection to it, no Zeta job ID needed). `deriveStatus` is the pure mapping; what
// the Pods show is read by application-pods.ts, why an application ended by failure.ts.
//
//   Observation (first match wins)                                       Status
//   no Job (HTTP 404)                                                     UNKNOWN (never CANCELED: there is no tombstone)
//   Job condition Complete (or SuccessCriteriaMet) = True                 SUCCEEDED
//   Job condition Failed (or FailureTarget) = True, cancelled (*)         CANCELED
//   Job condition Failed (or FailureTarget) = True                        FAILED, with the reason
//   master Pod Succeeded / Failed before the Job records it               SUCCEEDED / CANCELED (*) / FAILED
//   the runtime's terminal phase Succeeded (with finishedAt) recorded     SUCCEEDED
//   Job being deleted (deletionTimestamp) and not finished                CANCELED (cancel requested)
//   spec.suspend = true                                                   CREATED (submit has not started it)
//   master Pod Running                                                    RUNNING (phase and workers from the annotations)
//   otherwise (no master Pod yet, Pending)                                DEPLOYING, with the reason when one is known
//
//   (*) cancelled = the master container exited with the runtime's code 2 (EXIT_CODES.canceled,
//   also read from the Job's PodFailurePolicy condition message once the Pod is gone); without an
//   exit code, the runtime's terminal phase annotation says Canceled; without either, its Zeta job
//   status annotation is CANCELED.

import type { Job } from 'kubernetes-types/batch/v1';
import type { Event, Pod } from 'kubernetes-types/core/v1';
import { LABELS, TERMINAL_EXIT_CODES } from '../../model/reserved';
import { ANNOTATIONS, parseRowsAnnotation, type JobRows } from '../../contract';
import type { Kube, ObjectRef } from '../../kube';
import {
  isJobPod,
  masterPodOf,
  mastersSummary,
  podProblem,
  roleOf,
  terminated,
  workerSummary,
  type MastersSummary,
  type WorkerSummary,
} from './application-pods';
import { failure, isCanceled, jobCondition } from './failure';
import { imagePullBoundMs, judgeJobPodImagePull } from './image-pull';
import { runtimeImageMismatch, type RuntimeImageRecord } from './runtime-image';
import type { ApplicationStatus } from './statuses';

export { STATUSES, type ApplicationStatus } from './statuses';

export const TERMINAL_STATUSES: ReadonlySet<ApplicationStatus> = new Set(['SUCCEEDED', 'FAILED', 'CANCELED']);

export interface StatusObservation {
  readonly applicationId: string;
  readonly namespace: string;
  /** undefined: the Job does not exist (HTTP 404). */
  readonly job?: Job;
  /** Pods with the application-id label. */
  readonly pods: readonly Pod[];
  /** The Job's events (read only when the master Pod does not exist). */
  readonly events?: readonly Event[];
  /** When it was read (ms since the epoch): a master Pod that cannot pull its image is given up on after a bound. */
  readonly readAt?: number;
  /** The runtime image the package records (runtime-image.json): a master Pod that ran another build is warned about. */
  readonly runtimeImage?: RuntimeImageRecord;
}

export interface StatusReport {
  readonly applicationId: string;
  readonly namespace: string;
  /** application.name, from the Job's annotation (Jobs submitted before it was recorded have none). */
  readonly name?: string;
  /** When the Job was created. */
  readonly createdAt?: string;
  readonly status: ApplicationStatus;
  /** Short reason: Unschedulable, ErrImagePull, OOMKilled, the runtime's failure reason, … */
  readonly reason?: string;
  /** A sentence with the detail (scheduler message, condition message, Zeta error). */
  readonly message?: string;
  /** The runtime's phase annotation. */
  readonly phase?: string;
  readonly workers?: WorkerSummary;
  readonly zetaJobId?: string;
  readonly zetaJobStatus?: string;
  readonly finishedAt?: string;
  readonly masterPod?: string;
  /** With HA only. */
  readonly masters?: MastersSummary;
  /** The job's rows read and written and the rate, as the runtime last recorded them from Zeta's metrics. */
  readonly rows?: JobRows;
  /** Something wrong that does not decide the status (the runtime image of another build). */
  readonly warning?: string;
}

/**
 * With HA a coordinator Pod that ended without one of the runtime's terminal exit codes (it was
 * deleted, evicted or crashed) is retried by the Job: not the application's end.
 */
function coordinatorWillBeRetried(job: Job, pod: Pod | undefined): boolean {
  if (!pod || roleOf(pod) !== 'coordinator' || pod.status?.phase !== 'Failed') return false;
  if (jobCondition(job, 'Failed') ?? jobCondition(job, 'FailureTarget')) return false;
  const code = terminated(pod)?.exitCode;
  return code === undefined || !TERMINAL_EXIT_CODES.includes(code);
}

/** The pure mapping from what Kubernetes shows to the application's status. */
export function deriveStatus(obs: StatusObservation): StatusReport {
  const base = { applicationId: obs.applicationId, namespace: obs.namespace };
  const job = obs.job;
  if (!job) {
    const left = obs.pods.length;
    return {
      ...base,
      status: 'UNKNOWN',
      reason: 'NotFound',
      message:
        `no Job ${obs.applicationId} in namespace ${obs.namespace}: never submitted there, cancelled, or removed after its retention period (kubernetes.finished-job-retention-seconds)` +
        (left
          ? `; ${left} Pod(s) with its label remain (seatunnel-app cancel --id ${obs.applicationId} removes them)`
          : ''),
    };
  }
  const ann = job.metadata?.annotations ?? {};
  const master = masterPodOf(obs.pods);
  const rows = parseRowsAnnotation(ann[ANNOTATIONS.rows]);
  const otherBuild = master && obs.runtimeImage ? runtimeImageMismatch(master, obs.runtimeImage) : undefined;
  const common = {
    ...base,
    ...(ann[ANNOTATIONS.applicationName] ? { name: ann[ANNOTATIONS.applicationName] } : {}),
    ...(job.metadata?.creationTimestamp ? { createdAt: job.metadata.creationTimestamp } : {}),
    ...(ann[ANNOTATIONS.phase] ? { phase: ann[ANNOTATIONS.phase] } : {}),
    ...(ann[ANNOTATIONS.zetaJobId] ? { zetaJobId: ann[ANNOTATIONS.zetaJobId] } : {}),
    ...(ann[ANNOTATIONS.zetaJobStatus] ? { zetaJobStatus: ann[ANNOTATIONS.zetaJobStatus] } : {}),
    ...(ann[ANNOTATIONS.finishedAt] ? { finishedAt: ann[ANNOTATIONS.finishedAt] } : {}),
    ...(master?.metadata?.name ? { masterPod: master.metadata.name } : {}),
    ...(rows ? { rows } : {}),
    ...(otherBuild ? { warning: otherBuild } : {}),
  };
  const workers = workerSummary(job, obs.pods);
  const masters = mastersSummary(job, obs.pods);
  const withMasters = masters ? { masters } : {};
  const withWorkers = { ...(workers ? { workers } : {}), ...withMasters };

  const succeeded = jobCondition(job, 'Complete') ?? jobCondition(job, 'SuccessCriteriaMet');
  const failed = jobCondition(job, 'Failed') ?? jobCondition(job, 'FailureTarget');
  if (succeeded) return { ...common, ...withWorkers, status: 'SUCCEEDED' };
  if (coordinatorWillBeRetried(job, master) && !failed) {
    return {
      ...common,
      ...withWorkers,
      status: 'RUNNING',
      reason: 'CoordinatorRestarting',
      message: `the coordinator Pod ${master?.metadata?.name} ended (exit ${terminated(master)?.exitCode ?? 'unknown'}); the Job starts another, which re-attaches to the job`,
    };
  }
  if (failed || master?.status?.phase === 'Failed') {
    const f = failure(job, master);
    return { ...common, ...withWorkers, status: isCanceled(job, master) ? 'CANCELED' : 'FAILED', ...f };
  }
  if (master?.status?.phase === 'Succeeded') return { ...common, ...withWorkers, status: 'SUCCEEDED' };
  // The runtime's own account of a success, recorded once the job ended and the workers (with HA the
  // masters) were removed: the application's end, a second or two before Kubernetes shows it — the
  // container still stops its engine and exits, the kubelet reports the Pod, the Job controller sets
  // its condition (docs/performance.md, "On a real node"). A failure still waits for the Job or the
  // Pod: their exit code tells a cancel from a failure.
  if (ann[ANNOTATIONS.phase] === 'Succeeded' && ann[ANNOTATIONS.finishedAt])
    return { ...common, ...withWorkers, status: 'SUCCEEDED' };
  if (job.metadata?.deletionTimestamp) {
    return {
      ...common,
      ...withWorkers,
      status: 'CANCELED',
      reason: 'Deleting',
      message: `the Job is being deleted (since ${job.metadata.deletionTimestamp}); its Pods are stopping`,
    };
  }
  if (job.spec?.suspend) {
    return {
      ...common,
      status: 'CREATED',
      reason: 'Suspended',
      message: 'the Job is suspended: submit has not started it (yet)',
    };
  }
  if (master?.status?.phase === 'Running') {
    const problems = workers?.problems.length ? `workers not running: ${workers.problems.join('; ')}` : undefined;
    // The runtime's judgement (a cluster autoscaler adds a node, or may) comes before the scheduler's bare Unschedulable.
    const waitingForNode = ann[ANNOTATIONS.workersWaiting];
    if (waitingForNode)
      return {
        ...common,
        ...withWorkers,
        status: 'RUNNING',
        reason: 'WaitingForNode',
        message: `workers: ${waitingForNode}${problems ? `; ${problems}` : ''}`,
      };
    return { ...common, ...withWorkers, status: 'RUNNING', ...(problems ? { message: problems } : {}) };
  }
  // DEPLOYING: say why, when Kubernetes knows.
  if (master) {
    const pull =
      obs.readAt !== undefined
        ? judgeJobPodImagePull(master, imagePullBoundMs(job), obs.readAt, obs.applicationId)
        : undefined;
    if (pull) return { ...common, ...withMasters, status: 'FAILED', ...pull };
    const p = podProblem(master);
    if (p)
      return {
        ...common,
        ...withMasters,
        status: 'DEPLOYING',
        reason: p.reason,
        ...(p.message ? { message: `master Pod ${master.metadata?.name}: ${p.message}` } : {}),
      };
    return {
      ...common,
      ...withMasters,
      status: 'DEPLOYING',
      message: `master Pod ${master.metadata?.name} is ${master.status?.phase ?? 'Pending'}`,
    };
  }
  const warning = [...(obs.events ?? [])]
    .filter((e) => e.type === 'Warning')
    .sort((a, b) =>
      String(b.lastTimestamp ?? b.eventTime ?? '').localeCompare(String(a.lastTimestamp ?? a.eventTime ?? '')),
    )[0];
  if (warning)
    return {
      ...common,
      ...withMasters,
      status: 'DEPLOYING',
      reason: warning.reason ?? 'Warning',
      message: warning.message,
    };
  return {
    ...common,
    ...withMasters,
    status: 'DEPLOYING',
    message: 'waiting for the Job controller to create the master Pod',
  };
}

/**
 * Whether the status needs the Job's events: only to say why the master Pod does not exist yet
 * (e.g. a quota refusal), so not for a suspended or finished Job, nor once the master Pod exists.
 */
export function needsEvents(job: Job | undefined, pods: readonly Pod[]): job is Job {
  return (
    job !== undefined &&
    !job.spec?.suspend &&
    !pods.some(isJobPod) &&
    !job.status?.conditions?.some((c) => c.status === 'True' && ['Complete', 'Failed'].includes(c.type))
  );
}

/**
 * The one derivation `status` and `list` share: the application's report from its Job (undefined
 * when there is none), the Pods with its application-id label and the events about Jobs of its
 * name (only those of this Job's UID count: an earlier Job of the same name left its own).
 */
export function applicationStatus(
  applicationId: string,
  namespace: string,
  job: Job | undefined,
  pods: readonly Pod[],
  events?: readonly Event[],
  readAt?: number,
  runtimeImage?: RuntimeImageRecord,
): StatusReport {
  const own =
    needsEvents(job, pods) && events
      ? events.filter((e) => !job.metadata?.uid || !e.involvedObject?.uid || e.involvedObject.uid === job.metadata.uid)
      : undefined;
  return deriveStatus({
    applicationId,
    namespace,
    job,
    pods,
    ...(own ? { events: own } : {}),
    ...(readAt !== undefined ? { readAt } : {}),
    ...(runtimeImage ? { runtimeImage } : {}),
  });
}

/** The field selector of the events about Jobs (of one name, when given). */
export function jobEventsSelector(name?: string): string {
  return `involvedObject.kind=Job${name !== undefined ? `,involvedObject.name=${name}` : ''}`;
}

/** What status reads: the Job, the Pods with the application-id label, and (when read) the Job's Events. */
export interface ApplicationObjects {
  readonly job: Job | undefined;
  readonly pods: readonly Pod[];
  readonly events?: readonly Event[];
  /** When it was read (ms since the epoch). */
  readonly readAt: number;
}

/**
 * Reads the Job, the application's Pods and the Job's events — when the status needs them, or
 * always (`status --explain`) — with one list call per kind.
 */
export async function readApplication(
  kube: Kube,
  namespace: string,
  applicationId: string,
  opts: { events?: 'always' } = {},
): Promise<ApplicationObjects> {
  const ref: ObjectRef = { apiVersion: 'batch/v1', kind: 'Job', namespace, name: applicationId };
  const [job, pods] = await Promise.all([
    kube.find<Job>(ref),
    kube
      .list<Pod>('v1', 'Pod', namespace, { labelSelector: `${LABELS.applicationId}=${applicationId}` })
      .then((l) => l.items),
  ]);
  // Best effort: without the events the status is still right, only less specific.
  const events =
    (job && opts.events === 'always') || needsEvents(job, pods)
      ? await kube
          .list<Event>('v1', 'Event', namespace, { fieldSelector: jobEventsSelector(applicationId) })
          .then((l) => l.items)
          .catch(() => undefined)
      : undefined;
  return { job, pods, ...(events ? { events } : {}), readAt: Date.now() };
}

/** Reads the Job, the application's Pods and, when needed, the Job's events; then derives the status. */
export async function readStatus(
  kube: Kube,
  namespace: string,
  applicationId: string,
  runtimeImage?: RuntimeImageRecord,
): Promise<StatusReport> {
  const o = await readApplication(kube, namespace, applicationId);
  return applicationStatus(applicationId, namespace, o.job, o.pods, o.events, o.readAt, runtimeImage);
}

/** "1200 read, 1180 written, 118 rows/s": the rate only while the job runs (the runtime drops it at the end). */
export function rowsText(rows: JobRows): string {
  return `${rows.read} read, ${rows.written} written${rows.perSecond !== undefined ? `, ${rows.perSecond} rows/s` : ''}`;
}

/** The lines `status` prints after `Application ID:`. */
export function statusLines(r: StatusReport): string[] {
  const lines = [`Status: ${r.status}`];
  if (r.reason) lines.push(`Reason: ${r.reason}`);
  if (r.message) lines.push(`Message: ${r.message}`);
  const w = r.workers;
  if (r.phase || w) {
    const workers = w
      ? `workers ${w.registered ?? '?'}/${w.desired ?? '?'} registered${w.pods ? `, ${w.running}/${w.pods} worker Pods running` : ''}`
      : '';
    lines.push(`Phase: ${[r.phase, workers].filter(Boolean).join('; ')}`);
  }
  const m = r.masters;
  if (m) {
    const extra = [m.active ? `active ${m.active}` : '', m.failovers ? `${m.failovers} replaced so far` : '']
      .filter(Boolean)
      .join(', ');
    lines.push(`Masters: ${m.ready}/${m.desired} ready${extra ? ` (${extra})` : ''}`);
  }
  if (r.zetaJobId) lines.push(`Job ID: ${r.zetaJobId}${r.zetaJobStatus ? ` (Zeta status ${r.zetaJobStatus})` : ''}`);
  if (r.rows) lines.push(`Rows: ${rowsText(r.rows)} (recorded ${r.rows.at})`);
  if (r.warning) lines.push(`Warning: ${r.warning}`);
  return lines;
}
