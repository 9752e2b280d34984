import type { Container, PodSpec } from 'kubernetes-types/core/v1';
import type { ApplicationPlan } from '../../../lib/plan/types';

export const masterPod = (p: ApplicationPlan): PodSpec => p.job.spec!.template.spec!;
export const workerPod = (p: ApplicationPlan): PodSpec => p.workerTemplate.template!.spec!;
export const main = (pod: PodSpec): Container => pod.containers.find((c) => c.name === 'seatunnel')!;
export const env = (c: Container, name: string) => c.env?.find((e) => e.name === name);
export const mountAt = (c: Container, path: string) => c.volumeMounts?.find((m) => m.mountPath === path);
export const volume = (pod: PodSpec, name: string) => pod.volumes?.find((v) => v.name === name);
