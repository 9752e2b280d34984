// A continuously updated snapshot of the application's worker Pods: list, then watch from the
// list's resourceVersion, plus a periodic re-list — the shape of Spark's executor Pods snapshot
// store (watch + polling source feeding one store) and client-go's reflector.
//
//   * A watch that ends cleanly (server timeout) is resumed from the last resourceVersion seen
//     (events and bookmarks advance it), so nothing between the two watches is missed.
//   * A watch that breaks (connection cut, API server restarted) is resumed the same way after a
//     short backoff; if that resourceVersion has expired the server says 410 Gone and the store
//     re-lists, which yields the current state: a Pod that changed or vanished in the gap shows up
//     changed or absent, and a Pod that was in the snapshot but is absent from the list is
//     recorded as deleted.
//   * Every `resyncMs` the store re-lists anyway (a safety net against a watch that went silent).
//   * Errors are retried with backoff for `failureBudgetMs`; beyond that the store reports a fatal
//     error (the lifecycle fails the application with ApiUnavailable).

import type { Pod } from 'kubernetes-types/core/v1';
import type { Clock } from '../clock';
import { isStatus, isTransient, type KubePort, type WatchEventType, type WatchHandle } from '../kube/port';
import { endOfClose, endOfErrorEvent, isExpired, type WatchEnd as KubeWatchEnd } from '../kube/watch-end';
import type { Logger } from '../log';
import { backoffMs, errorMessage } from '../util';

export interface PodSnapshot {
  /** Current Pods by name. */
  readonly pods: ReadonlyMap<string, Pod>;
  /** Last known state of Pods that were deleted (or vanished between two lists); cleared if the name comes back. */
  readonly deleted: ReadonlyMap<string, Pod>;
  /** Lists started so far; a reconciler notes it when a create is acknowledged. */
  readonly listsStarted: number;
  /** The list (by its number) the current state was last rebuilt from; 0 before the first. */
  readonly syncedList: number;
  readonly resourceVersion: string;
}

export interface SnapshotStoreOptions {
  readonly clock: Clock;
  readonly log: Logger;
  /** Periodic re-list (default 30 s). */
  readonly resyncMs?: number;
  /** How long consecutive failures are tolerated (default 60 s). */
  readonly failureBudgetMs?: number;
  readonly backoff?: (attempt: number) => number;
  /** The application is being deleted: the Role goes with the Job, so a 403 is final. */
  readonly applicationDeleted?: () => boolean;
}

type WatchEnd = KubeWatchEnd | { kind: 'resync' } | { kind: 'stopped' };

function nameOf(pod: Pod): string | undefined {
  return pod.metadata?.name;
}

export class PodSnapshotStore {
  private pods = new Map<string, Pod>();
  private deleted = new Map<string, Pod>();
  private listsStarted = 0;
  private syncedList = 0;
  private rv = '';
  private lastListAt = 0;
  private failingSince: number | undefined;
  private failures = 0;
  private stopped = false;
  private readonly stop$ = new AbortController();
  private watch: WatchHandle | undefined;
  private endWatch: ((end: WatchEnd) => void) | undefined;
  private readonly subscribers = new Set<(s: PodSnapshot) => void>();
  private readonly fatalHandlers = new Set<(e: Error) => void>();
  private fatal: Error | undefined;
  private loop: Promise<void> | undefined;
  private readonly resyncMs: number;
  private readonly budgetMs: number;
  private readonly backoff: (attempt: number) => number;
  /** Counters for logs and tests. */
  readonly stats = { lists: 0, watches: 0, expired: 0, watchErrors: 0, events: 0 };

  constructor(
    private readonly kube: KubePort,
    readonly selector: string,
    private readonly opts: SnapshotStoreOptions,
  ) {
    this.resyncMs = opts.resyncMs ?? 30_000;
    this.budgetMs = opts.failureBudgetMs ?? 60_000;
    this.backoff = opts.backoff ?? ((a) => backoffMs(a, 100, 3000));
  }

  snapshot(): PodSnapshot {
    return {
      pods: this.pods,
      deleted: this.deleted,
      listsStarted: this.listsStarted,
      syncedList: this.syncedList,
      resourceVersion: this.rv,
    };
  }

  subscribe(fn: (s: PodSnapshot) => void): () => void {
    this.subscribers.add(fn);
    return () => this.subscribers.delete(fn);
  }

  onFatal(fn: (e: Error) => void): void {
    if (this.fatal) fn(this.fatal);
    else this.fatalHandlers.add(fn);
  }

  /** Lists once (retrying within the failure budget), then keeps watching in the background. */
  async start(): Promise<void> {
    await this.relist();
    this.loop = this.run().catch((e: unknown) => this.fail(e instanceof Error ? e : new Error(String(e))));
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.stop$.abort();
    this.watch?.stop();
    this.endWatch?.({ kind: 'stopped' });
    await this.loop;
  }

  private notify(): void {
    const s = this.snapshot();
    for (const fn of this.subscribers) fn(s);
  }

  private fail(e: Error): void {
    if (this.fatal || this.stopped) return;
    this.fatal = e;
    this.opts.log.error('worker Pod observation failed', { error: e.message });
    for (const fn of this.fatalHandlers) fn(e);
    this.fatalHandlers.clear();
  }

  /** Records a failure; throws once they have lasted longer than the budget. */
  private async failed(what: string, e: unknown): Promise<void> {
    const now = this.opts.clock.now();
    this.failingSince ??= now;
    this.failures++;
    // A 403 after the store has worked before is retried too: an API server that has just
    // restarted answers 403 until its RBAC authorizer has caught up (observed in the cluster tier).
    const authzWarmup = isStatus(e, 403) && this.syncedList > 0 && !this.opts.applicationDeleted?.();
    if (!isTransient(e) && !isExpired(e) && !authzWarmup) {
      throw new Error(`${what}: ${errorMessage(e)}`);
    }
    if (now - this.failingSince > this.budgetMs) {
      throw new Error(`${what} failed for ${Math.round((now - this.failingSince) / 1000)} s: ${errorMessage(e)}`);
    }
    const wait = this.backoff(this.failures - 1);
    this.opts.log.warn(`${what} failed; retrying`, {
      error: errorMessage(e),
      retryInMs: wait,
      failingForMs: Math.round(now - this.failingSince),
    });
    await this.opts.clock.sleep(wait, this.stop$.signal);
  }

  private succeeded(): void {
    this.failingSince = undefined;
    this.failures = 0;
  }

  private async relist(): Promise<void> {
    for (;;) {
      if (this.stopped) return;
      const seq = ++this.listsStarted;
      try {
        const list = await this.kube.listPods(this.selector);
        if (this.stopped) return;
        this.stats.lists++;
        const next = new Map<string, Pod>();
        for (const pod of list.items) {
          const name = nameOf(pod);
          if (name) next.set(name, pod);
        }
        for (const [name, pod] of this.pods) if (!next.has(name)) this.deleted.set(name, pod);
        for (const name of next.keys()) this.deleted.delete(name);
        this.pods = next;
        this.rv = list.resourceVersion;
        this.syncedList = seq;
        this.lastListAt = this.opts.clock.now();
        this.succeeded();
        this.opts.log.debug('listed worker Pods', { count: next.size, resourceVersion: this.rv, list: seq });
        this.notify();
        return;
      } catch (e) {
        await this.failed('listing worker Pods', e);
      }
    }
  }

  private apply(type: WatchEventType, object: unknown): WatchEnd | undefined {
    if (type === 'ERROR') return endOfErrorEvent(object);
    const pod = object as Pod;
    const rv = pod?.metadata?.resourceVersion;
    if (rv) this.rv = rv;
    if (type === 'BOOKMARK') return undefined;
    const name = nameOf(pod);
    if (!name) return undefined;
    this.stats.events++;
    this.succeeded();
    if (type === 'DELETED') {
      this.pods.delete(name);
      this.deleted.set(name, pod);
    } else {
      this.pods.set(name, pod);
      this.deleted.delete(name);
    }
    this.notify();
    return undefined;
  }

  private watchOnce(): Promise<WatchEnd> {
    return new Promise<WatchEnd>((resolve) => {
      let ended = false;
      const resync = new AbortController();
      const end = (e: WatchEnd) => {
        if (ended) return;
        ended = true;
        resync.abort();
        this.endWatch = undefined;
        this.watch?.stop();
        this.watch = undefined;
        resolve(e);
      };
      this.endWatch = end;
      if (this.stopped) return end({ kind: 'stopped' });
      const resyncIn = Math.max(0, this.lastListAt + this.resyncMs - this.opts.clock.now());
      void this.opts.clock
        .sleep(resyncIn, resync.signal)
        .then(() => end(this.stopped ? { kind: 'stopped' } : { kind: 'resync' }));
      this.stats.watches++;
      this.watch = this.kube.watchPods(this.selector, this.rv, {
        event: (type, object) => {
          if (ended) return;
          const stop = this.apply(type, object);
          if (stop) end(stop);
        },
        closed: (error) => end(endOfClose(error)),
      });
    });
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      const started = this.opts.clock.now();
      const end = await this.watchOnce();
      if (this.stopped || end.kind === 'stopped') return;
      switch (end.kind) {
        case 'closed':
          this.opts.log.debug('watch ended; resuming', { resourceVersion: this.rv });
          // A server that ends watches at once must not make this loop spin.
          if (this.opts.clock.now() - started < 1000) await this.opts.clock.sleep(1000, this.stop$.signal);
          break;
        case 'resync':
          await this.relist();
          break;
        case 'expired':
          this.stats.expired++;
          this.opts.log.info('watch resourceVersion expired (410 Gone); re-listing worker Pods', {
            resourceVersion: this.rv,
          });
          await this.relist();
          break;
        case 'error':
          this.stats.watchErrors++;
          await this.failed('watching worker Pods', end.error);
          break;
      }
    }
  }
}
