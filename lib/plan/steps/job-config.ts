// The job config reaches the runtime verbatim (it submits the job; a Zeta master never reads it):
// inline in its environment (unresolved ${VAR} kept, resolved in the Pod), or as a mounted file
// chosen by kubernetes.job-config-file. Inline, it is escaped for the kubelet, which would
// otherwise expand `$(VAR)` and `$$` in it.

import { ENV } from '../../model/reserved';
import { addEnv, kubeletLiteral, runtimeContainer } from '../pod';
import type { FeatureStep, PlanDraft } from '../types';

export const jobConfigStep: FeatureStep = {
  name: 'job-config',
  apply(d: PlanDraft): PlanDraft {
    const job = d.spec.jobConfig;
    addEnv(
      runtimeContainer(d),
      job.kind === 'inline'
        ? { name: ENV.jobConfig, value: kubeletLiteral(job.text) }
        : { name: ENV.jobConfigFile, value: job.path },
    );
    return d;
  },
};
