// Which of an application's Pods is which — the Job's own Pod (the master, or with HA the
// coordinator), the HA masters, the workers — and what they show: why one does not run, how its
// main container ended, the workers and masters summed up. What status (status.ts) reads from the
// Pods, beside the Job; pure.

import type { Job } from 'kubernetes-types/batch/v1';
import type { ContainerStatus, Pod } from 'kubernetes-types/core/v1';
import { LABELS } from '../../model/reserved';
import { ANNOTATIONS } from '../../contract';
import { CONTAINER_NAME } from '../../plan/pod';

export interface WorkerSummary {
  /** From the runtime's annotations. */
  readonly desired?: number;
  readonly registered?: number;
  /** Worker Pods that exist, and how many of them run. */
  readonly pods: number;
  readonly running: number;
  /** Why some workers do not run, e.g. "2 Unschedulable: 0/3 nodes are available: …". */
  readonly problems: readonly string[];
}

/** With HA (docs/ha.md): the masters as Kubernetes and the coordinator see them. */
export interface MastersSummary {
  /** From the Job (application.ha.masters). */
  readonly desired: number;
  /** Master Pods that exist and are Ready now. */
  readonly ready: number;
  readonly pods: number;
  /** Master Pods replaced so far, as the coordinator counted them. */
  readonly failovers?: number;
  readonly active?: string;
}

/** Waiting reasons that mean "this will not start by itself soon". */
export const STUCK = new Set([
  'ErrImagePull',
  'ImagePullBackOff',
  'InvalidImageName',
  'ErrImageNeverPull',
  'CreateContainerConfigError',
  'CreateContainerError',
  'RunContainerError',
  'CrashLoopBackOff',
  'PreCreateHookError',
  'PostStartHookError',
]);

/** The plan's role label: master, coordinator or worker. */
export function roleOf(p: Pod): string | undefined {
  return p.metadata?.labels?.[LABELS.role];
}

/** A master of an HA application: a Pod of the masters' StatefulSet, not the Job's. */
export function isHaMaster(p: Pod): boolean {
  return roleOf(p) === 'master' && (p.metadata?.ownerReferences ?? []).some((o) => o.kind === 'StatefulSet');
}

/** The Job's own Pod: the master, or with HA the coordinator (docs/ha.md). */
export function isJobPod(p: Pod): boolean {
  return roleOf(p) === 'coordinator' || (roleOf(p) === 'master' && !isHaMaster(p));
}

/** The current Job Pod: not being deleted first, then the newest. */
export function masterPodOf(pods: readonly Pod[]): Pod | undefined {
  return [...pods.filter(isJobPod)].sort((a, b) => {
    const da = a.metadata?.deletionTimestamp ? 1 : 0;
    const db = b.metadata?.deletionTimestamp ? 1 : 0;
    if (da !== db) return da - db;
    return String(b.metadata?.creationTimestamp ?? '').localeCompare(String(a.metadata?.creationTimestamp ?? ''));
  })[0];
}

function mainStatus(pod: Pod | undefined): ContainerStatus | undefined {
  return pod?.status?.containerStatuses?.find((c) => c.name === CONTAINER_NAME) ?? pod?.status?.containerStatuses?.[0];
}

/** The main container's termination: its current state, else its last one. */
export function terminated(pod: Pod | undefined) {
  const s = mainStatus(pod);
  return s?.state?.terminated ?? s?.lastState?.terminated;
}

const int = (v: string | undefined) => (v !== undefined && /^\d+$/.test(v.trim()) ? Number(v.trim()) : undefined);

/** Why a Pod that is not running does not run; undefined when nothing specific is known. */
export function podProblem(pod: Pod): { reason: string; message?: string } | undefined {
  const scheduled = pod.status?.conditions?.find((c) => c.type === 'PodScheduled');
  if (scheduled?.status === 'False' && scheduled.reason === 'Unschedulable')
    return { reason: 'Unschedulable', message: scheduled.message };
  const statuses = [...(pod.status?.initContainerStatuses ?? []), ...(pod.status?.containerStatuses ?? [])];
  for (const s of statuses) {
    const w = s.state?.waiting;
    if (w?.reason && STUCK.has(w.reason))
      return { reason: w.reason, message: `container "${s.name}": ${w.message ?? w.reason}` };
  }
  for (const s of pod.status?.initContainerStatuses ?? []) {
    const t = s.state?.terminated;
    if (t && t.exitCode !== 0)
      return {
        reason: `Init:${t.reason ?? 'Error'}`,
        message: `init container "${s.name}" exited with code ${t.exitCode}${t.message ? `: ${t.message}` : ''}`,
      };
  }
  return undefined;
}

/** With HA: the masters' Pods and what the coordinator recorded of them (undefined without HA). */
export function mastersSummary(job: Job, pods: readonly Pod[]): MastersSummary | undefined {
  const ann = job.metadata?.annotations ?? {};
  const desired = int(ann[ANNOTATIONS.mastersDesired]);
  if (desired === undefined) return undefined;
  const masters = pods.filter(isHaMaster);
  const ready = masters.filter((p) =>
    p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True'),
  ).length;
  const failovers = int(ann[ANNOTATIONS.masterFailovers]);
  const active = ann[ANNOTATIONS.activeMaster];
  return {
    desired,
    ready,
    pods: masters.length,
    ...(failovers !== undefined ? { failovers } : {}),
    ...(active ? { active } : {}),
  };
}

/** The worker Pods and the runtime's count of them; undefined when there is nothing to say. */
export function workerSummary(job: Job, pods: readonly Pod[]): WorkerSummary | undefined {
  const ann = job.metadata?.annotations ?? {};
  const workers = pods.filter((p) => roleOf(p) === 'worker');
  const desired = int(ann[ANNOTATIONS.workersDesired]);
  const registered = int(ann[ANNOTATIONS.workersRegistered]);
  if (desired === undefined && registered === undefined && workers.length === 0) return undefined;
  const byReason = new Map<string, { n: number; message?: string }>();
  for (const w of workers) {
    if (w.status?.phase === 'Running') continue;
    const p = podProblem(w);
    if (!p) continue;
    const e = byReason.get(p.reason) ?? { n: 0, message: p.message };
    e.n++;
    byReason.set(p.reason, e);
  }
  return {
    ...(desired !== undefined ? { desired } : {}),
    ...(registered !== undefined ? { registered } : {}),
    pods: workers.length,
    running: workers.filter((w) => w.status?.phase === 'Running').length,
    problems: [...byReason].map(([reason, e]) => `${e.n} ${reason}${e.message ? `: ${e.message}` : ''}`),
  };
}
