import type { Container, PodSpec } from 'kubernetes-types/core/v1';
import type { ApplicationPlan } from '../../../lib/plan/types';

export const masterPod = (p: ApplicationPlan): PodSpec => p.job.spec!.template.spec!;
export const workerPod = (p: ApplicationPlan): PodSpec => p.workerTemplate.template!.spec!;
export const main = (pod: PodSpec): Container => pod.containers.find((c) => c.name === 'seatunnel')!;
export const env = (c: Container, name: string) => c.env?.find((e) => e.name === name);
export const mountAt = (c: Container, path: string) => c.volumeMounts?.find((m) => m.mountPath === path);
export const volume = (pod: PodSpec, name: string) => pod.volumes?.find((v) => v.name === name);

/** Hazelcast REST on a worker's member port with metrics on: CLUSTER_READ alone, every other group of 2.3.8 off. */
export const WORKER_METRICS_REST = {
  enabled: true,
  'endpoint-groups': {
    CLUSTER_READ: { enabled: true },
    CLUSTER_WRITE: { enabled: false },
    HEALTH_CHECK: { enabled: false },
    PERSISTENCE: { enabled: false },
    HOT_RESTART: { enabled: false },
    WAN: { enabled: false },
    DATA: { enabled: false },
    CP: { enabled: false },
  },
};

/** Hazelcast REST on the master's member port: the runtime's REST v1 and its read of the telemetry. */
export const MASTER_REST = {
  enabled: true,
  'endpoint-groups': { CLUSTER_READ: { enabled: true }, CLUSTER_WRITE: { enabled: true }, DATA: { enabled: true } },
};
