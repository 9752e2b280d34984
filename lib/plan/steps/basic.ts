// The skeleton every other step builds on: the Job (one Pod at a time, the TTL, the exit code
// contract) around the master topology's Job Pod, and the worker PodTemplate.

import { ANNOTATIONS } from '../../contract';
import { names, objectMeta } from '../pod';
import { podMetadata, podSkeleton, roleSize } from '../pod-skeleton';
import type { FeatureStep, PlanDraft } from '../types';

export const basicStep: FeatureStep = {
  name: 'basic',
  apply(d: PlanDraft): PlanDraft {
    const spec = d.spec;
    const { jobPod, jobRetries } = d.topology;
    d.job = {
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: {
        ...objectMeta(spec, names.job(spec), 'master', 'master'),
        annotations: {
          ...spec.annotations,
          [ANNOTATIONS.workerTemplate]: names.workerTemplate(spec),
          [ANNOTATIONS.applicationName]: spec.name,
          [ANNOTATIONS.imagePullRetryMillis]: String(spec.imagePullRetryMillis),
        },
      },
      spec: {
        suspend: d.options.suspend,
        backoffLimit: jobRetries.backoffLimit,
        completions: 1,
        parallelism: 1,
        ttlSecondsAfterFinished: spec.finishedJobRetentionSeconds,
        podFailurePolicy: jobRetries.podFailurePolicy,
        template: jobPod,
      },
    };
    d.workerTemplate = {
      apiVersion: 'v1',
      kind: 'PodTemplate',
      metadata: objectMeta(spec, names.workerTemplate(spec), 'worker', 'worker-template'),
      template: {
        metadata: podMetadata(spec, 'worker', spec.worker),
        // Workers never call the API server: no token.
        spec: podSkeleton(spec, { size: roleSize(spec.worker), restartPolicy: 'Never', apiToken: false }),
      },
    };
    return d;
  },
};
