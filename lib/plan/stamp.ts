// Stamping a worker Pod from the worker PodTemplate (ARCHITECTURE rule 3: the worker spec is
// data). One pure function serves the runtime (which creates the workers) and preflight (which
// dry-runs and sizes them), so both see exactly the same Pods. Stamping adds only:
//   * the name `<appId>-worker-<n>` and the namespace;
//   * the template's labels, with the two the runtime selects by enforced (application-id, role=worker);
//   * at run time, an owner reference (the master Pod) and the master's address in the variables
//     the template carries empty (SEATUNNEL_APPLICATION_MASTER_ADDRESS, ST_DOCKER_MEMBER_LIST).

import type { EnvVar, Pod, PodSpec, PodTemplate } from 'kubernetes-types/core/v1';
import type { OwnerReference } from 'kubernetes-types/meta/v1';
import { ENV, LABELS } from '../model/reserved';
import { names } from './pod';

/** The variables stamped with the master's address. */
export const STAMPED_ENV: readonly string[] = [ENV.masterAddress, ENV.memberList];

export interface WorkerStamp {
  readonly appId: string;
  readonly namespace: string;
  /** 1-based index of the worker. */
  readonly n: number;
  /** host:port of the master's Hazelcast member; left as in the template when omitted (dry runs). */
  readonly masterAddress?: string;
  /** The worker's owner (at run time: the master Pod). */
  readonly owner?: OwnerReference;
}

function stampEnv(env: readonly EnvVar[] | undefined, address: string): EnvVar[] | undefined {
  if (!env) return undefined;
  return env.map((e) => (STAMPED_ENV.includes(e.name) ? { name: e.name, value: address } : e));
}

/** Worker `n` of the application, stamped from `template` (which must have a Pod spec). */
export function stampWorkerPod(template: PodTemplate, s: WorkerStamp): Pod & { apiVersion: 'v1'; kind: 'Pod' } {
  const spec = template.template?.spec;
  if (!spec) throw new Error(`PodTemplate ${template.metadata?.name ?? '?'} has no Pod spec`);
  const meta = template.template?.metadata ?? {};
  const copy = JSON.parse(JSON.stringify(spec)) as PodSpec;
  if (s.masterAddress !== undefined) {
    const address = s.masterAddress;
    copy.containers = copy.containers.map((c) => ({ ...c, ...(c.env ? { env: stampEnv(c.env, address) } : {}) }));
    if (copy.initContainers) copy.initContainers = copy.initContainers.map((c) => ({ ...c, ...(c.env ? { env: stampEnv(c.env, address) } : {}) }));
  }
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: names.worker(s.appId, s.n),
      namespace: s.namespace,
      labels: { ...(meta.labels ?? {}), [LABELS.applicationId]: s.appId, [LABELS.role]: 'worker' },
      ...(meta.annotations && Object.keys(meta.annotations).length ? { annotations: { ...meta.annotations } } : {}),
      ...(s.owner ? { ownerReferences: [{ ...s.owner }] } : {}),
    },
    spec: copy,
  };
}
