// The EnginePort for SeaTunnel Zeta: the master process (process.ts) and its REST API (zeta-rest.ts).

import * as fs from 'node:fs';
import * as path from 'node:path';
import { ENGINE_FILES, PATHS } from 'seatunnel-app/runtime-support';
import type { Clock } from '../clock';
import type { Logger } from '../log';
import { HAZELCAST_REST_PATH, type Settings } from '../settings';
import { requireCheckpoint } from './checkpoints';
import { hadoopLister } from './hadoop-list';
import { EngineProcess } from './process';
import {
  EngineUnavailable,
  type ClusterUuids,
  type EngineExit,
  type EnginePort,
  type JobInfo,
  type Overview,
  type SubmitRequest,
  type SubmitResult,
} from './port';
import { ANSWER_FLOOR_MS, AnswerTime } from './answer-time';
import { activeMasterIndex, majorityMaster } from './majority';
import { ZetaRest, type MemberView } from './zeta-rest';

/**
 * The plan writes the master's command for the work directory at PATHS.workDir; when the Pod's
 * SEATUNNEL_APP_WORK_DIR says otherwise (a different mount), the command follows it.
 */
export function relocate(argv: readonly string[], workDir: string): string[] {
  if (workDir === PATHS.workDir) return [...argv];
  return argv.map((a) => a.split(PATHS.workDir + '/').join(workDir.replace(/\/$/, '') + '/'));
}

/** Variables the engine does not need and should not see. */
const HIDDEN_FROM_ENGINE = ['SEATUNNEL_APPLICATION_JOB_CONFIG', 'KUBECONFIG'];

/** The longest wait for one readiness answer (engine/answer-time.ts doubles it from 5 s). */
export const READY_CEILING_MS = 20_000;

export class ZetaEngine implements EnginePort {
  /** Without HA the master runs here; with HA the masters are a StatefulSet and there is no process. */
  private readonly process: EngineProcess | undefined;
  private readonly candidates: ZetaRest[];
  private rest: ZetaRest;
  /** REST on each member port (Hazelcast's own, and Zeta's v1), whatever REST the jobs go through. */
  private readonly members = new Map<string, ZetaRest>();
  private readonly engineEnv: NodeJS.ProcessEnv;

  constructor(
    private readonly settings: Settings,
    env: NodeJS.ProcessEnv,
    private readonly clock: Clock,
    private readonly log: Logger,
    /** The wait for a job-info answer, following how long the answers take (answer-time.ts). */
    private readonly jobInfoTime = new AnswerTime(),
  ) {
    // runtime.json master.env: the engine's own settings (JVM module flags, phone-home off).
    const engineEnv: NodeJS.ProcessEnv = { ...env, HZ_PHONE_HOME_ENABLED: 'false', ...(settings.app.master.env ?? {}) };
    for (const k of HIDDEN_FROM_ENGINE) delete engineEnv[k];
    this.engineEnv = engineEnv;
    this.process = settings.app.ha
      ? undefined
      : new EngineProcess({ argv: relocate(settings.app.master.command, settings.workDir), env: engineEnv, log });
    this.candidates = settings.engineRest.candidates.map(
      (c) => new ZetaRest({ host: settings.engineRest.host, port: c.port, path: c.path }),
    );
    this.rest = this.candidates[0];
  }

  get exited(): Promise<EngineExit> {
    return this.process?.exited ?? new Promise<EngineExit>(() => undefined);
  }

  start(): void {
    this.process?.start();
  }

  /** Waits until one of the REST endpoints answers, in order of preference, and keeps that one. */
  async waitReady(signal: AbortSignal): Promise<void> {
    const last = new Map<string, string>();
    // /running-jobs carries every running job's DAG and metrics: when a new coordinator re-attaches
    // to a job of thousands of tables, a small master takes longer than 5 s to answer, and a read
    // abandoned then was asked again at once — on three real nodes a coordinator waited 2.5 min
    // here. So each address's wait doubles after a read that got no answer, as job-info's does, up
    // to READY_CEILING_MS (a connection held by a frozen master is given up soon enough).
    const waits = this.candidates.map(() => new AnswerTime(ANSWER_FLOOR_MS, READY_CEILING_MS));
    while (!signal.aborted) {
      for (const [i, rest] of this.candidates.entries()) {
        try {
          await rest.ready(signal, waits[i].timeoutMs);
          this.rest = rest;
          this.log.info('engine REST API answers', { url: rest.base });
          return;
        } catch (e) {
          if (e instanceof EngineUnavailable && e.code === 'ETIMEDOUT') {
            const waited = waits[i].timeoutMs;
            waits[i].timedOut();
            if (waits[i].timeoutMs > waited)
              this.log.info('the engine REST API got no answer in time; the next read waits longer', {
                url: rest.base,
                waitedMs: waited,
                nextMs: waits[i].timeoutMs,
              });
          }
          last.set(rest.base, (e as Error).message);
        }
      }
      await this.clock.sleep(250, signal);
    }
    const tried = [...last].map(([url, why]) => `${url} (${why})`).join(', ');
    throw new EngineUnavailable(
      `the engine's REST API did not answer: ${tried || this.candidates.map((c) => c.base).join(', ')}`,
    );
  }

  async checkRestorable(jobId: string): Promise<void> {
    // The master's completed copy; with HA (no copy) the mounted generated file; else the image's.
    const candidates = [
      path.join(this.settings.engineWorkDir, ENGINE_FILES.masterEngine),
      path.join(this.settings.engineConfigDir, ENGINE_FILES.masterEngine),
      path.join(process.env.SEATUNNEL_HOME ?? '/opt/seatunnel', 'config', 'seatunnel.yaml'),
    ];
    const file = candidates.find((f) => fs.existsSync(f)) ?? candidates[candidates.length - 1];
    const listHadoop = hadoopLister({
      engineCommand: relocate(this.settings.app.master.command, this.settings.workDir),
      env: this.engineEnv,
      confDir: path.join(this.settings.workDir, 'checkpoint-client'),
      timeoutMs: 120_000,
    });
    const files = await requireCheckpoint(fs.readFileSync(file, 'utf8'), jobId, { listHadoop });
    this.log.info('checkpoint found for the restore', {
      restoreJobId: jobId,
      files: files.length,
      latest: files[files.length - 1],
    });
  }

  overview(): Promise<Overview> {
    return this.rest.overview();
  }

  async submit(req: SubmitRequest): Promise<SubmitResult> {
    // Zeta 2.3 restores a job from its own checkpoints only under the same id
    // (isStartWithSavePoint=true); a restore into a new id does not exist there.
    const restoring = req.restoreFromJobId !== undefined;
    const jobId = req.restoreFromJobId ?? req.jobId;
    const id = await this.rest.submit(jobId, req.jobName, req.configJson, restoring);
    return { jobId: id, restored: restoring };
  }

  jobInfo(jobId: string): Promise<JobInfo> {
    return this.timedJobInfo(this.rest, jobId);
  }

  /** One job-info read, its wait set by the earlier answers and what this one took noted. */
  private async timedJobInfo(rest: ZetaRest, jobId: string): Promise<JobInfo> {
    const timeoutMs = this.jobInfoTime.timeoutMs;
    const began = this.clock.now();
    try {
      const info = await rest.jobInfo(jobId, timeoutMs);
      this.jobInfoTime.answered(this.clock.now() - began);
      return info;
    } catch (e) {
      if (e instanceof EngineUnavailable && e.code === 'ETIMEDOUT') {
        this.jobInfoTime.timedOut();
        if (this.jobInfoTime.timeoutMs > timeoutMs)
          this.log.info('job-info got no answer in time; the next read waits longer', {
            jobId,
            waitedMs: timeoutMs,
            nextMs: this.jobInfoTime.timeoutMs,
          });
      }
      throw e;
    }
  }

  stopJob(jobId: string, savepoint = false): Promise<void> {
    return this.rest.stopJob(jobId, savepoint);
  }

  async joinedMembers(): Promise<readonly string[] | undefined> {
    const { app } = this.settings;
    const views = app.ha ? await this.memberViews(app.ha.masterAddresses) : [await this.masterView()];
    const answered = views.filter((v): v is MemberView => v !== undefined);
    return answered.length > 0 ? [...new Set(answered.flatMap((v) => v.members))] : undefined;
  }

  async memberUuids(): Promise<ClusterUuids | undefined> {
    const { ha } = this.settings.app;
    if (!ha) {
      const uuids = (await this.masterView())?.uuids;
      return uuids && { majority: uuids, minority: [] };
    }
    const views = await this.memberViews(ha.masterAddresses);
    const i = majorityMaster(views, ha.masterAddresses.length);
    const majority = i === undefined ? undefined : views[i];
    if (!majority?.uuids) return undefined;
    const inMajority = new Set(majority.members);
    const minority = views.flatMap((v) => (v?.self && v.uuids && !inMajority.has(v.self) ? [v.uuids] : []));
    return { majority: majority.uuids, minority };
  }

  /** Without HA: the local master's view of its cluster; undefined when it does not answer. */
  private masterView(): Promise<MemberView | undefined> {
    const { app, engineRest } = this.settings;
    return this.memberRest(`${engineRest.host}:${app.master.port}`, '')
      .clusterMembers()
      .catch(() => undefined);
  }

  async activeMaster(masters: readonly string[]): Promise<string | undefined> {
    const i = activeMasterIndex(await this.memberViews(masters), masters.length);
    return i === undefined ? undefined : masters[i];
  }

  async majorityJobInfo(masters: readonly string[], jobId: string): Promise<JobInfo | undefined> {
    const i = majorityMaster(await this.memberViews(masters), masters.length);
    return i === undefined ? undefined : this.timedJobInfo(this.memberRest(masters[i], HAZELCAST_REST_PATH), jobId);
  }

  /** Each master's view of its cluster; undefined for one that does not answer. */
  private memberViews(masters: readonly string[]): Promise<Array<MemberView | undefined>> {
    return Promise.all(
      masters.map((address) =>
        this.memberRest(address, '')
          .clusterMembers()
          .catch(() => undefined),
      ),
    );
  }

  /** Hazelcast's own REST on one member, by its address (`path` '' for Hazelcast's, the REST v1 path for Zeta's). */
  private memberRest(address: string, path: string): ZetaRest {
    const key = `${address}${path}`;
    let rest = this.members.get(key);
    if (!rest) {
      const i = address.lastIndexOf(':');
      rest = new ZetaRest({ host: address.slice(0, i), port: Number(address.slice(i + 1)), path, timeoutMs: 2000 });
      this.members.set(key, rest);
    }
    return rest;
  }

  shutdown(graceMs: number): Promise<EngineExit | undefined> {
    return this.process ? this.process.stop(graceMs) : Promise.resolve(undefined);
  }
}
