// The whole life of an application in the master Pod (docs/runtime.md, "Lifecycle"):
//
//   settings → job config → prepare the masters (+ restore check)
//   → read own Job, Pod and the worker template, adopt dependents, watch the own Job
//   → create N workers and watch them → start the masters and wait until they answer
//   → follow a job an earlier runtime of this Job sent, or: registration barrier → claim → submit once
//   → follow it → stop the job → keep the workers' last lines → remove the workers (and masters)
//   → record the terminal state → exit code.
//
// This file is the orchestrator: it runs the steps (./steps/) in order, asks the master topology
// (./topology/: one local master | a set of HA masters) where the two differ, and turns what
// happens meanwhile (a worker lost, SIGTERM, the Job deleted, the engine gone, an unexpected error)
// into decisions of the policy (./policy.ts). The first ending wins; the end (`finish`) always runs.

import { describeExit } from './engine/process';
import { errorMessage } from './util';
import { isStatus } from './kube/port';
import { outcome, outcomeOfError, RuntimeFailure, type Outcome } from './outcome';
import { afterCleanup, decide, terminalPhase, type Happening } from './policy';
import { Reporter, type Phase, type StatusPatch } from './report/reporter';
import { resolveJobConfig, workerReplacementBudget } from './settings';
import { checkConnectors } from './steps/connector-check';
import { awaitRegistration } from './steps/barrier';
import { removeWorkers } from './steps/cleanup';
import {
  DEFAULT_TUNING,
  factsOf,
  initialState,
  tuningFor,
  type LifecycleDeps,
  type Step,
  type Tuning,
} from './steps/context';
import { Interruption } from './steps/interruption';
import { readKubernetes, type KubeContext } from './steps/kube-context';
import { OwnJobWatch } from './steps/own-job-watch';
import { learnStopCause } from './steps/stop-evidence';
import { keepWorkerEvidence } from './steps/worker-evidence';
import { followJob, stopJob, submitJob } from './steps/zeta-job';
import { watchWorkerMembership } from './steps/worker-membership';
import { topologyOf, type MasterTopology } from './topology/topology';
import { WorkerReconciler } from './workers/reconciler';
import { PodSnapshotStore } from './workers/snapshot';
import { stampWorker, workerSelector } from 'seatunnel-app/runtime-support';

export { DEFAULT_TUNING, type LifecycleDeps, type Tuning };

export async function runApplication(deps: LifecycleDeps): Promise<Outcome> {
  return new Application(deps).run();
}

class Application implements Step {
  tuning: Tuning;
  readonly state = initialState();
  readonly interruption: Interruption;
  readonly reporter: Reporter;
  readonly topology: MasterTopology;
  private readonly endingController = new AbortController();
  private ownJob: OwnJobWatch | undefined;

  constructor(readonly deps: LifecycleDeps) {
    this.tuning = tuningFor(deps.settings.app, deps.tuning);
    this.interruption = new Interruption(deps.clock);
    this.topology = topologyOf(this);
    this.state.outlivesPod = this.topology.outlivesThisPod;
    this.reporter = new Reporter(
      deps.kube,
      { name: deps.settings.app.appId },
      { podName: deps.settings.pod.name },
      deps.clock,
      deps.log,
      this.tuning.apiFailureBudgetMs,
      deps.observer && ((patch) => deps.observer!.status(patch)),
    );
  }

  async run(): Promise<Outcome> {
    this.onAbort(this.deps.terminate, () => {
      this.deps.log.warn('asked to stop (SIGTERM): stopping the job and removing the workers');
      this.on({ type: 'SIGTERM' });
    });
    this.onAbort(this.deps.unexpected, (reason) =>
      this.on({ type: 'Unexpected', error: String((reason as Error)?.stack ?? reason) }),
    );
    let result: Outcome;
    try {
      result = await this.main();
    } catch (e) {
      result = outcomeOfError(e, this.state.zetaStatus);
    }
    return this.finish(result);
  }

  private onAbort(signal: AbortSignal | undefined, fn: (reason: unknown) => void): void {
    if (!signal) return;
    if (signal.aborted) fn(signal.reason);
    else signal.addEventListener('abort', () => fn(signal.reason), { once: true });
  }

  get ending(): AbortSignal {
    return this.endingController.signal;
  }

  happen(h: Happening): void {
    this.on(h);
  }

  /** Asks the policy what a happening means and carries it out. */
  private on(h: Happening, deleting?: boolean): void {
    const d = decide(factsOf(this.state, this.interruption.isSet, deleting), h);
    if (d.do === 'ask-deletion') {
      void this.applicationBeingDeleted().then((answer) => this.on(h, answer));
    } else if (d.do === 'ask-stop-cause' && h.type === 'SIGTERM') {
      void learnStopCause(this).then(({ cause, deleting }) => {
        if (deleting) this.markApplicationDeleted();
        this.on({ ...h, cause }, deleting);
      });
    } else if (d.do === 'end') {
      if (d.warn) this.reporter.event('Warning', d.warn, `${d.reason}: ${d.message}`);
      this.interruption.set(new RuntimeFailure(d.reason, d.message, d.worker));
    }
  }

  setPhase(phase: Phase, extra: StatusPatch = {}): void {
    if (this.state.phase === phase && Object.keys(extra).length === 0) return;
    this.state.phase = phase;
    this.deps.log.info(`phase ${phase}`);
    this.reporter.annotate({ phase, ...extra });
  }

  private async main(): Promise<Outcome> {
    const { settings, log } = this.deps;
    const app = settings.app;
    log.info('starting', {
      application: app.appId,
      jobId: app.jobId,
      restoreJobId: app.restoreJobId,
      workers: app.workerCount,
      slots: app.workerSlots,
      startupTimeoutMs: app.startupTimeoutMillis,
      pod: settings.pod.name,
    });
    this.setPhase('Starting', {
      workersDesired: String(app.workerCount),
      workersRegistered: '0',
      zetaJobId: app.restoreJobId ?? app.jobId,
      zetaJobStatus: null,
      reason: null,
      message: null,
      finishedAt: null,
    });

    // Everything the Pod's settings decide is checked before anything starts.
    const job = resolveJobConfig(app, this.deps.env, this.deps.io);
    this.state.streaming = isStreaming(job.json);
    log.info('job config resolved', {
      bytes: job.json.length,
      variables: job.envUsed.join(',') || 'none',
      streaming: this.state.streaming,
    });
    if (job.quotedPlaceholders.length > 0) {
      const found = job.quotedPlaceholders;
      const list =
        found.length > 10 ? `${found.slice(0, 10).join(', ')} and ${found.length - 10} more` : found.join(', ');
      const message = `the job config has \${…} inside quoted strings, which HOCON keeps as text: ${list}; write them unquoted (url = \${PG_URL}) to use the environment's values`;
      log.warn(message);
      this.reporter.event('Warning', 'QuotedPlaceholder', message);
    }
    checkConnectors(this, job.json);
    this.topology.prepare();
    if (app.restoreJobId) await this.interruption.guard(this.deps.engine.checkRestorable(app.restoreJobId));
    this.interruption.throwIfSet();

    const k = await this.interruption.guard(readKubernetes(this));
    // Nothing may keep running until the Job's TTL: after the last restart the masters and workers
    // go, the job with them (its checkpoints stay: no stop-job is sent).
    await this.topology.takeCharge(k);
    const exhausted = this.topology.restartsExhausted(k);
    if (exhausted) throw new RuntimeFailure('CoordinatorRestartsExhausted', exhausted);
    this.watchOwnJob();
    const reconciler = await this.topology.start(k, () => this.startWorkers(k));
    const earlier = await this.topology.reattach(k);
    if (earlier) return this.follow(earlier);
    await awaitRegistration(this, reconciler);
    const claim = await this.topology.claimSubmission(k);
    if (!claim.claimed) return this.follow(claim.follow);
    const submitted = await submitJob(this, job);
    this.topology.submitted(submitted.jobId);
    return this.follow(submitted.jobId);
  }

  /** Follows the job to its end; meanwhile a worker back from a split, or one created meanwhile that never joins, is restarted (steps/worker-membership.ts). */
  private async follow(jobId: string): Promise<Outcome> {
    const stopWatching = watchWorkerMembership(this);
    try {
      return await followJob(this, jobId, this.topology);
    } finally {
      stopWatching();
    }
  }

  private async startWorkers(k: KubeContext): Promise<WorkerReconciler> {
    const { kube, settings, clock, log } = this.deps;
    const app = settings.app;
    this.setPhase('CreatingWorkers');
    this.reporter.event(
      'Normal',
      'WorkersCreating',
      `creating ${app.workerCount} worker Pod(s) with ${app.workerSlots} slot(s) each from PodTemplate ${app.workerTemplate}`,
    );
    const store = new PodSnapshotStore(kube, workerSelector(app.appId), {
      clock,
      log,
      resyncMs: this.tuning.resyncMs,
      failureBudgetMs: this.tuning.apiFailureBudgetMs,
      applicationDeleted: () => this.state.applicationDeleted,
    });
    this.state.store = store;
    this.deps.observer?.workers(() => store.snapshot().pods.values());
    store.onFatal((e) => this.on({ type: 'WorkersUnobservable', error: e.message }));
    await this.interruption.guard(store.start());
    const owners = this.topology.workers(k);
    const reconciler = new WorkerReconciler({
      kube,
      store,
      clock,
      log,
      appId: app.appId,
      count: app.workerCount,
      masterUid: owners.ownerUid,
      adoptOwned: owners.adoptOwned,
      replacements: workerReplacementBudget(app),
      onReplaced: (_worker, n, why) => {
        this.reporter.annotate({ workersReplaced: String(n) });
        this.reporter.event(
          'Warning',
          'WorkerReplaced',
          `${why}; creating it again (${n} of ${workerReplacementBudget(app)} replacements used)`,
        );
      },
      concurrency: this.tuning.createConcurrency,
      scaleUpGraceMs: app.scaleUpGraceMillis ?? 0,
      imagePullRetryMs: app.imagePullRetryMillis ?? 0,
      timedPollMs: this.tuning.timedPollMs,
      stamp: (n) => stampWorker(owners.stamp, n),
      onFailure: (failure) => this.on({ type: 'WorkerFailed', failure }),
    });
    this.state.reconciler = reconciler;
    reconciler.start();
    return reconciler;
  }

  /** `cancel` deletes the Job; `cancel --savepoint` first annotates it. */
  private watchOwnJob(): void {
    this.ownJob = new OwnJobWatch(this.deps.kube, this.deps.settings.app.appId, {
      clock: this.deps.clock,
      log: this.deps.log,
      onJob: (seen) => {
        if (seen === 'gone' || seen.deleting) this.markApplicationDeleted();
        else if (seen.cancelRequested && !this.interruption.isSet) {
          this.state.savepointRequested = seen.cancelRequested === 'savepoint';
          this.deps.log.info('cancel requested on the Job', { mode: seen.cancelRequested });
        }
        this.on(seen === 'gone' ? { type: 'OwnJobGone' } : { type: 'OwnJob', ...seen });
      },
    });
    this.ownJob.start();
  }

  /** Whether the Job or this Pod is being deleted (or already gone). Unknown counts as no. */
  private async applicationBeingDeleted(): Promise<boolean> {
    const { kube, settings } = this.deps;
    const deleting = (read: Promise<{ metadata?: { deletionTimestamp?: unknown } }>): Promise<boolean> =>
      read.then(
        (o) => Boolean(o.metadata?.deletionTimestamp),
        (e: unknown) => isStatus(e, 404),
      );
    // When the application outlives this Pod, the Pod's own deletion is not the application's.
    const [job, pod] = await Promise.all([
      deleting(kube.getJob(settings.app.appId)),
      this.topology.outlivesThisPod ? Promise.resolve(false) : deleting(kube.getPod(settings.pod.name)),
    ]);
    if (job || pod) this.markApplicationDeleted();
    return job || pod;
  }

  /** From now on a 403 is final everywhere: the runtime's Role goes with the Job. */
  private markApplicationDeleted(): void {
    this.state.applicationDeleted = true;
    this.reporter.markApplicationDeleted();
  }

  /**
   * With HA, a coordinator that is stopped while the application goes on leaves everything as it
   * is — the job, the workers, the masters — and exits `detached`; the Job starts another one.
   */
  private async detach(result: Outcome): Promise<Outcome> {
    const { log } = this.deps;
    await Promise.all(
      [this.topology.release(), this.state.reconciler?.release(), this.state.store?.stop()].map((p) =>
        Promise.resolve(p).catch(() => undefined),
      ),
    );
    this.reporter.event('Normal', 'CoordinatorDetached', result.message);
    await this.reporter.flush(this.tuning.recordBudgetMs);
    log.info('detached', { jobId: this.state.acked?.jobId, exitCode: result.exitCode });
    return result;
  }

  /** Stop the job, remove the workers, record the terminal state, stop the engine. */
  private async finish(result: Outcome): Promise<Outcome> {
    const { clock, log } = this.deps;
    this.state.ending = true;
    this.endingController.abort();
    const deadline = this.deps.terminate.aborted;
    if (!deadline) {
      // No grace period runs (the job ended, a worker was lost, …): if the API server is away right
      // now, removing the workers and recording the end wait for it as long as the job would have.
      const budget = Math.max(this.tuning.cleanupBudgetMs, this.tuning.apiFailureBudgetMs);
      this.tuning = { ...this.tuning, cleanupBudgetMs: budget, recordBudgetMs: budget };
    }
    void this.ownJob?.stop();
    log.info('ending', { state: result.state, reason: result.reason });
    if (result.reason === 'Detached') return this.detach(result);
    if (!(await this.topology.stillInCharge()))
      return this.detach(
        outcome(
          'Detached',
          `another coordinator took over while this one was cut off (${result.reason}: ${result.message}); it stops and removes nothing`,
        ),
      );
    try {
      await stopJob(this, result.reason, () => this.applicationBeingDeleted());
    } catch (e) {
      log.warn('stopping the job failed', { error: errorMessage(e) });
    }
    try {
      result = await keepWorkerEvidence(this, result);
    } catch (e) {
      log.warn("keeping the workers' last lines failed", { error: errorMessage(e) });
    }
    let problems: string[];
    try {
      problems = await removeWorkers(this, this.topology.inheritedWorkers());
    } catch (e) {
      problems = [`cleanup: ${errorMessage(e)}`];
    }
    problems.push(...(await this.topology.removeMasters()));
    if (problems.length > 0)
      this.reporter.event('Warning', 'CleanupFailed', `removing the workers failed: ${problems.join('; ')}`);
    const final = afterCleanup(
      this.state.zetaStatus ? { ...result, zetaStatus: this.state.zetaStatus } : result,
      problems,
    );
    await this.state.store?.stop().catch(() => undefined);
    const phase = terminalPhase(final.reason);
    this.setPhase(phase, {
      reason: final.state === 'SUCCEEDED' ? null : final.reason,
      message: final.message.slice(0, 4096),
      zetaJobStatus: final.zetaStatus ?? null,
      finishedAt: clock.wallTime().toISOString(),
      workersRegistered: String(this.state.registered),
    });
    this.reporter.event(
      final.state === 'SUCCEEDED' ? 'Normal' : 'Warning',
      phase,
      final.state === 'SUCCEEDED' ? final.message : `${final.reason}: ${final.message}`,
    );
    const recorded = await this.reporter.flush(this.tuning.recordBudgetMs, deadline);
    if (!recorded) log.warn('the terminal state could not be recorded on the Job in time');
    if (this.state.engine === 'running') {
      this.state.engine = 'stopping';
      const exit = await Promise.resolve()
        .then(() => this.deps.engine.shutdown(this.tuning.engineStopGraceMs))
        .catch(() => undefined);
      if (exit) log.info(`engine process ${describeExit(exit)}`);
    }
    log.info('finished', {
      state: final.state,
      reason: final.reason,
      exitCode: final.exitCode,
      zetaStatus: final.zetaStatus,
      message: final.message,
    });
    return final;
  }
}

/** Whether the job config (JSON) runs in streaming mode: `env { job.mode = STREAMING }`, nested or quoted. */
export function isStreaming(configJson: string): boolean {
  try {
    const env = (JSON.parse(configJson) as { env?: Record<string, unknown> }).env ?? {};
    const nested = (env.job as { mode?: unknown } | undefined)?.mode;
    const mode = env['job.mode'] ?? nested;
    return typeof mode === 'string' && mode.toUpperCase() === 'STREAMING';
  } catch {
    return false;
  }
}
