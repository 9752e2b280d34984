// The master and the workers: their resources, ports, worker count and slots, and the labels,
// annotations, scheduling constraints and own environment of each role's Pods (the spread:
// rules/spread.ts; the environment: rules/env.ts).

import type { MasterSpec, WorkerSpec } from '../spec';
import { resolveEnvFrom, resolveEnvVars } from './env';
import { resolveStringMap } from './labels';
import type { PropReader } from './reader';
import { resolveSpread } from './spread';
import { resolveTolerations } from './tolerations';

/**
 * What a Zeta JVM needs beside its heap at least: metaspace (capped at 256 MiB), code cache, the
 * garbage collector's tables, thread stacks and direct buffers. That share does not shrink with the
 * memory limit: a master given 1024 MiB with a 768 MiB heap (a quarter left over) was OOM-killed
 * after 13 minutes on a real node, its heap full and 274 MiB beside it.
 */
export const JVM_NON_HEAP_MIB = 384;

/**
 * JVM heap: the container memory limit less what the JVM needs beside it — a quarter of the limit,
 * at least JVM_NON_HEAP_MIB — and never less than half the limit (the smallest Pods).
 */
export function heapMiB(memoryMiB: number): number {
  const reserve = Math.max(JVM_NON_HEAP_MIB, Math.floor(memoryMiB / 4));
  return Math.max(1, Math.floor(memoryMiB / 2), memoryMiB - reserve);
}

export function resolveMaster(r: PropReader): MasterSpec {
  const memoryMiB = r.int('masterMemoryMb');
  const port = r.int('masterPort');
  const restPort = r.int('masterRestPort');
  if (port === restPort) r.fail('masterRestPort', restPort, 'must differ from the master port');
  return {
    cpuMillicores: r.millicores('masterCpuCores'),
    memoryMiB,
    heapMiB: heapMiB(memoryMiB),
    labels: resolveStringMap(r, 'masterLabels', 'label', 'master'),
    annotations: resolveStringMap(r, 'masterAnnotations', 'annotation'),
    nodeSelector: resolveStringMap(r, 'masterNodeSelector', 'selector'),
    tolerations: resolveTolerations(r, 'masterTolerations'),
    ...resolveSpread(r, 'master'),
    env: resolveEnvVars(r, 'masterEnv'),
    envFrom: resolveEnvFrom(r, 'masterEnvFrom'),
    port,
    restPort,
  };
}

export function resolveWorker(r: PropReader, master: Pick<MasterSpec, 'port' | 'restPort'>): WorkerSpec {
  const memoryMiB = r.int('workerMemoryMb');
  const port = r.int('workerPort');
  // Documented as distinct: the per-role NetworkPolicies and the master's Service and probes
  // select by port, so one port for both roles would blur which role a connection is for.
  if (port === master.port) r.fail('workerPort', port, `must differ from the master port (${r.key('masterPort')})`);
  if (port === master.restPort)
    r.fail('workerPort', port, `must differ from the master REST port (${r.key('masterRestPort')})`);
  return {
    count: r.int('workerCount'),
    slots: r.int('workerSlots'),
    cpuMillicores: r.millicores('workerCpuCores'),
    memoryMiB,
    heapMiB: heapMiB(memoryMiB),
    labels: resolveStringMap(r, 'workerLabels', 'label', 'worker'),
    annotations: resolveStringMap(r, 'workerAnnotations', 'annotation'),
    nodeSelector: resolveStringMap(r, 'workerNodeSelector', 'selector'),
    tolerations: resolveTolerations(r, 'workerTolerations'),
    ...resolveSpread(r, 'worker'),
    env: resolveEnvVars(r, 'workerEnv'),
    envFrom: resolveEnvFrom(r, 'workerEnvFrom'),
    port,
  };
}
