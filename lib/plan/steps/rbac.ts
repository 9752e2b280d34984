// Least privilege, generated: the application's own ServiceAccount (unless the user names one),
// and a Role that allows exactly the calls the runtime makes. Rights on named objects are limited
// by resourceNames, so a token of one application cannot change another application's objects.
// Only what Kubernetes cannot limit by name is collection-wide: creating Pods (the name is not
// part of a create's authorization), reading and watching Pods, and creating Events.
//
// The runtime's token lives in the container that runs the Zeta JVM and connector code, so the
// Role holds no right over its own fences: nothing on Roles, RoleBindings, NetworkPolicies,
// ServiceAccounts or the Service (see docs/runtime.md, "The kubectl apply path").

import type { PolicyRule, Role, RoleBinding } from 'kubernetes-types/rbac/v1';
import type { ServiceAccount } from 'kubernetes-types/core/v1';
import { RESOURCES } from '../../kube/resources';
import { haMasterPodName } from '../../model/ids';
import type { ApplicationSpec } from '../../model/spec';
import { names, objectMeta } from '../pod';
import { dependentRefs } from '../runtime-settings';
import type { FeatureStep, KubeObject, PlanDraft } from '../types';

/** The names of the application's worker Pods: the only Pods the runtime may delete. */
export function workerNames(spec: ApplicationSpec): string[] {
  return Array.from({ length: spec.worker.count }, (_, i) => names.worker(spec.appId, i + 1));
}

/**
 * With HA, the masters' Pods (the StatefulSet's, by ordinal): the coordinator restarts an active
 * master that answers the job without running it (runtime/src/steps/zeta-job.ts); the StatefulSet
 * creates it again under the same name.
 */
export function haMasterPodNames(spec: ApplicationSpec): string[] {
  return spec.ha ? Array.from({ length: spec.ha.masters }, (_, i) => haMasterPodName(spec.appId, i)) : [];
}

/** The runtime's rules: workers, its own Job's status annotations, Events, and adoption of its dependents. */
export function runtimeRules(spec: ApplicationSpec): PolicyRule[] {
  const rules: PolicyRule[] = [
    // Worker Pods are created from the template and watched; `get` also reads the master's own
    // Pod, whose name the Job controller chooses.
    { apiGroups: [''], resources: ['pods'], verbs: ['create', 'get', 'list', 'watch'] },
    // Deleting is limited to the worker names and, with HA, the masters' (no deletecollection: a
    // selector cannot be limited).
    {
      apiGroups: [''],
      resources: ['pods'],
      resourceNames: [...workerNames(spec), ...haMasterPodNames(spec)],
      verbs: ['delete'],
    },
    // Each worker's last lines, read before it is deleted and kept in the runtime's own log.
    { apiGroups: [''], resources: ['pods/log'], resourceNames: workerNames(spec), verbs: ['get'] },
    // Its own Job: the UID for owner references, the status annotations `status` reads, and a
    // watch (by metadata.name) for `cancel`: its deletion and the cancel-requested annotation.
    { apiGroups: ['batch'], resources: ['jobs'], resourceNames: [names.job(spec)], verbs: ['get', 'watch', 'patch'] },
    // The story on the Job: WorkersCreating, AllWorkersRegistered, JobSubmitted, WorkerLost, …
    // `list`: what a cluster autoscaler said about an Unschedulable worker (TriggeredScaleUp,
    // NotTriggerScaleUp), read with a field selector on the worker Pod's name and uid. RBAC cannot
    // narrow that: resourceNames match the Event's own (generated) name, and a selector is not part
    // of an RBAC rule, so `list` reads every Event in the namespace — which `kubectl describe` users
    // of the namespace see anyway. No `get` or `watch`: the runtime polls, only while a worker waits.
    { apiGroups: [''], resources: ['events'], verbs: ['create', 'list'] },
  ];
  // The worker template: read only. It is the admission fence's parameter, which the runtime must
  // not be able to change or have deleted (docs/security.md, "Admission fencing").
  rules.push({
    apiGroups: [''],
    resources: ['podtemplates'],
    resourceNames: [names.workerTemplate(spec)],
    verbs: ['get'],
  });
  // Adopting the data objects applied without an owner (kubectl apply).
  const byResource = new Map<string, { group: string; names: string[] }>();
  for (const ref of dependentRefs(spec)) {
    const { group, resource } = RESOURCES[ref.kind];
    const entry = byResource.get(resource) ?? { group, names: [] };
    entry.names.push(ref.name);
    byResource.set(resource, entry);
  }
  for (const [resource, { group, names: resourceNames }] of byResource) {
    rules.push({ apiGroups: [group], resources: [resource], resourceNames, verbs: ['get', 'patch'] });
  }
  // With HA: the coordinator reads how many masters are ready and removes them at the end. No
  // `patch`: a changed Pod template would have the StatefulSet controller create any Pod.
  if (spec.ha)
    rules.push({
      apiGroups: ['apps'],
      resources: ['statefulsets'],
      resourceNames: [names.masters(spec)],
      verbs: ['get', 'delete'],
    });
  return rules;
}

export const rbacStep: FeatureStep = {
  name: 'rbac',
  apply(d: PlanDraft): PlanDraft {
    const spec = d.spec;
    if (spec.serviceAccountGenerated) {
      const account: ServiceAccount & KubeObject = {
        apiVersion: 'v1',
        kind: 'ServiceAccount',
        metadata: objectMeta(spec, spec.serviceAccount, 'configuration', 'service-account'),
        // No token unless a Pod asks for one: the master does (its Pod spec says so), workers do not.
        automountServiceAccountToken: false,
      };
      d.serviceAccount = account;
    }
    if (!spec.rbacCreate) return d;
    const role: Role & KubeObject = {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'Role',
      metadata: objectMeta(spec, names.role(spec), 'configuration', 'rbac'),
      rules: runtimeRules(spec),
    };
    const binding: RoleBinding & KubeObject = {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: objectMeta(spec, names.role(spec), 'configuration', 'rbac'),
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: names.role(spec) },
      subjects: [{ kind: 'ServiceAccount', name: spec.serviceAccount, namespace: spec.namespace }],
    };
    d.roles.push(role);
    d.roleBindings.push(binding);
    return d;
  },
};
