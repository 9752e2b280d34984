// The job config reaches the runtime verbatim (it submits the job; a Zeta master never reads it),
// as a file on the runtime's container only: inline text goes into a Secret the application owns
// (`<appId>.job-config`, key job.conf), mounted read-only; or the file kubernetes.job-config-file
// names, mounted by the user's own entry. Not in the environment: a Pod's environment is part of its
// spec, readable by anyone with `view` and by every runtime of the namespace, and a literal
// password in the job config would be too (docs/security.md). A Secret's data is not expanded by
// the kubelet, so the text needs no escaping. ${VAR} placeholders are resolved in the Pod.

import { ENV } from '../../model/reserved';
import { PATHS } from '../../model/spec';
import { addEnv, addMount, addVolume, names, objectMeta, runtimeContainer, runtimePod } from '../pod';
import type { FeatureStep, PlanDraft } from '../types';

/** The job config file inside the job config Secret's volume. */
export const JOB_CONFIG_KEY = 'job.conf';
const JOB_CONFIG_VOLUME = 'seatunnel-job-config';

/** Where the runtime reads the job config. */
export function jobConfigPath(d: Pick<PlanDraft, 'spec'>): string {
  const job = d.spec.jobConfig;
  return job.kind === 'inline' ? `${PATHS.jobConfig}/${JOB_CONFIG_KEY}` : job.path;
}

export const jobConfigStep: FeatureStep = {
  name: 'job-config',
  apply(d: PlanDraft): PlanDraft {
    const spec = d.spec;
    const job = spec.jobConfig;
    if (job.kind === 'inline') {
      d.secrets.push({
        apiVersion: 'v1',
        kind: 'Secret',
        type: 'Opaque',
        metadata: objectMeta(spec, names.jobConfig(spec), 'configuration', 'job-config'),
        stringData: { [JOB_CONFIG_KEY]: job.text },
      });
      // Readable by whatever user the runtime's container runs as; no other container mounts it.
      addVolume(runtimePod(d), {
        name: JOB_CONFIG_VOLUME,
        secret: { secretName: names.jobConfig(spec), defaultMode: 0o444 },
      });
      addMount(runtimeContainer(d), { name: JOB_CONFIG_VOLUME, mountPath: PATHS.jobConfig, readOnly: true });
    }
    addEnv(runtimeContainer(d), { name: ENV.jobConfigFile, value: jobConfigPath(d) });
    return d;
  },
};
