// What a worker Pod's state means for the application (pure). Reason-aware: a worker that can
// never start — Unschedulable, an image that cannot be pulled, a container config that cannot be
// built — fails the application at once with that reason instead of waiting out the startup
// timeout (docs/runtime.md, Lifecycle 7). A worker that was deleted, failed, is terminating or has
// ended in any way without the runtime asking is lost, reported at once, as SeaTunnel's
// application mode reports a terminal phase (docs/runtime.md, Lifecycle 9). That includes
// `Succeeded`: a Zeta worker never ends by itself while the application runs, and with
// restartPolicy Never it would not come back — waiting for it would only wait out the startup
// timeout. Workers the runtime releases on purpose are never assessed.

//
// Two states depend on time and on what else the cluster says, and are judged by the reconciler
// with the table-driven functions at the end of this file: an Unschedulable worker on a cluster
// with an autoscaler (judgeUnschedulable: the autoscaler's Events on the Pod decide, within
// application.scale-up-grace-millis), and an image pull that fails (judgeImagePull: the kubelet
// retries it, within application.image-pull-retry-millis).

import type { ContainerStatus, Event, Pod } from 'kubernetes-types/core/v1';
import type { Reason } from '../outcome';

/**
 * Container waiting reasons that do not resolve by waiting. ErrImageNeverPull: imagePullPolicy Never
 * and the image is not on the node — nothing will put it there while we wait (seen on a real node).
 */
export const FATAL_WAITING_REASONS: ReadonlySet<string> = new Set([
  'CreateContainerConfigError',
  'InvalidImageName',
  'ErrImageNeverPull',
]);

/** Container waiting reasons of a failing image pull, which the kubelet retries with backoff. */
export const IMAGE_PULL_REASONS: ReadonlySet<string> = new Set(['ErrImagePull', 'ImagePullBackOff']);

/** The waiting reason a worker shows while an autoscaler adds a node for it (the barrier's and `status`'s wording). */
export const WAITING_FOR_SCALE_UP = 'waiting for a node (scale-up triggered)';
/** … and while no autoscaler has answered yet, within the grace period. */
export const WAITING_FOR_AUTOSCALER = 'waiting for a node (Unschedulable; no scale-up seen yet)';

export type WorkerState =
  | { readonly kind: 'pending'; readonly detail: string }
  | { readonly kind: 'running' }
  | { readonly kind: 'fatal'; readonly reason: Reason; readonly message: string }
  /** Not schedulable now; `nominated`: the scheduler nominated a node (preemption makes room). */
  | { readonly kind: 'unschedulable'; readonly message: string; readonly nominated: boolean }
  | { readonly kind: 'image-pull'; readonly reason: 'ErrImagePull' | 'ImagePullBackOff'; readonly message: string }
  | { readonly kind: 'lost'; readonly message: string };

function terminationOf(statuses: readonly ContainerStatus[] | undefined): string[] {
  const out: string[] = [];
  for (const c of statuses ?? []) {
    const t = c.state?.terminated ?? c.lastState?.terminated;
    if (t)
      out.push(
        `container ${c.name} terminated with exit code ${t.exitCode}${t.reason ? ` (${t.reason})` : ''}${t.message ? `: ${t.message}` : ''}`,
      );
  }
  return out;
}

export function classifyWorker(pod: Pod): WorkerState {
  const status = pod.status ?? {};
  if (pod.metadata?.deletionTimestamp) {
    return { kind: 'lost', message: 'is being deleted, which the runtime did not ask for' };
  }
  if (status.phase === 'Failed') {
    const parts = [status.reason, status.message, ...terminationOf(status.containerStatuses)].filter(
      (x): x is string => !!x,
    );
    return { kind: 'lost', message: `failed${parts.length ? `: ${parts.join('; ')}` : ''}` };
  }
  if (status.phase === 'Succeeded') {
    const parts = terminationOf(status.containerStatuses);
    return {
      kind: 'lost',
      message: `ended (phase Succeeded) while the application still needs it${parts.length ? `: ${parts.join('; ')}` : ''}`,
    };
  }
  const scheduled = status.conditions?.find((c) => c.type === 'PodScheduled');
  if (scheduled?.status === 'False' && scheduled.reason === 'Unschedulable') {
    return {
      kind: 'unschedulable',
      message: `cannot be scheduled: ${scheduled.message ?? 'no node fits'}`,
      nominated: !!status.nominatedNodeName,
    };
  }
  for (const c of [...(status.initContainerStatuses ?? []), ...(status.containerStatuses ?? [])]) {
    const w = c.state?.waiting;
    if (w?.reason && IMAGE_PULL_REASONS.has(w.reason)) {
      return {
        kind: 'image-pull',
        reason: w.reason as 'ErrImagePull',
        message: `container ${c.name}: ${w.reason}${w.message ? `: ${w.message}` : ''}`,
      };
    }
    if (w?.reason && FATAL_WAITING_REASONS.has(w.reason)) {
      return {
        kind: 'fatal',
        reason: w.reason as Reason,
        message: `container ${c.name}: ${w.reason}${w.message ? `: ${w.message}` : ''}`,
      };
    }
  }
  if (status.phase === 'Running') return { kind: 'running' };
  const waiting = (status.containerStatuses ?? []).map((c) => c.state?.waiting?.reason).filter((x): x is string => !!x);
  return {
    kind: 'pending',
    detail: waiting[0] ?? (scheduled?.status === 'True' ? 'Scheduled' : (status.phase ?? 'Pending')),
  };
}

/** What a cluster autoscaler last said about a Pod: `none` when it said nothing (or there is none). */
export type ScaleUpSignal = 'triggered' | 'refused' | 'none';

/**
 * The Event reasons autoscalers record on a Pod they looked at. cluster-autoscaler:
 * `TriggeredScaleUp` / `NotTriggerScaleUp` (repeated while no node group can help, e.g. every group
 * at its maximum or none fits); Karpenter: `Nominated` (a node is being launched for the Pod).
 */
const SCALE_UP_EVENTS: Readonly<Record<string, Exclude<ScaleUpSignal, 'none'>>> = {
  TriggeredScaleUp: 'triggered',
  Nominated: 'triggered',
  NotTriggerScaleUp: 'refused',
};

function eventTime(e: Event): string {
  return String(
    e.lastTimestamp ??
      e.series?.lastObservedTime ??
      e.eventTime ??
      e.firstTimestamp ??
      e.metadata?.creationTimestamp ??
      '',
  );
}

/** The autoscaler's latest word among the Pod's Events; the newest one wins (a refusal after a scale-up, or the reverse). */
export function scaleUpSignal(events: readonly Event[]): { signal: ScaleUpSignal; message?: string } {
  const relevant = events.filter((e) => e.reason !== undefined && e.reason in SCALE_UP_EVENTS);
  if (relevant.length === 0) return { signal: 'none' };
  const last = relevant.reduce((a, b) => (eventTime(b) >= eventTime(a) ? b : a));
  return { signal: SCALE_UP_EVENTS[last.reason!], ...(last.message ? { message: last.message } : {}) };
}

export type UnschedulableVerdict = 'fail' | 'wait-for-node' | 'wait-for-autoscaler';

/**
 *   autoscaler said       node nominated   within grace   verdict
 *   refused               any              any            fail (no scale-up will help)
 *   triggered             any              any            wait-for-node (until the startup timeout)
 *   none                  yes              any            wait-for-node
 *   none                  no               yes            wait-for-autoscaler
 *   none                  no               no             fail
 */
export function judgeUnschedulable(
  signal: ScaleUpSignal,
  nominated: boolean,
  unschedulableForMs: number,
  graceMs: number,
): UnschedulableVerdict {
  if (signal === 'refused') return 'fail';
  if (signal === 'triggered' || nominated) return 'wait-for-node';
  return unschedulableForMs < graceMs ? 'wait-for-autoscaler' : 'fail';
}

/** A failing image pull is retried by the kubelet while it has failed for less than the budget. */
export function judgeImagePull(failingForMs: number, budgetMs: number): 'fail' | 'retry' {
  return failingForMs < budgetMs ? 'retry' : 'fail';
}
