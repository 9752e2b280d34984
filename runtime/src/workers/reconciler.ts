// The worker reconciler: level-based, in the manner of controller-runtime's Reconcile. Every change
// of the Pod snapshot (./snapshot.ts) re-evaluates all workers from scratch (`assess`, pure), so a
// coalesced or replayed event cannot confuse it. Workers are created once each, in bounded
// parallel; never replaced (fail fast, §8.1).
//
// Create outcomes: success → created; 409 → adopt the Pod if it is ours (owner = this master Pod,
// e.g. after an ambiguous create), delete-and-recreate it if an earlier master Pod of the same
// application left it, refuse otherwise; 403/422 (quota, admission, Pod Security) → fail at once
// with the API's message; no answer / 5xx / 429 → retry with backoff.

import type { Pod } from 'kubernetes-types/core/v1';
import type { Clock } from '../clock';
import { isStatus, isTransient, KubeApiError, type KubePort } from '../kube/port';
import type { Logger } from '../log';
import type { Reason } from '../outcome';
import { LABELS } from 'seatunnel-app/internal/model/reserved';
import { backoffMs, errorMessage, mapLimit } from '../util';
import { classifyWorker } from './classify';
import type { PodSnapshot, PodSnapshotStore } from './snapshot';
import { ownedBy } from './stamp';

export type WorkerPhase = 'new' | 'creating' | 'created' | 'released';

export interface WorkerRecord {
  readonly index: number;
  readonly name: string;
  phase: WorkerPhase;
  /** Snapshot `listsStarted` when the create was acknowledged (or the Pod adopted). */
  ackedAtList?: number;
  /** Observed in the snapshot as ours at least once. */
  seen: boolean;
  attempts: number;
}

export interface WorkerFailure {
  readonly reason: Reason;
  readonly worker: string;
  readonly message: string;
}

export interface Assessment {
  readonly failure?: WorkerFailure;
  readonly created: number;
  readonly running: number;
  /** Why workers are not running yet, by name. */
  readonly waiting: ReadonlyMap<string, string>;
  /** Names seen for the first time in this assessment. */
  readonly newlySeen: readonly string[];
}

/** What the snapshot means for the workers (pure). The first failure, in worker order, wins. */
export function assess(records: readonly WorkerRecord[], snap: PodSnapshot, masterUid: string): Assessment {
  let failure: WorkerFailure | undefined;
  let created = 0;
  let running = 0;
  const waiting = new Map<string, string>();
  const newlySeen: string[] = [];
  const fail = (f: WorkerFailure) => (failure ??= f);
  for (const r of records) {
    if (r.phase === 'released') continue;
    if (r.phase === 'created') created++;
    const pod = snap.pods.get(r.name);
    if (pod && ownedBy(pod, masterUid)) {
      if (!r.seen) newlySeen.push(r.name);
      const state = classifyWorker(pod);
      switch (state.kind) {
        case 'running':
          running++;
          break;
        case 'succeeded':
          waiting.set(r.name, 'Succeeded');
          break;
        case 'pending':
          waiting.set(r.name, state.detail);
          break;
        case 'fatal':
          fail({ reason: state.reason, worker: r.name, message: `worker ${r.name} ${state.message}` });
          break;
        case 'lost':
          fail({ reason: 'WorkerLost', worker: r.name, message: `worker ${r.name} ${state.message}` });
          break;
      }
      continue;
    }
    if (r.phase !== 'created') {
      waiting.set(r.name, r.phase === 'new' ? 'NotCreated' : 'Creating');
      continue;
    }
    const tomb = snap.deleted.get(r.name);
    if (r.seen || (tomb && ownedBy(tomb, masterUid))) {
      const last = tomb ? classifyWorker(tomb) : undefined;
      const detail = last && last.kind === 'lost' && !last.message.startsWith('is being deleted') ? ` (it had ${last.message})` : '';
      fail({ reason: 'WorkerLost', worker: r.name, message: `worker ${r.name} was deleted${detail}` });
    } else if (snap.syncedList > (r.ackedAtList ?? Number.MAX_SAFE_INTEGER)) {
      fail({ reason: 'WorkerLost', worker: r.name, message: `worker ${r.name} no longer exists (created, then gone before it was observed)` });
    } else {
      waiting.set(r.name, 'Created');
    }
  }
  return { failure, created, running, waiting, newlySeen };
}

export interface ReconcilerOptions {
  readonly kube: KubePort;
  readonly store: PodSnapshotStore;
  readonly clock: Clock;
  readonly log: Logger;
  readonly appId: string;
  readonly count: number;
  readonly masterUid: string;
  /** The Pod to create for worker n (1-based). */
  readonly stamp: (n: number) => Pod;
  /** Creates in flight at most (default 20). */
  readonly concurrency?: number;
  readonly onFailure: (f: WorkerFailure) => void;
  readonly onProgress?: (a: Assessment) => void;
}

export class WorkerReconciler {
  readonly records: WorkerRecord[];
  private stopped = false;
  private readonly stop$ = new AbortController();
  private creating: Promise<unknown> | undefined;
  private scheduled = false;
  private failed = false;
  private unsubscribe: (() => void) | undefined;
  private last: Assessment | undefined;

  constructor(private readonly opts: ReconcilerOptions) {
    this.records = Array.from({ length: opts.count }, (_, i) => ({
      index: i + 1,
      name: `${opts.appId}-worker-${i + 1}`,
      phase: 'new' as WorkerPhase,
      seen: false,
      attempts: 0,
    }));
  }

  /** Subscribes to the snapshot and starts creating the workers. */
  start(): void {
    this.unsubscribe = this.opts.store.subscribe(() => this.schedule());
    this.creating = mapLimit(this.records, this.opts.concurrency ?? 20, (r) => this.create(r));
    this.schedule();
  }

  get allCreated(): boolean {
    return this.records.every((r) => r.phase === 'created');
  }

  get assessment(): Assessment | undefined {
    return this.last;
  }

  /** Re-evaluates now (also called by the store subscription, coalesced into one microtask). */
  reconcile(): Assessment {
    const a = assess(this.records, this.opts.store.snapshot(), this.opts.masterUid);
    for (const name of a.newlySeen) {
      const r = this.records.find((x) => x.name === name);
      if (r) r.seen = true;
    }
    this.last = a;
    if (!this.stopped) {
      if (a.failure && !this.failed) {
        this.failed = true;
        this.opts.onFailure(a.failure);
      }
      this.opts.onProgress?.(a);
    }
    return a;
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    queueMicrotask(() => {
      this.scheduled = false;
      this.reconcile();
    });
  }

  private refuse(r: WorkerRecord, reason: Reason, message: string): void {
    this.opts.log.error('worker cannot be created', { worker: r.name, reason, message });
    if (!this.failed && !this.stopped) {
      this.failed = true;
      this.opts.onFailure({ reason, worker: r.name, message: `worker ${r.name}: ${message}` });
    }
  }

  private async create(r: WorkerRecord): Promise<void> {
    while (!this.stopped && !this.failed) {
      r.phase = 'creating';
      r.attempts++;
      try {
        await this.opts.kube.createPod(this.opts.stamp(r.index));
        this.created(r, 'created');
        return;
      } catch (e) {
        if (this.stopped) return;
        if (isStatus(e, 409)) {
          const next = await this.resolveConflict(r);
          if (next === 'adopted') return this.created(r, 'adopted');
          if (next === 'refused') return;
          continue;
        }
        if (e instanceof KubeApiError && (e.status === 403 || e.status === 422 || e.status === 400)) {
          return this.refuse(r, 'WorkerCreateRefused', `the API server refused the Pod (HTTP ${e.status} ${e.reason}): ${e.message}`);
        }
        if (!isTransient(e)) return this.refuse(r, 'ApiError', `creating the Pod failed: ${errorMessage(e)}`);
        const wait = backoffMs(r.attempts - 1, 200, 5000);
        this.opts.log.warn('creating a worker failed; retrying', { worker: r.name, error: errorMessage(e), retryInMs: wait });
        await this.opts.clock.sleep(wait, this.stop$.signal);
      }
    }
  }

  private created(r: WorkerRecord, how: 'created' | 'adopted'): void {
    if (this.stopped && r.phase === 'released') return;
    r.phase = 'created';
    r.ackedAtList = this.opts.store.snapshot().listsStarted;
    this.opts.log.info(how === 'created' ? 'created worker' : 'adopted existing worker', { worker: r.name, attempt: r.attempts });
    this.schedule();
  }

  /** A Pod with the worker's name exists: ours (adopt), an earlier master's (replace) or foreign (refuse). */
  private async resolveConflict(r: WorkerRecord): Promise<'adopted' | 'retry' | 'refused'> {
    let existing: Pod;
    try {
      existing = await this.opts.kube.getPod(r.name);
    } catch (e) {
      if (isStatus(e, 404)) return 'retry';
      if (isTransient(e)) return 'retry';
      this.refuse(r, 'ApiError', `reading the existing Pod failed: ${errorMessage(e)}`);
      return 'refused';
    }
    if (ownedBy(existing, this.opts.masterUid)) return 'adopted';
    const labels = existing.metadata?.labels ?? {};
    if (labels[LABELS.applicationId] !== this.opts.appId || labels[LABELS.role] !== 'worker') {
      this.refuse(r, 'WorkerCreateRefused', `a Pod named ${r.name} already exists and does not belong to this application`);
      return 'refused';
    }
    const uid = existing.metadata?.uid;
    const owner = existing.metadata?.ownerReferences?.find((o) => o.kind === 'Pod')?.name ?? 'none';
    this.opts.log.warn('replacing a worker left by an earlier master Pod', { worker: r.name, owner, uid });
    try {
      await this.opts.kube.deletePod(r.name, uid ? { uid } : {});
    } catch (e) {
      if (!isTransient(e) && !isStatus(e, 409)) {
        this.refuse(r, 'ApiError', `deleting the earlier worker failed: ${errorMessage(e)}`);
        return 'refused';
      }
    }
    // Wait until that incarnation is gone (graceful deletion may take a moment).
    for (let i = 0; !this.stopped; i++) {
      try {
        const p = await this.opts.kube.getPod(r.name);
        if (p.metadata?.uid !== uid) return 'retry';
      } catch (e) {
        if (isStatus(e, 404)) return 'retry';
      }
      await this.opts.clock.sleep(backoffMs(i, 200, 2000), this.stop$.signal);
    }
    return 'retry';
  }

  /**
   * Stops creating (in-flight calls finish or time out; their results are recorded) and marks
   * every worker released, so that deleting them is not a failure. Returns the names that may
   * exist: every worker whose create was attempted.
   */
  async release(): Promise<string[]> {
    this.stopped = true;
    this.stop$.abort();
    this.unsubscribe?.();
    await this.creating;
    const attempted = this.records.filter((r) => r.phase !== 'new' || r.attempts > 0).map((r) => r.name);
    for (const r of this.records) r.phase = 'released';
    return attempted;
  }
}
