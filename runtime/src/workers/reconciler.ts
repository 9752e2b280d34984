// The worker reconciler: level-based, in the manner of controller-runtime's Reconcile. Every change
// of the Pod snapshot (./snapshot.ts) re-evaluates all workers from scratch (./assess.ts, pure), so
// a coalesced or replayed event cannot confuse it. Workers are created once each, in bounded
// parallel. A lost worker fails the application (fail fast, as SeaTunnel's application mode does:
// docs/runtime.md, Lifecycle 9) — unless, with HA and worker-failure-policy `replace`, the budget
// allows creating it again.
//
// Create outcomes: success → created (its uid recorded); 409 → adopt the Pod only if this runtime
// created it (a create whose answer was lost: it carries the worker's creation token, a random
// value that only this process knows and sends with its own create), delete-and-recreate it if an
// earlier master Pod of the same application left it, refuse otherwise — a look-alike with the
// right name and owner reference is never adopted; 403/422 (quota, admission, Pod Security) →
// fail at once with the API's message; no answer / 5xx / 429 → retry with backoff.
//
// Unschedulable workers and failing image pulls are judged over time (./classify.ts
// judgeUnschedulable, judgeImagePull): while any worker is in such a state the reconciler reads
// the Events of the Unschedulable ones (what a cluster autoscaler said) and re-evaluates every
// `timedPollMs`, so a grace period or a retry budget ends even when nothing else changes.

import { randomBytes } from 'node:crypto';
import type { Pod } from 'kubernetes-types/core/v1';
import type { Clock } from '../clock';
import { isStatus, isTransient, KubeApiError, type KubePort } from '../kube/port';
import type { Logger } from '../log';
import type { Reason } from '../outcome';
import { LABELS, names, ownedBy } from 'seatunnel-app/runtime-support';
import { backoffMs, errorMessage, mapLimit } from '../util';
import {
  assess,
  CREATION_TOKEN_ANNOTATION,
  isOurWorker,
  type Assessment,
  type WorkerFailure,
  type WorkerRecord,
} from './assess';
import { scaleUpSignal } from './classify';
import type { PodSnapshotStore } from './snapshot';
import { WorkerUidRecord } from './worker-uids';

/** Pause before creating again when the incarnation being replaced was found still there. */
const RETIRED_RETRY_MS = 500;

export * from './assess';

export interface ReconcilerOptions {
  readonly kube: KubePort;
  readonly store: PodSnapshotStore;
  readonly clock: Clock;
  readonly log: Logger;
  readonly appId: string;
  readonly count: number;
  readonly masterUid: string;
  /**
   * With HA the owner is the Job, and an earlier coordinator of the same Job created the workers
   * that already exist: a Pod with the worker's name, the application's worker labels and the Job
   * as owner is adopted (re-attach) if its uid is the one recorded on the Job for that worker
   * (./worker-uids.ts), and replaced otherwise. Without HA the owner is this master Pod, and only
   * a Pod carrying this process's creation token is adopted.
   */
  readonly adoptOwned?: boolean;
  /** The Pod to create for worker n (1-based). */
  readonly stamp: (n: number) => Pod;
  /** Creates in flight at most (default 20). */
  readonly concurrency?: number;
  readonly onFailure: (f: WorkerFailure) => void;
  readonly onProgress?: (a: Assessment) => void;
  /**
   * With HA and worker-failure-policy `replace`: how many lost workers may be created again (the
   * Pod is deleted if it still exists, then created anew under the same name); one more loss is a
   * failure. Workers that cannot start (Unschedulable, image errors, refused) always fail.
   */
  readonly replacements?: number;
  readonly onReplaced?: (worker: string, replacedSoFar: number, why: string) => void;
  /** application.scale-up-grace-millis (0: an Unschedulable worker without a scale-up fails at once). */
  readonly scaleUpGraceMs?: number;
  /** application.image-pull-retry-millis (0: a failing image pull fails at once). */
  readonly imagePullRetryMs?: number;
  /** How often workers in a timed state are re-read and re-judged (default 5000). */
  readonly timedPollMs?: number;
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
  private timing = false;
  /** Workers replaced so far (policy `replace`). */
  replaced = 0;
  /** With HA: the uids of the workers, recorded on the Job for the next coordinator. */
  readonly uids: WorkerUidRecord | undefined;

  constructor(private readonly opts: ReconcilerOptions) {
    this.uids = opts.adoptOwned
      ? new WorkerUidRecord(opts.kube, opts.appId, opts.count, opts.log, opts.clock)
      : undefined;
    this.records = Array.from({ length: opts.count }, (_, i) => ({
      index: i + 1,
      name: names.worker(opts.appId, i + 1),
      phase: 'new',
      seen: false,
      attempts: 0,
      token: randomBytes(16).toString('hex'),
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
    const now = this.opts.clock.now();
    const a = assess(this.records, this.opts.store.snapshot(), this.opts.masterUid, {
      now,
      scaleUpGraceMs: this.opts.scaleUpGraceMs ?? 0,
      imagePullRetryMs: this.opts.imagePullRetryMs ?? 0,
    });
    for (const name of a.newlySeen) {
      const r = this.records.find((x) => x.name === name);
      if (r) r.seen = true;
    }
    for (const r of this.records) {
      const timed = a.timed.get(r.name);
      if (timed === 'unschedulable') r.unschedulableSince ??= now;
      else {
        r.unschedulableSince = undefined;
        r.scaleUp = undefined;
      }
      if (timed === 'image-pull') r.pullFailingSince ??= now;
      else r.pullFailingSince = undefined;
    }
    this.last = a;
    if (a.timed.size > 0) this.judgeOverTime();
    if (!this.stopped) {
      if (a.failure && !this.failed && this.replace(a.failure)) return this.reconcile();
      if (a.failure && !this.failed) {
        this.failed = true;
        this.opts.onFailure(a.failure);
      }
      this.opts.onProgress?.(a);
    }
    return a;
  }

  /** Starts replacing a lost worker when the policy and the budget allow; true if it did. */
  private replace(f: WorkerFailure): boolean {
    if (f.reason !== 'WorkerLost' || this.replaced >= (this.opts.replacements ?? 0)) return false;
    const r = this.records.find((x) => x.name === f.worker);
    if (!r || r.phase !== 'created') return false;
    this.replaced++;
    this.opts.log.warn('replacing a lost worker', {
      worker: r.name,
      replaced: this.replaced,
      budget: this.opts.replacements,
      why: f.message,
    });
    this.opts.onReplaced?.(r.name, this.replaced, f.message);
    this.recreate(r);
    return true;
  }

  /**
   * Deletes worker `name`'s Pod (if it is still the incarnation `uid`) and creates it anew under the
   * same name, outside the replacement budget: for a worker that runs but is of no use to the
   * cluster (./unjoined.ts). False if that incarnation is no longer the current one.
   */
  restart(name: string, uid: string): boolean {
    const r = this.records.find((x) => x.name === name);
    if (this.stopped || this.failed || !r || r.phase !== 'created' || r.uid !== uid) return false;
    this.recreate(r);
    this.schedule();
    return true;
  }

  /** Forgets `r`'s incarnation, deletes its Pod at once and creates the worker again. */
  private recreate(r: WorkerRecord): void {
    const oldUid = r.uid;
    r.phase = 'new';
    r.uid = undefined;
    r.retired = oldUid;
    r.seen = false;
    r.attempts = 0;
    r.ackedAtList = undefined;
    r.unschedulableSince = r.pullFailingSince = r.scaleUp = undefined;
    r.token = randomBytes(16).toString('hex');
    const again = async () => {
      // The old incarnation is removed at once (no grace period): it is lost or useless, its
      // graceful shutdown has no value, and on a node that no longer answers its Pod object would
      // stay Terminating until the node came back — blocking the name the new one needs.
      if (oldUid) {
        await this.opts.kube.deletePod(r.name, { uid: oldUid, force: true }).catch((e: unknown) => {
          if (!isStatus(e, 409))
            this.opts.log.warn('deleting the old worker failed; creating anyway', {
              worker: r.name,
              error: errorMessage(e),
            });
        });
      }
      await this.create(r);
    };
    this.creating = Promise.all([this.creating, again()]);
  }

  /**
   * While workers are in a timed state: reads the Unschedulable ones' Events and re-evaluates every
   * `timedPollMs`, until none is left or the reconciler stops or fails.
   */
  private judgeOverTime(): void {
    if (this.timing || this.stopped || this.failed) return;
    this.timing = true;
    void (async () => {
      try {
        for (;;) {
          const timed = this.records.filter(
            (r) => r.unschedulableSince !== undefined || r.pullFailingSince !== undefined,
          );
          if (this.stopped || this.failed || timed.length === 0) return;
          await mapLimit(
            timed.filter((r) => r.unschedulableSince !== undefined && r.uid !== undefined),
            5,
            (r) => this.readScaleUp(r),
          );
          this.schedule();
          await this.opts.clock.sleep(this.opts.timedPollMs ?? 5000, this.stop$.signal);
        }
      } finally {
        this.timing = false;
      }
    })();
  }

  /** What an autoscaler said about `r`'s Pod; without its Events (e.g. not allowed) the grace period alone decides. */
  private async readScaleUp(r: WorkerRecord): Promise<void> {
    const uid = r.uid!;
    try {
      const events = await this.opts.kube.listPodEvents(r.name, uid);
      if (r.uid === uid && r.unschedulableSince !== undefined) r.scaleUp = scaleUpSignal(events);
    } catch (e) {
      this.opts.log.warn("reading a worker's Events failed; judging it by the grace period alone", {
        worker: r.name,
        error: errorMessage(e),
      });
    }
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
        const pod = this.opts.stamp(r.index);
        const meta = pod.metadata ?? {};
        const created = await this.opts.kube.createPod({
          ...pod,
          metadata: { ...meta, annotations: { ...(meta.annotations ?? {}), [CREATION_TOKEN_ANNOTATION]: r.token } },
        });
        this.created(r, 'created', created.metadata?.uid);
        return;
      } catch (e) {
        if (this.stopped) return;
        if (isStatus(e, 409)) {
          const next = await this.resolveConflict(r);
          if (typeof next === 'object') return this.created(r, 'adopted', next.uid);
          if (next === 'refused') return;
          continue;
        }
        if (e instanceof KubeApiError && (e.status === 403 || e.status === 422 || e.status === 400)) {
          return this.refuse(
            r,
            'WorkerCreateRefused',
            `the API server refused the Pod (HTTP ${e.status} ${e.reason}): ${e.message}`,
          );
        }
        if (!isTransient(e)) return this.refuse(r, 'ApiError', `creating the Pod failed: ${errorMessage(e)}`);
        const wait = backoffMs(r.attempts - 1, 200, 5000);
        this.opts.log.warn('creating a worker failed; retrying', {
          worker: r.name,
          error: errorMessage(e),
          retryInMs: wait,
        });
        await this.opts.clock.sleep(wait, this.stop$.signal);
      }
    }
  }

  private created(r: WorkerRecord, how: 'created' | 'adopted', uid: string | undefined): void {
    if (this.stopped && r.phase === 'released') return;
    r.phase = 'created';
    if (uid) r.uid = uid;
    if (uid) this.uids?.record(r.index, uid);
    r.ackedAtList = this.opts.store.snapshot().listsStarted;
    this.opts.log.info(how === 'created' ? 'created worker' : 'adopted existing worker', {
      worker: r.name,
      attempt: r.attempts,
    });
    this.schedule();
  }

  /**
   * A Pod with the worker's name exists: ours (adopt: its token proves that this runtime's create
   * made it; with HA, its uid recorded on the Job proves that a coordinator of this Job did), an
   * earlier master's or an unproven one with HA (replace), or anything else (refuse) — including a
   * look-alike whose owner reference names this master Pod.
   */
  private async resolveConflict(r: WorkerRecord): Promise<{ uid: string | undefined } | 'retry' | 'refused'> {
    let existing: Pod;
    let recorded: string | undefined;
    try {
      existing = await this.opts.kube.getPod(r.name);
      if (this.uids) recorded = await this.uids.recorded(r.index);
    } catch (e) {
      if (isStatus(e, 404)) return 'retry';
      if (isTransient(e)) return 'retry';
      this.refuse(r, 'ApiError', `reading the existing Pod failed: ${errorMessage(e)}`);
      return 'refused';
    }
    const existingUid = existing.metadata?.uid;
    if (existingUid !== undefined && existingUid === r.retired) {
      // The incarnation this one replaces, still there: its deletion failed (an API server that did
      // not answer in time) or has not finished. Adopting it would keep what the restart is for —
      // a worker back from a split with its old tasks; removed again, then created anew.
      this.opts.log.warn('the worker being replaced is still there; deleting it again', { worker: r.name });
      await this.opts.kube.deletePod(r.name, { uid: existingUid, force: true }).catch(() => undefined);
      await this.opts.clock.sleep(RETIRED_RETRY_MS, this.stop$.signal).catch(() => undefined);
      return 'retry';
    }
    if (isOurWorker(existing, r, this.opts.masterUid)) return { uid: existingUid };
    const labels = existing.metadata?.labels ?? {};
    const looksOurs = labels[LABELS.applicationId] === this.opts.appId && labels[LABELS.role] === 'worker';
    const owned = ownedBy(existing, this.opts.masterUid);
    if (this.uids && looksOurs && owned) {
      // A replaced worker's earlier incarnation still terminating (its node may no longer answer):
      // removed at once, as a replacement removes it, then created anew.
      if (existing.metadata?.deletionTimestamp) {
        const uid = existing.metadata.uid;
        await this.opts.kube.deletePod(r.name, { ...(uid ? { uid } : {}), force: true }).catch(() => undefined);
        return this.waitGone(r.name, uid);
      }
      if (recorded !== undefined && recorded === existing.metadata?.uid) return { uid: recorded };
      this.opts.log.warn('replacing a worker Pod whose uid no coordinator recorded on the Job', { worker: r.name });
    } else if (owned) {
      r.refused = true;
      this.refuse(
        r,
        'WorkerCreateRefused',
        `a Pod named ${r.name} already exists that this runtime did not create (it names this master Pod as owner but lacks the creation token); it is left alone`,
      );
      return 'refused';
    }
    if (!looksOurs) {
      r.refused = true;
      this.refuse(
        r,
        'WorkerCreateRefused',
        `a Pod named ${r.name} already exists and does not belong to this application`,
      );
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
    return this.waitGone(r.name, uid);
  }

  /** Waits until the Pod incarnation `uid` named `name` is gone (graceful deletion may take a moment). */
  private async waitGone(name: string, uid: string | undefined): Promise<'retry'> {
    for (let i = 0; !this.stopped; i++) {
      try {
        const p = await this.opts.kube.getPod(name);
        if (p.metadata?.uid !== uid) return 'retry';
      } catch (e) {
        if (isStatus(e, 404)) return 'retry';
      }
      await this.opts.clock.sleep(backoffMs(i, 200, 2000), this.stop$.signal).catch(() => undefined);
    }
    return 'retry';
  }

  /**
   * Stops creating (in-flight calls finish or time out; their results are recorded) and marks
   * every worker released, so that deleting them is not a failure. Returns the names that may
   * exist: every worker whose create was attempted, except names taken by a Pod it refused.
   */
  async release(): Promise<string[]> {
    this.stopped = true;
    this.stop$.abort();
    this.unsubscribe?.();
    await this.creating;
    const attempted = this.records
      .filter((r) => !r.refused && (r.phase !== 'new' || r.attempts > 0))
      .map((r) => r.name);
    for (const r of this.records) r.phase = 'released';
    return attempted;
  }
}
