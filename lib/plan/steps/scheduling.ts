// Per-role placement: node selectors and tolerations, the node-loss tolerations, and the workers'
// spread (lib/plan/spread.ts). The master role's placement holds for every Pod of that role: the
// Zeta masters and the runtime's Pod (with HA, the coordinator too). The masters' spread applies to
// the HA masters only (lib/plan/topology/high-availability.ts): a lone master has no other master
// to keep apart from, and the coordinator must not be counted with them.

import type { PodSpec } from 'kubernetes-types/core/v1';
import { masterRolePods, workerPod } from '../pod';
import { spreadPod } from '../spread';
import type { FeatureStep, PlanDraft } from '../types';

/** The taints the node controller puts on a node that stopped answering or is not ready. */
export const NODE_LOSS_TAINTS = ['node.kubernetes.io/unreachable', 'node.kubernetes.io/not-ready'] as const;

/**
 * How long the Pod stays bound to a lost node (kubernetes.node-loss-toleration-seconds) instead of
 * Kubernetes' 300 s, unless the user's own tolerations say something about that taint.
 */
function tolerateNodeLoss(pod: PodSpec, seconds: number): void {
  const own = new Set((pod.tolerations ?? []).map((t) => t.key));
  const added = NODE_LOSS_TAINTS.filter((key) => !own.has(key)).map((key) => ({
    key,
    operator: 'Exists',
    effect: 'NoExecute',
    tolerationSeconds: seconds,
  }));
  if (added.length) pod.tolerations = [...(pod.tolerations ?? []), ...added];
}

export const schedulingStep: FeatureStep = {
  name: 'scheduling',
  apply(d: PlanDraft): PlanDraft {
    for (const [pods, role] of [
      [masterRolePods(d), d.spec.master],
      [[workerPod(d)], d.spec.worker],
    ] as const) {
      for (const pod of pods) {
        if (Object.keys(role.nodeSelector).length) pod.nodeSelector = { ...pod.nodeSelector, ...role.nodeSelector };
        if (role.tolerations.length)
          pod.tolerations = [...(pod.tolerations ?? []), ...role.tolerations.map((t) => ({ ...t }))];
        tolerateNodeLoss(pod, d.spec.nodeLossTolerationSeconds);
      }
    }
    spreadPod(workerPod(d), d.spec, 'worker');
    return d;
  },
};
