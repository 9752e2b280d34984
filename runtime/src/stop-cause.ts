// Why this Pod was asked to stop (SIGTERM): a user's cancel or the kubelet's kill look the same
// from inside. The answer is in the API: the Job (deleted, or `cancel --savepoint`'s annotation),
// this Pod (deleted; Kubernetes' DisruptionTarget condition says who evicted, preempted or
// removed it from a lost node) and its Events (the kubelet records a failed probe's kill). Pure:
// the lifecycle reads the three and asks here.

import type { Event, Job, Pod } from './kube/port';
import { ANNOTATIONS } from 'seatunnel-app/runtime-support';

export type StopCause =
  /** The application is being deleted or cancelled (`cancel`, a Job deletion, its TTL). */
  | { readonly kind: 'application-deleted' }
  /** This Pod was deleted by someone, nothing says Kubernetes did it (`kubectl delete pod`). */
  | { readonly kind: 'pod-deleted' }
  /** Kubernetes disrupted it: DisruptionTarget's reason (eviction, preemption, a lost node, the kubelet). */
  | { readonly kind: 'disruption'; readonly reason: string; readonly message: string }
  /** The kubelet killed the container for a failed probe. */
  | { readonly kind: 'probe'; readonly message: string }
  /** Nothing in the API says (e.g. the node shutting down without telling). */
  | { readonly kind: 'unknown' };

/** Undefined: gone (404). */
export interface StopEvidence {
  readonly job: Job | undefined;
  readonly pod: Pod | undefined;
  readonly events: readonly Event[];
}

export function stopCauseOf(e: StopEvidence): StopCause {
  const job = e.job;
  if (!job || job.metadata?.deletionTimestamp || job.metadata?.annotations?.[ANNOTATIONS.cancelRequested])
    return { kind: 'application-deleted' };
  const disruption = e.pod?.status?.conditions?.find((c) => c.type === 'DisruptionTarget' && c.status === 'True');
  if (disruption)
    return { kind: 'disruption', reason: disruption.reason ?? 'DisruptionTarget', message: disruption.message ?? '' };
  const killed = [...e.events]
    .reverse()
    .find((ev) => ev.reason === 'Killing' && /\bfailed (liveness|startup) probe\b/.test(ev.message ?? ''));
  if (killed) return { kind: 'probe', message: killed.message ?? '' };
  if (!e.pod || e.pod.metadata?.deletionTimestamp) return { kind: 'pod-deleted' };
  return { kind: 'unknown' };
}

/** A person's words for a DisruptionTarget reason (Kubernetes' own values). */
export function describeDisruption(reason: string): string {
  switch (reason) {
    case 'EvictionByEvictionAPI':
      return 'evicted through the Eviction API (a node drain, or a PodDisruptionBudget-aware eviction)';
    case 'PreemptionByScheduler':
      return 'preempted by the scheduler for a Pod of higher priority';
    case 'DeletionByTaintManager':
      return 'evicted from its node by a NoExecute taint (the node stopped answering or is not ready, kubernetes.node-loss-toleration-seconds)';
    case 'DeletionByPodGC':
      return 'removed by the Pod garbage collector (its node is gone or out of service)';
    case 'TerminationByKubelet':
      return 'stopped by the kubelet (node pressure eviction or a graceful node shutdown)';
    default:
      return `disrupted by Kubernetes (${reason})`;
  }
}
