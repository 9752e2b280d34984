// The runtime's side of stamping workers (the stamping itself is lib/plan/stamp.ts, shared with
// preflight): the template must be usable, the owner is the master Pod (controller false,
// blockOwnerDeletion false, so any end of the master Pod garbage-collects the workers), and the
// address is the master Pod's IP and port.

import type { Pod, PodTemplate } from 'kubernetes-types/core/v1';
import type { OwnerReference } from 'kubernetes-types/meta/v1';
import { LABELS } from 'seatunnel-app/internal/model/reserved';
import { STAMPED_ENV as PLAN_STAMPED_ENV, stampWorkerPod } from 'seatunnel-app/internal/plan/stamp';
import { RuntimeFailure } from '../outcome';
import { hostPort } from '../util';

export const STAMPED_ENV = PLAN_STAMPED_ENV;

export interface MasterRef {
  readonly name: string;
  readonly uid: string;
}

export interface StampInput {
  readonly appId: string;
  readonly namespace: string;
  readonly template: PodTemplate;
  readonly master: MasterRef;
  /** The master's Pod IP (IPv6 without brackets). */
  readonly masterHost: string;
  readonly masterPort: number;
}

export function workerSelector(appId: string): string {
  return `${LABELS.applicationId}=${appId},${LABELS.role}=worker`;
}

export function masterOwnerReference(master: MasterRef): OwnerReference {
  return { apiVersion: 'v1', kind: 'Pod', name: master.name, uid: master.uid, controller: false, blockOwnerDeletion: false };
}

/** Problems that make a template unusable (empty = usable). */
export function templateProblems(template: PodTemplate): string[] {
  const spec = template.template?.spec;
  if (!spec || !Array.isArray(spec.containers) || spec.containers.length === 0) return ['it has no Pod spec with containers'];
  const stamped = spec.containers.some((c) => (c.env ?? []).some((e) => STAMPED_ENV.includes(e.name)));
  return stamped ? [] : [`no container has ${STAMPED_ENV.join(' or ')} in its env (workers could not find the master)`];
}

/** Worker `n` (1-based) of the application. Throws InvalidWorkerTemplate for an unusable template. */
export function stampWorker(input: StampInput, n: number): Pod {
  const problems = templateProblems(input.template);
  if (problems.length > 0) {
    throw new RuntimeFailure('InvalidWorkerTemplate', `the worker PodTemplate ${input.template.metadata?.name ?? '?'} cannot be used: ${problems.join('; ')}`);
  }
  return stampWorkerPod(input.template, {
    appId: input.appId,
    namespace: input.namespace,
    n,
    masterAddress: hostPort(input.masterHost, input.masterPort),
    owner: masterOwnerReference(input.master),
  });
}

/** True if the Pod is owned by the master Pod with `uid`. */
export function ownedBy(pod: Pod, uid: string): boolean {
  return (pod.metadata?.ownerReferences ?? []).some((r) => r.uid === uid);
}
