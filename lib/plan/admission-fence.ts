// The platform's half of the admission fence: ValidatingAdmissionPolicies and their bindings, all
// cluster-scoped, installed once by a platform team (Kubernetes 1.30+, where
// admissionregistration.k8s.io/v1 ValidatingAdmissionPolicy is GA).
//
// Why this shape (docs/security.md, "Admission fencing"):
//   * The parameter of each Pod evaluation is an application's worker PodTemplate — the spec the
//     runtime stamps workers from (docs/runtime.md, "Stamping a worker") — so the fence needs no copy of it.
//   * The binding selects those templates by label in the namespace of the request
//     (`paramRef.selector`, no `paramRef.namespace`): one binding serves every namespace and
//     every application, and an application adds no cluster-scoped object that a namespaced
//     Job could not own. A template leaves with its Job; nothing is left behind.
//   * Each template names its creator (annotation FENCED_CREATOR_ANNOTATION: the master's
//     ServiceAccount user). A request is checked only against the templates that name its
//     user; all checks must pass, so a template nobody fences, or a foreign one, never widens
//     what a user may do. (Two running applications that share one ServiceAccount fence each
//     other out: give each application its own.)
//   * No template in the namespace = nothing to check against (`parameterNotFoundAction: Allow`):
//     the API server looks the parameters up before it evaluates matchConditions, so Deny would
//     refuse every Pod of every namespace without an application, whoever creates it. A missing
//     template must not open the fence either, so a second policy needs no parameter: the
//     runtime's own Role marks its ServiceAccount as fenced (RBAC rules of FENCE_MARK_GROUP,
//     which the runtime cannot change), and a marked account is held to the floor of
//     fence-cel.ts whether or not a template names it.
//   * The fenced user may not change or delete a fenced template (ownerReferences included: an
//     owner that does not exist would have the garbage collector delete it); its Role may only read it.
//   * A Job's own runtime may change nothing of its Job but the runtime's status annotations
//     (`seatunnel-app-job-fence`, no parameter: the Job's Pod template names its ServiceAccount).

import type {
  NamedRuleWithOperations,
  ValidatingAdmissionPolicy,
  ValidatingAdmissionPolicyBinding,
} from 'kubernetes-types/admissionregistration/v1';
import type { LabelSelector } from 'kubernetes-types/meta/v1';
import { ANNOTATIONS, RUNTIME_ANNOTATION_KEYS } from '../contract/vocabulary';
import { LABELS, MANAGED_BY } from '../model/reserved';
import { sharedObjectLabels } from './recommended-labels';
import { FENCE_MARKS, FLOOR_CHECKS, marked, REFERENCES_VARIABLE, TEMPLATE_CHECKS, type PodCheck } from './fence-cel';

export { FENCE_MARK_GROUP, FENCE_MARKS } from './fence-cel';

/** The policy on Pod creations, against the worker template that names the creator. */
export const ADMISSION_FENCE_POLICY = 'seatunnel-app-worker-fence';
/** The policy on updates and deletions of the worker templates (the fence's parameters). */
export const ADMISSION_FENCE_TEMPLATE_POLICY = 'seatunnel-app-worker-fence-template';
/** The policy on Pod creations by a ServiceAccount its Role marks as fenced, with or without a template. */
export const ADMISSION_FENCE_FLOOR_POLICY = 'seatunnel-app-worker-fence-floor';
/** The policy on a runtime's updates of its own Job. */
export const ADMISSION_FENCE_JOB_POLICY = 'seatunnel-app-job-fence';
/** On a worker PodTemplate: the user (`system:serviceaccount:<ns>:<name>`) the fence holds to it. */
export const FENCED_CREATOR_ANNOTATION = 'seatunnel.apache.org/fenced-creator';
/** The labels by which the binding finds worker templates (reserved: users cannot set them). */
export const WORKER_TEMPLATE_SELECTOR = {
  [LABELS.managedBy]: MANAGED_BY,
  [LABELS.component]: 'worker-template',
} as const;

export type FenceObject = (ValidatingAdmissionPolicy | ValidatingAdmissionPolicyBinding) & {
  apiVersion: 'admissionregistration.k8s.io/v1';
  kind: string;
  metadata: { name: string; labels: Record<string, string> };
};

export interface AdmissionFenceOptions {
  /** Namespaces the fence applies to. @default - every namespace */
  readonly namespaceSelector?: LabelSelector;
  /** Prefix of the bindings' names (each is named after its policy). @default - none */
  readonly bindingPrefix?: string;
}

const str = (s: string) => `'${s}'`;

/** A rule on one resource (kubernetes-types 1.30 leaves `resources` out of this type, though the API has it). */
const rule = (group: string, version: string, operations: string[], resource: string): NamedRuleWithOperations =>
  ({ apiGroups: [group], apiVersions: [version], operations, resources: [resource] }) as NamedRuleWithOperations;

/** One check that applies when `applies` holds: a CEL condition, and what the refusal says. */
const validation = (applies: string, policy: string, why: string) => (c: PodCheck) => ({
  expression: `!${applies} || (${c.condition})`,
  message: `${c.message} (admission fence ${policy}: ${why})`,
  reason: 'Forbidden' as const,
});

const META = { labels: sharedObjectLabels('admission-fence') };
const SERVICE_ACCOUNT = "request.userInfo.username.startsWith('system:serviceaccount:')";
/** Only ServiceAccounts are ever fenced; every other request skips the parameter lookup. */
const SERVICE_ACCOUNTS_ONLY = [{ name: 'service-account', expression: SERVICE_ACCOUNT }];
/** The template names the requesting user as the one it fences. */
const FENCED = {
  name: 'fenced',
  expression: `params.metadata.?annotations.orValue({})[?${str(FENCED_CREATOR_ANNOTATION)}] == optional.of(request.userInfo.username)`,
};
const CONTAINERS = {
  name: 'containers',
  expression: 'object.spec.containers + object.spec.?initContainers.orValue([])',
};

type PolicySpec = NonNullable<ValidatingAdmissionPolicy['spec']>;
function policy(name: string, spec: PolicySpec): ValidatingAdmissionPolicy & FenceObject {
  return {
    apiVersion: 'admissionregistration.k8s.io/v1' as const,
    kind: 'ValidatingAdmissionPolicy' as const,
    metadata: { name, ...META },
    spec: { failurePolicy: 'Fail', ...spec },
  };
}

const WITH_TEMPLATE = { paramKind: { apiVersion: 'v1', kind: 'PodTemplate' }, matchConditions: SERVICE_ACCOUNTS_ONLY };

/** Pod creations, against each worker template that names the creator. */
function podPolicy() {
  const why = "Pods created by this ServiceAccount must match its application's worker template";
  return policy(ADMISSION_FENCE_POLICY, {
    ...WITH_TEMPLATE,
    matchConstraints: { resourceRules: [rule('', 'v1', ['CREATE'], 'pods')] },
    variables: [
      FENCED,
      { name: 'template', expression: 'params.template' },
      CONTAINERS,
      {
        name: 'templateContainers',
        expression: 'params.template.spec.containers + params.template.spec.?initContainers.orValue([])',
      },
      {
        name: 'appId',
        expression: `params.template.metadata.?labels.orValue({})[?${str(LABELS.applicationId)}].orValue('')`,
      },
    ],
    validations: TEMPLATE_CHECKS.map(validation('variables.fenced', ADMISSION_FENCE_POLICY, why)),
  });
}

/** The fenced user may neither change nor delete a template that fences it; only read it. */
function templatePolicy() {
  const unchanged = [
    'template',
    'metadata.?labels',
    'metadata.?annotations',
    'metadata.?ownerReferences',
    'metadata.?finalizers',
  ]
    .map((f) => `object.${f} == oldObject.${f}`)
    .join(' && ');
  return policy(ADMISSION_FENCE_TEMPLATE_POLICY, {
    ...WITH_TEMPLATE,
    matchConstraints: { resourceRules: [rule('', 'v1', ['UPDATE', 'DELETE'], 'podtemplates')] },
    variables: [FENCED],
    validations: [
      {
        expression: `!variables.fenced || (request.operation == 'UPDATE' && ${unchanged})`,
        message: `a worker template cannot be changed or deleted by the ServiceAccount it fences (admission fence ${ADMISSION_FENCE_TEMPLATE_POLICY})`,
        reason: 'Forbidden',
      },
    ],
  });
}

/** No parameter: a ServiceAccount its Role marks as fenced, whether or not a template names it. */
function floorPolicy() {
  const why = "this ServiceAccount's Role marks it as fenced, with or without its worker template";
  return policy(ADMISSION_FENCE_FLOOR_POLICY, {
    matchConstraints: { resourceRules: [rule('', 'v1', ['CREATE'], 'pods')] },
    // Dry runs create nothing (preflight's, by a submitter whose Role holds the marks to grant them).
    matchConditions: [
      { name: 'service-account', expression: SERVICE_ACCOUNT },
      { name: 'not-a-dry-run', expression: '!request.?dryRun.orValue(false)' },
      { name: 'marked-as-fenced', expression: marked(FENCE_MARKS.subject) },
    ],
    variables: [CONTAINERS, REFERENCES_VARIABLE],
    validations: FLOOR_CHECKS.map(validation('true', ADMISSION_FENCE_FLOOR_POLICY, why)),
  });
}

/**
 * A Job's runtime (the ServiceAccount its Pods run as) may write its status annotations and
 * nothing else of its Job: no spec (TTL, deadline), labels, finalizers, owners or other annotations.
 */
function jobPolicy() {
  const own = `oldObject.metadata.?labels.orValue({})[?${str(LABELS.managedBy)}] == optional.of(${str(MANAGED_BY)}) && request.userInfo.username == 'system:serviceaccount:' + request.namespace + ':' + oldObject.spec.template.spec.?serviceAccountName.orValue('default')`;
  const keys = `[${RUNTIME_ANNOTATION_KEYS.map((k) => str(ANNOTATIONS[k])).join(', ')}]`;
  const sameExcept = (a: string, b: string) =>
    `${a}.metadata.?annotations.orValue({}).all(k, k in ${keys} || ${b}.metadata.?annotations.orValue({})[?k] == optional.of(${a}.metadata.annotations[k]))`;
  const unchanged = ['spec', 'metadata.?labels', 'metadata.?finalizers', 'metadata.?ownerReferences']
    .map((f) => `object.${f} == oldObject.${f}`)
    .join(' && ');
  return policy(ADMISSION_FENCE_JOB_POLICY, {
    matchConstraints: { resourceRules: [rule('batch', 'v1', ['UPDATE'], 'jobs')] },
    matchConditions: SERVICE_ACCOUNTS_ONLY,
    variables: [{ name: 'ownRuntime', expression: own }],
    validations: [
      {
        expression: `!variables.ownRuntime || (${unchanged} && ${sameExcept('object', 'oldObject')} && ${sameExcept('oldObject', 'object')})`,
        message: `a runtime may change only its status annotations on its own Job (admission fence ${ADMISSION_FENCE_JOB_POLICY})`,
        reason: 'Forbidden',
      },
    ],
  });
}

/** The policies (install once), each type-checked against the one kind it admits. */
export function admissionFencePolicies(): Array<ValidatingAdmissionPolicy & FenceObject> {
  return [podPolicy(), templatePolicy(), floorPolicy(), jobPolicy()];
}

const WITH_PARAMETERS = new Set([ADMISSION_FENCE_POLICY, ADMISSION_FENCE_TEMPLATE_POLICY]);

/** The bindings: every worker template in the request's namespace is a parameter of the template policies. */
export function admissionFenceBindings(
  opts: AdmissionFenceOptions = {},
): Array<ValidatingAdmissionPolicyBinding & FenceObject> {
  return admissionFencePolicies().map(({ metadata: { name: policyName } }) => ({
    apiVersion: 'admissionregistration.k8s.io/v1' as const,
    kind: 'ValidatingAdmissionPolicyBinding' as const,
    metadata: { name: `${opts.bindingPrefix ?? ''}${policyName}`, ...META },
    spec: {
      policyName,
      ...(WITH_PARAMETERS.has(policyName)
        ? {
            paramRef: {
              selector: { matchLabels: { ...WORKER_TEMPLATE_SELECTOR } },
              parameterNotFoundAction: 'Allow',
            },
          }
        : {}),
      validationActions: ['Deny'],
      ...(opts.namespaceSelector ? { matchResources: { namespaceSelector: opts.namespaceSelector } } : {}),
    },
  }));
}

/** Everything a platform team installs, policies before their bindings. */
export function admissionFence(opts: AdmissionFenceOptions = {}): FenceObject[] {
  return [...admissionFencePolicies(), ...admissionFenceBindings(opts)];
}
