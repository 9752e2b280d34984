// kubernetes.checkpoint-pvc: the caller's PVC, read-write on the master only. Never owned, so
// it outlives the application for a later restore.

import { PATHS } from '../../model/spec';
import { addMount, addVolume, masterContainer, masterPod } from '../pod';
import type { FeatureStep, PlanDraft } from '../types';

export const CHECKPOINT_VOLUME = 'checkpoints';

export const checkpointStep: FeatureStep = {
  name: 'checkpoint',
  apply(d: PlanDraft): PlanDraft {
    if (!d.spec.checkpointPvc) return d;
    addVolume(masterPod(d), {
      name: CHECKPOINT_VOLUME,
      persistentVolumeClaim: { claimName: d.spec.checkpointPvc, readOnly: false },
    });
    addMount(masterContainer(d), { name: CHECKPOINT_VOLUME, mountPath: PATHS.checkpoints });
    return d;
  },
};
