// logs: the containers' output of an application's master (runtime + Zeta, one container) and
// workers, read through the API server (GET …/pods/NAME/log), which relays it from the kubelet.
// Pods are found by the application-id label, as `status` finds them; the worker number is the
// name the runtime stamps (`names.worker`). With several Pods every line carries kubectl's
// `--prefix` ("[pod/NAME/CONTAINER] "); each stream is cut into whole lines before anything is
// printed, so concurrent follows never mix inside a line. With `follow` a watch of the
// application's Pods picks up a worker that replaces another, and says once when a Pod ends.
// Nothing is buffered beyond one line, and a line is cut at MAX_LINE_CHARS.

import type { Pod } from 'kubernetes-types/core/v1';
import { describeError, isStatus, KubeApiError } from '../../kube/errors';
import type { Kube, WatchStream } from '../../kube';
import { LineSplitter, MAX_LINE_CHARS } from '../../kube/line-splitter';
import { LABELS } from '../../model/reserved';
import { CONTAINER_NAME, names } from '../../plan/pod';

/** The roles whose Pods have logs (the plan's role label). */
export type LogRole = 'master' | 'worker';

/** Which Pods and how: the flags of `seatunnel-app logs` (validated by lib/cli/log-flags.ts). */
export interface LogOptions {
  /** Only this role's Pods; both when undefined. */
  readonly role?: LogRole;
  /** Only worker N (1-based, as the runtime names them). */
  readonly worker?: number;
  readonly follow: boolean;
  readonly previous: boolean;
  readonly sinceSeconds?: number;
  readonly tailLines?: number;
  readonly timestamps: boolean;
}

export interface LogsRequest extends LogOptions {
  readonly applicationId: string;
  readonly namespace: string;
}

/** Where `streamLogs` writes: log lines (stdout) and notes about Pods (stderr). */
export interface LogSink {
  line(text: string): void;
  note(text: string): void;
}

export interface LogsOutcome {
  /** Pods whose log was printed (at least partly). */
  readonly shown: number;
  /** Pods whose log could not be read: why, by Pod. */
  readonly failed: ReadonlyArray<{ pod: string; gone: boolean; message: string }>;
  /** No Pod matched the request (none exists, or none of that role/number). */
  readonly noPods: boolean;
}

export { LineSplitter, MAX_LINE_CHARS };

const roleOf = (p: Pod) => p.metadata?.labels?.[LABELS.role];

/** The worker number in a stamped worker's name, for ordering (Infinity for any other name). */
function workerNumber(appId: string, p: Pod): number {
  const m = new RegExp(`^${appId.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}-worker-(\\d+)$`).exec(p.metadata?.name ?? '');
  return m ? Number(m[1]) : Infinity;
}

/** Whether `p` is one of the Pods the request asks for. */
export function matches(req: Pick<LogsRequest, 'applicationId' | 'role' | 'worker'>, p: Pod): boolean {
  const role = roleOf(p);
  if (role !== 'master' && role !== 'worker') return false;
  if (req.worker !== undefined)
    return role === 'worker' && p.metadata?.name === names.worker(req.applicationId, req.worker);
  return req.role === undefined || role === req.role;
}

/** The Pods to read, in print order: the master(s) first, oldest first, then workers by number. */
export function logTargets(req: Pick<LogsRequest, 'applicationId' | 'role' | 'worker'>, pods: readonly Pod[]): Pod[] {
  const rank = (p: Pod) => (roleOf(p) === 'master' ? 0 : 1);
  return pods
    .filter((p) => matches(req, p))
    .sort(
      (a, b) =>
        rank(a) - rank(b) ||
        workerNumber(req.applicationId, a) - workerNumber(req.applicationId, b) ||
        String(a.metadata?.creationTimestamp ?? '').localeCompare(String(b.metadata?.creationTimestamp ?? '')) ||
        String(a.metadata?.name).localeCompare(String(b.metadata?.name)),
    );
}

/** The container whose log is the Pod's: SeaTunnel's main container, else the first one. */
export function logContainer(p: Pod): string {
  const containers = p.spec?.containers ?? [];
  return containers.find((c) => c.name === CONTAINER_NAME)?.name ?? containers[0]?.name ?? CONTAINER_NAME;
}

/** kubectl logs --prefix: "[pod/NAME/CONTAINER] ". */
export function linePrefix(pod: string, container: string): string {
  return `[pod/${pod}/${container}] `;
}

/** Whether the Pod's log can be read yet: its container has started (or already ended). */
export function hasStarted(p: Pod): boolean {
  const name = logContainer(p);
  const s = p.status?.containerStatuses?.find((c) => c.name === name);
  if (s?.state?.running || s?.state?.terminated || s?.lastState?.terminated) return true;
  return p.status?.phase === 'Running' || p.status?.phase === 'Succeeded' || p.status?.phase === 'Failed';
}

export const isFinished = (p: Pod): boolean => p.status?.phase === 'Succeeded' || p.status?.phase === 'Failed';

/** What `logs -f` says of a worker that exited on the SIGTERM of its deletion. */
export const STOPPED_ON_DELETION =
  'stopped by its deletion (SIGTERM, exit code 143), as the runtime deletes the workers once the job has ended (and cancel deletes them too): not a failure';

/**
 * "Failed (exit code 137, Error)" — how a Pod ended, for the note printed once. A worker whose Pod
 * was deleted and whose container then exited on SIGTERM (143) did not fail: the kubelet reports
 * the phase Failed, but it is the runtime's cleanup (or a cancel) that stopped it.
 */
export function endDescription(p: Pod): string {
  const s = p.status?.containerStatuses?.find((c) => c.name === logContainer(p));
  const t = s?.state?.terminated;
  if (t?.exitCode === 143 && p.metadata?.deletionTimestamp && roleOf(p) === 'worker') return STOPPED_ON_DELETION;
  const detail = t ? ` (exit code ${t.exitCode}${t.reason ? `, ${t.reason}` : ''})` : '';
  return `${p.status?.phase ?? 'ended'}${detail}`;
}

/** What an API error on a Pod's log means, in words. */
export function logErrorMessage(
  pod: string,
  req: Pick<LogsRequest, 'previous'>,
  e: unknown,
): { gone: boolean; message: string } {
  if (isStatus(e, 404)) return { gone: true, message: `Pod ${pod} is gone (deleted): its log went with it` };
  if (req.previous && e instanceof KubeApiError && e.status === 400 && /previous terminated container/i.test(e.detail))
    return { gone: false, message: `Pod ${pod} has no previous container (it has not restarted): ${e.detail}` };
  return { gone: false, message: `Pod ${pod}: ${describeError(e)}` };
}

const selectorOf = (applicationId: string) => `${LABELS.applicationId}=${applicationId}`;

/** Reads one Pod's log to its end, line by line; `done` resolves with the error that ended it, if any. */
function readLog(
  kube: Kube,
  req: LogsRequest,
  pod: Pod,
  prefix: boolean,
  sink: LogSink,
  follow: boolean,
): { done: Promise<unknown>; stop(): void } {
  const name = pod.metadata?.name ?? '';
  const container = logContainer(pod);
  const head = prefix ? linePrefix(name, container) : '';
  let stream: WatchStream | undefined;
  const done = new Promise<unknown>((resolve) => {
    const lines = new LineSplitter((l) => sink.line(head + l));
    stream = kube.podLog(
      req.namespace,
      name,
      {
        container,
        follow,
        previous: req.previous,
        sinceSeconds: req.sinceSeconds,
        tailLines: req.tailLines,
        timestamps: req.timestamps,
      },
      {
        data: (c) => lines.push(c),
        closed: (error) => {
          lines.end();
          resolve(error);
        },
      },
    );
  });
  return { done, stop: () => stream?.stop() };
}

/** Prints the logs the request asks for; without `follow`, one Pod after the other. */
export async function streamLogs(kube: Kube, req: LogsRequest, sink: LogSink): Promise<LogsOutcome> {
  const listed = await kube.list<Pod>('v1', 'Pod', req.namespace, { labelSelector: selectorOf(req.applicationId) });
  const targets = logTargets(req, listed.items);
  if (!req.follow) {
    if (targets.length === 0) return { shown: 0, failed: [], noPods: true };
    const prefix = targets.length > 1;
    const failed: Array<{ pod: string; gone: boolean; message: string }> = [];
    let shown = 0;
    for (const pod of targets) {
      const name = pod.metadata?.name ?? '';
      const error = await readLog(kube, req, pod, prefix, sink, false).done;
      if (error === undefined) shown++;
      else failed.push({ pod: name, ...logErrorMessage(name, req, error) });
    }
    return { shown, failed, noPods: false };
  }
  return new Follower(kube, req, sink).run(listed);
}

interface Tracked {
  pod: Pod;
  reading?: { stop(): void };
  read: boolean;
  endReported: boolean;
}

/**
 * `logs -f`: every matching Pod's log is followed as soon as its container has started, for as
 * long as the application has a Pod that has not ended — so a worker created to replace another
 * is followed too. Ends when no log is being read and every Pod of the application has ended
 * (or is gone).
 */
class Follower {
  /** Every Pod of the application, by uid (the filter applies only to what is read). */
  private readonly pods = new Map<string, Tracked>();
  private watch?: WatchStream;
  private active = 0;
  private shown = 0;
  private readonly failed: Array<{ pod: string; gone: boolean; message: string }> = [];
  private finish!: (o: LogsOutcome) => void;
  private fail!: (e: unknown) => void;
  private finished = false;
  private matchedAny = false;

  constructor(
    private readonly kube: Kube,
    private readonly req: LogsRequest,
    private readonly sink: LogSink,
  ) {}

  run(listed: { items: Pod[]; metadata?: { resourceVersion?: string } }): Promise<LogsOutcome> {
    return new Promise<LogsOutcome>((resolve, reject) => {
      this.finish = resolve;
      this.fail = reject;
      this.absorb(listed);
      if (!this.matchedAny && !this.anyAlive()) {
        this.end({ noPods: true });
        return;
      }
      this.startWatch(listed.metadata?.resourceVersion ?? '0');
      this.check();
    });
  }

  /** Prefix every line unless the request can only ever mean one Pod. */
  private get prefix(): boolean {
    return !(this.req.worker !== undefined || this.req.role === 'master');
  }

  private absorb(listed: { items: Pod[] }): void {
    const present = new Set<string>();
    for (const p of listed.items) {
      const uid = p.metadata?.uid ?? '';
      present.add(uid);
      this.update(p);
    }
    for (const [uid, t] of this.pods) if (!present.has(uid)) this.gone(uid, t);
  }

  private update(p: Pod): void {
    const uid = p.metadata?.uid ?? '';
    let t = this.pods.get(uid);
    if (!t) {
      t = { pod: p, read: false, endReported: false };
      this.pods.set(uid, t);
    }
    t.pod = p;
    if (!matches(this.req, p)) return;
    this.matchedAny = true;
    if (!t.read && hasStarted(p)) this.read(t);
  }

  private read(t: Tracked): void {
    t.read = true;
    this.active++;
    const name = t.pod.metadata?.name ?? '';
    const r = readLog(this.kube, this.req, t.pod, this.prefix, this.sink, true);
    t.reading = r;
    void r.done.then((error) => {
      this.active--;
      t.reading = undefined;
      if (this.finished) return;
      if (error === undefined) this.shown++;
      else {
        const m = logErrorMessage(name, this.req, error);
        this.failed.push({ pod: name, ...m });
        this.sink.note(m.message);
      }
      if (isFinished(t.pod)) this.reportEnd(t);
      this.check();
    });
  }

  private reportEnd(t: Tracked, how?: string): void {
    if (t.endReported || !matches(this.req, t.pod)) return;
    t.endReported = true;
    this.sink.note(`--- Pod ${t.pod.metadata?.name} ${how ?? `ended: ${endDescription(t.pod)}`}`);
  }

  private gone(uid: string, t: Tracked): void {
    this.pods.delete(uid);
    this.reportEnd(t, isFinished(t.pod) ? `ended: ${endDescription(t.pod)}; it is deleted now` : 'was deleted');
  }

  private anyAlive(): boolean {
    return [...this.pods.values()].some((t) => !isFinished(t.pod));
  }

  private startWatch(resourceVersion: string): void {
    let rv = resourceVersion;
    this.watch = this.kube.watch(
      'v1',
      'Pod',
      this.req.namespace,
      { labelSelector: selectorOf(this.req.applicationId), resourceVersion: rv, timeoutSeconds: 300 },
      {
        event: (type, object) => {
          const p = object as Pod;
          if (p?.metadata?.resourceVersion) rv = p.metadata.resourceVersion;
          if (type === 'ADDED' || type === 'MODIFIED') this.update(p);
          else if (type === 'DELETED') {
            const uid = p.metadata?.uid ?? '';
            const t = this.pods.get(uid);
            if (t) {
              t.pod = p;
              this.gone(uid, t);
            }
          } else if (type === 'ERROR') {
            this.watch?.stop();
            void this.relist();
            return;
          }
          this.check();
        },
        closed: (error) => {
          if (this.finished) return;
          // The server ends a watch after timeoutSeconds; an expired resourceVersion (410) or a
          // broken connection is mended by listing again (Pods already followed are known by uid).
          if (error && !error.transient && !isStatus(error, 410)) this.end({}, error);
          else if (error || !rv) void this.relist();
          else this.startWatch(rv);
        },
      },
    );
  }

  private async relist(): Promise<void> {
    if (this.finished) return;
    try {
      const listed = await this.kube.list<Pod>('v1', 'Pod', this.req.namespace, {
        labelSelector: selectorOf(this.req.applicationId),
      });
      this.absorb(listed);
      this.startWatch(listed.metadata?.resourceVersion ?? '0');
      this.check();
    } catch (e) {
      this.end({}, e);
    }
  }

  private check(): void {
    if (this.finished) return;
    for (const t of this.pods.values())
      if (isFinished(t.pod) && !t.reading && (t.read || !hasStarted(t.pod))) this.reportEnd(t);
    if (this.active === 0 && !this.anyAlive()) this.end({ noPods: !this.matchedAny });
  }

  private end(o: { noPods?: boolean }, error?: unknown): void {
    if (this.finished) return;
    this.finished = true;
    this.watch?.stop();
    for (const t of this.pods.values()) t.reading?.stop();
    if (error !== undefined) this.fail(error);
    else this.finish({ shown: this.shown, failed: this.failed, noPods: o.noPods ?? false });
  }
}
