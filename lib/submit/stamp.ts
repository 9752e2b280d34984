// Pods as they will exist at run time, stamped from the plan: the N workers exactly as the runtime
// stamps them from the worker PodTemplate (name `<appId>-worker-<n>`, the template's labels and
// annotations, its spec; plus an owner reference and the master's address at run time), and the
// master Pod as the Job controller makes it from the Job's template. Preflight dry-runs and sizes
// these, so quota, LimitRange, Pod Security and admission webhooks judge the real footprint.

import type { Pod } from 'kubernetes-types/core/v1';
import { stampWorkerPod } from '../plan/stamp';
import type { ApplicationPlan, Job, KubeObject, PodTemplate } from '../plan/types';

export type StampedPod = Pod & { apiVersion: 'v1'; kind: 'Pod'; metadata: NonNullable<Pod['metadata']> & { namespace: string } };

export interface StampOptions {
  /** Owner of the worker (at run time: the master Pod). Omitted for dry runs. */
  readonly owner?: { apiVersion: string; kind: string; name: string; uid: string; controller?: boolean; blockOwnerDeletion?: boolean };
  /** host:port of the master's Hazelcast member (at run time: the master Pod IP). Left as in the template if omitted. */
  readonly masterAddress?: string;
}

const clone = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

/**
 * The n-th worker Pod (n starts at 1) stamped from the worker template exactly as the runtime
 * stamps it (lib/plan/stamp.ts): at run time also the owner reference and the master's address.
 */
export function stampWorker(template: PodTemplate & KubeObject, appId: string, n: number, opts: StampOptions = {}): StampedPod {
  if (!template.template?.spec) throw new Error(`PodTemplate ${template.metadata.name} has no Pod spec`);
  return stampWorkerPod(template, {
    appId, n, namespace: template.metadata.namespace,
    ...(opts.masterAddress !== undefined ? { masterAddress: opts.masterAddress } : {}),
    ...(opts.owner ? { owner: opts.owner } : {}),
  }) as StampedPod;
}

/** Workers 1..N of the application. */
export function stampWorkers(plan: ApplicationPlan, opts: StampOptions = {}): StampedPod[] {
  return Array.from({ length: plan.spec.worker.count }, (_, i) => stampWorker(plan.workerTemplate, plan.spec.appId, i + 1, opts));
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
      ...(tpl.metadata?.annotations && Object.keys(tpl.metadata.annotations).length ? { annotations: { ...tpl.metadata.annotations } } : {}),
    },
    spec: clone(tpl.spec),
  };
}
