// Stamping a worker Pod from the worker PodTemplate (ARCHITECTURE rule 3: the worker spec is data;
// the runtime builds no spec of its own). Pure. The runtime adds only:
//   * the name `<appId>-worker-<n>` and the namespace;
//   * the template's labels, with the two the runtime selects by enforced (application-id, role=worker);
//   * an owner reference to the master Pod (controller false, blockOwnerDeletion false), so any
//     end of the master Pod garbage-collects the workers;
//   * the master's address in SEATUNNEL_APPLICATION_MASTER_ADDRESS and ST_DOCKER_MEMBER_LIST,
//     which the template carries empty.

import type { EnvVar, Pod, PodSpec, PodTemplate } from 'kubernetes-types/core/v1';
import type { OwnerReference } from 'kubernetes-types/meta/v1';
import { ENV, LABELS } from '../../../lib/model/reserved';
import { names } from '../../../lib/plan/pod';
import { RuntimeFailure } from '../outcome';
import { hostPort } from '../util';

export const STAMPED_ENV = [ENV.masterAddress, ENV.memberList] as const;

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
  const stamped = spec.containers.some((c) => (c.env ?? []).some((e) => (STAMPED_ENV as readonly string[]).includes(e.name)));
  return stamped ? [] : [`no container has ${STAMPED_ENV.join(' or ')} in its env (workers could not find the master)`];
}

function stampEnv(env: readonly EnvVar[] | undefined, address: string): EnvVar[] | undefined {
  if (!env) return undefined;
  return env.map((e) => ((STAMPED_ENV as readonly string[]).includes(e.name) ? { name: e.name, value: address } : e));
}

/** Worker `n` (1-based) of the application. Throws InvalidWorkerTemplate for an unusable template. */
export function stampWorker(input: StampInput, n: number): Pod {
  const problems = templateProblems(input.template);
  if (problems.length > 0) {
    throw new RuntimeFailure('InvalidWorkerTemplate', `the worker PodTemplate ${input.template.metadata?.name ?? '?'} cannot be used: ${problems.join('; ')}`);
  }
  const tmeta = input.template.template?.metadata ?? {};
  const spec = structuredClone(input.template.template!.spec!) as PodSpec;
  const address = hostPort(input.masterHost, input.masterPort);
  spec.containers = spec.containers.map((c) => ({ ...c, ...(c.env ? { env: stampEnv(c.env, address) } : {}) }));
  if (spec.initContainers) spec.initContainers = spec.initContainers.map((c) => ({ ...c, ...(c.env ? { env: stampEnv(c.env, address) } : {}) }));
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: names.worker(input.appId, n),
      namespace: input.namespace,
      labels: { ...(tmeta.labels ?? {}), [LABELS.applicationId]: input.appId, [LABELS.role]: 'worker' },
      ...(tmeta.annotations && Object.keys(tmeta.annotations).length ? { annotations: { ...tmeta.annotations } } : {}),
      ownerReferences: [masterOwnerReference(input.master)],
    },
    spec,
  };
}

/** True if the Pod is owned by the master Pod with `uid`. */
export function ownedBy(pod: Pod, uid: string): boolean {
  return (pod.metadata?.ownerReferences ?? []).some((r) => r.uid === uid);
}
