// The application's half of the admission fence (docs/security.md, "Admission fencing"): the
// worker PodTemplate names, in an annotation, the user that creates the workers — the master's
// ServiceAccount. The platform's ValidatingAdmissionPolicy (lib/plan/admission-fence.ts) takes
// each worker template of the namespace as a parameter and holds that user to the template.
// The step reads the ServiceAccount from the runtime's Pod as earlier steps left it, so it names
// whichever account the runtime really runs as (user-named or generated). Runs last.

import { FENCED_CREATOR_ANNOTATION } from '../admission-fence';
import { runtimePod } from '../pod';
import type { FeatureStep, PlanDraft } from '../types';

/** The API server's user name of a ServiceAccount (what admission sees in `request.userInfo`). */
export const serviceAccountUser = (namespace: string, name: string) => `system:serviceaccount:${namespace}:${name}`;

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
    return d;
  },
};
