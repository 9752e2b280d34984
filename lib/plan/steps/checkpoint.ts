// kubernetes.checkpoint-pvc: the caller's PVC, read-write on the master role only: the Zeta
// masters write the checkpoints, and the runtime looks for the one a restore needs before it
// submits (runtime/src/engine/checkpoints.ts). Never owned, so it outlives the application for a
// later restore.

import { PATHS } from '../../model/spec';
import { addMount, addVolume, mainContainer, masterRolePods } from '../pod';
import type { FeatureStep, PlanDraft } from '../types';

export const CHECKPOINT_VOLUME = 'checkpoints';

export const checkpointStep: FeatureStep = {
  name: 'checkpoint',
  apply(d: PlanDraft): PlanDraft {
    const claimName = d.spec.checkpointPvc;
    if (!claimName) return d;
    for (const pod of masterRolePods(d)) {
      addVolume(pod, { name: CHECKPOINT_VOLUME, persistentVolumeClaim: { claimName, readOnly: false } });
      addMount(mainContainer(pod), { name: CHECKPOINT_VOLUME, mountPath: PATHS.checkpoints });
    }
    return d;
  },
};
