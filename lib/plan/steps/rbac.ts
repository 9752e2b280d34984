// Least privilege, generated: the Role of the master's ServiceAccount allows exactly the calls
// the runtime makes. Rights on named objects are limited by resourceNames; only the worker Pods
// (whose names the runtime chooses at run time) and Events need collection-wide verbs.

import type { PolicyRule, Role, RoleBinding } from 'kubernetes-types/rbac/v1';
import type { ApplicationSpec } from '../../model/spec';
import { names, objectMeta } from '../pod';
import { dependentRefs } from '../runtime-settings';
import type { FeatureStep, KubeObject, PlanDraft } from '../types';

const GROUP: Record<string, string> = {
  v1: '', 'batch/v1': 'batch', 'rbac.authorization.k8s.io/v1': 'rbac.authorization.k8s.io', 'networking.k8s.io/v1': 'networking.k8s.io',
};
const RESOURCE: Record<string, string> = {
  Service: 'services', ConfigMap: 'configmaps', Secret: 'secrets', PodTemplate: 'podtemplates',
  Role: 'roles', RoleBinding: 'rolebindings', NetworkPolicy: 'networkpolicies',
};

/** The runtime's rules: workers, its own Job's status annotations, Events, and adoption of its dependents. */
export function runtimeRules(spec: ApplicationSpec): PolicyRule[] {
  const rules: PolicyRule[] = [
    // Worker Pods: created from the template, watched, deleted one by one and by label as a safety net.
    // `get` also reads the master's own Pod (owner of the workers).
    { apiGroups: [''], resources: ['pods'], verbs: ['create', 'get', 'list', 'watch', 'delete', 'deletecollection'] },
    // Its own Job: the UID for owner references, the status annotations `status` reads, and a
    // watch (by metadata.name) for `cancel`: its deletion and the cancel-requested annotation.
    { apiGroups: ['batch'], resources: ['jobs'], resourceNames: [names.job(spec)], verbs: ['get', 'watch', 'patch'] },
    // The story on the Job: WorkersCreating, AllWorkersRegistered, JobSubmitted, WorkerLost, …
    { apiGroups: [''], resources: ['events'], verbs: ['create'] },
  ];
  // Reading the worker template, and adopting dependents applied without an owner (kubectl apply).
  const byResource = new Map<string, { group: string; names: string[] }>();
  for (const ref of dependentRefs(spec)) {
    const resource = RESOURCE[ref.kind];
    const entry = byResource.get(resource) ?? { group: GROUP[ref.apiVersion], names: [] };
    entry.names.push(ref.name);
    byResource.set(resource, entry);
  }
  for (const [resource, { group, names: resourceNames }] of byResource) {
    rules.push({ apiGroups: [group], resources: [resource], resourceNames, verbs: ['get', 'patch'] });
  }
  return rules;
}

export const rbacStep: FeatureStep = {
  name: 'rbac',
  apply(d: PlanDraft): PlanDraft {
    const spec = d.spec;
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
