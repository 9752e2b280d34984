// Follows the application's own Job: `cancel` deletes it, `cancel --savepoint` first sets the
// cancel-requested annotation. A get (for its resourceVersion), then a watch from there:
//
//   * a watch that ends cleanly (server timeout) is resumed from the last resourceVersion seen;
//   * one that expires (410 Gone) or breaks (connection cut, API server restarted) is replaced by
//     a fresh get and a new watch after a backoff, so a change made while it was down is seen;
//   * the Job gone (404 or a DELETED event) is reported once and the watch ends.
//
// Every state seen is handed to `onJob`; what it means is the policy's business (../policy.ts).

import { ANNOTATIONS } from 'seatunnel-app/runtime-support';
import type { Clock } from '../clock';
import { isStatus, type Job, type KubePort, type WatchEventType, type WatchHandle } from '../kube/port';
import { endOfClose, endOfErrorEvent, type WatchEnd as KubeWatchEnd } from '../kube/watch-end';
import type { Logger } from '../log';
import { backoffMs, errorMessage } from '../util';

export interface OwnJobView {
  readonly deleting: boolean;
  readonly cancelRequested?: string;
}

export type OwnJobSeen = OwnJobView | 'gone';

export function viewOf(job: Job): OwnJobView {
  const requested = job.metadata?.annotations?.[ANNOTATIONS.cancelRequested];
  return { deleting: Boolean(job.metadata?.deletionTimestamp), ...(requested ? { cancelRequested: requested } : {}) };
}

type WatchEnd = KubeWatchEnd | { kind: 'gone' | 'stopped' };

export interface OwnJobWatchOptions {
  readonly clock: Clock;
  readonly log: Logger;
  readonly onJob: (seen: OwnJobSeen) => void;
}

export class OwnJobWatch {
  private readonly stop$ = new AbortController();
  private watch: WatchHandle | undefined;
  private endWatch: ((end: WatchEnd) => void) | undefined;
  private rv = '';
  private failures = 0;
  private loop: Promise<void> | undefined;

  constructor(
    private readonly kube: KubePort,
    private readonly name: string,
    private readonly opts: OwnJobWatchOptions,
  ) {}

  start(): void {
    this.loop = this.run().catch((e: unknown) =>
      this.opts.log.warn('watching the own Job ended', { error: errorMessage(e) }),
    );
  }

  async stop(): Promise<void> {
    this.stop$.abort();
    this.watch?.stop();
    this.endWatch?.({ kind: 'stopped' });
    await this.loop;
  }

  private get stopped(): boolean {
    return this.stop$.signal.aborted;
  }

  private async backoff(what: string, e: unknown): Promise<void> {
    const wait = backoffMs(this.failures++, 200, 5000);
    this.opts.log.debug(`${what} failed; retrying`, { error: errorMessage(e), retryInMs: wait });
    await this.opts.clock.sleep(wait, this.stop$.signal);
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      try {
        const job = await this.kube.getJob(this.name);
        if (this.stopped) return;
        this.rv = job.metadata?.resourceVersion ?? '';
        this.opts.onJob(viewOf(job));
      } catch (e) {
        if (this.stopped) return;
        if (isStatus(e, 404)) return this.opts.onJob('gone');
        await this.backoff('reading the own Job', e);
        continue;
      }
      // Watch (resuming after clean ends) until the watch expires or breaks; then get again.
      for (;;) {
        const started = this.opts.clock.now();
        const end = await this.watchOnce();
        if (this.stopped || end.kind === 'stopped') return;
        if (end.kind === 'gone') return this.opts.onJob('gone');
        if (end.kind === 'closed') {
          // A server that ends watches at once must not make this loop spin.
          if (this.opts.clock.now() - started < 1000) await this.opts.clock.sleep(1000, this.stop$.signal);
          continue;
        }
        if (end.kind === 'error') await this.backoff('watching the own Job', end.error);
        else this.opts.log.debug('own Job watch expired (410 Gone); reading it again');
        break;
      }
    }
  }

  private watchOnce(): Promise<WatchEnd> {
    return new Promise<WatchEnd>((resolve) => {
      let ended = false;
      const end = (e: WatchEnd) => {
        if (ended) return;
        ended = true;
        this.endWatch = undefined;
        this.watch?.stop();
        this.watch = undefined;
        resolve(e);
      };
      this.endWatch = end;
      this.watch = this.kube.watchJob(this.name, this.rv, {
        event: (type: WatchEventType, object: unknown) => {
          if (ended) return;
          if (type === 'ERROR') return end(endOfErrorEvent(object));
          const job = object as Job;
          if (job?.metadata?.resourceVersion) this.rv = job.metadata.resourceVersion;
          if (type === 'BOOKMARK') return;
          this.failures = 0;
          if (type === 'DELETED') return end({ kind: 'gone' });
          this.opts.onJob(viewOf(job));
        },
        closed: (error?: Error) => end(endOfClose(error)),
      });
    });
  }
}
