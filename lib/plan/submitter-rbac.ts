// The Role a platform team grants to whoever submits applications with the CLI (or a CI
// identity). It covers submit (with its rollback), status, logs, cancel and preflight — nothing else.
//
// What it amounts to, honestly: Kubernetes lets a subject create a Role only with permissions it
// holds itself (RBAC's escalation check), so the submitter holds every permission of the runtime
// Role it creates, including creating Pods. Whoever can create a Pod in a namespace can run it as
// any ServiceAccount of that namespace and mount any Secret there; and reading referenced Secrets
// (to check their keys) needs `get` on Secrets by any name. So the submitter Role is, in effect,
// "run anything in this namespace": grant it in a namespace dedicated to SeaTunnel applications.
// What it does not have: `list`/`watch` on Secrets (which would read every Secret at once),
// `patch` on RBAC objects, NetworkPolicies or Services, `bind`/`escalate`, anything cluster-wide.

import type { PolicyRule, Role } from 'kubernetes-types/rbac/v1';
import { sharedObjectLabels } from './recommended-labels';
import { FENCE_MARK_GROUP, FENCE_MARKS } from './fence-cel';

export const SUBMITTER_ROLE_NAME = 'seatunnel-application-submitter';

export interface SubmitterRulesOptions {
  /**
   * For namespaces whose platform team pre-provisions what the runtime needs: applications are
   * submitted with `kubernetes.rbac.create=false` and a named `kubernetes.service-account` that the
   * platform created and bound to the runtime Role (`runtimeRules`). The submitter then creates no
   * Role, RoleBinding or ServiceAccount, so RBAC's escalation check asks nothing of it, and it may
   * not read Secrets (a referenced Secret is not checked before submit; the kubelet checks it). It
   * still creates Secrets (inline `kubernetes.secret.*.data`) without reading them back, Pods
   * (preflight's dry runs) and Jobs — whose Pods may run as any ServiceAccount of the namespace:
   * the namespace remains the trust boundary (docs/security.md). @default false
   */
  readonly preProvisioned?: boolean;
}

export function submitterRules(opts: SubmitterRulesOptions = {}): PolicyRule[] {
  if (opts.preProvisioned) return preProvisionedRules();
  return [
    // submit: create suspended, read back after an ambiguous create, unsuspend; cancel: delete,
    // and the cancel-requested annotation; status: read; list: the applications of the namespace.
    // `watch` only because the runtime Role watches its own Job (escalation check).
    { apiGroups: ['batch'], resources: ['jobs'], verbs: ['create', 'get', 'list', 'watch', 'patch', 'delete'] },
    // The runtime Role's Pod rules (escalation check) and status (list); rollback and cancel delete by label.
    { apiGroups: [''], resources: ['pods'], verbs: ['create', 'get', 'list', 'watch', 'delete', 'deletecollection'] },
    // logs: the master's and workers' container output.
    { apiGroups: [''], resources: ['pods/log'], verbs: ['get'] },
    // Owned data objects: `patch` only because the runtime Role adopts them (escalation check);
    // cancel removes leftovers by label with deletecollection, never by listing.
    {
      apiGroups: [''],
      resources: ['configmaps', 'secrets', 'podtemplates'],
      verbs: ['create', 'get', 'patch', 'delete', 'deletecollection'],
    },
    { apiGroups: [''], resources: ['serviceaccounts'], verbs: ['create', 'get', 'delete', 'deletecollection'] },
    // With HA: the masters' StatefulSet (`get` and `delete` because the runtime Role has them: escalation check).
    { apiGroups: ['apps'], resources: ['statefulsets'], verbs: ['create', 'get', 'delete'] },
    // Services have no deletecollection: cancel reads the one named after the application.
    { apiGroups: [''], resources: ['services'], verbs: ['create', 'get', 'delete'] },
    {
      apiGroups: ['rbac.authorization.k8s.io'],
      resources: ['roles', 'rolebindings'],
      verbs: ['create', 'get', 'delete', 'deletecollection'],
    },
    {
      apiGroups: ['networking.k8s.io'],
      resources: ['networkpolicies'],
      verbs: ['create', 'get', 'delete', 'deletecollection'],
    },
    // The runtime Role creates Events (escalation check); status lists the Job's Events.
    { apiGroups: [''], resources: ['events'], verbs: ['create', 'list'] },
    // The admission fence's marks (no API serves them; docs/security.md, "Admission fencing"): the
    // runtime Role carries them, so the escalation check wants them here too. They make a
    // submitter that is a ServiceAccount fenced as well: its Pods (it creates none; preflight only
    // dry-runs them) must be workers of an application.
    {
      apiGroups: [FENCE_MARK_GROUP],
      resources: Object.values(FENCE_MARKS).map((m) => m.resource),
      verbs: [...new Set(Object.values(FENCE_MARKS).map((m) => m.verb))],
    },
    ...PREFLIGHT_READS,
  ];
}

/** Preflight: referenced objects must exist; quota and limit ranges must admit the whole footprint. */
const PREFLIGHT_READS: PolicyRule[] = [
  { apiGroups: [''], resources: ['persistentvolumeclaims', 'serviceaccounts'], verbs: ['get'] },
  { apiGroups: [''], resources: ['resourcequotas', 'limitranges'], verbs: ['list'] },
];

/** submitterRules({ preProvisioned: true }): what submit, status, list, logs and cancel call, nothing for the escalation check. */
function preProvisionedRules(): PolicyRule[] {
  return [
    { apiGroups: ['batch'], resources: ['jobs'], verbs: ['create', 'get', 'list', 'patch', 'delete'] },
    // `create`: preflight's server-side dry runs of the Pods (a Job it creates runs any Pod anyway).
    { apiGroups: [''], resources: ['pods'], verbs: ['create', 'get', 'list', 'delete', 'deletecollection'] },
    { apiGroups: [''], resources: ['pods/log'], verbs: ['get'] },
    {
      apiGroups: [''],
      resources: ['configmaps', 'podtemplates'],
      verbs: ['create', 'get', 'delete', 'deletecollection'],
    },
    // Created (inline Secret data) and removed, never read.
    { apiGroups: [''], resources: ['secrets'], verbs: ['create', 'delete', 'deletecollection'] },
    { apiGroups: ['apps'], resources: ['statefulsets'], verbs: ['create', 'get', 'delete'] },
    { apiGroups: [''], resources: ['services'], verbs: ['create', 'get', 'delete'] },
    {
      apiGroups: ['networking.k8s.io'],
      resources: ['networkpolicies'],
      verbs: ['create', 'get', 'delete', 'deletecollection'],
    },
    { apiGroups: [''], resources: ['events'], verbs: ['list'] },
    ...PREFLIGHT_READS,
  ];
}

export function submitterRole(
  namespace: string,
  name = SUBMITTER_ROLE_NAME,
  opts: SubmitterRulesOptions = {},
): Role & { apiVersion: string; kind: string } {
  return {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'Role',
    metadata: { name, namespace, labels: sharedObjectLabels('submitter') },
    rules: submitterRules(opts),
  };
}
