// What the runtime does when something happens — a worker dies, the Job is deleted, SIGTERM, Zeta
// reports a status, the engine exits, an unexpected error — and how it stops the job at the end.
// Pure: the lifecycle (./lifecycle.ts) gathers the facts, asks here, and carries the answer out.
// runtime/test/unit/policy.test.ts has one row per rule.
//
// In short:
//   * Nothing is retried as implicit HA: a worker that is lost or can never start ends the
//     application (fail fast, never replaced) — unless the application itself is being deleted
//     (`cancel` deletes the workers, often before this Pod's SIGTERM): then it is a cancel.
//   * The first ending wins; once the application is ending every later happening is ignored.
//   * A submitted job is stopped before the workers go. A streaming job that is *terminated*
//     (`cancel`, SIGTERM, `cancel --savepoint`) keeps its checkpoints for a restore, as SeaTunnel's
//     application mode does by forcing `retain-after-job-cancelled`: Zeta 2.3.8 has no such setting
//     and deletes a job's checkpoints whenever a stop-job cancels it (CANCELED), so such a job is
//     stopped with a savepoint while its workers stay, and otherwise (the application is being
//     deleted: its workers are going away) never sent a plain stop — it ends with its workers and
//     the engine (FAILED, or the member shut down), which keeps the checkpoints.

import { engineText } from './report/redact';
import type { EngineExit } from './engine/port';
import { describeExit } from './engine/process';
import { outcome, stateOf, ZETA_TERMINAL, zetaReason, type Outcome, type Reason } from './outcome';
import type { EventReason, Phase } from './report/reporter';
import { describeDisruption, type StopCause } from './stop-cause';
import type { WorkerFailure } from './workers/assess';

/** Whether the Job or this Pod is being deleted; 'unknown' until asked. */
export type Deletion = 'deleting' | 'not-deleting' | 'unknown';

export interface Facts {
  /** The application is already ending (the first ending won, or cleanup is running). */
  readonly ending: boolean;
  readonly deletion: Deletion;
  /** env job.mode = STREAMING. */
  readonly streaming: boolean;
  /** `cancel --savepoint` set the cancel-requested annotation to `savepoint`. */
  readonly savepointRequested: boolean;
  /** Zeta acknowledged the submission: a job runs under a known id. */
  readonly submitted: boolean;
  /** Zeta's last known status of that job. */
  readonly zetaStatus?: string;
  /**
   * The application outlives this Pod (HA: this process is a coordinator that can be replaced;
   * its own end is not the application's, docs/ha.md).
   */
  readonly outlivesPod?: boolean;
}

export type Happening =
  /** The reconciler found a worker lost (deleted, Failed, terminating) or unable to start. */
  | { readonly type: 'WorkerFailed'; readonly failure: WorkerFailure }
  /** This Pod was asked to stop; `cause` once the lifecycle learnt why (./stop-cause.ts). */
  | { readonly type: 'SIGTERM'; readonly cause?: StopCause }
  /** The own Job as the watch sees it. */
  | { readonly type: 'OwnJob'; readonly deleting: boolean; readonly cancelRequested?: string }
  | { readonly type: 'OwnJobGone' }
  /** The Zeta master process ended without the runtime stopping it. */
  | { readonly type: 'EngineExited'; readonly exit: EngineExit }
  /** The worker Pods could not be listed/watched within the API failure budget. */
  | { readonly type: 'WorkersUnobservable'; readonly error: string }
  /** An exception nobody expected (a bug, a crash in a client): still stop and clean up. */
  | { readonly type: 'Unexpected'; readonly error: string }
  /** A /job-info answer; `workerFailure` is the reconciler's verdict at that moment. */
  | {
      readonly type: 'JobStatus';
      readonly jobId: string;
      readonly status: string;
      readonly errorMsg?: string;
      readonly workerFailure?: WorkerFailure;
    }
  /** /job-info failed; `engineError` = an EngineUnavailable/EngineRejected, not something unexpected. */
  | {
      readonly type: 'JobStatusUnreadable';
      readonly error: string;
      readonly engineError: boolean;
      readonly failingForMs: number;
      readonly limitMs: number;
    };

export type Decision =
  | { readonly do: 'continue' }
  /** Learn whether the Job or this Pod is being deleted, then decide again with the answer. */
  | { readonly do: 'ask-deletion' }
  /** Learn why this Pod was asked to stop, then decide again with the cause. */
  | { readonly do: 'ask-stop-cause' }
  /** End the application; `warn` is the Warning Event to record first. */
  | {
      readonly do: 'end';
      readonly reason: Reason;
      readonly message: string;
      readonly worker?: string;
      readonly warn?: EventReason;
    };

const CONTINUE: Decision = { do: 'continue' };

function end(reason: Reason, message: string, extra: { worker?: string; warn?: EventReason } = {}): Decision {
  return { do: 'end', reason, message, ...extra };
}

export function firstLine(s: string | undefined): string {
  return (s ?? '').split('\n')[0].trim();
}

/** What now, given the facts and what just happened. */
export function decide(f: Facts, h: Happening): Decision {
  if (f.ending) return CONTINUE;
  switch (h.type) {
    case 'WorkerFailed': {
      // A cancel deletes the workers too: judge a lost worker only knowing whether that is it.
      if (f.deletion === 'unknown') return { do: 'ask-deletion' };
      if (f.deletion === 'deleting')
        return end('Terminated', `the application is being deleted (e.g. by \`cancel\`); ${h.failure.message}`);
      const warn: EventReason = h.failure.reason === 'WorkerLost' ? 'WorkerLost' : 'WorkerFailed';
      return end(h.failure.reason, h.failure.message, { worker: h.failure.worker, warn });
    }
    case 'SIGTERM':
      if (!h.cause) return { do: 'ask-stop-cause' };
      return whenStopped(f, h.cause);
    case 'OwnJob':
      if (h.deleting) return end('Terminated', 'the application is being deleted (e.g. by `cancel`)');
      if (h.cancelRequested)
        return end('Terminated', `cancel requested${h.cancelRequested === 'savepoint' ? ' with a savepoint' : ''}`);
      return CONTINUE;
    case 'OwnJobGone':
      return end('Terminated', "the application's Job was deleted (e.g. by `cancel`)");
    case 'EngineExited':
      return h.exit.error
        ? end('EngineStartFailed', `the Zeta master ${describeExit(h.exit)}`)
        : end('EngineExited', `the Zeta master process ${describeExit(h.exit)} before the application ended`);
    case 'WorkersUnobservable':
      return end('ApiUnavailable', `lost track of the worker Pods: ${h.error}`);
    case 'Unexpected':
      return end('InternalError', `unexpected error: ${h.error}`);
    case 'JobStatus': {
      if (!ZETA_TERMINAL.has(h.status)) return CONTINUE;
      const reason = zetaReason(h.status);
      if (reason === 'JobFinished') return end(reason, `Zeta job ${h.jobId} ended ${h.status}`);
      if (reason === 'JobCanceled') return end(reason, `Zeta job ${h.jobId} was canceled in the engine`);
      // A worker loss makes Zeta fail the job too: report the root cause, not the symptom.
      const w = h.workerFailure;
      // Zeta's text goes on the Job: its first line, without credentials, bounded (report/redact.ts).
      if (w) return end(w.reason, `${w.message}; Zeta: ${engineText(h.errorMsg)}`, { worker: w.worker });
      return end(
        'JobFailed',
        `Zeta job ${h.jobId} ended ${h.status}${h.errorMsg ? `: ${engineText(h.errorMsg)}` : ''}`,
      );
    }
    case 'JobStatusUnreadable':
      if (!h.engineError) return end('InternalError', `unexpected error while reading the job status: ${h.error}`);
      // 2.3.8 answers 500 (MemberLeftException) while a member leaves: tolerated for a while.
      if (h.failingForMs > h.limitMs)
        return end(
          'EngineUnreachable',
          `the engine's job status could not be read for ${Math.round(h.failingForMs / 1000)} s: ${h.error}`,
        );
      return CONTINUE;
  }
}

/**
 * This Pod was asked to stop, and why. A user's cancel (the application deleted, or this Pod
 * deleted by hand) is CANCELED; Kubernetes stopping it (eviction, preemption, a lost node, a
 * failed probe, an unexplained kill) is a failure named for what it was. With HA a stopped
 * coordinator is only the application's end if the application is deleted; otherwise the job goes
 * on and the next coordinator re-attaches.
 */
function whenStopped(f: Facts, cause: StopCause): Decision {
  if (cause.kind === 'application-deleted')
    return end('Terminated', 'the application is being deleted (e.g. by `cancel`)');
  if (f.outlivesPod) {
    const why = cause.kind === 'disruption' ? describeDisruption(cause.reason) : 'deleted or stopped';
    return end('Detached', `the coordinator Pod was ${why}; the job goes on and the next coordinator re-attaches`);
  }
  switch (cause.kind) {
    case 'pod-deleted':
      return end('Terminated', 'the master Pod was deleted (e.g. `kubectl delete pod`), which ends the application');
    case 'disruption': {
      const reason: Reason =
        cause.reason === 'PreemptionByScheduler'
          ? 'Preempted'
          : cause.reason === 'DeletionByTaintManager' || cause.reason === 'DeletionByPodGC'
            ? 'NodeLost'
            : 'Evicted';
      const detail = cause.message ? `: ${firstLine(cause.message)}` : '';
      return end(reason, `the master Pod was ${describeDisruption(cause.reason)}${detail}`);
    }
    case 'probe':
      return end('MasterUnhealthy', `the kubelet killed the master: ${firstLine(cause.message)}`);
    case 'unknown':
      return end(
        'Killed',
        'the master was asked to stop (SIGTERM) although neither the application nor its Pod is being deleted and Kubernetes recorded no eviction or failed probe (e.g. the node shutting down)',
      );
  }
}

/** Reasons of a stop by Kubernetes rather than by a user: treated like a cancel when stopping the job. */
const STOPPED_BY_KUBERNETES: ReadonlySet<Reason> = new Set([
  'Evicted',
  'Preempted',
  'NodeLost',
  'MasterUnhealthy',
  'Killed',
]);

export type StopDecision =
  | { readonly do: 'nothing' }
  | { readonly do: 'ask-deletion' }
  /**
   * stop-job. With `savepoint` no plain stop follows if the savepoint does not end the job in time:
   * the job then ends with the engine, as with `keep`.
   */
  | { readonly do: 'stop'; readonly savepoint: boolean }
  /** No stop-job (a plain one would delete the checkpoints): the job ends with its workers and the engine. */
  | { readonly do: 'keep-checkpoints' };

/** How to stop the job when the application ends with `reason`. */
export function howToStop(f: Facts, reason: Reason): StopDecision {
  if (reason === 'Detached') return { do: 'nothing' };
  if (!f.submitted || (f.zetaStatus !== undefined && ZETA_TERMINAL.has(f.zetaStatus))) return { do: 'nothing' };
  if (!f.streaming) return { do: 'stop', savepoint: false };
  // A streaming job that failed (a lost worker, the API away too long) is what a user restores with
  // --restore-job-id: a plain stop-job would make Zeta 2.3.8 delete its checkpoints, and a savepoint
  // needs the workers a failure may have lost. It ends with its workers and the engine.
  if (reason !== 'Terminated' && !STOPPED_BY_KUBERNETES.has(reason)) return { do: 'keep-checkpoints' };
  if (f.savepointRequested) return { do: 'stop', savepoint: true };
  // A savepoint needs the workers: not when the application itself is being deleted (they go too).
  if (f.deletion === 'unknown') return { do: 'ask-deletion' };
  return f.deletion === 'not-deleting' ? { do: 'stop', savepoint: true } : { do: 'keep-checkpoints' };
}

/** What a coordinator knows when it decides whether to submit the application's job. */
export interface ReattachFacts {
  /** The Job records a submission claim or a submission: some coordinator may have sent the job. */
  readonly recorded: boolean;
  /** Zeta answered the last question about the job (with or without a status). */
  readonly answered: boolean;
  /** The job's status in Zeta, when it knows the job. */
  readonly zetaStatus?: string;
  readonly askedForMs: number;
  readonly limitMs: number;
}

/**
 * With HA, what a coordinator does with the application's job: `follow` it (Zeta knows it — never
 * a second submission), `submit` it (no coordinator of this Job ever claimed it: the claim is
 * always recorded before the job is sent), or — claimed but unknown to Zeta — `wait` and ask again
 * (a master failover answers without a status for a while), then give up: `lost` when Zeta kept
 * answering that it does not know the job, `unreachable` when it never answered. A claimed job is
 * never submitted again: the coordinator cannot prove it never ran (docs/ha.md, "Re-attaching").
 */
export function reattachment(f: ReattachFacts): 'submit' | 'follow' | 'lost' | 'unreachable' | 'wait' {
  if (f.zetaStatus) return 'follow';
  if (!f.recorded) return 'submit';
  if (f.askedForMs < f.limitMs) return 'wait';
  return f.answered ? 'lost' : 'unreachable';
}

/** The outcome once the workers are removed: a cleanup failure turns success into CleanupFailed. */
export function afterCleanup(result: Outcome, problems: readonly string[]): Outcome {
  if (problems.length === 0) return result;
  const what = problems.join('; ');
  if (result.state !== 'SUCCEEDED') return { ...result, message: `${result.message} (cleanup also failed: ${what})` };
  return {
    ...outcome('CleanupFailed', `the job succeeded, but removing the workers failed: ${what}`),
    ...(result.zetaStatus ? { zetaStatus: result.zetaStatus } : {}),
  };
}

/** The phase annotation (and Event reason) of a final outcome. */
export function terminalPhase(reason: Reason): Extract<Phase, 'Succeeded' | 'Failed' | 'Canceled'> {
  const state = stateOf(reason);
  return state === 'SUCCEEDED' ? 'Succeeded' : state === 'CANCELED' ? 'Canceled' : 'Failed';
}

/**
 * Zeta 2.3.8's active master answers a job's `job-info` with this NullPointerException when the job
 * is in its maps but it runs no JobMaster for it: its restore after a master switch failed or never
 * finished, and it does not try again (seen on real nodes after a partition's heal and a frozen
 * master). The workers may still run the job's tasks, but nothing coordinates them.
 */
export function jobUnservedByMaster(error: string): boolean {
  return /getJobMetrics\(long\)"? is null/.test(error);
}
