// The skeleton every other step builds on: the master Job (one Pod, no retries, TTL, the exit
// code contract) and the worker PodTemplate, each with the main container, resources and labels.

import type { Container, PodSpec } from 'kubernetes-types/core/v1';
import { cpuQuantity } from '../../model/k8s-syntax';
import { TERMINAL_EXIT_CODES, TERMINATION_GRACE_SECONDS } from '../../model/reserved';
import { ANNOTATIONS } from '../../contract';
import type { ApplicationSpec, RoleSpec } from '../../model/spec';
import { applicationLabels, CONTAINER_NAME, names, objectMeta } from '../pod';
import type { FeatureStep, PlanDraft } from '../types';

function resources(role: RoleSpec) {
  const amounts = { cpu: cpuQuantity(role.cpuMillicores), memory: `${role.memoryMiB}Mi` };
  // Requests equal limits: the Pods get the Guaranteed QoS class and quota sees the real footprint.
  return { requests: { ...amounts }, limits: { ...amounts } };
}

function container(spec: ApplicationSpec, role: RoleSpec): Container {
  return {
    name: CONTAINER_NAME,
    image: spec.image,
    imagePullPolicy: spec.imagePullPolicy,
    workingDir: spec.seatunnelHome,
    resources: resources(role),
    securityContext: { allowPrivilegeEscalation: false },
  };
}

function podSpec(spec: ApplicationSpec, role: 'master' | 'worker'): PodSpec {
  return {
    restartPolicy: 'Never',
    terminationGracePeriodSeconds: TERMINATION_GRACE_SECONDS,
    serviceAccountName: spec.serviceAccount,
    // Only the master talks to the API server; workers get no token.
    automountServiceAccountToken: role === 'master',
    enableServiceLinks: false,
    ...(spec.imagePullSecrets.length ? { imagePullSecrets: spec.imagePullSecrets.map((name) => ({ name })) } : {}),
    containers: [container(spec, role === 'master' ? spec.master : spec.worker)],
  };
}

export const basicStep: FeatureStep = {
  name: 'basic',
  apply(d: PlanDraft): PlanDraft {
    const spec = d.spec;
    d.job = {
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: {
        ...objectMeta(spec, names.job(spec), 'master', 'master'),
        annotations: {
          ...spec.annotations,
          [ANNOTATIONS.workerTemplate]: names.workerTemplate(spec),
          [ANNOTATIONS.applicationName]: spec.name,
        },
      },
      spec: {
        suspend: d.options.suspend,
        backoffLimit: 0,
        completions: 1,
        parallelism: 1,
        ttlSecondsAfterFinished: spec.finishedJobRetentionSeconds,
        // The runtime's exit codes (see EXIT_CODES) end the Job at once; Job retries are never used
        // as implicit HA. Servers older than 1.26 drop this field: equivalent with backoffLimit 0, except
        // that the Job records no exit code then (submit warns: lib/submit/admit/server-support.ts).
        podFailurePolicy: {
          rules: [
            {
              action: 'FailJob',
              onExitCodes: { containerName: CONTAINER_NAME, operator: 'In', values: [...TERMINAL_EXIT_CODES] },
            },
            { action: 'Count', onPodConditions: [{ type: 'DisruptionTarget', status: 'True' }] },
          ],
        },
        template: {
          metadata: {
            labels: { ...applicationLabels(spec, 'master', 'master'), ...spec.master.labels },
            ...(Object.keys(spec.master.annotations).length ? { annotations: { ...spec.master.annotations } } : {}),
          },
          spec: podSpec(spec, 'master'),
        },
      },
    };
    d.workerTemplate = {
      apiVersion: 'v1',
      kind: 'PodTemplate',
      metadata: objectMeta(spec, names.workerTemplate(spec), 'worker', 'worker-template'),
      template: {
        metadata: {
          labels: { ...applicationLabels(spec, 'worker', 'worker'), ...spec.worker.labels },
          ...(Object.keys(spec.worker.annotations).length ? { annotations: { ...spec.worker.annotations } } : {}),
        },
        spec: podSpec(spec, 'worker'),
      },
    };
    return d;
  },
};
