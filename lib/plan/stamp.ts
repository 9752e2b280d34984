// Stamping Pods from the plan (the worker spec is data: the plan writes the worker PodTemplate,
// nothing else builds a worker spec). One pure module serves the runtime (which creates the
// workers) and preflight (which dry-runs and sizes them), so both see exactly the same Pods.
// Stamping a worker adds only:
//   * the name `<appId>-worker-<n>` and the namespace;
//   * the template's labels, with the two the runtime selects by enforced (application-id, role=worker);
//   * at run time, the master Pod as owner (controller false, blockOwnerDeletion false, so any end
//     of the master Pod garbage-collects the workers) and the master's address in the variables
//     the template carries empty (SEATUNNEL_APPLICATION_MASTER_ADDRESS, ST_DOCKER_MEMBER_LIST).
// The master Pod is stamped as the Job controller makes it from the Job's template.

import type { EnvVar, Pod, PodSpec, PodTemplate } from 'kubernetes-types/core/v1';
import type { OwnerReference } from 'kubernetes-types/meta/v1';
import { ENV, LABELS } from '../model/reserved';
import { names } from './pod';
import type { ApplicationPlan, Job, KubeObject } from './types';

/** The variables stamped with the master's address. */
export const STAMPED_ENV: readonly string[] = [ENV.masterAddress, ENV.memberList];

export type StampedPod = Pod & {
  apiVersion: 'v1';
  kind: 'Pod';
  metadata: NonNullable<Pod['metadata']> & { namespace: string };
};

/** The master Pod, owner of the workers at run time. */
export interface MasterRef {
  readonly name: string;
  readonly uid: string;
}

export interface WorkerStampInput {
  readonly template: PodTemplate;
  readonly appId: string;
  readonly namespace: string;
  /** At run time: the master Pod, the workers' owner. Omitted for dry runs. */
  readonly master?: MasterRef;
  /**
   * With HA, the workers' owner instead of the master Pod: the Job, which outlives any of its Pods
   * (a replaced coordinator or master must not garbage-collect live workers).
   */
  readonly owner?: OwnerReference;
  /** At run time: the master Pod's IP (IPv6 without brackets) and Hazelcast port. Omitted: the address stays as in the template. */
  readonly masterHost?: string;
  readonly masterPort?: number;
}

/** `[host]:port` for IPv6 addresses, `host:port` otherwise. */
export function hostPort(host: string, port: number): string {
  return `${host.includes(':') ? `[${host}]` : host}:${port}`;
}

export function workerSelector(appId: string): string {
  return `${LABELS.applicationId}=${appId},${LABELS.role}=worker`;
}

export function masterOwnerReference(master: MasterRef): OwnerReference {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    name: master.name,
    uid: master.uid,
    controller: false,
    blockOwnerDeletion: false,
  };
}

/** True if the Pod is owned by the master Pod with `uid`. */
export function ownedBy(pod: Pod, uid: string): boolean {
  return (pod.metadata?.ownerReferences ?? []).some((r) => r.uid === uid);
}

/** Problems that make a template unusable (empty = usable). */
export function templateProblems(template: PodTemplate): string[] {
  const spec = template.template?.spec;
  if (!spec || !Array.isArray(spec.containers) || spec.containers.length === 0)
    return ['it has no Pod spec with containers'];
  const stamped = spec.containers.some((c) => (c.env ?? []).some((e) => STAMPED_ENV.includes(e.name)));
  return stamped ? [] : [`no container has ${STAMPED_ENV.join(' or ')} in its env (workers could not find the master)`];
}

function stampEnv(env: readonly EnvVar[] | undefined, address: string): EnvVar[] | undefined {
  if (!env) return undefined;
  return env.map((e) => (STAMPED_ENV.includes(e.name) ? { name: e.name, value: address } : e));
}

/** Worker `n` (1-based) of the application. Throws for an unusable template (see templateProblems). */
export function stampWorker(input: WorkerStampInput, n: number): StampedPod {
  const { template } = input;
  const problems = templateProblems(template);
  if (problems.length > 0)
    throw new Error(`the worker PodTemplate ${template.metadata?.name ?? '?'} cannot be used: ${problems.join('; ')}`);
  const meta = template.template?.metadata ?? {};
  const copy = JSON.parse(JSON.stringify(template.template!.spec)) as PodSpec;
  if (input.masterHost !== undefined && input.masterPort !== undefined) {
    const address = hostPort(input.masterHost, input.masterPort);
    copy.containers = copy.containers.map((c) => ({ ...c, ...(c.env ? { env: stampEnv(c.env, address) } : {}) }));
    if (copy.initContainers)
      copy.initContainers = copy.initContainers.map((c) => ({
        ...c,
        ...(c.env ? { env: stampEnv(c.env, address) } : {}),
      }));
  }
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: names.worker(input.appId, n),
      namespace: input.namespace,
      labels: { ...(meta.labels ?? {}), [LABELS.applicationId]: input.appId, [LABELS.role]: 'worker' },
      ...(meta.annotations && Object.keys(meta.annotations).length ? { annotations: { ...meta.annotations } } : {}),
      ...(input.owner
        ? { ownerReferences: [input.owner] }
        : input.master
          ? { ownerReferences: [masterOwnerReference(input.master)] }
          : {}),
    },
    spec: copy,
  };
}

/** Workers 1..N of the application as a dry run sees them (no owner, addresses as in the template). */
export function stampWorkers(plan: ApplicationPlan): StampedPod[] {
  const input = {
    template: plan.workerTemplate,
    appId: plan.spec.appId,
    namespace: plan.workerTemplate.metadata.namespace,
  };
  return Array.from({ length: plan.spec.worker.count }, (_, i) => stampWorker(input, i + 1));
}

/** The master Pod as the Job controller creates it (generated name; the controller's job-name labels). */
export function stampMasterPod(job: Job & KubeObject): StampedPod {
  const tpl = job.spec?.template;
  if (!tpl?.spec) throw new Error(`Job ${job.metadata.name} has no Pod template`);
  const name = job.metadata.name;
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      generateName: `${name}-`,
      namespace: job.metadata.namespace,
      labels: { ...(tpl.metadata?.labels ?? {}), 'batch.kubernetes.io/job-name': name, 'job-name': name },
      ...(tpl.metadata?.annotations && Object.keys(tpl.metadata.annotations).length
        ? { annotations: { ...tpl.metadata.annotations } }
        : {}),
    },
    spec: JSON.parse(JSON.stringify(tpl.spec)) as PodSpec,
  };
}
