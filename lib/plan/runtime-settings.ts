// runtime.json: what the runtime in the master Pod needs to know that is not a secret. It lives
// in the engine ConfigMap, so `kubectl get configmap <appId>-engine -o yaml` shows it.

import { zetaCommand, zetaEnvironment } from '../engine/command';
import { ENV } from '../model/reserved';
import { PATHS, type ApplicationSpec } from '../model/spec';
import { names } from './pod';

export const RUNTIME_SETTINGS_VERSION = 1;

export interface DependentRef {
  readonly apiVersion: string;
  readonly kind: string;
  readonly name: string;
}

export interface RuntimeSettings {
  readonly version: number;
  readonly appId: string;
  readonly namespace: string;
  readonly jobName: string;
  /** Zeta job ID (exact decimal string). */
  readonly jobId: string;
  readonly restoreJobId?: string;
  readonly workerCount: number;
  readonly workerSlots: number;
  readonly startupTimeoutMillis: number;
  /** application.scale-up-grace-millis; absent in runtime.json written before it existed (then 0: fail fast). */
  readonly scaleUpGraceMillis?: number;
  /** application.image-pull-retry-millis; absent in older runtime.json (then 0: fail fast). */
  readonly imagePullRetryMillis?: number;
  readonly workerTemplate: string;
  readonly master: {
    readonly port: number;
    readonly restPort: number;
    /**
     * Path prefix of Zeta's REST API on `restPort`: '' (the default) for REST API v2 (Zeta 2.3.9+),
     * '/hazelcast/rest/maps' for the Hazelcast-based REST of Zeta 2.3.8 and earlier, which is
     * served on the member port (then `restPort` is the master port).
     */
    readonly restPath?: string;
    /** The master's Zeta command; `configDir` is the runtime's completed copy of the engine files. */
    readonly command: readonly string[];
    /** Extra environment of the master's Zeta process (JVM module flags, phone-home off). */
    readonly env: Readonly<Record<string, string>>;
  };
  readonly jobConfig:
    { readonly kind: 'inline'; readonly env: string } | { readonly kind: 'file'; readonly path: string };
  /** Objects the runtime adopts (adds the Job as owner) when they were applied without one. */
  readonly dependents: readonly DependentRef[];
  readonly checkpointDir?: string;
  /** With HA (docs/ha.md): the runtime is the coordinator; no Zeta in its Pod. */
  readonly ha?: HaRuntimeSettings;
}

export interface HaRuntimeSettings {
  readonly masters: number;
  /** The masters' StatefulSet: its status says how many are ready; deleted at the end. */
  readonly statefulSet: string;
  /** Host of the ClusterIP Service in front of the masters' REST API. */
  readonly restHost: string;
  readonly workerFailurePolicy: 'fail' | 'replace';
  readonly workerReplacements: number;
}

/**
 * The data objects the runtime adopts on the `kubectl apply` path, and the worker template it
 * reads. Never the Role, RoleBinding, NetworkPolicies, ServiceAccount or Service: adopting means
 * patching, and the runtime must not be able to change its own fences (docs/runtime.md).
 */
export function dependentRefs(spec: ApplicationSpec): DependentRef[] {
  return [
    { apiVersion: 'v1', kind: 'ConfigMap', name: names.engineConfig(spec) },
    { apiVersion: 'v1', kind: 'PodTemplate', name: names.workerTemplate(spec) },
    ...spec.configMaps.filter((c) => c.owned).map((c) => ({ apiVersion: 'v1', kind: 'ConfigMap', name: c.name })),
    ...spec.secrets.filter((s) => s.owned).map((s) => ({ apiVersion: 'v1', kind: 'Secret', name: s.name })),
    // The coordinator holds no connector code, so with HA it may adopt the masters (a patch).
    ...(spec.ha ? [{ apiVersion: 'apps/v1', kind: 'StatefulSet', name: names.masters(spec) }] : []),
  ];
}

export function runtimeSettings(spec: ApplicationSpec): RuntimeSettings {
  return {
    version: RUNTIME_SETTINGS_VERSION,
    appId: spec.appId,
    namespace: spec.namespace,
    jobName: spec.name,
    jobId: spec.jobId,
    ...(spec.restoreJobId ? { restoreJobId: spec.restoreJobId } : {}),
    workerCount: spec.worker.count,
    workerSlots: spec.worker.slots,
    startupTimeoutMillis: spec.startupTimeoutMillis,
    scaleUpGraceMillis: spec.scaleUpGraceMillis,
    imagePullRetryMillis: spec.imagePullRetryMillis,
    workerTemplate: names.workerTemplate(spec),
    master: {
      port: spec.master.port,
      restPort: spec.master.restPort,
      command: zetaCommand(spec, 'master', { configDir: `${PATHS.workDir}/engine`, logDir: `${PATHS.workDir}/logs` }),
      env: zetaEnvironment(),
    },
    jobConfig:
      spec.jobConfig.kind === 'inline'
        ? { kind: 'inline', env: ENV.jobConfig }
        : { kind: 'file', path: spec.jobConfig.path },
    dependents: dependentRefs(spec),
    ...(spec.checkpointPvc ? { checkpointDir: PATHS.checkpoints } : {}),
    ...(spec.ha
      ? {
          ha: {
            masters: spec.ha.masters,
            statefulSet: names.masters(spec),
            restHost: `${names.restService(spec)}.${spec.namespace}.svc`,
            workerFailurePolicy: spec.ha.workerFailurePolicy,
            workerReplacements: spec.ha.workerReplacements,
          },
        }
      : {}),
  };
}
