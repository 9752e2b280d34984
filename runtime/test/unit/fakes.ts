// Fakes of the runtime's ports for unit tests: a virtual clock, an in-memory API server (Pods with
// resourceVersions and watches), and an engine whose registered workers are the Running Pods.
// They are for fast tests of the runtime's decisions only; the cluster tier proves the same
// behaviour against a real API server.

import type { Clock } from '../../src/clock';
import type {
  ClusterUuids,
  EngineExit,
  EnginePort,
  JobInfo,
  Overview,
  SubmitRequest,
  SubmitResult,
} from '../../src/engine/port';
import { EngineRejected } from '../../src/engine/port';
import { RuntimeFailure } from '../../src/outcome';
import {
  KubeApiError,
  type Event,
  type Job,
  type KubePort,
  type ObjectMeta,
  type ObjectRef,
  type OwnerReference,
  type Pod,
  type PodList,
  type PodTemplate,
  type StatefulSet,
  type WatchHandle,
  type WatchHandlers,
} from '../../src/kube/port';

// ---- clock -------------------------------------------------------------------------------

interface Timer {
  at: number;
  seq: number;
  fire: () => void;
}

/** Virtual time: sleeps only end when the test advances the clock (run() does it when idle). */
export class FakeClock implements Clock {
  private t = 0;
  private seq = 0;
  private timers: Timer[] = [];
  readonly epoch = Date.parse('2026-01-01T00:00:00Z');

  now(): number {
    return this.t;
  }

  wallTime(): Date {
    return new Date(this.epoch + this.t);
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      if (signal?.aborted) return resolve();
      const onAbort = () => {
        this.timers = this.timers.filter((x) => x !== timer);
        resolve();
      };
      const timer: Timer = {
        at: this.t + Math.max(0, ms),
        seq: this.seq++,
        fire: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
      };
      this.timers.push(timer);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  get pendingTimers(): number {
    return this.timers.length;
  }

  /** Moves time to the next timer and fires every timer due then; false if there is none. */
  advanceToNext(): boolean {
    if (this.timers.length === 0) return false;
    this.timers.sort((a, b) => a.at - b.at || a.seq - b.seq);
    const at = this.timers[0].at;
    this.t = Math.max(this.t, at);
    const due = this.timers.filter((x) => x.at <= this.t);
    this.timers = this.timers.filter((x) => x.at > this.t);
    for (const x of due) x.fire();
    return true;
  }

  advance(ms: number): void {
    const end = this.t + ms;
    for (;;) {
      this.timers.sort((a, b) => a.at - b.at || a.seq - b.seq);
      const next = this.timers[0];
      if (!next || next.at > end) break;
      this.advanceToNext();
    }
    this.t = end;
  }
}

/** Lets every pending promise callback and immediate run. */
export async function settle(rounds = 5): Promise<void> {
  for (let i = 0; i < rounds; i++) await new Promise<void>((r) => setImmediate(r));
}

/**
 * Drives `p` to completion on virtual time: whenever nothing else can happen, advances the clock
 * to the next timer. `onTick` may change the world between steps (return true to stop calling it).
 */
export async function runOn<T>(
  clock: FakeClock,
  p: Promise<T>,
  opts: { maxMs?: number; onStep?: () => void } = {},
): Promise<T> {
  let done = false;
  let value: T | undefined;
  let error: unknown;
  let failed = false;
  p.then(
    (v) => {
      done = true;
      value = v;
    },
    (e) => {
      done = true;
      failed = true;
      error = e;
    },
  );
  const maxMs = opts.maxMs ?? 24 * 3600 * 1000;
  for (;;) {
    await settle();
    if (done) break;
    opts.onStep?.();
    await settle();
    if (done) break;
    if (clock.now() > maxMs) throw new Error(`still running after ${maxMs} ms of virtual time`);
    if (!clock.advanceToNext()) throw new Error('deadlock: the promise is pending and no timer is set');
  }
  if (failed) throw error;
  return value as T;
}

// ---- Kubernetes ---------------------------------------------------------------------------

type Handler = (pod: Pod) => void;
/** A Pod whose top-level fields a test may assign. */
export type MutablePod = { -readonly [K in keyof Pod]: Pod[K] };

export interface CallRecord {
  readonly op: string;
  readonly name?: string;
  readonly at: number;
}

/** An in-memory namespace: Pods with resourceVersions and watches, one Job, one PodTemplate. */
export class FakeKube implements KubePort {
  readonly namespace = 'ns';
  private rv = 100;
  private uidSeq = 0;
  readonly pods = new Map<string, Pod>();
  /** resourceVersions older than this are expired for watches (410). */
  expiredBefore = 0;
  private readonly watchers = new Set<{ selector: string; h: WatchHandlers; from: number }>();
  private readonly history: Array<{ rv: number; type: 'ADDED' | 'MODIFIED' | 'DELETED'; pod: Pod }> = [];
  readonly calls: CallRecord[] = [];
  readonly annotations: Record<string, string | null> = {};
  readonly annotationPatches: Array<Record<string, string | null>> = [];
  readonly events: Event[] = [];
  readonly owners = new Map<string, OwnerReference[]>();
  job: Job = { metadata: { name: 'app-1', uid: 'job-uid' } };
  masterPod: Pod = { metadata: { name: 'app-1-abcde', uid: 'master-uid' } };
  template: PodTemplate | undefined;
  /** Called after a Pod is created (e.g. to make it Running). */
  onCreate: Handler | undefined;
  /** Next errors to throw, per operation. */
  readonly failNext = new Map<string, KubeApiError[]>();
  inFlightCreates = 0;
  maxInFlightCreates = 0;
  createDelayMs = 0;
  constructor(private readonly clock: FakeClock) {}

  /** The API server is away (`goDown`): every call is refused, every watch ends. */
  down = false;

  private refused(): KubeApiError {
    return new KubeApiError(0, 'ECONNREFUSED', 'connect ECONNREFUSED 10.96.0.1:443');
  }

  /** Stops the API server: open watches break, every call is refused until `comeBack`. */
  goDown(): void {
    this.down = true;
    this.breakWatches(this.refused());
    this.breakJobWatches(this.refused());
  }

  comeBack(): void {
    this.down = false;
  }

  private maybeFail(op: string): void {
    if (this.down) throw this.refused();
    const q = this.failNext.get(op);
    const e = q?.shift();
    if (e) throw e;
  }

  private record(op: string, name?: string): void {
    this.calls.push({ op, name, at: this.clock.now() });
  }

  private bump(type: 'ADDED' | 'MODIFIED' | 'DELETED', pod: Pod): Pod {
    const rv = ++this.rv;
    const copy: Pod = structuredClone({ ...pod, metadata: { ...pod.metadata, resourceVersion: String(rv) } });
    this.history.push({ rv, type, pod: copy });
    for (const w of this.watchers)
      if (matches(copy, w.selector)) queueMicrotask(() => w.h.event(type, structuredClone(copy)));
    return copy;
  }

  /** Changes a Pod as a controller or kubelet would (MODIFIED event). */
  update(name: string, fn: (pod: MutablePod) => void): void {
    const pod = this.pods.get(name);
    if (!pod) throw new Error(`no Pod ${name}`);
    const next: MutablePod = structuredClone(pod);
    fn(next);
    this.pods.set(name, this.bump('MODIFIED', next));
  }

  /** Deletes a Pod behind the runtime's back. */
  remove(name: string): void {
    const pod = this.pods.get(name);
    if (!pod) return;
    this.pods.delete(name);
    this.bump('DELETED', pod);
  }

  /** Breaks every open watch (as a cut connection would). */
  breakWatches(error = new KubeApiError(0, 'ECONNRESET', 'watch: connection reset')): void {
    for (const w of [...this.watchers]) {
      this.watchers.delete(w);
      queueMicrotask(() => w.h.closed(error));
    }
  }

  get currentRv(): number {
    return this.rv;
  }

  get openWatches(): number {
    return this.watchers.size;
  }

  private jobDeletionTimestamp: string | undefined;
  private jobGone = false;
  private jobRv = 0;
  private readonly jobWatchers = new Set<WatchHandlers>();

  /** The Job as the API server would return it now. */
  private currentJob(): Job {
    const job = structuredClone(this.job);
    const annotations = Object.fromEntries(
      Object.entries(this.annotations).filter((e): e is [string, string] => e[1] !== null),
    );
    job.metadata = {
      ...job.metadata,
      resourceVersion: String(this.jobRv),
      annotations: { ...job.metadata?.annotations, ...annotations },
      ...(this.jobDeletionTimestamp ? { deletionTimestamp: this.jobDeletionTimestamp } : {}),
    };
    return job;
  }

  /** A change of the Job: a new resourceVersion, and an event to every watch of it. */
  private jobChanged(type: 'MODIFIED' | 'DELETED' = 'MODIFIED'): void {
    this.jobRv = ++this.rv;
    const job = this.currentJob();
    for (const h of this.jobWatchers) queueMicrotask(() => h.event(type, structuredClone(job)));
  }

  /** Makes the Job look like it is being deleted (`cancel`). */
  markJobDeleting(): void {
    this.jobDeletionTimestamp = new Date(this.clock.epoch).toISOString();
    this.jobChanged();
  }

  /** Removes the Job altogether (a DELETED event; reads answer 404). */
  deleteJob(): void {
    this.jobGone = true;
    this.jobChanged('DELETED');
  }

  /** Sets an annotation on the Job as another client would (`cancel --savepoint`). */
  annotateJob(key: string, value: string): void {
    this.annotations[key] = value;
    this.jobChanged();
  }

  /** Breaks every open watch of the Job (as a cut connection would). */
  breakJobWatches(error = new KubeApiError(0, 'ECONNRESET', 'watch: connection reset')): void {
    for (const h of [...this.jobWatchers]) {
      this.jobWatchers.delete(h);
      queueMicrotask(() => h.closed(error));
    }
  }

  get openJobWatches(): number {
    return this.jobWatchers.size;
  }

  async getJob(name: string): Promise<Job> {
    this.record('getJob', name);
    this.maybeFail('getJob');
    if (this.jobGone) throw new KubeApiError(404, 'NotFound', `jobs.batch "${name}" not found`);
    return this.currentJob();
  }

  /** Only changes after the watch started are delivered (the fake keeps no Job history). */
  watchJob(name: string, resourceVersion: string, h: WatchHandlers): WatchHandle {
    this.record('watchJob', name);
    const failure = this.down ? this.refused() : this.failNext.get('watchJob')?.shift();
    if (failure) {
      queueMicrotask(() => h.closed(failure));
      return { stop: () => undefined };
    }
    if (Number(resourceVersion) < this.jobRv) {
      queueMicrotask(() =>
        h.event('ERROR', {
          kind: 'Status',
          code: 410,
          reason: 'Expired',
          message: `too old resource version: ${resourceVersion}`,
        }),
      );
      return { stop: () => undefined };
    }
    this.jobWatchers.add(h);
    return { stop: () => this.jobWatchers.delete(h) };
  }

  async getPod(name: string): Promise<Pod> {
    this.record('getPod', name);
    this.maybeFail('getPod');
    if (name === this.masterPod.metadata?.name) return structuredClone(this.masterPod);
    const p = this.pods.get(name);
    if (!p) throw new KubeApiError(404, 'NotFound', `pods "${name}" not found`);
    return structuredClone(p);
  }

  async getPodTemplate(name: string): Promise<PodTemplate> {
    this.record('getPodTemplate', name);
    this.maybeFail('getPodTemplate');
    if (!this.template) throw new KubeApiError(404, 'NotFound', `podtemplates "${name}" not found`);
    return structuredClone(this.template);
  }

  async createPod(pod: Pod): Promise<Pod> {
    const name = pod.metadata!.name!;
    this.record('createPod', name);
    this.inFlightCreates++;
    this.maxInFlightCreates = Math.max(this.maxInFlightCreates, this.inFlightCreates);
    try {
      if (this.createDelayMs) await this.clock.sleep(this.createDelayMs);
      this.maybeFail('createPod');
      if (this.pods.has(name)) throw new KubeApiError(409, 'AlreadyExists', `pods "${name}" already exists`);
      const stored = this.bump('ADDED', {
        ...pod,
        metadata: { ...pod.metadata, uid: `uid-${++this.uidSeq}` },
        status: { phase: 'Pending' },
      });
      this.pods.set(name, stored);
      queueMicrotask(() => this.onCreate?.(stored));
      return structuredClone(stored);
    } finally {
      this.inFlightCreates--;
    }
  }

  /** Puts a Pod in place directly (e.g. one left by an earlier master). */
  seed(pod: Pod): void {
    const name = pod.metadata!.name!;
    this.pods.set(
      name,
      this.bump('ADDED', { ...pod, metadata: { ...pod.metadata, uid: pod.metadata?.uid ?? `uid-${++this.uidSeq}` } }),
    );
  }

  /** Pods on a node that no longer answers: a delete without `force` only marks them Terminating. */
  readonly stuck = new Set<string>();

  async deletePod(name: string, opts: { uid?: string; force?: boolean } = {}): Promise<'deleted' | 'gone'> {
    this.record('deletePod', opts.force ? `${name} (force)` : name);
    this.maybeFail('deletePod');
    const p = this.pods.get(name);
    if (!p) return 'gone';
    if (opts.uid && p.metadata?.uid !== opts.uid) throw new KubeApiError(409, 'Conflict', 'precondition failed: uid');
    if (this.stuck.has(name) && !opts.force) {
      if (!p.metadata?.deletionTimestamp)
        this.update(name, (pod) => {
          pod.metadata = { ...pod.metadata, deletionTimestamp: new Date(this.clock.epoch).toISOString() };
        });
      return 'deleted';
    }
    this.stuck.delete(name);
    this.remove(name);
    return 'deleted';
  }

  async listPods(selector: string): Promise<PodList> {
    this.record('listPods');
    this.maybeFail('listPods');
    return {
      items: [...this.pods.values()].filter((p) => matches(p, selector)).map((p) => structuredClone(p)),
      resourceVersion: String(this.rv),
    };
  }

  watchPods(selector: string, resourceVersion: string, h: WatchHandlers): WatchHandle {
    this.record('watchPods');
    const from = Number(resourceVersion);
    const w = { selector, h, from };
    const failure = this.down ? this.refused() : this.failNext.get('watchPods')?.shift();
    if (failure) {
      queueMicrotask(() => h.closed(failure));
      return { stop: () => undefined };
    }
    if (from < this.expiredBefore) {
      queueMicrotask(() =>
        h.event('ERROR', {
          kind: 'Status',
          code: 410,
          reason: 'Expired',
          message: `too old resource version: ${from}`,
        }),
      );
      return { stop: () => undefined };
    }
    this.watchers.add(w);
    for (const e of this.history)
      if (e.rv > from && matches(e.pod, selector)) queueMicrotask(() => h.event(e.type, structuredClone(e.pod)));
    return { stop: () => this.watchers.delete(w) };
  }

  /** Called at the start of every patch of the Job's annotations (e.g. a crash right then). */
  onPatchJob: ((annotations: Readonly<Record<string, string | null>>) => void) | undefined;

  async patchJobAnnotations(
    _name: string,
    annotations: Readonly<Record<string, string | null>>,
    precondition?: { readonly resourceVersion: string },
  ): Promise<void> {
    this.record('patchJobAnnotations');
    this.onPatchJob?.(annotations);
    this.maybeFail('patchJobAnnotations');
    if (precondition && precondition.resourceVersion !== String(this.jobRv))
      throw new KubeApiError(
        409,
        'Conflict',
        'the object has been modified; please apply your changes to the latest version',
      );
    this.annotationPatches.push({ ...annotations });
    for (const [k, v] of Object.entries(annotations)) {
      if (v === null) delete this.annotations[k];
      else this.annotations[k] = v;
    }
    this.jobChanged();
  }

  async createEvent(event: Event): Promise<void> {
    this.record('createEvent', event.reason);
    this.maybeFail('createEvent');
    this.events.push(event);
  }

  /** Events on Pods, as a cluster autoscaler (or the scheduler, the kubelet) would write them. */
  readonly podEvents: Event[] = [];

  /** Writes an Event about a Pod, as cluster-autoscaler does (`TriggeredScaleUp`, `NotTriggerScaleUp`). */
  addPodEvent(podName: string, reason: string, message: string, component = 'cluster-autoscaler'): void {
    const pod = this.pods.get(podName);
    if (!pod) throw new Error(`no Pod ${podName}`);
    const at = this.clock.wallTime().toISOString();
    this.podEvents.push({
      metadata: { name: `${podName}.${this.podEvents.length}`, namespace: this.namespace },
      involvedObject: { kind: 'Pod', name: podName, namespace: this.namespace, uid: pod.metadata?.uid },
      reason,
      message,
      type: 'Normal',
      source: { component },
      firstTimestamp: at,
      lastTimestamp: at,
    });
  }

  async listPodEvents(podName: string, podUid: string): Promise<Event[]> {
    this.record('listPodEvents', podName);
    this.maybeFail('listPodEvents');
    return structuredClone(
      this.podEvents.filter((e) => e.involvedObject.name === podName && e.involvedObject.uid === podUid),
    );
  }

  /** Each Pod's log text (readPodLog answers with its last `tailLines` lines). */
  readonly podLogs = new Map<string, string>();

  async readPodLog(
    name: string,
    opts: { readonly container: string; readonly tailLines: number },
    data: (chunk: Buffer) => void,
  ): Promise<'complete' | 'timeout'> {
    this.record('readPodLog', name);
    this.maybeFail('readPodLog');
    if (!this.pods.has(name)) throw new KubeApiError(404, 'NotFound', `pods "${name}" not found`);
    const lines = (this.podLogs.get(name) ?? '').split(/(?<=\n)/);
    data(Buffer.from(lines.slice(-opts.tailLines).join('')));
    return 'complete';
  }

  async getMetadata(ref: ObjectRef): Promise<ObjectMeta> {
    this.record('getMetadata', `${ref.kind}/${ref.name}`);
    return { name: ref.name, resourceVersion: '7', ownerReferences: this.owners.get(`${ref.kind}/${ref.name}`) };
  }

  async setOwnerReferences(ref: ObjectRef, ownerReferences: OwnerReference[]): Promise<void> {
    this.record('setOwnerReferences', `${ref.kind}/${ref.name}`);
    this.owners.set(`${ref.kind}/${ref.name}`, ownerReferences);
  }

  /** With HA: the masters' StatefulSet (undefined: it does not exist). */
  statefulSet: StatefulSet | undefined;

  async getStatefulSet(name: string): Promise<StatefulSet> {
    this.record('getStatefulSet', name);
    this.maybeFail('getStatefulSet');
    if (!this.statefulSet || this.statefulSet.metadata?.name !== name)
      throw new KubeApiError(404, 'NotFound', `statefulsets "${name}" not found`);
    return structuredClone(this.statefulSet);
  }

  async deleteStatefulSet(name: string): Promise<'deleted' | 'gone'> {
    this.record('deleteStatefulSet', name);
    this.maybeFail('deleteStatefulSet');
    if (!this.statefulSet || this.statefulSet.metadata?.name !== name) return 'gone';
    this.statefulSet = undefined;
    return 'deleted';
  }

  ops(op: string): CallRecord[] {
    return this.calls.filter((c) => c.op === op);
  }

  podsOf(selector: string): Pod[] {
    return [...this.pods.values()].filter((p) => matches(p, selector));
  }
}

/** `a=b,c=d` equality selectors only. */
export function matches(pod: Pod, selector: string): boolean {
  const labels = pod.metadata?.labels ?? {};
  return selector
    .split(',')
    .filter(Boolean)
    .every((term) => {
      const [k, v] = term.split('=');
      return labels[k] === v;
    });
}

let nextPodIp = 1;

/** Running and Ready, at an address of its own (kept if it had one). */
export function running(pod: MutablePod): void {
  const ip = pod.status?.podIP ?? `10.1.${nextPodIp >> 8}.${nextPodIp++ & 255}`;
  pod.status = {
    ...pod.status,
    phase: 'Running',
    podIP: ip,
    conditions: [
      { type: 'PodScheduled', status: 'True' },
      { type: 'Ready', status: 'True' },
    ],
    containerStatuses: [
      { name: 'seatunnel', image: 'img', imageID: '', ready: true, restartCount: 0, state: { running: {} } },
    ],
  };
}

/** Pending and not schedulable, as the scheduler reports it (no node fits, e.g. before an autoscaler adds one). */
export function unschedulable(pod: MutablePod): void {
  pod.status = {
    phase: 'Pending',
    conditions: [
      {
        type: 'PodScheduled',
        status: 'False',
        reason: 'Unschedulable',
        message: '0/3 nodes are available: 3 Insufficient cpu.',
      },
    ],
  };
}

/** Ended: its container terminated with `exitCode` and `reason` (137 + OOMKilled: the OOM killer), at `ip`. */
export function terminated(exitCode: number, reason: string, ip?: string) {
  return (pod: MutablePod): void => {
    pod.status = {
      ...pod.status,
      phase: 'Failed',
      ...(ip ? { podIP: ip } : {}),
      containerStatuses: [
        {
          name: 'seatunnel',
          image: 'x',
          imageID: '',
          ready: false,
          restartCount: 0,
          state: { terminated: { exitCode, reason } },
        },
      ],
    };
  };
}

/** Scheduled, and the kubelet fails to pull the image (`ErrImagePull`, then `ImagePullBackOff` between retries). */
export function pullFailing(reason: 'ErrImagePull' | 'ImagePullBackOff' = 'ErrImagePull') {
  return (pod: MutablePod): void => {
    pod.status = {
      phase: 'Pending',
      conditions: [{ type: 'PodScheduled', status: 'True' }],
      containerStatuses: [
        {
          name: 'seatunnel',
          image: 'img',
          imageID: '',
          ready: false,
          restartCount: 0,
          state: { waiting: { reason, message: 'rpc error: i/o timeout' } },
        },
      ],
    };
  };
}

// ---- engine -------------------------------------------------------------------------------

export type JobScript = (elapsedPolls: number) => string;

/** An engine whose registered workers are the Running Pods of the fake API server. */
export class FakeEngine implements EnginePort {
  started = false;
  readyAfterPolls = 0;
  readonly submits: Array<SubmitRequest & { registeredAtSubmit: number; at: number }> = [];
  readonly stops: string[] = [];
  status: string | undefined;
  errorMsg: string | undefined;
  /** What the job does: status after `jobInfo` is polled n times. */
  script: JobScript = (n) => (n >= 3 ? 'FINISHED' : 'RUNNING');
  submitError: Error | undefined;
  register: (pods: Pod[]) => number = (pods) =>
    pods.filter((p) => p.status?.phase === 'Running' && !p.metadata?.deletionTimestamp).length;
  restorable = true;
  private polls = 0;
  private exit!: (e: EngineExit) => void;
  readonly exited: Promise<EngineExit>;
  shutdownCalls = 0;

  constructor(
    private readonly kube: FakeKube,
    private readonly clock: FakeClock,
    private readonly slots: number,
  ) {
    this.exited = new Promise((r) => (this.exit = r));
  }

  start(): void {
    this.started = true;
  }

  crash(code = 1): void {
    this.exit({ code, signal: null });
  }

  async waitReady(): Promise<void> {
    for (let i = 0; i < this.readyAfterPolls; i++) await this.clock.sleep(250);
  }

  async checkRestorable(jobId: string): Promise<void> {
    await Promise.resolve();
    if (!this.restorable) {
      throw new RuntimeFailure('CheckpointNotFound', `no checkpoint for ${jobId}`);
    }
  }

  registered(): number {
    return this.register(this.kube.podsOf('seatunnel.apache.org/role=worker'));
  }

  /** Members joined when the first /overview came (Zeta 2.3.8 registers those at once; docs/performance.md). */
  joinedAtFirstOverview: number | undefined;
  /** Hazelcast's member list (`host:port`); by default unreadable (the runtime then asks /overview at once). */
  joined: () => readonly string[] | undefined = () => undefined;

  /** The master and the Running workers (by their Pod addresses), as Hazelcast would list them. */
  members(): string[] {
    const workers = this.kube
      .podsOf('seatunnel.apache.org/role=worker')
      .filter((p) => p.status?.phase === 'Running' && !p.metadata?.deletionTimestamp && p.status.podIP)
      .map((p) => `${p.status!.podIP!}:5802`);
    return ['10.0.0.9:5801', ...workers];
  }

  async joinedMembers(): Promise<readonly string[] | undefined> {
    return this.joined();
  }

  /** Member UUIDs by address, as the majority lists them; by default unreadable. */
  uuids: () => Readonly<Record<string, string>> | undefined = () => undefined;
  /** As masters outside the majority's cluster list theirs (a split's other side); by default none. */
  minorityUuids: () => ReadonlyArray<Readonly<Record<string, string>>> = () => [];

  async memberUuids(): Promise<ClusterUuids | undefined> {
    const majority = this.uuids();
    return majority && { majority, minority: this.minorityUuids() };
  }

  async overview(): Promise<Overview> {
    this.joinedAtFirstOverview ??= this.joined()?.length;
    const n = this.registered();
    return { workers: n, totalSlot: n * this.slots };
  }

  async submit(req: SubmitRequest): Promise<SubmitResult> {
    this.submits.push({ ...req, registeredAtSubmit: this.registered(), at: this.clock.now() });
    if (this.submitError) throw this.submitError;
    this.status = 'RUNNING';
    return { jobId: req.restoreFromJobId ?? req.jobId, restored: req.restoreFromJobId !== undefined };
  }

  /** The rows Zeta's metrics report after `jobInfo` is polled n times (undefined: none reported). */
  rows: (elapsedPolls: number) => { read: number; written: number } | undefined = (n) => ({
    read: 100 * n,
    written: 100 * n,
  });

  async jobInfo(jobId: string): Promise<JobInfo> {
    if (this.status === undefined) return { jobId };
    if (this.status === 'RUNNING') this.status = this.script(++this.polls);
    const rows = this.rows(this.polls);
    return {
      jobId,
      status: this.status,
      ...(this.errorMsg ? { errorMsg: this.errorMsg } : {}),
      ...(rows ? { rows } : {}),
    };
  }

  readonly savepointStops: boolean[] = [];
  /** The active master's member address (one of runtime.json's ha.masterAddresses). */
  master: string | undefined;

  async activeMaster(masters: readonly string[]): Promise<string | undefined> {
    return this.master && masters.includes(this.master) ? this.master : undefined;
  }

  /**
   * What the cluster holding a majority of the masters answers for the job: by default the same as
   * jobInfo's master (no split); a function to make a master report an end the majority does not.
   */
  majority: ((jobId: string) => JobInfo | undefined) | 'same' = 'same';
  readonly majorityAsks: number[] = [];

  async majorityJobInfo(_masters: readonly string[], jobId: string): Promise<JobInfo | undefined> {
    this.majorityAsks.push(this.clock.now());
    if (this.majority !== 'same') return this.majority(jobId);
    return this.status === undefined ? { jobId } : { jobId, status: this.status };
  }

  async stopJob(jobId: string, savepoint = false): Promise<void> {
    this.stops.push(jobId);
    this.savepointStops.push(savepoint);
    if (this.status === 'RUNNING') this.status = savepoint ? 'SAVEPOINT_DONE' : 'CANCELED';
  }

  async shutdown(): Promise<EngineExit | undefined> {
    this.shutdownCalls++;
    this.exit({ code: 143, signal: null });
    return { code: 143, signal: null };
  }
}

export { EngineRejected, KubeApiError };
