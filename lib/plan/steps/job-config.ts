// The job config reaches the master verbatim: inline in its environment (unresolved ${VAR}
// kept, resolved in the Pod), or as a mounted file chosen by kubernetes.job-config-file.

import { ENV } from '../../model/reserved';
import { addEnv, masterContainer } from '../pod';
import type { FeatureStep, PlanDraft } from '../types';

export const jobConfigStep: FeatureStep = {
  name: 'job-config',
  apply(d: PlanDraft): PlanDraft {
    const job = d.spec.jobConfig;
    addEnv(masterContainer(d), job.kind === 'inline'
      ? { name: ENV.jobConfig, value: job.text }
      : { name: ENV.jobConfigFile, value: job.path });
    return d;
  },
};
