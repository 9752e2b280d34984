// The whole life of an application in the master Pod (docs/runtime.md, "Lifecycle"):
//
//   settings → job config → engine files (+ restore check) → start the Zeta master
//   → [wait for its REST API ‖ read own Job, Pod and the worker template, adopt dependents,
//      watch the own Job, create N workers and watch them] → registration barrier
//   → submit exactly one job → follow it
//   → stop the job → remove the workers → record the terminal state → stop the engine → exit code.
//
// This file is the orchestrator: it runs the steps (./steps/) in order and turns what happens
// meanwhile (a worker lost, SIGTERM, the Job deleted, the engine gone, an unexpected error) into
// decisions of the policy (./policy.ts). The first ending wins; the end (`finish`) always runs.

import { EngineUnavailable, type EngineExit } from './engine/port';
import { describeExit } from './engine/process';
import { isStatus } from './kube/port';
import { outcomeOfError, RuntimeFailure, type Outcome } from './outcome';
import { afterCleanup, decide, reattachment, terminalPhase, type Happening } from './policy';
import { Reporter, type Phase, type StatusPatch } from './report/reporter';
import { resolveJobConfig } from './settings';
import { awaitRegistration } from './steps/barrier';
import { removeWorkers } from './steps/cleanup';
import {
  DEFAULT_TUNING,
  factsOf,
  HA_TUNING,
  initialState,
  type LifecycleDeps,
  type Step,
  type Tuning,
} from './steps/context';
import { Interruption } from './steps/interruption';
import { readKubernetes, type KubeContext } from './steps/kube-context';
import { awaitMasters, MastersWatch, removeMasters } from './steps/masters';
import { OwnJobWatch } from './steps/own-job-watch';
import { followJob, stopJob, submitJob } from './steps/zeta-job';
import { errorMessage } from './util';
import { WorkerReconciler } from './workers/reconciler';
import { PodSnapshotStore } from './workers/snapshot';
import { jobOwnerReference, stampWorker, workerSelector } from 'seatunnel-app/runtime-support';

export { DEFAULT_TUNING, type LifecycleDeps, type Tuning };

export async function runApplication(deps: LifecycleDeps): Promise<Outcome> {
  return new Application(deps).run();
}

class Application implements Step {
  readonly t: Tuning;
  readonly state = initialState();
  readonly interruption: Interruption;
  readonly reporter: Reporter;
  /** Aborted when the application starts ending: background waits stop. */
  private readonly ending = new AbortController();
  private ownJob: OwnJobWatch | undefined;
  /** With HA: the masters' StatefulSet as the coordinator sees it. */
  private masters: MastersWatch | undefined;

  constructor(readonly d: LifecycleDeps) {
    this.t = { ...DEFAULT_TUNING, ...(d.settings.app.ha ? HA_TUNING : {}), ...d.tuning };
    this.interruption = new Interruption(d.clock);
    this.state.ha = Boolean(d.settings.app.ha);
    this.reporter = new Reporter(
      d.kube,
      { name: d.settings.app.appId },
      { podName: d.settings.pod.name },
      d.clock,
      d.log,
    );
  }

  async run(): Promise<Outcome> {
    this.onAbort(this.d.terminate, () => {
      this.d.log.warn('asked to stop (SIGTERM): stopping the job and removing the workers');
      this.on({ type: 'SIGTERM' });
    });
    this.onAbort(this.d.unexpected, (reason) =>
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

  /** Asks the policy what a happening means and carries it out. */
  private on(h: Happening, deleting?: boolean): void {
    const d = decide(factsOf(this.state, this.interruption.isSet, deleting), h);
    if (d.do === 'ask-deletion') {
      void this.applicationBeingDeleted().then((answer) => this.on(h, answer));
    } else if (d.do === 'end') {
      if (d.warn) this.reporter.event('Warning', d.warn, `${d.reason}: ${d.message}`);
      this.interruption.set(new RuntimeFailure(d.reason, d.message, d.worker));
    }
  }

  setPhase(phase: Phase, extra: StatusPatch = {}): void {
    if (this.state.phase === phase && Object.keys(extra).length === 0) return;
    this.state.phase = phase;
    this.d.log.info(`phase ${phase}`);
    this.reporter.annotate({ phase, ...extra });
  }

  private async main(): Promise<Outcome> {
    const { settings, log } = this.d;
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
    const job = resolveJobConfig(app, this.d.env, this.d.io);
    this.state.streaming = isStreaming(job.json);
    log.info('job config resolved', {
      bytes: job.json.length,
      variables: job.envUsed.join(',') || 'none',
      streaming: this.state.streaming,
    });
    const ha = app.ha;
    // With HA the masters run in their own Pods (docs/ha.md): nothing to write or start here.
    if (!ha) this.d.writeEngineFiles();
    if (app.restoreJobId) await this.interruption.guard(this.d.engine.checkRestorable(app.restoreJobId));
    this.interruption.throwIfSet();

    const started = this.d.clock.now();
    const kctx = await this.interruption.guard(readKubernetes(this));
    this.watchOwnJob();
    if (ha) this.masters = new MastersWatch(this, ha, kctx.masterFailovers);
    const reconciler = await this.startWorkers(kctx);
    // The master's JVM starts once the workers' containers run (docs/runtime.md, "Start order"):
    // Zeta's master registers the workers that are members when its resource manager starts, and a
    // worker that joins after that registers only at its next heartbeat, every 5 s. A worker keeps
    // trying to join the master's address (this Pod's IP, known from the start), so the workers'
    // JVMs start while the master's does; the registration barrier waits for both.
    if (!ha) {
      await this.workersUnderway(reconciler);
      this.startEngine();
    }
    const engineReady = this.waitForEngine();
    engineReady.catch(() => undefined);
    if (this.masters) await awaitMasters(this, this.masters, started);
    await this.interruption.guard(engineReady);
    if (this.masters) {
      this.masters.start();
      const known = await this.reattach(kctx.submittedBefore);
      if (known) return followJob(this, known);
    }
    await awaitRegistration(this, reconciler);

    const submitted = await submitJob(this, job);
    // A coordinator started after this one never submits again (docs/ha.md, "Re-attaching").
    if (ha) this.reporter.annotate({ submittedAt: this.d.clock.wallTime().toISOString() });
    return followJob(this, submitted.jobId);
  }

  /**
   * With HA: whether an earlier coordinator of this Job already submitted the job. Returns its id
   * to follow, or undefined to submit it now; throws JobLost when it was submitted and Zeta no
   * longer knows it (every master was lost).
   */
  private async reattach(submittedBefore: boolean): Promise<string | undefined> {
    const { engine, clock, log } = this.d;
    const app = this.d.settings.app;
    const expected = app.restoreJobId ?? app.jobId;
    const began = clock.now();
    for (;;) {
      this.interruption.throwIfSet();
      const info = await this.interruption.guard(engine.jobInfo(expected).catch(() => undefined));
      const what = reattachment(submittedBefore, info?.status, clock.now() - began, this.t.engineUnreachableMs);
      if (what === 'submit') return undefined;
      if (what === 'lost') {
        throw new RuntimeFailure(
          'JobLost',
          `Zeta job ${expected} was submitted by an earlier coordinator but no master knows it any more (every master was lost); restore it from its checkpoints with a new application (--restore-job-id ${expected})`,
        );
      }
      if (what === 'follow' && info?.status) {
        this.state.acked = { jobId: expected, restored: app.restoreJobId !== undefined };
        this.state.zetaStatus = info.status;
        this.state.registered = app.workerCount;
        log.info('re-attached to the running job', { jobId: expected, status: info.status });
        this.setPhase('Running', {
          zetaJobId: expected,
          zetaJobStatus: info.status,
          workersRegistered: String(app.workerCount),
        });
        this.reporter.event(
          'Normal',
          'Reattached',
          `re-attached to Zeta job ${expected} (${info.status}); it is not submitted again`,
        );
        return expected;
      }
      await this.interruption.pause(1000);
    }
  }

  /**
   * Resolves when every worker's container runs, or a worker failed or waits for a node or an image
   * (judged over minutes: the barrier reports those waits), or the head start is used up.
   */
  private async workersUnderway(reconciler: WorkerReconciler): Promise<void> {
    const { clock, log, settings } = this.d;
    const began = clock.now();
    const until = began + this.t.workerHeadStartMs;
    for (;;) {
      this.interruption.throwIfSet();
      const a = reconciler.assessment;
      if (a && (a.failure || a.timed.size > 0 || a.running >= settings.app.workerCount)) break;
      if (clock.now() >= until) {
        log.info('starting the engine before every worker runs', {
          running: a?.running ?? 0,
          afterMs: Math.round(clock.now() - began),
        });
        return;
      }
      await this.interruption.pause(Math.min(50, until - clock.now()));
    }
    log.info('workers running', { afterMs: Math.round(clock.now() - began) });
  }

  private startEngine(): void {
    try {
      this.d.engine.start();
    } catch (e) {
      throw new RuntimeFailure('EngineStartFailed', `the Zeta master could not be started: ${errorMessage(e)}`);
    }
    this.state.engine = 'running';
    void this.d.engine.exited.then((exit: EngineExit) => this.on({ type: 'EngineExited', exit }));
  }

  private async waitForEngine(): Promise<void> {
    const started = this.d.clock.now();
    const ac = new AbortController();
    const stop = () => ac.abort();
    this.interruption.signal.addEventListener('abort', stop, { once: true });
    this.ending.signal.addEventListener('abort', stop, { once: true });
    void this.d.clock.sleep(this.d.settings.app.startupTimeoutMillis, ac.signal).then(stop);
    try {
      await this.d.engine.waitReady(ac.signal);
    } catch (e) {
      this.interruption.throwIfSet();
      if (e instanceof EngineUnavailable) {
        throw new RuntimeFailure(
          'EngineStartTimeout',
          `the Zeta master did not answer within ${this.d.settings.app.startupTimeoutMillis} ms: ${e.message}`,
        );
      }
      throw e;
    } finally {
      ac.abort();
      this.interruption.signal.removeEventListener('abort', stop);
      this.ending.signal.removeEventListener('abort', stop);
    }
    this.d.log.info('engine ready', { afterMs: Math.round(this.d.clock.now() - started) });
  }

  private async startWorkers(k: KubeContext): Promise<WorkerReconciler> {
    const { kube, settings, clock, log } = this.d;
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
      resyncMs: this.t.resyncMs,
      failureBudgetMs: this.t.apiFailureBudgetMs,
      applicationDeleted: () => this.state.applicationDeleted,
    });
    this.state.store = store;
    store.onFatal((e) => this.on({ type: 'WorkersUnobservable', error: e.message }));
    await this.interruption.guard(store.start());
    // With HA the template already lists the masters by name and the Job owns the workers.
    const stampInput = app.ha
      ? {
          appId: app.appId,
          namespace: kube.namespace,
          template: k.template,
          owner: jobOwnerReference(app.appId, k.jobUid),
        }
      : {
          appId: app.appId,
          namespace: kube.namespace,
          template: k.template,
          master: k.master,
          masterHost: settings.pod.masterHost,
          masterPort: app.master.port,
        };
    const reconciler = new WorkerReconciler({
      kube,
      store,
      clock,
      log,
      appId: app.appId,
      count: app.workerCount,
      masterUid: k.master.uid,
      adoptOwned: Boolean(app.ha),
      replacements: app.ha?.workerFailurePolicy === 'replace' ? app.ha.workerReplacements : 0,
      onReplaced: (_worker, n, why) => {
        this.reporter.annotate({ workersReplaced: String(n) });
        this.reporter.event(
          'Warning',
          'WorkerReplaced',
          `${why}; creating it again (${n} of ${app.ha?.workerReplacements ?? 0} replacements used)`,
        );
      },
      concurrency: this.t.createConcurrency,
      scaleUpGraceMs: app.scaleUpGraceMillis ?? 0,
      imagePullRetryMs: app.imagePullRetryMillis ?? 0,
      timedPollMs: this.t.timedPollMs,
      stamp: (n) => stampWorker(stampInput, n),
      onFailure: (failure) => this.on({ type: 'WorkerFailed', failure }),
    });
    this.state.reconciler = reconciler;
    reconciler.start();
    return reconciler;
  }

  /** `cancel` deletes the Job; `cancel --savepoint` first annotates it. */
  private watchOwnJob(): void {
    this.ownJob = new OwnJobWatch(this.d.kube, this.d.settings.app.appId, {
      clock: this.d.clock,
      log: this.d.log,
      onJob: (seen) => {
        if (seen === 'gone' || seen.deleting) this.markApplicationDeleted();
        else if (seen.cancelRequested && !this.interruption.isSet) {
          this.state.savepointRequested = seen.cancelRequested === 'savepoint';
          this.d.log.info('cancel requested on the Job', { mode: seen.cancelRequested });
        }
        this.on(seen === 'gone' ? { type: 'OwnJobGone' } : { type: 'OwnJob', ...seen });
      },
    });
    this.ownJob.start();
  }

  /** Whether the Job or this Pod is being deleted (or already gone). Unknown counts as no. */
  private async applicationBeingDeleted(): Promise<boolean> {
    const { kube, settings } = this.d;
    const deleting = (read: Promise<{ metadata?: { deletionTimestamp?: unknown } }>): Promise<boolean> =>
      read.then(
        (o) => Boolean(o.metadata?.deletionTimestamp),
        (e: unknown) => isStatus(e, 404),
      );
    // With HA this Pod's own deletion is not the application's (another coordinator follows).
    const [job, pod] = await Promise.all([
      deleting(kube.getJob(settings.app.appId)),
      settings.app.ha ? Promise.resolve(false) : deleting(kube.getPod(settings.pod.name)),
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
    const { log } = this.d;
    await Promise.all(
      [this.masters?.stop(), this.state.reconciler?.release(), this.state.store?.stop()].map((p) =>
        Promise.resolve(p).catch(() => undefined),
      ),
    );
    this.reporter.event('Normal', 'CoordinatorDetached', result.message);
    await this.reporter.flush(this.t.recordBudgetMs);
    log.info('detached', { jobId: this.state.acked?.jobId, exitCode: result.exitCode });
    return result;
  }

  /** Stop the job, remove the workers, record the terminal state, stop the engine. */
  private async finish(result: Outcome): Promise<Outcome> {
    const { clock, log } = this.d;
    this.state.ending = true;
    this.ending.abort();
    void this.ownJob?.stop();
    log.info('ending', { state: result.state, reason: result.reason });
    if (result.reason === 'Detached') return this.detach(result);
    try {
      await stopJob(this, result.reason, () => this.applicationBeingDeleted());
    } catch (e) {
      log.warn('stopping the job failed', { error: errorMessage(e) });
    }
    let problems: string[];
    try {
      problems = await removeWorkers(this);
    } catch (e) {
      problems = [`cleanup: ${errorMessage(e)}`];
    }
    if (this.d.settings.app.ha) {
      await this.masters?.stop();
      problems.push(...(await removeMasters(this, this.d.settings.app.ha)));
    }
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
    const recorded = await this.reporter.flush(this.t.recordBudgetMs);
    if (!recorded) log.warn('the terminal state could not be recorded on the Job in time');
    if (this.state.engine === 'running') {
      this.state.engine = 'stopping';
      const exit = await Promise.resolve()
        .then(() => this.d.engine.shutdown(this.t.engineStopGraceMs))
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
