// runtime.json as the plan writes it; its shape and the runtime's check of it are the contract
// (lib/contract/runtime-settings.ts).

import {
  HA_TIMINGS,
  LOCAL_ENGINE_UNREACHABLE_MILLIS,
  RUNTIME_SETTINGS_VERSION,
  type DependentRef,
  type RuntimeSettings,
} from '../contract';
import { zetaCommand, zetaEnvironment } from '../engine/command';
import { haMasterAddresses } from '../engine/files';
import { PATHS, type ApplicationSpec } from '../model/spec';
import { names } from './pod';
import { jobConfigPath } from './steps/job-config';

/**
 * The data objects the runtime adopts on the `kubectl apply` path. Never the Role, RoleBinding,
 * NetworkPolicies, ServiceAccount or Service, nor the worker template or (with HA) the masters'
 * StatefulSet: adopting means patching, and the runtime must not be able to change its own fences
 * — the template is the admission fence's parameter (an owner reference to nothing would have the
 * garbage collector delete it), and a StatefulSet's Pod template makes Pods the fence never sees
 * (docs/runtime.md, docs/security.md).
 */
export function dependentRefs(spec: ApplicationSpec): DependentRef[] {
  return [
    { apiVersion: 'v1', kind: 'ConfigMap', name: names.engineConfig(spec) },
    ...spec.configMaps.filter((c) => c.owned).map((c) => ({ apiVersion: 'v1', kind: 'ConfigMap', name: c.name })),
    ...spec.secrets.filter((s) => s.owned).map((s) => ({ apiVersion: 'v1', kind: 'Secret', name: s.name })),
    ...(spec.jobConfig.kind === 'inline' ? [{ apiVersion: 'v1', kind: 'Secret', name: names.jobConfig(spec) }] : []),
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
    workerJoinTimeoutMillis: spec.workerJoinTimeoutMillis,
    apiOutageToleranceMillis: spec.apiOutageToleranceMillis,
    engineUnreachableMillis: spec.ha ? HA_TIMINGS.engineUnreachableMillis : LOCAL_ENGINE_UNREACHABLE_MILLIS,
    workerTemplate: names.workerTemplate(spec),
    master: {
      port: spec.master.port,
      restPort: spec.master.restPort,
      command: zetaCommand(spec, 'master', { configDir: `${PATHS.workDir}/engine`, logDir: `${PATHS.workDir}/logs` }),
      env: zetaEnvironment(),
    },
    // Always a file: inline text travels in the owned Secret <appId>.job-config (steps/job-config.ts).
    jobConfig: { kind: 'file', path: jobConfigPath({ spec }) },
    dependents: dependentRefs(spec),
    ...(spec.checkpointPvc ? { checkpointDir: PATHS.checkpoints } : {}),
    ...(spec.metrics ? { metrics: { port: spec.metrics.port, workerPort: spec.worker.port } } : {}),
    ...(spec.ha
      ? {
          ha: {
            masters: spec.ha.masters,
            statefulSet: names.masters(spec),
            restHost: `${names.restService(spec)}.${spec.namespace}.svc`,
            masterAddresses: haMasterAddresses(spec, spec.ha.masters),
            workerFailurePolicy: spec.ha.workerFailurePolicy,
            workerReplacements: spec.ha.workerReplacements,
            coordinatorRestarts: spec.ha.coordinatorRestarts,
          },
        }
      : {}),
  };
}
