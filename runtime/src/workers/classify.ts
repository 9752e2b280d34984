// What a worker Pod's state means for the application (pure). Reason-aware: a worker that can
// never start — Unschedulable, an image that cannot be pulled, a container config that cannot be
// built — fails the application at once with that reason instead of waiting out the startup
// timeout (docs/runtime.md, Lifecycle 7). A worker that was deleted, failed, is terminating or has
// ended in any way without the runtime asking is lost, reported at once, as SeaTunnel's
// application mode reports a terminal phase (docs/runtime.md, Lifecycle 9). That includes
// `Succeeded`: a Zeta worker never ends by itself while the application runs, and with
// restartPolicy Never it would not come back — waiting for it would only wait out the startup
// timeout. Workers the runtime releases on purpose are never assessed.

import type { ContainerStatus, Pod } from 'kubernetes-types/core/v1';
import type { Reason } from '../outcome';

/** Container waiting reasons that do not resolve by waiting. */
export const FATAL_WAITING_REASONS: ReadonlySet<string> = new Set(['ErrImagePull', 'ImagePullBackOff', 'CreateContainerConfigError', 'InvalidImageName']);

export type WorkerState =
  | { readonly kind: 'pending'; readonly detail: string }
  | { readonly kind: 'running' }
  | { readonly kind: 'fatal'; readonly reason: Reason; readonly message: string }
  | { readonly kind: 'lost'; readonly message: string };

function terminationOf(statuses: readonly ContainerStatus[] | undefined): string[] {
  const out: string[] = [];
  for (const c of statuses ?? []) {
    const t = c.state?.terminated ?? c.lastState?.terminated;
    if (t) out.push(`container ${c.name} terminated with exit code ${t.exitCode}${t.reason ? ` (${t.reason})` : ''}${t.message ? `: ${t.message}` : ''}`);
  }
  return out;
}

export function classifyWorker(pod: Pod): WorkerState {
  const status = pod.status ?? {};
  if (pod.metadata?.deletionTimestamp) {
    return { kind: 'lost', message: 'is being deleted, which the runtime did not ask for' };
  }
  if (status.phase === 'Failed') {
    const parts = [status.reason, status.message, ...terminationOf(status.containerStatuses)].filter((x): x is string => !!x);
    return { kind: 'lost', message: `failed${parts.length ? `: ${parts.join('; ')}` : ''}` };
  }
  if (status.phase === 'Succeeded') {
    const parts = terminationOf(status.containerStatuses);
    return { kind: 'lost', message: `ended (phase Succeeded) while the application still needs it${parts.length ? `: ${parts.join('; ')}` : ''}` };
  }
  const scheduled = status.conditions?.find((c) => c.type === 'PodScheduled');
  if (scheduled?.status === 'False' && scheduled.reason === 'Unschedulable') {
    return { kind: 'fatal', reason: 'Unschedulable', message: `cannot be scheduled: ${scheduled.message ?? 'no node fits'}` };
  }
  for (const c of [...(status.initContainerStatuses ?? []), ...(status.containerStatuses ?? [])]) {
    const w = c.state?.waiting;
    if (w?.reason && FATAL_WAITING_REASONS.has(w.reason)) {
      return { kind: 'fatal', reason: w.reason as Reason, message: `container ${c.name}: ${w.reason}${w.message ? `: ${w.message}` : ''}` };
    }
  }
  if (status.phase === 'Running') return { kind: 'running' };
  const waiting = (status.containerStatuses ?? []).map((c) => c.state?.waiting?.reason).filter((x): x is string => !!x);
  return { kind: 'pending', detail: waiting[0] ?? (scheduled?.status === 'True' ? 'Scheduled' : (status.phase ?? 'Pending')) };
}
