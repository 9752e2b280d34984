// Per-role placement: node selectors and tolerations; the workers' spread (lib/plan/spread.ts).
// The masters' spread applies to the HA masters only (high-availability.ts): a lone master has no
// other master to keep apart from, and the coordinator, which inherits the master Pod, must not.

import { masterPod, workerPod } from '../pod';
import { spreadPod } from '../spread';
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
    spreadPod(workerPod(d), d.spec, 'worker');
    return d;
  },
};
