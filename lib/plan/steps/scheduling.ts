// Per-role placement: node selectors and tolerations.

import { masterPod, workerPod } from '../pod';
import type { FeatureStep, PlanDraft } from '../types';

export const schedulingStep: FeatureStep = {
  name: 'scheduling',
  apply(d: PlanDraft): PlanDraft {
    for (const [pod, role] of [
      [masterPod(d), d.spec.master],
      [workerPod(d), d.spec.worker],
    ] as const) {
      if (Object.keys(role.nodeSelector).length) pod.nodeSelector = { ...pod.nodeSelector, ...role.nodeSelector };
      if (role.tolerations.length)
        pod.tolerations = [...(pod.tolerations ?? []), ...role.tolerations.map((t) => ({ ...t }))];
    }
    return d;
  },
};
