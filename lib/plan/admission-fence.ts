// The platform's half of the admission fence: two ValidatingAdmissionPolicies and their
// bindings, all cluster-scoped, installed once by a platform team (Kubernetes 1.30+, where
// admissionregistration.k8s.io/v1 ValidatingAdmissionPolicy is GA).
//
// Why this shape (docs/security.md, "Admission fencing"):
//   * The parameter of each evaluation is an application's worker PodTemplate — the spec the
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
//   * No template in the namespace = nothing to enforce (`parameterNotFoundAction: Allow`):
//     Deny would block every Pod of every namespace without an application.
//   * The fenced user may not change a fenced template's Pod spec, labels or annotations
//     (its Role may patch the template's owner references, to adopt it after `kubectl apply`).

import type {
  NamedRuleWithOperations,
  ValidatingAdmissionPolicy,
  ValidatingAdmissionPolicyBinding,
} from 'kubernetes-types/admissionregistration/v1';
import type { LabelSelector } from 'kubernetes-types/meta/v1';
import { LABELS, MANAGED_BY } from '../model/reserved';
import { STAMPED_ENV } from './stamp';

/** The policy on Pod creations. */
export const ADMISSION_FENCE_POLICY = 'seatunnel-app-worker-fence';
/** The policy on updates of the worker templates (the fence's parameters). */
export const ADMISSION_FENCE_TEMPLATE_POLICY = 'seatunnel-app-worker-fence-template';
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

/** A rule on core resources (kubernetes-types 1.30 leaves `resources` out of this type, though the API has it). */
const coreRule = (operation: string, resource: string): NamedRuleWithOperations =>
  ({ apiGroups: [''], apiVersions: ['v1'], operations: [operation], resources: [resource] }) as NamedRuleWithOperations;

/** One check of fenced Pod creations: a CEL condition, and what the refusal says. */
const podCheck = (condition: string, message: string) => ({
  expression: `!variables.fenced || (${condition})`,
  message: `${message} (admission fence ${ADMISSION_FENCE_POLICY}: Pods created by this ServiceAccount must match its application's worker template)`,
  reason: 'Forbidden' as const,
});

const POD_CHECKS = [
  podCheck(
    'variables.template.metadata.?labels.orValue({}).all(k, object.metadata.?labels.orValue({})[?k] == variables.template.metadata.labels[?k])',
    "the Pod lacks the application's labels",
  ),
  podCheck(
    "object.spec.?serviceAccountName.orValue('default') == variables.template.spec.?serviceAccountName.orValue('default')",
    "the Pod runs as another ServiceAccount than the worker template's",
  ),
  podCheck(
    'object.spec.?automountServiceAccountToken.orValue(true) == false',
    'the Pod mounts an API token (automountServiceAccountToken must be false)',
  ),
  podCheck(
    '!object.spec.?hostNetwork.orValue(false) && !object.spec.?hostPID.orValue(false) && !object.spec.?hostIPC.orValue(false)',
    'the Pod uses the host network, PID or IPC namespace',
  ),
  podCheck('object.spec.?volumes.orValue([]).all(v, !has(v.hostPath))', 'the Pod mounts a hostPath volume'),
  podCheck(
    'object.spec.?volumes.orValue([]).all(v, variables.template.spec.?volumes.orValue([]).exists(t, t == v))',
    'the Pod has a volume that is not in the worker template',
  ),
  podCheck(
    'variables.containers.all(c, !c.?securityContext.?privileged.orValue(false) && c.?securityContext.?capabilities.?add.orValue([]).size() == 0)',
    'a container is privileged or adds capabilities',
  ),
  podCheck(
    'object.spec.containers.size() == variables.template.spec.containers.size() && object.spec.?initContainers.orValue([]).size() == variables.template.spec.?initContainers.orValue([]).size() && !has(object.spec.ephemeralContainers) && variables.containers.all(c, variables.templateContainers.exists(t, t.name == c.name && t.image == c.image))',
    "the Pod's containers or images differ from the worker template's",
  ),
  podCheck(
    // Equal except the variables the runtime stamps with the master's address (plain values only).
    `variables.containers.all(c, variables.templateContainers.exists(t, t.name == c.name && t.?command.orValue([]) == c.?command.orValue([]) && t.?args.orValue([]) == c.?args.orValue([]) && t.?envFrom.orValue([]) == c.?envFrom.orValue([]) && t.?volumeMounts.orValue([]) == c.?volumeMounts.orValue([]) && t.?securityContext == c.?securityContext && t.?env.orValue([]).size() == c.?env.orValue([]).size() && c.?env.orValue([]).all(e, t.?env.orValue([]).exists(te, te == e || (te.name == e.name && te.name in [${STAMPED_ENV.map(str).join(', ')}] && !has(e.valueFrom))))))`,
    "a container's command, environment, mounts or security context differ from the worker template's",
  ),
  podCheck(
    'object.spec.?securityContext == variables.template.spec.?securityContext && !has(object.spec.nodeName)',
    "the Pod's security context differs from the worker template's, or it names a node",
  ),
];

const META = { labels: { [LABELS.managedBy]: MANAGED_BY } };
/** Only ServiceAccounts are ever fenced; every other request skips the parameter lookup. */
const SERVICE_ACCOUNTS_ONLY = [
  { name: 'service-account', expression: "request.userInfo.username.startsWith('system:serviceaccount:')" },
];
/** The template names the requesting user as the one it fences. */
const FENCED = {
  name: 'fenced',
  expression: `params.metadata.?annotations.orValue({})[?${str(FENCED_CREATOR_ANNOTATION)}] == optional.of(request.userInfo.username)`,
};

/**
 * The policies (install once). Two, so that each is type-checked against the one kind it
 * admits: Pod creations, and updates of the worker templates themselves.
 */
export function admissionFencePolicies(): Array<ValidatingAdmissionPolicy & FenceObject> {
  const policy = (
    name: string,
    rule: NamedRuleWithOperations,
    spec: Partial<NonNullable<ValidatingAdmissionPolicy['spec']>>,
  ) => ({
    apiVersion: 'admissionregistration.k8s.io/v1' as const,
    kind: 'ValidatingAdmissionPolicy' as const,
    metadata: { name, ...META },
    spec: {
      failurePolicy: 'Fail',
      paramKind: { apiVersion: 'v1', kind: 'PodTemplate' },
      matchConstraints: { resourceRules: [rule] },
      matchConditions: SERVICE_ACCOUNTS_ONLY,
      ...spec,
    },
  });
  return [
    policy(ADMISSION_FENCE_POLICY, coreRule('CREATE', 'pods'), {
      variables: [
        FENCED,
        { name: 'template', expression: 'params.template' },
        { name: 'containers', expression: 'object.spec.containers + object.spec.?initContainers.orValue([])' },
        {
          name: 'templateContainers',
          expression: 'params.template.spec.containers + params.template.spec.?initContainers.orValue([])',
        },
      ],
      validations: POD_CHECKS,
    }),
    // The fenced user may patch its template's owner references (adoption after `kubectl apply`), nothing else.
    policy(ADMISSION_FENCE_TEMPLATE_POLICY, coreRule('UPDATE', 'podtemplates'), {
      variables: [FENCED],
      validations: [
        {
          expression:
            '!variables.fenced || (object.template == oldObject.template && object.metadata.?labels == oldObject.metadata.?labels && object.metadata.?annotations == oldObject.metadata.?annotations)',
          message: `a worker template's Pod spec, labels and annotations cannot be changed by the ServiceAccount it fences (admission fence ${ADMISSION_FENCE_TEMPLATE_POLICY})`,
          reason: 'Forbidden',
        },
      ],
    }),
  ];
}

/** The bindings: every worker template in the request's namespace is a parameter. */
export function admissionFenceBindings(
  opts: AdmissionFenceOptions = {},
): Array<ValidatingAdmissionPolicyBinding & FenceObject> {
  return [ADMISSION_FENCE_POLICY, ADMISSION_FENCE_TEMPLATE_POLICY].map((policyName) => ({
    apiVersion: 'admissionregistration.k8s.io/v1' as const,
    kind: 'ValidatingAdmissionPolicyBinding' as const,
    metadata: { name: `${opts.bindingPrefix ?? ''}${policyName}`, ...META },
    spec: {
      policyName,
      paramRef: { selector: { matchLabels: { ...WORKER_TEMPLATE_SELECTOR } }, parameterNotFoundAction: 'Allow' },
      validationActions: ['Deny'],
      ...(opts.namespaceSelector ? { matchResources: { namespaceSelector: opts.namespaceSelector } } : {}),
    },
  }));
}

/** Everything a platform team installs, policies before their bindings. */
export function admissionFence(opts: AdmissionFenceOptions = {}): FenceObject[] {
  return [...admissionFencePolicies(), ...admissionFenceBindings(opts)];
}
