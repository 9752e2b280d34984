// What the caller must be allowed to do for submit (including its rollback), status and cancel,
// derived from the plan, and the check of each with a SelfSubjectAccessReview. The rules the
// platform team grants are lib/plan/submitter-rbac.ts; this is what one application needs of them.

import type { ApplicationPlan } from '../../plan/types';
import { dependents } from '../../plan/build-plan';
import { commandAccess, type DependentKind } from '../../plan/submitter-access';
import type { Kube } from '../../kube';
import { referencedObjects } from './references';

export interface RequiredAccess {
  readonly verb: string;
  readonly group: string;
  readonly resource: string;
  readonly subresource?: string;
  /** Why: "submit: create the application's NetworkPolicies", … */
  readonly purposes: readonly string[];
}

export interface AccessResult extends RequiredAccess {
  readonly allowed: boolean;
  readonly reason?: string;
}

export const qualified = (a: { group: string; resource: string; subresource?: string }) =>
  `${a.resource}${a.subresource ? `/${a.subresource}` : ''}${a.group ? `.${a.group}` : ''}`;

/**
 * Every command's calls for this application (the submitter Role's list, submitter-access.ts), and
 * the rules of the runtime Role submit creates: RBAC's escalation check wants the creator to hold them.
 */
export function requiredAccess(plan: ApplicationPlan): RequiredAccess[] {
  const kinds = [...new Set(dependents(plan).map((d) => d.kind as DependentKind))];
  const referenced = [...new Set(referencedObjects(plan.spec).map((r) => r.ref.kind))];
  const escalation = plan.roles.flatMap((role) =>
    (role.rules ?? []).flatMap((r) =>
      (r.apiGroups ?? []).flatMap((group) =>
        (r.resources ?? []).flatMap((resource) =>
          r.verbs.map((verb) => ({
            verb,
            group,
            resource,
            purpose: `submit: the runtime Role grants it (RBAC escalation check)`,
          })),
        ),
      ),
    ),
  );
  const map = new Map<string, RequiredAccess & { purposes: string[] }>();
  for (const a of [...commandAccess({ kinds, referenced }), ...escalation]) {
    const key = `${a.verb} ${a.group}/${a.resource}/${'subresource' in a ? (a.subresource ?? '') : ''}`;
    const entry = map.get(key) ?? { ...a, purposes: [] };
    if (!entry.purposes.includes(a.purpose)) entry.purposes.push(a.purpose);
    map.set(key, entry);
  }
  return [...map.values()].map(({ verb, group, resource, subresource, purposes }) => ({
    verb,
    group,
    resource,
    ...(subresource ? { subresource } : {}),
    purposes,
  }));
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
          spec: {
            resourceAttributes: {
              namespace,
              verb: a.verb,
              group: a.group,
              resource: a.resource,
              ...(a.subresource ? { subresource: a.subresource } : {}),
            },
          },
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
