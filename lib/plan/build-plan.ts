// buildPlan: ApplicationSpec → ApplicationPlan, a fold of feature steps over an empty draft.
// Pure: no I/O, no clock, no randomness; the same spec always yields the same objects.

import { ConfigurationError } from '../model/issues';
import type { ApplicationSpec } from '../model/spec';
import { renderEngineFiles } from '../engine/files';
import { admissionFenceStep } from './steps/admission-fence';
import { basicStep } from './steps/basic';
import { checkpointStep } from './steps/checkpoint';
import { engineConfigStep } from './steps/engine-config';
import { environmentStep } from './steps/environment';
import { jobConfigStep } from './steps/job-config';
import { metricsStep } from './steps/metrics';
import { mountedFilesStep } from './steps/mounted-files';
import { networkPolicyStep } from './steps/network-policy';
import { podMonitorStep } from './steps/pod-monitor';
import { podSecurityStep } from './steps/pod-security';
import { rbacStep } from './steps/rbac';
import { runtimeStep } from './steps/runtime';
import { schedulingStep } from './steps/scheduling';
import { serviceStep } from './steps/service';
import { topologyStep } from './steps/topology';
import { zetaMasterStep } from './steps/zeta-master';
import { masterTopology } from './topology';
import type { ApplicationPlan, FeatureStep, KubeObject, PlanDraft, PlanOptions } from './types';

/** The steps in order. Each adds one feature; see its file for why it does what it does. */
export const FEATURE_STEPS: readonly FeatureStep[] = [
  basicStep,
  engineConfigStep,
  runtimeStep,
  zetaMasterStep,
  metricsStep,
  jobConfigStep,
  mountedFilesStep,
  environmentStep,
  schedulingStep,
  checkpointStep,
  serviceStep,
  rbacStep,
  networkPolicyStep,
  podMonitorStep,
  topologyStep,
  // Last: they read what every other step put in the Pods.
  podSecurityStep,
  admissionFenceStep,
];

/**
 * A draft with no objects yet, and the master topology chosen for the spec (its Pods built, not
 * yet edited); the basic step puts the Job around the topology's Job Pod and adds the worker template.
 */
export function emptyDraft(spec: ApplicationSpec, options: PlanOptions = {}): PlanDraft {
  return {
    spec,
    options: { suspend: options.suspend ?? true },
    topology: masterTopology(spec),
    job: undefined as unknown as PlanDraft['job'],
    workerTemplate: undefined as unknown as PlanDraft['workerTemplate'],
    configMaps: [],
    secrets: [],
    roles: [],
    roleBindings: [],
    networkPolicies: [],
  };
}

export function buildPlan(spec: ApplicationSpec, options: PlanOptions = {}): ApplicationPlan {
  // A supplied runtime file that contradicts application mode is a configuration error too.
  const conflicts = renderEngineFiles(spec).issues;
  if (conflicts.length) throw new ConfigurationError(conflicts);
  const d = FEATURE_STEPS.reduce((draft, step) => step.apply(draft), emptyDraft(spec, options));
  if (!d.service) throw new Error('plan: the service step did not run');
  return {
    spec,
    job: d.job,
    service: d.service,
    configMaps: d.configMaps,
    secrets: d.secrets,
    workerTemplate: d.workerTemplate,
    ...(d.serviceAccount ? { serviceAccount: d.serviceAccount } : {}),
    roles: d.roles,
    roleBindings: d.roleBindings,
    networkPolicies: d.networkPolicies,
    ...(d.podMonitor ? { podMonitor: d.podMonitor } : {}),
    ...(d.masters ? { masters: d.masters } : {}),
    ...(d.restService ? { restService: d.restService } : {}),
  };
}

/**
 * The dependents in the order they are created: the ServiceAccount and RBAC first (the master
 * needs them the moment it starts), the NetworkPolicies and the PodMonitor, then configuration,
 * the Service and the worker template.
 */
export function dependents(plan: ApplicationPlan): KubeObject[] {
  return [
    ...(plan.serviceAccount ? [plan.serviceAccount] : []),
    ...plan.roles,
    ...plan.roleBindings,
    ...plan.networkPolicies,
    ...(plan.podMonitor ? [plan.podMonitor] : []),
    ...plan.configMaps,
    ...plan.secrets,
    plan.service,
    ...(plan.restService ? [plan.restService] : []),
    plan.workerTemplate,
    // With HA the masters start before the Job is unsuspended: they join while the coordinator starts.
    ...(plan.masters ? [plan.masters] : []),
  ];
}

/** Every object, dependents before the Job, in an order that works for `kubectl apply -f`. */
export function allObjects(plan: ApplicationPlan): KubeObject[] {
  return [...dependents(plan), plan.job];
}

/** Owner reference to the application's Job, as every owned dependent carries it. */
export function jobOwnerReference(jobName: string, uid: string) {
  return { apiVersion: 'batch/v1', kind: 'Job', name: jobName, uid, controller: false, blockOwnerDeletion: false };
}

/** A copy of `obj` owned by the Job with `uid` (garbage-collected with it). */
export function withJobOwner<T extends KubeObject>(obj: T, jobName: string, uid: string): T {
  return {
    ...obj,
    metadata: {
      ...obj.metadata,
      ownerReferences: [...(obj.metadata.ownerReferences ?? []), jobOwnerReference(jobName, uid)],
    },
  };
}
