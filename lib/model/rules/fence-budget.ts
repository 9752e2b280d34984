// What the admission fence's floor (lib/plan/fence-cel.ts) can check of a worker. Kubernetes prices
// an authorization check so that one CEL expression makes at most two, and one binding's
// expressions together about 28 (k8s.io/apiserver pkg/cel/library/cost.go: 350000 each; per call
// 1000000, per binding 10000000). The floor checks each Secret and ConfigMap a worker's
// environment and image pull Secrets name in its own expression, in a fixed number of slots; a
// worker that names more would be refused on a fenced cluster, so it is refused here, before any
// API call, with the options to change.

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

export function checkFenceBudget(r: PropReader, spec: ApplicationSpec): void {
  if (!spec.admissionFence) return;
  const why = `with ${r.key('admissionFence')} on, the admission fence checks each against the runtime's Role, and Kubernetes bounds the checks one policy makes`;
  const n = workerEnvironmentReferences(spec);
  if (n > FENCE_REFERENCE_SLOTS.perContainer)
    r.failWithoutOption(
      r.key('workerEnv'),
      `a worker's environment may name at most ${FENCE_REFERENCE_SLOTS.perContainer} Secrets or ConfigMaps (${r.key('env')} / ${r.key('envFrom')} sources and their worker forms); it names ${n}: ${why}. Put what only the master needs in ${r.key('masterEnv')} / ${r.key('masterEnvFrom')}, or gather values into one Secret read with env-from`,
    );
  if (spec.imagePullSecrets.length > FENCE_REFERENCE_SLOTS.pullSecrets)
    r.fail(
      'imagePullSecrets',
      spec.imagePullSecrets,
      `at most ${FENCE_REFERENCE_SLOTS.pullSecrets} image pull Secrets: ${why}`,
    );
}
