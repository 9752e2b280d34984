// The Role a platform team grants to whoever submits applications with the CLI (or a CI
// identity). It covers submit (with its rollback), status, list, logs, cancel and preflight — the
// calls submitter-access.ts lists, which preflight checks too — nothing else.
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
import {
  ALL_DEPENDENT_KINDS,
  commandAccess,
  ESCALATION_ACCESS,
  OPTIONAL_KINDS,
  RBAC_KINDS,
  REFERENCED_KINDS,
  type Access,
} from './submitter-access';

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
  /**
   * Also `create`, `get` and `delete` on the Prometheus operator's `podmonitors`, for applications
   * with `kubernetes.metrics.pod-monitor` (docs/metrics.md). Without it the Role names no resource
   * of a CRD a cluster may not have. @default false
   */
  readonly podMonitors?: boolean;
}

/**
 * The calls of every command (submitter-access.ts) for every kind of application (HA included),
 * plus, unless pre-provisioned, what the runtime Role grants (escalation check).
 */
export function submitterAccess(opts: SubmitterRulesOptions = {}): Access[] {
  const kinds = ALL_DEPENDENT_KINDS.filter((k) => opts.podMonitors || !OPTIONAL_KINDS.has(k));
  if (opts.preProvisioned)
    return commandAccess({ kinds: kinds.filter((k) => !RBAC_KINDS.has(k)), referenced: REFERENCED_KINDS });
  return [...commandAccess({ kinds, referenced: REFERENCED_KINDS }), ...ESCALATION_ACCESS];
}

export function submitterRules(opts: SubmitterRulesOptions = {}): PolicyRule[] {
  return toRules(submitterAccess(opts));
}

const VERB_ORDER = ['create', 'get', 'list', 'watch', 'patch', 'delete', 'deletecollection'];
const verbRank = (v: string) => (VERB_ORDER.includes(v) ? VERB_ORDER.indexOf(v) : VERB_ORDER.length);

/** One rule per API group and set of verbs, resources in the order they first appear. */
export function toRules(access: readonly Access[]): PolicyRule[] {
  const verbs = new Map<string, { group: string; resource: string; verbs: Set<string> }>();
  for (const a of access) {
    const resource = a.subresource ? `${a.resource}/${a.subresource}` : a.resource;
    const key = `${a.group}/${resource}`;
    const entry = verbs.get(key) ?? { group: a.group, resource, verbs: new Set<string>() };
    entry.verbs.add(a.verb);
    verbs.set(key, entry);
  }
  const rules = new Map<string, PolicyRule & { resources: string[] }>();
  for (const { group, resource, verbs: set } of verbs.values()) {
    const sorted = [...set].sort((a, b) => verbRank(a) - verbRank(b) || a.localeCompare(b));
    const key = `${group} ${sorted.join(',')}`;
    const rule = rules.get(key) ?? { apiGroups: [group], resources: [], verbs: sorted };
    rule.resources.push(resource);
    rules.set(key, rule);
  }
  return [...rules.values()];
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
