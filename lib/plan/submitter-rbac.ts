// The Role a platform team grants to whoever submits applications with the CLI (or a CI
// identity). It covers submit, status, cancel and preflight, and — because Kubernetes only lets
// a subject grant permissions it holds itself — every permission of the runtime's Role.

import type { PolicyRule, Role } from 'kubernetes-types/rbac/v1';
import { LABELS, MANAGED_BY } from '../model/reserved';

export const SUBMITTER_ROLE_NAME = 'seatunnel-application-submitter';

export function submitterRules(): PolicyRule[] {
  return [
    { apiGroups: ['batch'], resources: ['jobs'], verbs: ['create', 'get', 'list', 'watch', 'patch', 'delete'] },
    { apiGroups: [''], resources: ['pods'], verbs: ['create', 'get', 'list', 'watch', 'delete', 'deletecollection'] },
    { apiGroups: [''], resources: ['services', 'configmaps', 'secrets', 'podtemplates'], verbs: ['create', 'get', 'list', 'patch', 'delete'] },
    { apiGroups: ['rbac.authorization.k8s.io'], resources: ['roles', 'rolebindings'], verbs: ['create', 'get', 'list', 'patch', 'delete'] },
    { apiGroups: ['networking.k8s.io'], resources: ['networkpolicies'], verbs: ['create', 'get', 'list', 'patch', 'delete'] },
    { apiGroups: [''], resources: ['events'], verbs: ['create', 'get', 'list', 'watch'] },
    // Preflight: referenced objects must exist; quota and limit ranges must admit the whole footprint.
    { apiGroups: [''], resources: ['serviceaccounts', 'persistentvolumeclaims', 'resourcequotas', 'limitranges'], verbs: ['get', 'list'] },
  ];
}

export function submitterRole(namespace: string, name = SUBMITTER_ROLE_NAME): Role & { apiVersion: string; kind: string } {
  return {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'Role',
    metadata: { name, namespace, labels: { [LABELS.managedBy]: MANAGED_BY, [LABELS.name]: 'seatunnel' } },
    rules: submitterRules(),
  };
}
