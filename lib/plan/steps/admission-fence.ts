// The application's half of the admission fence (docs/security.md, "Admission fencing"):
//   * the worker PodTemplate names, in an annotation, the user that creates the workers — the
//     master's ServiceAccount. The platform's ValidatingAdmissionPolicy (lib/plan/admission-fence.ts)
//     takes each worker template of the namespace as a parameter and holds that user to the template;
//   * the runtime's Role carries the fence's marks (RBAC rules of a group no API serves): "this
//     ServiceAccount is fenced", the application whose workers it creates, and the Secrets,
//     ConfigMaps and claims the workers use. The floor policy reads them, so the fence holds even
//     where no template names the ServiceAccount; the runtime cannot change its own Role.
// The step reads the ServiceAccount from the runtime's Pod as earlier steps left it, so it names
// whichever account the runtime really runs as (user-named or generated). Runs last: the marks
// list what the finished worker template refers to.

import type { PodSpec } from 'kubernetes-types/core/v1';
import type { PolicyRule } from 'kubernetes-types/rbac/v1';
import { FENCED_CREATOR_ANNOTATION } from '../admission-fence';
import { FENCE_MARK_GROUP, FENCE_MARKS } from '../fence-cel';
import { names, runtimePod } from '../pod';
import type { FeatureStep, PlanDraft } from '../types';

/** The API server's user name of a ServiceAccount (what admission sees in `request.userInfo`). */
export const serviceAccountUser = (namespace: string, name: string) => `system:serviceaccount:${namespace}:${name}`;

/** The names of the Secrets, ConfigMaps and claims a Pod spec refers to. */
export function referencedObjects(spec: PodSpec): { secrets: string[]; configMaps: string[]; claims: string[] } {
  const secrets = new Set<string>();
  const configMaps = new Set<string>();
  const claims = new Set<string>();
  const add = (set: Set<string>, name: string | undefined) => name && set.add(name);
  for (const v of spec.volumes ?? []) {
    add(secrets, v.secret?.secretName);
    add(configMaps, v.configMap?.name);
    add(claims, v.persistentVolumeClaim?.claimName);
    for (const s of v.projected?.sources ?? []) {
      add(secrets, s.secret?.name);
      add(configMaps, s.configMap?.name);
    }
  }
  for (const c of [...spec.containers, ...(spec.initContainers ?? [])]) {
    for (const e of c.env ?? []) {
      add(secrets, e.valueFrom?.secretKeyRef?.name);
      add(configMaps, e.valueFrom?.configMapKeyRef?.name);
    }
    for (const f of c.envFrom ?? []) {
      add(secrets, f.secretRef?.name);
      add(configMaps, f.configMapRef?.name);
    }
  }
  for (const s of spec.imagePullSecrets ?? []) add(secrets, s.name);
  const sorted = (set: Set<string>) => [...set].sort();
  return { secrets: sorted(secrets), configMaps: sorted(configMaps), claims: sorted(claims) };
}

/** The fence's marks for the runtime's Role. A mark without names is left out: no resourceNames means every name. */
export function fenceMarkRules(appId: string, workerSpec: PodSpec): PolicyRule[] {
  const refs = referencedObjects(workerSpec);
  const named = (mark: { resource: string; verb: string }, names: string[]): PolicyRule[] =>
    names.length
      ? [{ apiGroups: [FENCE_MARK_GROUP], resources: [mark.resource], resourceNames: names, verbs: [mark.verb] }]
      : [];
  return [
    { apiGroups: [FENCE_MARK_GROUP], resources: [FENCE_MARKS.subject.resource], verbs: [FENCE_MARKS.subject.verb] },
    ...named(FENCE_MARKS.application, [appId]),
    ...named(FENCE_MARKS.secrets, refs.secrets),
    ...named(FENCE_MARKS.configMaps, refs.configMaps),
    ...named(FENCE_MARKS.claims, refs.claims),
  ];
}

export const admissionFenceStep: FeatureStep = {
  name: 'admission-fence',
  apply(d: PlanDraft): PlanDraft {
    if (!d.spec.admissionFence) return d;
    const account = runtimePod(d).serviceAccountName ?? 'default';
    const meta = d.workerTemplate.metadata;
    meta.annotations = {
      ...meta.annotations,
      [FENCED_CREATOR_ANNOTATION]: serviceAccountUser(d.spec.namespace, account),
    };
    const role = d.roles.find((r) => r.metadata.name === names.role(d.spec));
    if (role) role.rules = [...(role.rules ?? []), ...fenceMarkRules(d.spec.appId, d.workerTemplate.template!.spec!)];
    return d;
  },
};
