// The one Zeta job of the application: submit it exactly once, follow it to a terminal status,
// and stop it when the application ends first.

import { EngineRejected, EngineUnavailable, type JobInfo, type SubmitResult } from '../engine/port';
import { outcome, RuntimeFailure, ZETA_TERMINAL, type Outcome, type Reason } from '../outcome';
import { decide, howToStop, jobUnservedByMaster, type Happening } from '../policy';
import { engineText } from '../report/redact';
import { RowsRecorder } from '../report/rows';
import { JobEndJudge } from './job-end';
import type { ResolvedJobConfig } from '../settings';
import type { MasterTopology } from '../topology/topology';
import { errorMessage, retry } from '../util';
import { factsOf, type Step } from './context';

/** Submits the job; after an ambiguous failure it asks whether the job arrived before submitting again. */
export async function submitJob(s: Step, job: ResolvedJobConfig): Promise<SubmitResult> {
  const app = s.deps.settings.app;
  s.setPhase('Submitting');
  const p = submitOnce(s, job);
  s.state.submission = p.catch(() => undefined);
  const res = await s.interruption.guard(p);
  s.state.acked = res;
  s.state.zetaStatus = undefined;
  const restored = res.restored ? `, restored from the latest checkpoint of job ${app.restoreJobId}` : '';
  s.setPhase('Running', { zetaJobId: res.jobId });
  s.reporter.event('Normal', 'JobSubmitted', `submitted Zeta job ${res.jobId} (${app.jobName})${restored}`);
  return res;
}

async function submitOnce(s: Step, job: ResolvedJobConfig): Promise<SubmitResult> {
  const { engine, clock, log } = s.deps;
  const app = s.deps.settings.app;
  const expected = app.restoreJobId ?? app.jobId;
  const attempt = async (): Promise<SubmitResult> => {
    try {
      return await engine.submit({
        jobId: app.jobId,
        jobName: app.jobName,
        configJson: job.json,
        restoreFromJobId: app.restoreJobId,
      });
    } catch (e) {
      if (e instanceof EngineRejected) {
        log.warn('Zeta refused the job', { error: e.message });
        throw new RuntimeFailure('JobRejected', `Zeta refused the job: ${engineText(e.message)}`);
      }
      if (!(e instanceof EngineUnavailable)) throw e;
      log.warn('submitting the job failed; checking whether it arrived', { error: errorMessage(e) });
      const settleMs = mayHaveArrived(e) ? SUBMIT_SETTLE_MS : 0;
      if (await showsUp(s, expected, settleMs)) {
        if (settleMs) log.info('the job arrived after all', { jobId: expected });
        return { jobId: expected, restored: app.restoreJobId !== undefined };
      }
      if (settleMs)
        throw new EngineUnavailable(
          `${e.message}; the job had not shown up in Zeta ${Math.round(settleMs / 1000)} s later either`,
        );
      throw e;
    }
  };
  try {
    return await retry(attempt, {
      clock,
      retryable: (e) => e instanceof EngineUnavailable && !s.interruption.isSet,
      budgetMs: s.tuning.engineUnreachableMs,
      backoff: [500, 3000],
    });
  } catch (e) {
    if (e instanceof EngineUnavailable)
      throw new RuntimeFailure('EngineUnreachable', `the job could not be submitted: ${errorMessage(e)}`);
    throw e;
  }
}

/**
 * How long a submission that may have reached Zeta (its POST timed out or was cut off after it was
 * sent) is given to show up in job-info before it counts as lost. Zeta answers the POST only once
 * the job's master is set up: a master with little CPU parses and plans a large job for longer than
 * the POST waits. Seen on a real node (0.1 CPU, a 25 KB job): the job master was initialised 45 s
 * into the POST and still setting up when it timed out at 60 s; taking that as "unreachable"
 * failed an application whose job was starting.
 */
export const SUBMIT_SETTLE_MS = 120_000;

/** Whether a failed submission may have been received (timed out, cut off), rather than refused before it was sent. */
function mayHaveArrived(e: EngineUnavailable): boolean {
  return !/ECONNREFUSED|ENOTFOUND|EHOSTUNREACH|ENETUNREACH|EAI_AGAIN|HTTP (429|503)\b/.test(e.message);
}

/** Whether Zeta knows the job now or within `settleMs` (asked every job poll). */
async function showsUp(s: Step, jobId: string, settleMs: number): Promise<boolean> {
  const { engine, clock } = s.deps;
  const deadline = clock.now() + settleMs;
  for (;;) {
    const info = await engine.jobInfo(jobId).catch(() => undefined);
    if (info?.status) return true;
    if (clock.now() >= deadline || s.interruption.isSet) return false;
    await s.interruption.pause(s.tuning.jobPollMs);
  }
}

/**
 * With HA, how long the active master may answer the job without running it (policy.ts
 * jobUnservedByMaster; a restore after a switch takes seconds) before it is restarted, so another
 * master restores the job from the cluster's maps.
 */
export const UNSERVED_GRACE_MS = 45_000;
/** Restarts of an active master that does not serve the job, per coordinator. */
export const UNSERVED_MAX_RESTARTS = 2;

/** How long reads of the job's status fail before the log says so, and then how often. */
const FAILING_WARN_AFTER_MS = 10_000;
const FAILING_WARN_EVERY_MS = 30_000;

/**
 * Follows the job to a terminal status, racing the first interruption (worker loss, SIGTERM, …).
 * `master`: how to get the job served again when the active master does not serve it, and whose
 * word on the job's end counts (with HA, a majority of the masters').
 */
export async function followJob(
  s: Step,
  jobId: string,
  master: Pick<MasterTopology, 'restartActiveMaster' | 'confirmEnd' | 'readJobElsewhere'>,
): Promise<Outcome> {
  const { clock, log } = s.deps;
  let failingSince: number | undefined;
  let failingWarnedAt: number | undefined;
  let unservedSince: number | undefined;
  let restarts = 0;
  const judge = new JobEndJudge(s, master);
  const rows = new RowsRecorder(clock, (patch) => s.reporter.annotate(patch));
  // After an answer, as long as it took (at least jobPollMs): a master that needs seconds to build
  // job-info (thousands of tables, a fraction of a core) is not kept busy answering it back to back.
  let paceMs: number;
  for (;;) {
    s.interruption.throwIfSet();
    let happening: Happening;
    try {
      const began = clock.now();
      const read = await s.interruption.guard(readJob(s, jobId, master));
      paceMs = Math.max(s.tuning.jobPollMs, clock.now() - began);
      const judged = await judge.judge(jobId, read);
      if (judged === 'wait') {
        await s.interruption.pause(paceMs);
        continue;
      }
      const info = judged;
      if (failingWarnedAt !== undefined && failingSince !== undefined)
        log.info("the engine's job status is readable again", {
          jobId,
          afterMs: Math.round(clock.now() - failingSince),
        });
      failingSince = undefined;
      failingWarnedAt = undefined;
      unservedSince = undefined;
      if (info.status && info.status !== s.state.zetaStatus) {
        s.state.zetaStatus = info.status;
        log.info('Zeta job status', { jobId, status: info.status });
        s.reporter.annotate({ zetaJobStatus: info.status });
      }
      if (!info.status) throw new EngineUnavailable(`the engine does not know job ${jobId}`);
      const terminal = ZETA_TERMINAL.has(info.status);
      if (info.rows) rows.seen(info.rows, terminal);
      // The whole text, here only: what goes on the Job is redacted and bounded (report/redact.ts).
      if (terminal && info.errorMsg) log.warn("Zeta's error", { jobId, status: info.status, error: info.errorMsg });
      const workerFailure = terminal ? s.state.reconciler?.reconcile().failure : undefined;
      happening = {
        type: 'JobStatus',
        jobId,
        status: info.status,
        ...(info.errorMsg ? { errorMsg: info.errorMsg } : {}),
        ...(workerFailure ? { workerFailure } : {}),
      };
    } catch (e) {
      if (e instanceof RuntimeFailure) throw e;
      paceMs = s.tuning.jobPollMs;
      const now = clock.now();
      failingSince ??= now;
      const engineError = e instanceof EngineUnavailable || e instanceof EngineRejected;
      if (engineError && jobUnservedByMaster(errorMessage(e))) {
        unservedSince ??= now;
        if (now - unservedSince >= UNSERVED_GRACE_MS && restarts < UNSERVED_MAX_RESTARTS) {
          const why = `for ${Math.round((now - unservedSince) / 1000)} s it answered job ${jobId} without running it (Zeta 2.3.8 does not retry a failed restore after a master switch)`;
          restarts++;
          unservedSince = undefined;
          if (await master.restartActiveMaster(why)) {
            log.warn('restarted the active master, which did not serve the job', { jobId, restarts });
            // The next master restores the job: it gets the whole budget again.
            failingSince = undefined;
            failingWarnedAt = undefined;
            await s.interruption.pause(s.tuning.jobPollMs);
            continue;
          }
        }
      } else unservedSince = undefined;
      happening = {
        type: 'JobStatusUnreadable',
        error: engineError ? errorMessage(e) : String((e as Error)?.stack ?? e),
        engineError,
        failingForMs: now - failingSince,
        limitMs: s.tuning.engineUnreachableMs,
      };
      log.debug('reading the job status failed', { error: errorMessage(e) });
      // A failing read is not news every 500 ms, but minutes of them before EngineUnreachable must
      // not be silence in the log: once it has lasted FAILING_WARN_AFTER_MS, then every FAILING_WARN_EVERY_MS.
      const failingMs = now - failingSince;
      if (
        failingMs >= FAILING_WARN_AFTER_MS &&
        (failingWarnedAt === undefined || now - failingWarnedAt >= FAILING_WARN_EVERY_MS)
      ) {
        failingWarnedAt = now;
        log.warn("the engine's job status cannot be read", {
          jobId,
          forMs: Math.round(failingMs),
          limitMs: s.tuning.engineUnreachableMs,
          error: errorMessage(e).slice(0, 500),
        });
      }
    }
    const d = decide(factsOf(s.state, false), happening);
    if (d.do === 'end') {
      if (d.reason === 'JobFinished' || d.reason === 'JobFailed' || d.reason === 'JobCanceled')
        return outcome(d.reason, d.message, s.state.zetaStatus);
      throw new RuntimeFailure(d.reason, d.message, d.worker);
    }
    await s.interruption.pause(paceMs);
  }
}

/**
 * The job as Zeta's REST answers it; when that read fails with an engine error other than an
 * unserved job, as another way in answers it (with HA, a master of the majority) — the usual read's
 * error when none does, so the failure counts as before.
 */
async function readJob(s: Step, jobId: string, master: Pick<MasterTopology, 'readJobElsewhere'>): Promise<JobInfo> {
  try {
    return await s.deps.engine.jobInfo(jobId);
  } catch (e) {
    const engineError = e instanceof EngineUnavailable || e instanceof EngineRejected;
    // An unserved job is the active master's to fix (followJob restarts it); another master would
    // only pass the question on to it.
    if (!engineError || jobUnservedByMaster(errorMessage(e))) throw e;
    const elsewhere = await master.readJobElsewhere(jobId).catch(() => undefined);
    if (!elsewhere?.status) throw e;
    s.deps.log.debug('the job read through a majority master', { jobId, error: errorMessage(e) });
    return elsewhere;
  }
}

/**
 * Stops the job as the policy says, if its submission was acknowledged — waiting briefly for one
 * still in flight, so a late submission cannot escape.
 */
export async function stopJob(s: Step, reason: Reason, applicationBeingDeleted: () => Promise<boolean>): Promise<void> {
  const { clock, log } = s.deps;
  const { state } = s;
  if (!state.acked && state.submission) {
    const late = await Promise.race([state.submission, clock.sleep(s.tuning.stopWaitMs).then(() => undefined)]);
    if (late) {
      state.acked = late;
      log.info('the submission in flight was acknowledged; it will be stopped', { jobId: late.jobId });
    }
  }
  let how = howToStop(factsOf(state, false), reason);
  if (how.do === 'nothing' || !state.acked) return;
  const jobId = state.acked.jobId;
  s.setPhase('Stopping');
  if (how.do === 'ask-deletion') {
    const deleting = await applicationBeingDeleted();
    how = howToStop(factsOf(state, false, deleting), reason);
  }
  if (how.do === 'keep-checkpoints') {
    s.reporter.event(
      'Normal',
      'Stopping',
      `Zeta job ${jobId} ends with its workers and the engine, without a stop-job, so its checkpoints stay for a restore`,
    );
    return;
  }
  if (how.do === 'stop' && how.savepoint) {
    s.reporter.event(
      'Normal',
      'Stopping',
      `stopping Zeta job ${jobId} with a savepoint (its checkpoints stay for a restore)`,
    );
    if (!(await requestStop(s, jobId, true, s.tuning.savepointWaitMs))) {
      // A plain stop now would make Zeta 2.3.8 delete the checkpoints the savepoint was meant to keep.
      log.warn(
        'the stop with savepoint did not end the job in time; it ends with its workers and the engine, its checkpoints kept',
        { jobId },
      );
    }
    return;
  }
  s.reporter.event('Normal', 'Stopping', `stopping Zeta job ${jobId}`);
  if (!(await requestStop(s, jobId, false, s.tuning.stopWaitMs))) {
    log.warn('the Zeta job did not reach a terminal status in time', {
      jobId,
      status: state.zetaStatus,
      waitedMs: s.tuning.stopWaitMs,
    });
  }
}

/** Sends one stop request and waits up to `waitMs` for a terminal status; true when it got one. */
async function requestStop(s: Step, jobId: string, savepoint: boolean, waitMs: number): Promise<boolean> {
  const { engine, clock, log } = s.deps;
  const deadline = clock.now() + waitMs;
  try {
    await engine.stopJob(jobId, savepoint);
  } catch (e) {
    log.warn('stop-job failed', { jobId, savepoint, error: errorMessage(e) });
  }
  while (clock.now() < deadline) {
    const info = await engine.jobInfo(jobId).catch(() => undefined);
    if (info?.status) {
      s.state.zetaStatus = info.status;
      if (ZETA_TERMINAL.has(info.status)) {
        log.info('Zeta job stopped', { jobId, status: info.status, savepoint });
        return true;
      }
    }
    await clock.sleep(Math.min(250, Math.max(1, deadline - clock.now())));
  }
  return false;
}
