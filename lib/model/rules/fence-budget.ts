// What the admission fence's floor (lib/plan/fence-cel.ts) can check of a worker. Kubernetes prices
// an authorization check so that one CEL expression makes at most two, and one binding's
// expressions together about 28 (k8s.io/apiserver pkg/cel/library/cost.go: 350000 each; per call
// 1000000, per binding 10000000). The floor checks each Secret and ConfigMap a worker's
// environment, image pull Secrets and volumes name in its own expression, in a fixed number of
// slots; a worker that names more would be refused on a fenced cluster, so it is refused here,
// before any API call, with the options to change.

import { roleEnvironment } from '../role-environment';
import type { ApplicationSpec } from '../spec';
import type { PropReader } from './reader';

/**
 * The floor's slots: references in the environment of a worker's one main container (its
 * engine-files init container may name none), image pull Secrets, volumes. All filled: 26 checks,
 * with 1 for the application 27 of the 28 a binding affords.
 */
export const FENCE_REFERENCE_SLOTS = { containers: 1, perContainer: 10, pullSecrets: 4, volumes: 12 } as const;

/** How many Secrets and ConfigMaps a worker's environment names (each env source and env-from entry once). */
export function workerEnvironmentReferences(spec: ApplicationSpec): number {
  const { env, envFrom } = roleEnvironment(spec, 'worker');
  return env.filter((e) => !('value' in e)).length + envFrom.length;
}

/**
 * The volumes of every worker besides the user's mounted entries (lib/plan/steps/engine-config.ts):
 * the engine files and the logs, and with kubernetes.config-map its mount and the completed files,
 * plus (init-container mode) the runtime the engine-files step runs.
 */
export function workerBaseVolumes(spec: ApplicationSpec): number {
  if (!spec.runtimeConfigMap) return 2;
  return spec.runtime.mode === 'init-container' ? 5 : 4;
}

/** The kubernetes.configmap / kubernetes.secret entries that mount a file on the workers: one volume each. */
export function workerMountedEntries(spec: ApplicationSpec): number {
  return [...spec.configMaps, ...spec.secrets].filter((o) => o.mounts.length > 0 && o.roles.includes('worker')).length;
}

export function checkFenceBudget(r: PropReader, spec: ApplicationSpec): void {
  if (!spec.admissionFence) return;
  const why = `with ${r.key('admissionFence')} on, the admission fence checks each against the runtime's Role, and Kubernetes bounds the checks one policy makes`;
  const n = workerEnvironmentReferences(spec);
  if (n > FENCE_REFERENCE_SLOTS.perContainer)
    r.failWithoutOption(
      r.key('workerEnv'),
      `a worker's environment may name at most ${FENCE_REFERENCE_SLOTS.perContainer} Secrets or ConfigMaps (${r.key('env')} / ${r.key('envFrom')} sources and their worker forms); it names ${n}: ${why}. Put what only the master needs in ${r.key('masterEnv')} / ${r.key('masterEnvFrom')}, or gather values into one Secret read with env-from`,
    );
  const entries = workerMountedEntries(spec);
  const allowed = FENCE_REFERENCE_SLOTS.volumes - workerBaseVolumes(spec);
  if (entries > allowed)
    r.failWithoutOption(
      `${r.key('configMaps')} / ${r.key('secrets')}`,
      `at most ${allowed} entries may mount files on the workers (a worker has ${FENCE_REFERENCE_SLOTS.volumes} volumes at most, ${workerBaseVolumes(spec)} of them the engine's); ${entries} do: ${why}. Mount on the master only what the workers do not read (roles), or gather files into fewer entries`,
    );
  if (spec.imagePullSecrets.length > FENCE_REFERENCE_SLOTS.pullSecrets)
    r.fail(
      'imagePullSecrets',
      spec.imagePullSecrets,
      `at most ${FENCE_REFERENCE_SLOTS.pullSecrets} image pull Secrets: ${why}`,
    );
}
