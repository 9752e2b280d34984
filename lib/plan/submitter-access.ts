// What each CLI command asks of the API server, as data: the one list the submitter Role
// (submitter-rbac.ts) is made from and preflight checks one access review at a time
// (lib/submit/admit/permissions.ts), so the Role the docs tell a platform team to grant cannot
// lack what a command calls, nor preflight ask for what the Role does not grant. How cancel
// removes each kind of the application's objects is decided here too (REMOVAL): by label with one
// deletecollection, or — for kinds the Role grants no deletecollection on — read and deleted by name.

import { RESOURCES } from '../kube/resources';
import { FENCE_MARKS, FENCE_MARK_GROUP } from './fence-cel';

export interface Access {
  readonly verb: string;
  readonly group: string;
  readonly resource: string;
  /** e.g. `log` for pods/log. */
  readonly subresource?: string;
  /** Why: "submit: create the application's NetworkPolicies", … */
  readonly purpose: string;
}

/** The kinds of the application's own objects besides the Job (lib/plan/build-plan.ts `dependents`). */
export type DependentKind =
  | 'ServiceAccount'
  | 'Role'
  | 'RoleBinding'
  | 'NetworkPolicy'
  | 'ConfigMap'
  | 'Secret'
  | 'Service'
  | 'PodTemplate'
  | 'StatefulSet'
  | 'PodMonitor';

/**
 * How cancel removes each kind: `label` — one deletecollection by the application's labels, never
 * a list (a list of Secrets would read every Secret of the namespace); `name` — read, and deleted
 * if it carries the labels. Services have no deletecollection in the API; the masters'
 * StatefulSet and the PodMonitor are one object each, whose name cancel knows.
 */
export const REMOVAL: Readonly<Record<DependentKind, 'label' | 'name'>> = {
  ServiceAccount: 'label',
  Role: 'label',
  RoleBinding: 'label',
  NetworkPolicy: 'label',
  ConfigMap: 'label',
  Secret: 'label',
  PodTemplate: 'label',
  Service: 'name',
  StatefulSet: 'name',
  PodMonitor: 'name',
};

/** Made only by the generated RBAC (kubernetes.rbac.create and the generated ServiceAccount). */
export const RBAC_KINDS: ReadonlySet<DependentKind> = new Set(['ServiceAccount', 'Role', 'RoleBinding']);

/**
 * Served by an extension API (a CRD some clusters install) and made only when an option asks for
 * it: the submitter Role grants them only on request (submitterRules({ podMonitors: true })), and
 * cancel takes a 403 or 404 on them for "none".
 */
export const OPTIONAL_KINDS: ReadonlySet<DependentKind> = new Set(['PodMonitor']);

export const ALL_DEPENDENT_KINDS = Object.keys(REMOVAL) as DependentKind[];

/** What one application is made of, as far as the commands' calls differ. */
export interface AccessFeatures {
  /** Kinds of the application's dependents. */
  readonly kinds: readonly DependentKind[];
  /** Kinds of the objects it references and submit checks (ConfigMap, ServiceAccount, PVC; never Secret). */
  readonly referenced: readonly string[];
}

const plural = (kind: string) => (kind.endsWith('y') ? `${kind.slice(0, -1)}ies` : `${kind}s`);

function of(kind: string, verb: string, purpose: string, subresource?: string): Access {
  const { group, resource } = RESOURCES[kind];
  return { verb, group, resource, ...(subresource ? { subresource } : {}), purpose };
}

/** The calls of submit (with its rollback), status, list, logs, cancel and preflight for an application with `features`. */
export function commandAccess(features: AccessFeatures): Access[] {
  const out: Access[] = [
    of('Job', 'create', 'submit: create the suspended Job'),
    of('Job', 'patch', 'submit: start (unsuspend) the Job; cancel --savepoint: ask the runtime to stop'),
    of('Job', 'get', 'submit: verify an unanswered create; status; cancel'),
    of('Job', 'list', 'list: the applications of the namespace'),
    of('Job', 'delete', 'submit: roll back; cancel'),
    // Preflight dry-runs the master and worker Pods; the runtime, not the submitter, creates them.
    of('Pod', 'create', 'preflight: dry-run the master and worker Pods'),
    of('Pod', 'list', 'status; list; logs'),
    of('Pod', 'watch', 'logs -f: Pods that start later'),
    of('Pod', 'deletecollection', 'submit: roll back a started Job; cancel'),
    of('Pod', 'get', 'logs: the containers output', 'log'),
    of('Event', 'list', 'status, list: why the master Pod is not created'),
    of('ResourceQuota', 'list', 'preflight: quota headroom'),
    of('LimitRange', 'list', 'preflight: limit ranges'),
  ];
  for (const kind of features.kinds) {
    out.push(of(kind, 'create', `submit: create the application's ${plural(kind)}`));
    // Secrets are never read back: a submitter may hold no `get` on them (submitterRules({ preProvisioned: true })).
    if (kind !== 'Secret') out.push(of(kind, 'get', 'submit: verify an unanswered create'));
    out.push(of(kind, 'delete', 'submit: roll back; cancel'));
    if (REMOVAL[kind] === 'label') out.push(of(kind, 'deletecollection', 'cancel: delete leftovers by label'));
    else out.push(of(kind, 'get', 'cancel: find it by name'));
  }
  // A referenced Secret that cannot be read is not checked (references.ts): `get` is welcome, not required.
  for (const kind of features.referenced)
    if (kind !== 'Secret') out.push(of(kind, 'get', 'submit: check that referenced objects exist'));
  return out;
}

/**
 * What the runtime Role grants and no command calls: Kubernetes lets a subject create a Role only
 * with permissions it holds itself (RBAC's escalation check), so submit needs them to create it.
 */
export const ESCALATION_ACCESS: readonly Access[] = [
  ...(
    [
      ['Job', 'watch'],
      ['Pod', 'get'],
      ['Pod', 'delete'],
      ['Event', 'create'],
      ['ConfigMap', 'patch'],
      ['Secret', 'patch'],
      ['Secret', 'get'],
      ['PodTemplate', 'patch'],
    ] as const
  ).map(([kind, verb]) => of(kind, verb, 'submit: the runtime Role grants it (RBAC escalation check)')),
  // The admission fence's marks (no API serves them; docs/security.md, "Admission fencing"), as one
  // rule: every mark with every mark verb.
  ...Object.values(FENCE_MARKS).flatMap((m) =>
    [...new Set(Object.values(FENCE_MARKS).map((v) => v.verb))].map((verb) => ({
      verb,
      group: FENCE_MARK_GROUP,
      resource: m.resource,
      purpose: 'submit: the runtime Role carries the admission fence marks (RBAC escalation check)',
    })),
  ),
];

/** Referenced kinds a submitter checks before submit (kubernetes.config-map, service-account, checkpoint-pvc, …). */
export const REFERENCED_KINDS: readonly string[] = ['ConfigMap', 'ServiceAccount', 'PersistentVolumeClaim'];
