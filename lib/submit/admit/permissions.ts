// What the caller must be allowed to do for submit (including its rollback), status and cancel,
// derived from the plan, and the check of each with a SelfSubjectAccessReview. The rules the
// platform team grants are lib/plan/submitter-rbac.ts; this is what one application needs of them.

import type { ApplicationPlan } from '../../plan/types';
import { dependents } from '../../plan/build-plan';
import { groupOf, type Kube, resourceOf } from '../../kube';
import { referencedObjects } from './references';

export interface RequiredAccess {
  readonly verb: string;
  readonly group: string;
  readonly resource: string;
  /** Why: "submit: create the application's NetworkPolicies", … */
  readonly purposes: readonly string[];
}

export interface AccessResult extends RequiredAccess {
  readonly allowed: boolean;
  readonly reason?: string;
}

export const qualified = (a: { group: string; resource: string }) =>
  a.group ? `${a.resource}.${a.group}` : a.resource;

export function requiredAccess(plan: ApplicationPlan): RequiredAccess[] {
  const map = new Map<string, { verb: string; group: string; resource: string; purposes: string[] }>();
  const need = (verb: string, apiVersion: string, kind: string, purpose: string) => {
    const group = groupOf(apiVersion);
    const resource = resourceOf(kind);
    const key = `${verb} ${group}/${resource}`;
    const entry = map.get(key) ?? { verb, group, resource, purposes: [] };
    if (!entry.purposes.includes(purpose)) entry.purposes.push(purpose);
    map.set(key, entry);
  };
  need('create', 'batch/v1', 'Job', 'submit: create the suspended Job');
  need('patch', 'batch/v1', 'Job', 'submit: start (unsuspend) the Job');
  need('get', 'batch/v1', 'Job', 'submit: verify an unanswered create; status');
  need('delete', 'batch/v1', 'Job', 'submit: roll back; cancel');
  const kinds = new Map<string, string>();
  for (const d of dependents(plan)) kinds.set(d.kind, d.apiVersion);
  for (const [kind, apiVersion] of kinds) {
    need(
      'create',
      apiVersion,
      kind,
      `submit: create the application's ${kind.endsWith('y') ? `${kind.slice(0, -1)}ies` : `${kind}s`}`,
    );
    // Secrets are never read back: a submitter may hold no `get` on them (submitterRules({ preProvisioned: true })).
    if (kind !== 'Secret') need('get', apiVersion, kind, 'submit: verify an unanswered create');
    need('delete', apiVersion, kind, 'submit: roll back; cancel');
    // Services have no deletecollection: cancel reads and deletes the one named after the application.
    if (kind === 'Service') need('get', apiVersion, kind, 'cancel: find the Service applied without an owner');
    else need('deletecollection', apiVersion, kind, 'cancel: delete leftovers by label');
  }
  // A referenced Secret that cannot be read is not checked (references.ts): `get` is welcome, not required.
  for (const r of referencedObjects(plan.spec))
    if (r.ref.kind !== 'Secret')
      need('get', r.ref.apiVersion, r.ref.kind, `submit: check that referenced objects exist (${r.option})`);
  need('deletecollection', 'v1', 'Pod', 'submit: roll back a started Job; cancel');
  need('list', 'v1', 'Pod', 'status; cancel');
  need('list', 'v1', 'Event', 'status: why the master Pod is not created');
  need('list', 'v1', 'ResourceQuota', 'preflight: quota headroom');
  need('list', 'v1', 'LimitRange', 'preflight: limit ranges');
  return [...map.values()];
}

interface SsarStatus {
  status?: { allowed?: boolean; denied?: boolean; reason?: string; evaluationError?: string };
}

/** One SelfSubjectAccessReview per required access, in parallel. */
export async function checkAccess(
  kube: Kube,
  namespace: string,
  required: readonly RequiredAccess[],
): Promise<AccessResult[]> {
  return Promise.all(
    required.map(async (a) => {
      const res = await kube.call<SsarStatus>({
        method: 'POST',
        path: '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews',
        body: {
          apiVersion: 'authorization.k8s.io/v1',
          kind: 'SelfSubjectAccessReview',
          spec: { resourceAttributes: { namespace, verb: a.verb, group: a.group, resource: a.resource } },
        },
      });
      return {
        ...a,
        allowed: res.status?.allowed === true,
        reason: res.status?.reason || res.status?.evaluationError || undefined,
      };
    }),
  );
}
