// The engine port: everything the lifecycle needs from Zeta — its master process and its REST
// API. The Zeta implementation is ./zeta.ts (process.ts + zeta-rest.ts); unit tests use a fake.

export interface Overview {
  /** Registered workers (`workers` in 2.3.8, `works` in REST v2). */
  readonly workers: number;
  /** Slots of all registered workers (fixed slots). */
  readonly totalSlot: number;
}

export interface JobInfo {
  readonly jobId: string;
  /** Undefined when the engine does not know the job (2.3.8 answers `{"jobId":"<id>"}`). */
  readonly status?: string;
  readonly errorMsg?: string;
  /** Rows read and written so far, from Zeta's job metrics, when it reports them. */
  readonly rows?: { readonly read: number; readonly written: number };
}

export interface SubmitRequest {
  /** The application's Zeta job id (exact decimal string). */
  readonly jobId: string;
  readonly jobName: string;
  /** The job config as JSON. */
  readonly configJson: string;
  /** Restore from the latest checkpoint of this earlier job (restore-job-id). */
  readonly restoreFromJobId?: string;
}

export interface SubmitResult {
  /** The id the engine runs the job under (2.3.x restores under the old job's id). */
  readonly jobId: string;
  readonly restored: boolean;
}

export interface EngineExit {
  readonly code: number | null;
  readonly signal: string | null;
  /** Why the process could not be started, if it could not. */
  readonly error?: string;
}

/** The engine answered and refused (bad job config, unknown plugin, …): not worth retrying. */
export class EngineRejected extends Error {
  constructor(
    message: string,
    readonly httpStatus: number,
  ) {
    super(message);
    this.name = 'EngineRejected';
  }
}

/** No answer, or a transient server error: the call may be retried. */
export class EngineUnavailable extends Error {
  /** `code`: how the call failed when no answer came (e.g. ETIMEDOUT); absent for a bad answer. */
  constructor(
    message: string,
    readonly code?: string,
  ) {
    super(message);
    this.name = 'EngineUnavailable';
  }
}

/** Member UUIDs by address (`host:port`), on each side of a split (EnginePort.memberUuids). */
export interface ClusterUuids {
  /** As the cluster holding a majority of the masters lists them. */
  readonly majority: Readonly<Record<string, string>>;
  /** As each master outside that cluster lists its own (a minority side of a split; usually none). */
  readonly minority: ReadonlyArray<Readonly<Record<string, string>>>;
}

export interface EnginePort {
  /** Starts the master process; its output goes to the container log. */
  start(): void;
  /** Resolves when the master process has ended (or could not start). */
  readonly exited: Promise<EngineExit>;
  /** Resolves once the REST API answers; rejects with EngineUnavailable if `signal` aborts first. */
  waitReady(signal: AbortSignal): Promise<void>;
  /** Rejects with CheckpointNotFound unless `jobId` has a checkpoint to restore from. */
  checkRestorable(jobId: string): Promise<void>;
  overview(): Promise<Overview>;
  /**
   * The members (masters and workers, `host:port`) that have joined the cluster as Hazelcast lists
   * them — joined, not yet registered with Zeta's resource manager: every address some master
   * lists; undefined when no master lists its cluster.
   */
  joinedMembers(): Promise<readonly string[] | undefined>;
  /**
   * The members' Hazelcast UUIDs by address (`host:port`), as the cluster holding a majority of the
   * masters lists them (without HA, the master's list) and as each master outside that cluster that
   * answered lists its own; undefined when no majority's list answers. A member merged back from a
   * split has a new UUID; before the merge, the other side still lists it under its old one
   * (../workers/rejoined.ts).
   */
  memberUuids(): Promise<ClusterUuids | undefined>;
  submit(request: SubmitRequest): Promise<SubmitResult>;
  jobInfo(jobId: string): Promise<JobInfo>;
  /**
   * Stops the job; with `savepoint` it first takes a savepoint (status SAVEPOINT_DONE), which also
   * keeps its checkpoints for a later restore (a plain stop deletes them in Zeta 2.3).
   */
  stopJob(jobId: string, savepoint?: boolean): Promise<void>;
  /**
   * Which of `masters` (member addresses, `host:port`) Zeta made its active master: the oldest member
   * of the cluster holding a majority of them (without one, a master whose own list starts with
   * itself). Undefined when none says so.
   */
  activeMaster(masters: readonly string[]): Promise<string | undefined>;
  /**
   * With HA: the job as a member of the cluster that holds more than half of `masters` answers it
   * (./majority.ts); undefined when no master answers as part of such a cluster.
   */
  majorityJobInfo(masters: readonly string[], jobId: string): Promise<JobInfo | undefined>;
  /** Stops the master process (SIGTERM, then SIGKILL after `graceMs`). */
  shutdown(graceMs: number): Promise<EngineExit | undefined>;
}
