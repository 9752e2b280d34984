// Tells the story on the Job (docs/runtime.md, "Events and annotations on the Job"): Events (`kubectl describe job`) and the
// status annotations that `seatunnel-app status` reads. Writes go through one ordered queue and
// never block or fail the lifecycle; annotation patches waiting in the queue are merged. `flush`
// waits for everything queued — the terminal state is recorded before the runtime exits.

import type { Event } from 'kubernetes-types/core/v1';
import {
  withRetry,
  ANNOTATIONS,
  EVENT_COMPONENT,
  PHASES,
  type AnnotationKey,
  type EventReason,
  type Phase,
  type RuntimeAnnotationKey,
} from 'seatunnel-app/runtime-support';
import type { Clock } from '../clock';
import { isStatus, retryableUnlessRoleGone, type KubePort } from '../kube/port';
import type { Logger } from '../log';
import { redact } from './redact';
import { errorMessage } from '../util';

/** Only the runtime's own annotations: the admission fence refuses any other change to its Job. */
export type StatusPatch = Partial<Record<RuntimeAnnotationKey, string | null>>;

/** The vocabulary is the runtime contract's (lib/contract/vocabulary.ts). */
export type { AnnotationKey, EventReason, Phase };
export { PHASES };

const PHASE_SET: ReadonlySet<string> = new Set(PHASES);
const MAX_MESSAGE = 1024;
/**
 * How long one write is retried by default (an API server restart takes a few seconds). The
 * lifecycle's reporter retries for the application's API outage tolerance instead: its story
 * catches up once the API answers again.
 */
const RETRY_BUDGET_MS = 20_000;
/** … and once the terminal state is being flushed with a deadline (SIGTERM: the grace period runs). */
const URGENT_RETRY_BUDGET_MS = 2_000;
/** Events waiting while the API does not answer, at most; the oldest go first (the status annotations never do). */
const MAX_QUEUED_EVENTS = 100;

export interface JobRef {
  readonly name: string;
  readonly uid?: string;
}

type Item =
  | { kind: 'event'; type: 'Normal' | 'Warning'; reason: EventReason; message: string; at: Date }
  | { kind: 'patch'; patch: StatusPatch };

export function truncate(message: string, max = MAX_MESSAGE): string {
  return message.length <= max ? message : `${message.slice(0, max - 1)}…`;
}

export class Reporter {
  private readonly queue: Item[] = [];
  private running: Promise<void> | undefined;
  private job: JobRef;
  private seq = 0;
  private urgent = false;
  /** Writes given up so far. */
  private dropped = 0;
  /** When each phase began (the first time it was set): the phase-times annotation. */
  private readonly phaseTimes: Record<string, string> = {};
  /** The application is being deleted: its Role goes with the Job, a 403 is final. */
  private applicationDeleted = false;

  constructor(
    private readonly kube: KubePort,
    job: JobRef,
    private readonly source: { readonly podName: string },
    private readonly clock: Clock,
    private readonly log: Logger,
    private readonly retryBudgetMs = RETRY_BUDGET_MS,
    /** Told every patch as it is given (the metrics keep the story while the API server is away). */
    private readonly observe?: (patch: StatusPatch) => void,
  ) {
    this.job = job;
  }

  /** The application is being deleted (its Job has a deletionTimestamp or is gone): stop retrying 403s. */
  markApplicationDeleted(): void {
    this.applicationDeleted = true;
  }

  /** The Job's uid, once known (Events carry it so `kubectl describe job` finds them). */
  setJobUid(uid: string): void {
    this.job = { ...this.job, uid };
  }

  /**
   * The phase times an earlier runtime of this Job recorded (with HA, a restarted coordinator):
   * the earlier time of a phase wins, so the record keeps when the application first got there.
   */
  seedPhaseTimes(recorded: string | undefined): void {
    let earlier: unknown;
    try {
      earlier = JSON.parse(recorded ?? '{}');
    } catch {
      return;
    }
    if (!earlier || typeof earlier !== 'object') return;
    for (const [phase, at] of Object.entries(earlier)) {
      if (
        PHASE_SET.has(phase) &&
        typeof at === 'string' &&
        at.length <= 32 &&
        !(this.phaseTimes[phase] && this.phaseTimes[phase] <= at)
      )
        this.phaseTimes[phase] = at;
    }
  }

  event(type: 'Normal' | 'Warning', reason: EventReason, message: string): void {
    this.log.info(`event ${reason}`, { type, message });
    // The log keeps the whole message; the Event (readable with `view`) gets it without credentials.
    this.queue.push({ kind: 'event', type, reason, message: truncate(redact(message)), at: this.clock.wallTime() });
    const events = this.queue.filter((i) => i.kind === 'event');
    if (events.length > MAX_QUEUED_EVENTS) {
      this.queue.splice(this.queue.indexOf(events[0]), 1);
      this.dropped++;
      this.log.warn('too many Events waiting for the API server; the oldest waiting one is dropped', {
        waiting: MAX_QUEUED_EVENTS,
      });
    }
    this.pump();
  }

  annotate(patch: StatusPatch): void {
    if (patch.message) patch = { ...patch, message: redact(patch.message) };
    this.observe?.(patch);
    if (patch.phase && PHASE_SET.has(patch.phase) && !(patch.phase in this.phaseTimes)) {
      // Whole seconds, one entry per known phase: the annotation stays bounded (under 400 bytes).
      this.phaseTimes[patch.phase] = this.clock
        .wallTime()
        .toISOString()
        .replace(/\.\d+Z$/, 'Z');
      patch = { ...patch, phaseTimes: JSON.stringify(this.phaseTimes) };
    }
    // One waiting patch holds every change not yet written: while the API is away the annotations
    // keep only their latest values, and one patch writes them all once it answers again.
    const waiting = this.queue.find((i): i is Extract<Item, { kind: 'patch' }> => i.kind === 'patch');
    if (waiting) Object.assign(waiting.patch, patch);
    else this.queue.push({ kind: 'patch', patch: { ...patch } });
    this.pump();
  }

  /**
   * Waits until everything queued so far is written (or `timeoutMs` passed); true if it all was,
   * none given up (a write refused because the application is being deleted is not given up: its
   * Job goes too). `urgent` (a deadline runs, e.g. SIGTERM's grace period): an item that keeps
   * failing is given up quickly, so it does not use up the time of the items behind it.
   */
  async flush(timeoutMs: number, urgent = true): Promise<boolean> {
    this.urgent = urgent;
    const droppedBefore = this.dropped;
    const done = (async () => {
      while (this.running) await this.running;
      return this.queue.length === 0 && this.dropped === droppedBefore;
    })();
    const timeout = this.clock.sleep(timeoutMs).then(() => false);
    return Promise.race([done, timeout]);
  }

  private pump(): void {
    if (this.running) return;
    this.running = (async () => {
      while (this.queue.length > 0) {
        const item = this.queue.shift()!;
        await this.write(item);
      }
    })().finally(() => {
      this.running = undefined;
    });
  }

  private async write(item: Item): Promise<void> {
    const what = `recording ${item.kind === 'patch' ? 'status annotations' : `event ${item.reason}`} on the Job failed`;
    try {
      await withRetry(() => this.send(item), {
        attempts: Infinity,
        // Once the terminal state is being flushed, an item that keeps failing must not use up the
        // flush budget of the items behind it (the terminal patch and Event come last).
        budgetMs: () => (this.urgent ? URGENT_RETRY_BUDGET_MS : this.retryBudgetMs),
        baseMs: 250,
        maxMs: 2000,
        retryable: retryableUnlessRoleGone(() => this.applicationDeleted),
        onRetry: (e) => this.log.warn(`${what}; retrying`, { error: errorMessage(e) }),
        sleep: (ms) => this.clock.sleep(ms),
        now: () => this.clock.now(),
      });
    } catch (e) {
      // `cancel` deletes the Job, and its Role goes with it (garbage collection) while this Pod
      // still ends: a write refused then has nothing left to record on, and is no problem to warn of.
      if (this.applicationDeleted && isStatus(e, 403)) {
        this.log.info(`${what}: the application is being deleted, its Role with it`, { error: errorMessage(e) });
        return;
      }
      this.log.warn(what, { error: errorMessage(e) });
      this.dropped++;
    }
  }

  private async send(item: Item): Promise<void> {
    if (item.kind === 'patch') {
      const annotations: Record<string, string | null> = {};
      for (const [k, v] of Object.entries(item.patch)) annotations[ANNOTATIONS[k as AnnotationKey]] = v ?? null;
      await this.kube.patchJobAnnotations(this.job.name, annotations);
    } else {
      await this.kube.createEvent(this.eventObject(item));
    }
  }

  private eventObject(item: Extract<Item, { kind: 'event' }>): Event {
    const at = item.at.toISOString();
    return {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: {
        name: `${this.job.name}.${item.at.getTime().toString(16)}${(this.seq++).toString(16).padStart(4, '0')}`,
        namespace: this.kube.namespace,
      },
      involvedObject: {
        apiVersion: 'batch/v1',
        kind: 'Job',
        name: this.job.name,
        namespace: this.kube.namespace,
        ...(this.job.uid ? { uid: this.job.uid } : {}),
      },
      reason: item.reason,
      message: item.message,
      type: item.type,
      source: { component: EVENT_COMPONENT },
      firstTimestamp: at,
      lastTimestamp: at,
      count: 1,
      reportingComponent: EVENT_COMPONENT,
      reportingInstance: this.source.podName,
    };
  }
}
