// The whole life of an application in the master Pod (docs/seatunnel-application-mode.md §8):
//
//   settings → job config → engine files (+ restore check) → start the Zeta master
//   → [wait for its REST API ‖ read own Job, Pod and the worker template, adopt dependents,
//      create N workers (bounded parallel) and watch them] → registration barrier (one deadline
//   covering creation and registration; reason-aware fail fast) → submit exactly one job
//   → follow it, racing the first worker loss, SIGTERM and an engine exit
//   → stop the job if its submission was acknowledged → delete every worker, then a label-selected
//   deletecollection → record the terminal state on the Job → stop the engine → exit code.
//
// The first failure wins (`interrupt`); cleanup always runs and every step of it is attempted.

import { ANNOTATIONS } from 'seatunnel-app/internal/model/reserved';
import { jobOwnerReference } from 'seatunnel-app/internal/plan/build-plan';
import type { Clock } from './clock';
import { describeExit } from './engine/process';
import { EngineRejected, EngineUnavailable, type EnginePort, type SubmitResult } from './engine/port';
import { isStatus, isTransient, type KubePort, type ObjectRef, type Pod, type PodTemplate } from './kube/port';
import type { Logger } from './log';
import { outcome, outcomeOfError, RuntimeFailure, ZETA_TERMINAL, zetaReason, type Outcome } from './outcome';
import { Reporter, type Phase } from './report/reporter';
import { resolveJobConfig, type Env, type ResolvedJobConfig, type Settings, type SettingsIo } from './settings';
import { backoffMs, errorMessage, Latch, mapLimit } from './util';
import { WorkerReconciler, type Assessment } from './workers/reconciler';
import { PodSnapshotStore } from './workers/snapshot';
import { stampWorker, templateProblems, workerSelector, type MasterRef } from './workers/stamp';

export interface Tuning {
  /** Worker creates in flight at most. */
  readonly createConcurrency: number;
  /** Poll interval of /overview during the registration barrier. */
  readonly barrierPollMs: number;
  /** Poll interval of /job-info while the job runs. */
  readonly jobPollMs: number;
  /** How long a stopped job may take to reach a terminal status. */
  readonly stopWaitMs: number;
  /** How long a stop with savepoint (streaming job, SIGTERM) may take before a plain stop. */
  readonly savepointWaitMs: number;
  /** How long the engine's REST API may fail before the application fails (EngineUnreachable). */
  readonly engineUnreachableMs: number;
  /** Periodic re-list of the worker Pods. */
  readonly resyncMs: number;
  /** How often the runtime reads its own Job (cancel requests, deletion). */
  readonly jobWatchMs: number;
  /** How long the API may fail before the application fails (ApiUnavailable). */
  readonly apiFailureBudgetMs: number;
  /** Budget of the worker deletion part of cleanup. */
  readonly cleanupBudgetMs: number;
  /** Budget for writing the terminal state on the Job. */
  readonly recordBudgetMs: number;
  /** SIGTERM → SIGKILL grace of the engine process. */
  readonly engineStopGraceMs: number;
}

export const DEFAULT_TUNING: Tuning = {
  createConcurrency: 20,
  barrierPollMs: 200,
  jobPollMs: 500,
  stopWaitMs: 10_000,
  savepointWaitMs: 45_000,
  engineUnreachableMs: 30_000,
  resyncMs: 30_000,
  jobWatchMs: 2_000,
  apiFailureBudgetMs: 60_000,
  cleanupBudgetMs: 45_000,
  recordBudgetMs: 10_000,
  engineStopGraceMs: 10_000,
};

export interface LifecycleDeps {
  readonly settings: Settings;
  readonly env: Env;
  readonly io: SettingsIo;
  readonly kube: KubePort;
  readonly engine: EnginePort;
  readonly clock: Clock;
  readonly log: Logger;
  /** Aborts when the Pod is asked to stop (SIGTERM). */
  readonly terminate: AbortSignal;
  /** Writes the completed engine files (settings.engineWorkDir). */
  readonly writeEngineFiles: () => void;
  readonly tuning?: Partial<Tuning>;
}

interface KubeContext {
  readonly jobUid: string;
  readonly master: MasterRef;
  readonly template: PodTemplate;
}

function firstLine(s: string | undefined): string {
  return (s ?? '').split('\n')[0].trim();
}

export async function runApplication(deps: LifecycleDeps): Promise<Outcome> {
  return new Application(deps).run();
}

class Application {
  private readonly t: Tuning;
  private readonly interrupt = new Latch<RuntimeFailure>();
  /** Aborted with the first interruption; sleeps and guarded calls listen to it (one listener each, removed after). */
  private readonly interrupted = new AbortController();
  /** Aborted when the lifecycle starts ending; background waits stop. */
  private readonly ending = new AbortController();
  private readonly reporter: Reporter;
  private store: PodSnapshotStore | undefined;
  private reconciler: WorkerReconciler | undefined;
  private submitting: Promise<SubmitResult | undefined> | undefined;
  private acked: SubmitResult | undefined;
  private zetaStatus: string | undefined;
  /** A streaming job (env.job.mode STREAMING): stopped with a savepoint when the application is terminated. */
  private streaming = false;
  /** `cancel --savepoint` asked for a stop with savepoint. */
  private savepointRequested = false;
  /** The Job (or this Pod) is being deleted: workers go away too, so no savepoint can be taken. */
  private applicationDeleted = false;
  private registered = 0;
  private engineStarted = false;
  private engineStopping = false;
  private phase: Phase | undefined;

  constructor(private readonly d: LifecycleDeps) {
    this.t = { ...DEFAULT_TUNING, ...d.tuning };
    this.reporter = new Reporter(d.kube, { name: d.settings.app.appId }, { podName: d.settings.pod.name }, d.clock, d.log);
  }

  private get app() {
    return this.d.settings.app;
  }

  async run(): Promise<Outcome> {
    const onTerm = () => {
      this.d.log.warn('asked to stop (SIGTERM): stopping the job and removing the workers');
      this.interruptWith(new RuntimeFailure('Terminated', 'the master Pod was asked to stop (SIGTERM), e.g. by `cancel`, a Job deletion or an eviction'));
    };
    if (this.d.terminate.aborted) onTerm();
    else this.d.terminate.addEventListener('abort', onTerm, { once: true });
    let result: Outcome;
    try {
      result = await this.main();
    } catch (e) {
      result = outcomeOfError(e, this.zetaStatus);
    }
    return this.finish(result);
  }

  private interruptWith(f: RuntimeFailure): void {
    if (this.interrupt.set(f)) this.interrupted.abort();
  }

  private setPhase(phase: Phase, extra: Parameters<Reporter['annotate']>[0] = {}): void {
    if (this.phase === phase && Object.keys(extra).length === 0) return;
    this.phase = phase;
    this.d.log.info(`phase ${phase}`);
    this.reporter.annotate({ phase, ...extra });
  }

  /** Races `p` against the first interruption; `p`'s own late rejection is swallowed. */
  private guard<T>(p: Promise<T>): Promise<T> {
    p.catch(() => undefined);
    const signal = this.interrupted.signal;
    if (signal.aborted) return Promise.reject(this.interrupt.value);
    return new Promise<T>((resolve, reject) => {
      const onAbort = () => reject(this.interrupt.value);
      signal.addEventListener('abort', onAbort, { once: true });
      p.then(
        (v) => {
          signal.removeEventListener('abort', onAbort);
          resolve(v);
        },
        (e: unknown) => {
          signal.removeEventListener('abort', onAbort);
          reject(e);
        },
      );
    });
  }

  /** Sleeps `ms`, waking early on an interruption. */
  private pause(ms: number): Promise<void> {
    return this.d.clock.sleep(ms, this.interrupted.signal);
  }

  private throwIfInterrupted(): void {
    const f = this.interrupt.value;
    if (f) throw f;
  }

  /** Retries a Kubernetes read on transient errors within the API failure budget. */
  private async api<T>(what: string, fn: () => Promise<T>, notFound?: () => RuntimeFailure): Promise<T> {
    const start = this.d.clock.now();
    for (let attempt = 0; ; attempt++) {
      this.throwIfInterrupted();
      try {
        return await fn();
      } catch (e) {
        if (notFound && isStatus(e, 404)) throw notFound();
        if (isStatus(e, 403)) throw new RuntimeFailure('ApiError', `${what}: forbidden — the runtime's Role does not allow it (${errorMessage(e)})`);
        if (!isTransient(e)) throw new RuntimeFailure('ApiError', `${what}: ${errorMessage(e)}`);
        if (this.d.clock.now() - start > this.t.apiFailureBudgetMs) throw new RuntimeFailure('ApiUnavailable', `${what}: the API server did not answer for ${Math.round(this.t.apiFailureBudgetMs / 1000)} s (${errorMessage(e)})`);
        this.d.log.warn(`${what} failed; retrying`, { error: errorMessage(e) });
        await this.pause(backoffMs(attempt, 200, 3000));
      }
    }
  }

  private async main(): Promise<Outcome> {
    const { settings, log } = this.d;
    const app = this.app;
    log.info('starting', {
      application: app.appId, jobId: app.jobId, restoreJobId: app.restoreJobId, workers: app.workerCount, slots: app.workerSlots,
      startupTimeoutMs: app.startupTimeoutMillis, pod: settings.pod.name,
    });
    this.setPhase('Starting', {
      workersDesired: String(app.workerCount), workersRegistered: '0', zetaJobId: app.restoreJobId ?? app.jobId,
      zetaJobStatus: null, reason: null, message: null, finishedAt: null,
    });

    // Everything the Pod's settings decide is checked before anything starts.
    const job: ResolvedJobConfig = resolveJobConfig(app, this.d.env, this.d.io);
    this.streaming = isStreaming(job.json);
    log.info('job config resolved', { bytes: job.json.length, variables: job.envUsed.join(',') || 'none', streaming: this.streaming });
    this.d.writeEngineFiles();
    if (app.restoreJobId) this.d.engine.checkRestorable(app.restoreJobId);
    this.throwIfInterrupted();

    this.startEngine();
    // The workers' JVMs start while the master's does: a worker keeps trying to join the master's
    // address (known from the start: this Pod's IP), so nothing waits for the master to be ready
    // before the workers are created — the registration barrier below waits for both.
    const engineReady = this.waitForEngine();
    engineReady.catch(() => undefined);
    const kctx = await this.guard(this.readKubernetes());
    this.watchOwnJob();
    await this.startWorkers(kctx);
    await this.guard(engineReady);
    await this.barrier();

    const submitted = await this.submit(job);
    return this.follow(submitted.jobId);
  }

  // ---- engine ------------------------------------------------------------------------------

  private startEngine(): void {
    try {
      this.d.engine.start();
    } catch (e) {
      throw new RuntimeFailure('EngineStartFailed', `the Zeta master could not be started: ${errorMessage(e)}`);
    }
    this.engineStarted = true;
    void this.d.engine.exited.then((exit) => {
      if (this.engineStopping) return;
      this.interruptWith(
        exit.error
          ? new RuntimeFailure('EngineStartFailed', `the Zeta master ${describeExit(exit)}`)
          : new RuntimeFailure('EngineExited', `the Zeta master process ${describeExit(exit)} before the application ended`),
      );
    });
  }

  private async waitForEngine(): Promise<void> {
    const started = this.d.clock.now();
    const ac = new AbortController();
    const stop = () => ac.abort();
    this.interrupted.signal.addEventListener('abort', stop, { once: true });
    this.ending.signal.addEventListener('abort', stop, { once: true });
    void this.d.clock.sleep(this.app.startupTimeoutMillis, ac.signal).then(stop);
    try {
      await this.d.engine.waitReady(ac.signal);
    } catch (e) {
      this.throwIfInterrupted();
      if (e instanceof EngineUnavailable) {
        throw new RuntimeFailure('EngineStartTimeout', `the Zeta master did not answer within ${this.app.startupTimeoutMillis} ms: ${e.message}`);
      }
      throw e;
    } finally {
      ac.abort();
      this.interrupted.signal.removeEventListener('abort', stop);
      this.ending.signal.removeEventListener('abort', stop);
    }
    this.d.log.info('engine ready', { afterMs: Math.round(this.d.clock.now() - started) });
  }

  // ---- Kubernetes context ------------------------------------------------------------------

  private async readKubernetes(): Promise<KubeContext> {
    const { kube, settings, log } = this.d;
    const app = this.app;
    const jobObj = await this.api(`reading Job ${app.appId}`, () => kube.getJob(app.appId));
    const jobUid = jobObj.metadata?.uid;
    if (!jobUid) throw new RuntimeFailure('ApiError', `Job ${app.appId} has no uid`);
    this.reporter.setJobUid(jobUid);
    const pod: Pod = await this.api(`reading the master Pod ${settings.pod.name}`, () => kube.getPod(settings.pod.name));
    const master: MasterRef = { name: settings.pod.name, uid: pod.metadata?.uid ?? settings.pod.uid };
    if (settings.pod.uid && master.uid !== settings.pod.uid) log.warn('the Pod uid from the API differs from SEATUNNEL_POD_UID; using the API', { api: master.uid, env: settings.pod.uid });
    const template: PodTemplate = await this.api(
      `reading the worker PodTemplate ${app.workerTemplate}`,
      () => kube.getPodTemplate(app.workerTemplate),
      () => new RuntimeFailure('InvalidWorkerTemplate', `the worker PodTemplate ${app.workerTemplate} does not exist (apply it with the other objects of the application)`),
    );
    const problems = templateProblems(template);
    if (problems.length) throw new RuntimeFailure('InvalidWorkerTemplate', `the worker PodTemplate ${app.workerTemplate} cannot be used: ${problems.join('; ')}`);
    await this.adoptDependents(jobUid);
    return { jobUid, master, template };
  }

  /**
   * `kubectl apply` of synthesized YAML creates the dependents before the Job exists, without
   * owner references; the runtime adds the Job as their owner so that deleting the Job (cancel,
   * TTL) removes them. Only the objects named in runtime.json, only when they have no owner.
   */
  private async adoptDependents(jobUid: string): Promise<void> {
    const { kube, log } = this.d;
    const owner = jobOwnerReference(this.app.appId, jobUid);
    const adopted: string[] = [];
    await mapLimit(this.app.dependents, 8, async (dep: ObjectRef) => {
      const id = `${dep.kind}/${dep.name}`;
      for (let attempt = 0; attempt < 3; attempt++) {
        try {
          const meta = await kube.getMetadata(dep);
          const owners = meta.ownerReferences ?? [];
          if (owners.some((o) => o.uid === jobUid)) return;
          if (owners.length > 0) {
            log.info('dependent has another owner; left alone', { object: id });
            return;
          }
          await kube.setOwnerReferences(dep, [owner], meta.resourceVersion ?? '');
          adopted.push(id);
          return;
        } catch (e) {
          if (isStatus(e, 404)) {
            log.warn('dependent not found; nothing to adopt', { object: id });
            return;
          }
          if (isStatus(e, 409) || isTransient(e)) {
            await this.pause(backoffMs(attempt, 100, 1000));
            continue;
          }
          this.reporter.event('Warning', 'AdoptionFailed', `could not add the Job as owner of ${id}: ${errorMessage(e)}`);
          return;
        }
      }
      this.reporter.event('Warning', 'AdoptionFailed', `could not add the Job as owner of ${id} (it kept changing or the API did not answer)`);
    });
    if (adopted.length) log.info('adopted dependents applied without an owner', { objects: adopted.sort().join(',') });
  }

  // ---- workers ---------------------------------------------------------------------------

  private async startWorkers(k: KubeContext): Promise<void> {
    const { kube, settings, clock, log } = this.d;
    const app = this.app;
    this.setPhase('CreatingWorkers');
    this.reporter.event('Normal', 'WorkersCreating', `creating ${app.workerCount} worker Pod(s) with ${app.workerSlots} slot(s) each from PodTemplate ${app.workerTemplate}`);
    const selector = workerSelector(app.appId);
    const store = new PodSnapshotStore(kube, selector, { clock, log, resyncMs: this.t.resyncMs, failureBudgetMs: this.t.apiFailureBudgetMs });
    this.store = store;
    store.onFatal((e) => this.interruptWith(new RuntimeFailure('ApiUnavailable', `lost track of the worker Pods: ${e.message}`)));
    await this.guard(store.start());
    const stampInput = { appId: app.appId, namespace: kube.namespace, template: k.template, master: k.master, masterHost: settings.pod.masterHost, masterPort: app.master.port };
    this.reconciler = new WorkerReconciler({
      kube, store, clock, log,
      appId: app.appId,
      count: app.workerCount,
      masterUid: k.master.uid,
      concurrency: this.t.createConcurrency,
      stamp: (n) => stampWorker(stampInput, n),
      onFailure: (f) => {
        if (this.interrupt.isSet || this.ending.signal.aborted) return;
        // Deleting the application (cancel) deletes the workers too, often before this Pod gets
        // its SIGTERM: that is a cancel, not a lost worker.
        void this.applicationBeingDeleted().then((deleted) => {
          if (this.interrupt.isSet) return;
          if (deleted) {
            this.interruptWith(new RuntimeFailure('Terminated', `the application is being deleted (e.g. by \`cancel\`); ${f.message}`));
            return;
          }
          this.reporter.event('Warning', f.reason === 'WorkerLost' ? 'WorkerLost' : 'WorkerFailed', `${f.reason}: ${f.message}`);
          this.interruptWith(new RuntimeFailure(f.reason, f.message, f.worker));
        });
      },
    });
    this.reconciler.start();
  }

  /** Whether the Job or this Pod is being deleted (or already gone). Unknown counts as no. */
  private async applicationBeingDeleted(): Promise<boolean> {
    const { kube, settings } = this.d;
    const deleting = async (read: () => Promise<{ metadata?: { deletionTimestamp?: unknown } }>): Promise<boolean> => {
      try {
        return Boolean((await read()).metadata?.deletionTimestamp);
      } catch (e) {
        return isStatus(e, 404);
      }
    };
    const [job, pod] = await Promise.all([deleting(() => kube.getJob(this.app.appId)), deleting(() => kube.getPod(settings.pod.name))]);
    if (job || pod) this.applicationDeleted = true;
    return job || pod;
  }

  /**
   * Reads the own Job every few seconds: `cancel --savepoint` sets the cancel-requested
   * annotation; a deletion (plain `cancel`) ends the application as canceled. Stops with the
   * lifecycle.
   */
  private watchOwnJob(): void {
    const { kube, clock, log } = this.d;
    const loop = async () => {
      while (!this.ending.signal.aborted && !this.interrupt.isSet) {
        try {
          await clock.sleep(this.t.jobWatchMs, this.ending.signal);
        } catch {
          return;
        }
        if (this.interrupt.isSet || this.ending.signal.aborted) return;
        try {
          const job = await kube.getJob(this.app.appId);
          const requested = job.metadata?.annotations?.[ANNOTATIONS.cancelRequested];
          if (job.metadata?.deletionTimestamp) {
            this.applicationDeleted = true;
            this.interruptWith(new RuntimeFailure('Terminated', 'the application is being deleted (e.g. by `cancel`)'));
          } else if (requested) {
            this.savepointRequested = requested === 'savepoint';
            log.info('cancel requested on the Job', { mode: requested });
            this.interruptWith(new RuntimeFailure('Terminated', `cancel requested${this.savepointRequested ? ' with a savepoint' : ''}`));
          }
        } catch (e) {
          if (isStatus(e, 404)) {
            this.applicationDeleted = true;
            this.interruptWith(new RuntimeFailure('Terminated', 'the application\'s Job was deleted (e.g. by `cancel`)'));
          } else log.debug('reading the own Job failed', { error: errorMessage(e) });
        }
      }
    };
    void loop();
  }

  private describeWaiting(a: Assessment | undefined): string {
    if (!a || a.waiting.size === 0) return '';
    const byState = new Map<string, string[]>();
    for (const [name, why] of a.waiting) byState.set(why, [...(byState.get(why) ?? []), name]);
    return [...byState].map(([why, ns]) => `${ns.length} ${why} (${ns.slice(0, 5).join(', ')}${ns.length > 5 ? ', …' : ''})`).join('; ');
  }

  /** Creation and Zeta registration of all N workers within one startup deadline. */
  private async barrier(): Promise<void> {
    const { engine, clock, log } = this.d;
    const app = this.app;
    const want = { workers: app.workerCount, slots: app.workerCount * app.workerSlots };
    const started = clock.now();
    const deadline = started + app.startupTimeoutMillis;
    let last = { workers: 0, totalSlot: 0 };
    let lastError = '';
    for (;;) {
      this.throwIfInterrupted();
      const rec = this.reconciler!;
      if (rec.allCreated) {
        this.setPhase('WaitingForWorkers');
        try {
          last = await engine.overview();
          lastError = '';
          const registered = Math.min(last.workers, app.workerCount);
          if (registered !== this.registered) {
            this.registered = registered;
            this.reporter.annotate({ workersRegistered: String(registered) });
            log.info('workers registered with Zeta', { registered: last.workers, desired: app.workerCount, totalSlot: last.totalSlot });
          }
          if (last.workers >= want.workers && last.totalSlot >= want.slots) break;
        } catch (e) {
          lastError = errorMessage(e);
          log.debug('overview failed', { error: lastError });
        }
      }
      this.throwIfInterrupted();
      if (clock.now() >= deadline) {
        const a = rec.reconcile();
        const created = rec.records.filter((r) => r.phase === 'created').length;
        const waiting = this.describeWaiting(a);
        throw new RuntimeFailure(
          'StartupTimeout',
          `Timed out starting ${app.workerCount} application workers after ${Math.round(app.startupTimeoutMillis / 1000)} s: ` +
            `${created}/${app.workerCount} created, ${a.running} running, ${Math.min(last.workers, app.workerCount)}/${app.workerCount} registered with Zeta ` +
            `(totalSlot ${last.totalSlot} of ${want.slots})${waiting ? `; not running: ${waiting}` : ''}${lastError ? `; last engine error: ${lastError}` : ''}`,
        );
      }
      await this.pause(Math.min(this.t.barrierPollMs, Math.max(1, deadline - clock.now())));
    }
    this.registered = app.workerCount;
    const secs = ((clock.now() - started) / 1000).toFixed(1);
    this.reporter.annotate({ workersRegistered: String(app.workerCount) });
    this.reporter.event('Normal', 'AllWorkersRegistered', `all ${app.workerCount} workers registered with Zeta (${last.totalSlot} slots) ${secs} s after creation started`);
  }

  // ---- the job -----------------------------------------------------------------------------

  private async submit(job: ResolvedJobConfig): Promise<SubmitResult> {
    const app = this.app;
    this.setPhase('Submitting');
    const p = this.submitOnce(job);
    this.submitting = p;
    const res = await this.guard(p);
    if (!res) throw new RuntimeFailure('EngineUnreachable', 'the job could not be submitted');
    this.acked = res;
    this.zetaStatus = undefined;
    const restored = res.restored ? `, restored from the latest checkpoint of job ${app.restoreJobId}` : '';
    this.setPhase('Running', { zetaJobId: res.jobId });
    this.reporter.event('Normal', 'JobSubmitted', `submitted Zeta job ${res.jobId} (${app.jobName})${restored}`);
    return res;
  }

  /** Submits once; after an ambiguous failure, asks the engine whether the job exists before retrying. */
  private async submitOnce(job: ResolvedJobConfig): Promise<SubmitResult> {
    const { engine, clock, log } = this.d;
    const app = this.app;
    const expected = app.restoreJobId ?? app.jobId;
    const started = clock.now();
    for (let attempt = 0; ; attempt++) {
      try {
        return await engine.submit({ jobId: app.jobId, jobName: app.jobName, configJson: job.json, restoreFromJobId: app.restoreJobId });
      } catch (e) {
        if (e instanceof EngineRejected) throw new RuntimeFailure('JobRejected', `Zeta refused the job: ${firstLine(e.message)}`);
        log.warn('submitting the job failed; checking whether it arrived', { error: errorMessage(e) });
        try {
          const info = await engine.jobInfo(expected);
          if (info.status) return { jobId: expected, restored: app.restoreJobId !== undefined };
        } catch {
          // still unknown
        }
        if (clock.now() - started > this.t.engineUnreachableMs || this.interrupt.isSet) {
          throw new RuntimeFailure('EngineUnreachable', `the job could not be submitted: ${errorMessage(e)}`);
        }
        await clock.sleep(backoffMs(attempt, 500, 3000));
      }
    }
  }

  /** Follows the job to a terminal status, racing worker loss, SIGTERM and an engine exit. */
  private async follow(jobId: string): Promise<Outcome> {
    const { engine, clock, log } = this.d;
    let failingSince: number | undefined;
    for (;;) {
      this.throwIfInterrupted();
      try {
        const info = await this.guard(engine.jobInfo(jobId));
        failingSince = undefined;
        if (info.status && info.status !== this.zetaStatus) {
          this.zetaStatus = info.status;
          log.info('Zeta job status', { jobId, status: info.status });
          this.reporter.annotate({ zetaJobStatus: info.status });
        }
        if (info.status && ZETA_TERMINAL.has(info.status)) {
          const reason = zetaReason(info.status);
          if (reason === 'JobFailed') {
            // A worker loss makes Zeta fail the job too; report the root cause if that is it.
            const a = this.reconciler?.reconcile();
            if (a?.failure) throw new RuntimeFailure(a.failure.reason, `${a.failure.message}; Zeta: ${firstLine(info.errorMsg)}`, a.failure.worker);
            return outcome('JobFailed', `Zeta job ${jobId} ended ${info.status}${info.errorMsg ? `: ${firstLine(info.errorMsg)}` : ''}`, info.status);
          }
          return outcome(reason, reason === 'JobFinished' ? `Zeta job ${jobId} ended ${info.status}` : `Zeta job ${jobId} was canceled in the engine`, info.status);
        }
        if (!info.status) throw new EngineUnavailable(`the engine does not know job ${jobId}`);
      } catch (e) {
        if (e instanceof RuntimeFailure) throw e;
        const now = clock.now();
        failingSince ??= now;
        if (now - failingSince > this.t.engineUnreachableMs) {
          throw new RuntimeFailure('EngineUnreachable', `the engine's job status could not be read for ${Math.round((now - failingSince) / 1000)} s: ${errorMessage(e)}`);
        }
        log.debug('reading the job status failed', { error: errorMessage(e) });
      }
      await this.pause(this.t.jobPollMs);
    }
  }

  /**
   * Stops the job if its submission was acknowledged (waiting briefly for one in flight). A
   * streaming job stopped because the application was terminated (cancel, SIGTERM) is stopped with
   * a savepoint first, so its checkpoints stay for a restore; if that does not finish in time, a
   * plain stop follows.
   */
  private async stopJob(reason?: string): Promise<void> {
    const { clock, log } = this.d;
    if (!this.acked && this.submitting) {
      const late = await Promise.race([this.submitting.catch(() => undefined), clock.sleep(this.t.stopWaitMs).then(() => undefined)]);
      if (late) {
        this.acked = late;
        log.info('the submission in flight was acknowledged; it will be stopped', { jobId: late.jobId });
      }
    }
    if (!this.acked || (this.zetaStatus && ZETA_TERMINAL.has(this.zetaStatus))) return;
    const jobId = this.acked.jobId;
    this.setPhase('Stopping');
    // A savepoint needs the workers: not when the application itself is being deleted (they go too).
    if (reason === 'Terminated' && !this.savepointRequested && !this.applicationDeleted) await this.applicationBeingDeleted();
    if (reason === 'Terminated' && this.streaming && (this.savepointRequested || !this.applicationDeleted)) {
      this.reporter.event('Normal', 'Stopping', `stopping Zeta job ${jobId} with a savepoint (its checkpoints stay for a restore)`);
      if (await this.requestStop(jobId, true, this.t.savepointWaitMs)) return;
      log.warn('the stop with savepoint did not end the job in time; stopping it without', { jobId });
    } else {
      this.reporter.event('Normal', 'Stopping', `stopping Zeta job ${jobId}`);
    }
    if (!(await this.requestStop(jobId, false, this.t.stopWaitMs))) {
      log.warn('the Zeta job did not reach a terminal status in time', { jobId, status: this.zetaStatus, waitedMs: this.t.stopWaitMs });
    }
  }

  /** Sends one stop request and waits up to `waitMs` for a terminal status; true when it got one. */
  private async requestStop(jobId: string, savepoint: boolean, waitMs: number): Promise<boolean> {
    const { engine, clock, log } = this.d;
    const deadline = clock.now() + waitMs;
    try {
      await engine.stopJob(jobId, savepoint);
    } catch (e) {
      log.warn('stop-job failed', { jobId, savepoint, error: errorMessage(e) });
    }
    while (clock.now() < deadline) {
      try {
        const info = await engine.jobInfo(jobId);
        if (info.status) {
          this.zetaStatus = info.status;
          if (ZETA_TERMINAL.has(info.status)) {
            log.info('Zeta job stopped', { jobId, status: info.status, savepoint });
            return true;
          }
        }
      } catch {
        // keep trying until the deadline
      }
      await clock.sleep(Math.min(250, Math.max(1, deadline - clock.now())));
    }
    return false;
  }

  // ---- the end -----------------------------------------------------------------------------

  /** Deletes every worker, then all Pods with the worker selector; every step is attempted. */
  private async cleanup(): Promise<string[]> {
    const { kube, clock, log } = this.d;
    const problems: string[] = [];
    const selector = workerSelector(this.app.appId);
    const deadline = clock.now() + this.t.cleanupBudgetMs;
    const names = new Set<string>();
    if (this.reconciler) {
      const attempted = await Promise.race([this.reconciler.release(), clock.sleep(Math.min(25_000, this.t.cleanupBudgetMs)).then(() => undefined)]);
      if (!attempted) {
        problems.push('worker creation did not stop in time');
        for (const r of this.reconciler.records) names.add(r.name);
      } else for (const n of attempted) names.add(n);
    }
    for (const name of this.store?.snapshot().pods.keys() ?? []) names.add(name);
    const retry = async (what: string, fn: () => Promise<unknown>): Promise<void> => {
      for (let attempt = 0; ; attempt++) {
        try {
          await fn();
          return;
        } catch (e) {
          // 403 is retried within the budget: an API server that just restarted refuses for a moment.
          if (!(isTransient(e) || isStatus(e, 403)) || clock.now() >= deadline) {
            problems.push(`${what}: ${errorMessage(e)}`);
            return;
          }
          await clock.sleep(Math.min(backoffMs(attempt, 200, 2000), Math.max(1, deadline - clock.now())));
        }
      }
    };
    if (names.size > 0) {
      this.setPhase('CleaningUp');
      log.info('deleting workers', { count: names.size });
    }
    let deleted = 0;
    await mapLimit([...names].sort(), this.t.createConcurrency, (name) =>
      retry(`deleting worker ${name}`, async () => {
        if ((await kube.deletePod(name)) === 'deleted') deleted++;
      }),
    );
    // The safety net: anything with the worker labels, e.g. from a create whose answer was lost.
    await retry(`deleting Pods with ${selector}`, () => kube.deletePods(selector));
    log.info('workers deleted', { deleted, problems: problems.length });
    return problems;
  }

  private async finish(result: Outcome): Promise<Outcome> {
    const { clock, log } = this.d;
    this.ending.abort();
    let final = result;
    log.info('ending', { state: result.state, reason: result.reason });
    try {
      await this.stopJob(result.reason);
    } catch (e) {
      log.warn('stopping the job failed', { error: errorMessage(e) });
    }
    if (this.zetaStatus) final = { ...final, zetaStatus: this.zetaStatus };
    let problems: string[];
    try {
      problems = await this.cleanup();
    } catch (e) {
      problems = [`cleanup: ${errorMessage(e)}`];
    }
    if (problems.length > 0) {
      this.reporter.event('Warning', 'CleanupFailed', `removing the workers failed: ${problems.join('; ')}`);
      final =
        final.state === 'SUCCEEDED'
          ? { ...outcome('CleanupFailed', `the job succeeded, but removing the workers failed: ${problems.join('; ')}`), ...(final.zetaStatus ? { zetaStatus: final.zetaStatus } : {}) }
          : { ...final, message: `${final.message} (cleanup also failed: ${problems.join('; ')})` };
    }
    await this.store?.stop().catch(() => undefined);
    const phase: Phase = final.state === 'SUCCEEDED' ? 'Succeeded' : final.state === 'CANCELED' ? 'Canceled' : 'Failed';
    const eventReason = phase;
    this.setPhase(phase, {
      reason: final.state === 'SUCCEEDED' ? null : final.reason,
      message: final.message.slice(0, 4096),
      zetaJobStatus: final.zetaStatus ?? null,
      finishedAt: clock.wallTime().toISOString(),
      workersRegistered: String(this.registered),
    });
    this.reporter.event(final.state === 'SUCCEEDED' ? 'Normal' : 'Warning', eventReason, final.state === 'SUCCEEDED' ? final.message : `${final.reason}: ${final.message}`);
    const recorded = await this.reporter.flush(this.t.recordBudgetMs);
    if (!recorded) log.warn('the terminal state could not be recorded on the Job in time');
    if (this.engineStarted) {
      this.engineStopping = true;
      const exit = await this.d.engine.shutdown(this.t.engineStopGraceMs).catch(() => undefined);
      if (exit) log.info(`engine process ${describeExit(exit)}`);
    }
    log.info('finished', { state: final.state, reason: final.reason, exitCode: final.exitCode, zetaStatus: final.zetaStatus, message: final.message });
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
