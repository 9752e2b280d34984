// What every step of the lifecycle shares: its dependencies (the two ports, clock, log), the
// tuning, the one record of the application's state, the interruption and the reporter.

import { WORKER_HEAD_START_MS } from 'seatunnel-app/runtime-support';
import type { Pod } from 'kubernetes-types/core/v1';
import type { Clock } from '../clock';
import type { EnginePort, SubmitResult } from '../engine/port';
import type { KubePort } from '../kube/port';
import type { Logger } from '../log';
import type { Facts, Happening } from '../policy';
import type { Phase, Reporter, StatusPatch } from '../report/reporter';
import type { Env, Settings, SettingsIo } from '../settings';
import type { WorkerReconciler } from '../workers/reconciler';
import type { PodSnapshotStore } from '../workers/snapshot';
import type { Interruption } from './interruption';

export interface Tuning {
  /** Worker creates in flight at most (also worker deletes in cleanup). */
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
  /** How long the API may fail before the application fails (ApiUnavailable). */
  readonly apiFailureBudgetMs: number;
  /** Budget of the worker deletion part of cleanup. */
  readonly cleanupBudgetMs: number;
  /** Budget for writing the terminal state on the Job. */
  readonly recordBudgetMs: number;
  /** SIGTERM → SIGKILL grace of the engine process. */
  readonly engineStopGraceMs: number;
  /** How often an Unschedulable worker's Events are read, and timed waits re-judged (autoscaler, image pulls). */
  readonly timedPollMs: number;
  /** How long the master's JVM waits for every worker's container to run before it starts anyway. */
  readonly workerHeadStartMs: number;
  /** application.worker-join-timeout-millis: a running worker not in the member list is restarted after it (../workers/unjoined.ts). */
  readonly workerJoinLimitMs: number;
}

/** The tuning of a runtime: the defaults, the tolerances runtime.json gives, then a test's overrides. */
export function tuningFor(app: Settings['app'], overrides: Partial<Tuning> = {}): Tuning {
  return {
    ...DEFAULT_TUNING,
    engineUnreachableMs: app.engineUnreachableMillis,
    apiFailureBudgetMs: app.apiOutageToleranceMillis,
    workerJoinLimitMs: app.workerJoinTimeoutMillis,
    ...overrides,
  };
}

export const DEFAULT_TUNING: Tuning = {
  createConcurrency: 20,
  barrierPollMs: 200,
  jobPollMs: 500,
  stopWaitMs: 10_000,
  savepointWaitMs: 45_000,
  engineUnreachableMs: 30_000,
  resyncMs: 30_000,
  apiFailureBudgetMs: 60_000,
  cleanupBudgetMs: 45_000,
  recordBudgetMs: 10_000,
  engineStopGraceMs: 10_000,
  timedPollMs: 5_000,
  workerHeadStartMs: WORKER_HEAD_START_MS,
  workerJoinLimitMs: 45_000,
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
  /** Aborts (with the error as its reason) on an exception nothing caught, e.g. in a client's callback. */
  readonly unexpected?: AbortSignal;
  /** Writes the completed engine files (settings.engineWorkDir). */
  readonly writeEngineFiles: () => void;
  readonly tuning?: Partial<Tuning>;
  /** Told what the application says of itself (the metrics served on /metrics). */
  readonly observer?: LifecycleObserver;
}

export interface LifecycleObserver {
  /** Every status patch, as it is given to the reporter. */
  status(patch: StatusPatch): void;
  /** Where the worker Pods can be read from, once they are watched. */
  workers(pods: () => Iterable<Pod>): void;
}

/** The one record of where the application stands. */
export interface ApplicationState {
  phase: Phase | undefined;
  /** A streaming job (env job.mode STREAMING): stopped with a savepoint when terminated. */
  streaming: boolean;
  /** Workers registered with Zeta so far (for the annotation). */
  registered: number;
  /** The submission, while in flight or after (undefined result: it failed). */
  submission: Promise<SubmitResult | undefined> | undefined;
  /** The acknowledged submission. */
  acked: SubmitResult | undefined;
  zetaStatus: string | undefined;
  /** `cancel --savepoint` asked for a stop with savepoint. */
  savepointRequested: boolean;
  /** The Job (or this Pod) is known to be deleted: workers go away too. */
  applicationDeleted: boolean;
  engine: 'not-started' | 'running' | 'stopping';
  /** Cleanup has started: later happenings are ignored. */
  ending: boolean;
  store: PodSnapshotStore | undefined;
  reconciler: WorkerReconciler | undefined;
  /** The application outlives this Pod (HA: a coordinator that can be replaced). */
  outlivesPod: boolean;
}

export function initialState(): ApplicationState {
  return {
    phase: undefined,
    streaming: false,
    registered: 0,
    submission: undefined,
    acked: undefined,
    zetaStatus: undefined,
    savepointRequested: false,
    applicationDeleted: false,
    engine: 'not-started',
    ending: false,
    store: undefined,
    reconciler: undefined,
    outlivesPod: false,
  };
}

/** The facts the policy decides on; `deletion` from a fresh answer when there is one. */
export function factsOf(s: ApplicationState, interrupted: boolean, deletion?: boolean): Facts {
  return {
    ending: s.ending || interrupted,
    deletion:
      deletion === undefined ? (s.applicationDeleted ? 'deleting' : 'unknown') : deletion ? 'deleting' : 'not-deleting',
    streaming: s.streaming,
    savepointRequested: s.savepointRequested,
    submitted: s.acked !== undefined,
    ...(s.outlivesPod ? { outlivesPod: true } : {}),
    ...(s.zetaStatus !== undefined ? { zetaStatus: s.zetaStatus } : {}),
  };
}

export interface Step {
  readonly deps: LifecycleDeps;
  readonly tuning: Tuning;
  readonly state: ApplicationState;
  readonly interruption: Interruption;
  readonly reporter: Reporter;
  /** Aborted when the application starts ending: background waits stop. */
  readonly ending: AbortSignal;
  setPhase(phase: Phase, extra?: StatusPatch): void;
  /** Hands something that happened meanwhile (the engine exited, …) to the policy. */
  happen(h: Happening): void;
}
