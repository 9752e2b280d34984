// Per-role placement: node selectors and tolerations. The master role's placement holds for every
// Pod of that role: the Zeta masters and the runtime's Pod (with HA, the coordinator too).

import { masterRolePods, workerPod } from '../pod';
import type { FeatureStep, PlanDraft } from '../types';

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
      }
    }
    return d;
  },
};
