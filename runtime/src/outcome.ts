// How an application ends: a final state, a reason (a CamelCase word, as Kubernetes reasons are)
// and a message for people, and the exit code contract of lib/model/reserved.ts EXIT_CODES that
// the Job's podFailurePolicy is wired to.

import { EXIT_CODES } from 'seatunnel-app/runtime-support';

export type FinalState = 'SUCCEEDED' | 'FAILED' | 'CANCELED';
export type ExitClass = keyof typeof EXIT_CODES;

/** Every reason the runtime reports, with the class of exit code it maps to. */
export const REASONS = {
  // the Zeta job itself
  JobFinished: 'succeeded',
  JobFailed: 'jobFailed',
  JobRejected: 'jobFailed',
  JobCanceled: 'canceled',
  Terminated: 'canceled',
  // the master Pod stopped by Kubernetes, not by a user (a user's cancel is Terminated)
  Evicted: 'infrastructure',
  Preempted: 'infrastructure',
  NodeLost: 'infrastructure',
  MasterUnhealthy: 'infrastructure',
  Killed: 'infrastructure',
  // workers and the Kubernetes API
  WorkerLost: 'infrastructure',
  Unschedulable: 'infrastructure',
  ErrImagePull: 'infrastructure',
  ImagePullBackOff: 'infrastructure',
  CreateContainerConfigError: 'infrastructure',
  InvalidImageName: 'infrastructure',
  ErrImageNeverPull: 'infrastructure',
  WorkerCreateRefused: 'infrastructure',
  StartupTimeout: 'infrastructure',
  ApiUnavailable: 'infrastructure',
  ApiError: 'infrastructure',
  CleanupFailed: 'infrastructure',
  InternalError: 'infrastructure',
  // the Pod's settings
  InvalidSettings: 'configuration',
  InvalidJobConfig: 'configuration',
  /** A source or sink the job names is not in the image's connectors/ (../steps/connector-check.ts). */
  ConnectorMissing: 'configuration',
  InvalidWorkerTemplate: 'configuration',
  CheckpointNotFound: 'configuration',
  // the Zeta master process
  EngineStartFailed: 'engine',
  EngineStartTimeout: 'engine',
  EngineExited: 'engine',
  EngineUnreachable: 'engine',
  /** With HA: every master was lost and Zeta no longer knows the submitted job (restore from its checkpoints). */
  JobLost: 'engine',
  /** With HA: the coordinators failed as often as application.ha.coordinator-restarts allows; the last one removed everything. */
  CoordinatorRestartsExhausted: 'infrastructure',
  /** With HA: the coordinator was stopped while the application goes on; another one re-attaches. */
  Detached: 'detached',
} as const satisfies Record<string, ExitClass>;

export type Reason = keyof typeof REASONS;

/** A failure that ends the application with `reason`; thrown or handed to the lifecycle. */
export class RuntimeFailure extends Error {
  constructor(
    readonly reason: Reason,
    message: string,
    /** The worker concerned, for worker failures. */
    readonly worker?: string,
  ) {
    super(message);
    this.name = 'RuntimeFailure';
  }
}

export interface Outcome {
  readonly state: FinalState;
  readonly reason: Reason;
  readonly message: string;
  readonly exitCode: number;
  /** Zeta's last known job status, when a job was submitted. */
  readonly zetaStatus?: string;
}

export function exitCodeOf(reason: Reason): number {
  return EXIT_CODES[REASONS[reason]];
}

export function stateOf(reason: Reason): FinalState {
  const cls = REASONS[reason];
  return cls === 'succeeded' ? 'SUCCEEDED' : cls === 'canceled' ? 'CANCELED' : 'FAILED';
}

export function outcome(reason: Reason, message: string, zetaStatus?: string): Outcome {
  return {
    state: stateOf(reason),
    reason,
    message,
    exitCode: exitCodeOf(reason),
    ...(zetaStatus ? { zetaStatus } : {}),
  };
}

export function outcomeOfError(e: unknown, zetaStatus?: string): Outcome {
  if (e instanceof RuntimeFailure) return outcome(e.reason, e.message, zetaStatus);
  const err = e as Error;
  return outcome('InternalError', `unexpected error: ${err?.stack ?? String(e)}`, zetaStatus);
}

/** Zeta's terminal `JobStatus` values (seatunnel-engine-core `JobStatus.java`; observed: tools/seatunnel/README.md §6). */
export const ZETA_TERMINAL = new Set(['FAILED', 'SAVEPOINT_DONE', 'CANCELED', 'FINISHED', 'UNKNOWABLE']);

/** FINISHED / SAVEPOINT_DONE → SUCCEEDED, CANCELED → CANCELED, everything else → FAILED. */
export function zetaReason(status: string): Reason {
  if (status === 'FINISHED' || status === 'SAVEPOINT_DONE') return 'JobFinished';
  if (status === 'CANCELED') return 'JobCanceled';
  return 'JobFailed';
}
