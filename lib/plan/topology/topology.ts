// Where the application's Zeta masters run, chosen once from the spec (./index.ts):
//   * one local master: the Job's Pod runs Zeta's master under the runtime (docs/runtime.md);
//   * HA masters: a StatefulSet of Zeta masters, and the Job's Pod as the coordinator, which runs
//     the runtime and no Zeta member (docs/ha.md).
// Each topology builds its Pods whole. The feature steps then say which kind of Pod each of their
// edits is for, through the selectors of ../pod.ts (zetaMasterPods, runtimePod, masterRolePods,
// workerPod); with one local master the Zeta master's Pod and the runtime's are one object, and
// the selectors hand it out once, so no edit lands twice and none is copied or taken back later.

import type { PodFailurePolicy } from 'kubernetes-types/batch/v1';
import type { Container, PodSpec, PodTemplateSpec } from 'kubernetes-types/core/v1';
import { TERMINAL_EXIT_CODES } from '../../model/reserved';
import { CONTAINER_NAME } from '../pod';
import type { PlanDraft } from '../types';

export interface MasterTopology {
  /** The Job's Pod: it runs the runtime, and with one local master Zeta's master too. */
  readonly jobPod: PodTemplateSpec & { spec: PodSpec };
  /** The Pods that run a Zeta master member: the Job's Pod, or the HA masters' Pod template. */
  readonly zetaMasterPods: readonly PodSpec[];
  /** How the Job answers its Pod's failures. */
  readonly jobRetries: { readonly backoffLimit: number; readonly podFailurePolicy: PodFailurePolicy };
  /**
   * How long after its container starts a Zeta master's JVM starts at the latest: the startup
   * probe's window is this plus application.startup-timeout-millis, so the kubelet never kills a
   * master the runtime is still waiting for (the runtime's own EngineStartTimeout comes first).
   */
  readonly zetaMasterStartDelayMs: number;
  /** A Zeta master's readiness and liveness: who acts on them differs between the topologies. */
  readonly zetaMasterHealth: Required<Pick<Container, 'readinessProbe' | 'livenessProbe'>>;
  /** Adds what only this topology has, once the other steps have edited its Pods (the topology step). */
  complete(d: PlanDraft): void;
}

/**
 * The runtime's terminal exit codes end the Job at once. A Pod disrupted by Kubernetes (eviction,
 * preemption, drain) is `counted` against backoffLimit or `ignored`. Servers older than 1.26 drop
 * the field: equivalent with backoffLimit 0, except that the Job records no exit code then (submit
 * warns: lib/submit/admit/server-support.ts).
 */
export function jobPodFailurePolicy(onDisruption: 'Count' | 'Ignore'): PodFailurePolicy {
  return {
    rules: [
      {
        action: 'FailJob',
        onExitCodes: { containerName: CONTAINER_NAME, operator: 'In', values: [...TERMINAL_EXIT_CODES] },
      },
      { action: onDisruption, onPodConditions: [{ type: 'DisruptionTarget', status: 'True' }] },
    ],
  };
}
