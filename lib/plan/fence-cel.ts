// The CEL of the admission fence's Pod checks (lib/plan/admission-fence.ts), as data: each check
// is a condition and the words of its refusal. Two sets:
//   * TEMPLATE_CHECKS hold a Pod to the worker template that names its creator (the parameter):
//     everything a stamped worker may differ in is pinned to the template's value;
//   * FLOOR_CHECKS hold without any parameter, for a ServiceAccount its own Role marks as fenced
//     (FENCE_MARKS): when no template names it — the template is gone, or was never applied — it
//     can still create only workers of its own application, as itself, without a token, off the
//     host, owned by its Job or master Pod, referring only to the Secrets, ConfigMaps and claims
//     its Role marks as its workers'.
// Kubernetes defaults and admission plugins run before validation, so a created Pod carries what
// they add: the DefaultTolerationSeconds tolerations, a LimitRange's ephemeral-storage default, a
// default PriorityClass. The checks allow exactly those additions.

import { LABELS } from '../model/reserved';
import { FENCE_REFERENCE_SLOTS } from '../model/rules/fence-budget';
import { STAMPED_ENV } from './stamp';

/** The API group of the fence's RBAC marks. No API serves it: RBAC rules may name any group, resource and verb. */
export const FENCE_MARK_GROUP = 'fence.seatunnel.apache.org';
/** The marks a fenced runtime's Role carries, and the verbs of each (docs/security.md, "Admission fencing"). */
export const FENCE_MARKS = {
  /** The holder is fenced: the floor applies to every Pod it creates. */
  subject: { resource: 'subjects', verb: 'fenced' },
  /** resourceNames: the application whose workers the holder creates. */
  application: { resource: 'applications', verb: 'create-workers' },
  /** resourceNames: what the workers may refer to (volumes, env, image pull Secrets). */
  secrets: { resource: 'secrets', verb: 'use' },
  configMaps: { resource: 'configmaps', verb: 'use' },
  claims: { resource: 'persistentvolumeclaims', verb: 'use' },
} as const;

export interface PodCheck {
  readonly condition: string;
  readonly message: string;
}

const str = (s: string) => `'${s}'`;
const check = (condition: string, message: string): PodCheck => ({ condition, message });

/** Whether the requesting user's RBAC holds `mark` (for `name`, if given) in the request's namespace. */
export function marked(mark: { resource: string; verb: string }, name?: string): string {
  const named = name === undefined ? '' : `.name(${name})`;
  return `authorizer.group(${str(FENCE_MARK_GROUP)}).resource(${str(mark.resource)}).namespace(request.namespace)${named}.check(${str(mark.verb)}).allowed()`;
}

const VOLUMES = 'object.spec.?volumes.orValue([])';
/** The only volume kinds a worker has: none reaches the node or another namespace. */
const VOLUME_KINDS = ['emptyDir', 'secret', 'configMap', 'persistentVolumeClaim', 'projected', 'downwardAPI'];

const NO_HOST_NAMESPACES = check(
  '!object.spec.?hostNetwork.orValue(false) && !object.spec.?hostPID.orValue(false) && !object.spec.?hostIPC.orValue(false)',
  'the Pod uses the host network, PID or IPC namespace',
);
const NO_HOST_PATH = check(`${VOLUMES}.all(v, !has(v.hostPath))`, 'the Pod mounts a hostPath volume');
const NO_PRIVILEGE = check(
  'variables.containers.all(c, !c.?securityContext.?privileged.orValue(false) && c.?securityContext.?capabilities.?add.orValue([]).size() == 0)',
  'a container is privileged or adds capabilities',
);
const NO_TOKEN = check(
  `object.spec.?automountServiceAccountToken.orValue(true) == false && ${VOLUMES}.all(v, !has(v.projected) || v.projected.?sources.orValue([]).all(s, !has(s.serviceAccountToken)))`,
  'the Pod mounts an API token (automountServiceAccountToken must be false, and no projected token)',
);
const NO_NODE = check(
  "!has(object.spec.nodeName) && !object.spec.?priorityClassName.orValue('').startsWith('system-')",
  'the Pod names a node or a system priority class',
);

/** The Pod's one owner: its Job (`appId`, with HA) or the Job's Pod (`<appId>-xxxxx`, the master). */
function ownerIsTheApplication(appId: string): string {
  return `object.metadata.?ownerReferences.orValue([]).size() == 1 && object.metadata.ownerReferences.all(o, (o.apiVersion == 'batch/v1' && o.kind == 'Job' && o.name == ${appId}) || (o.apiVersion == 'v1' && o.kind == 'Pod' && o.name.matches('^' + ${appId} + '-[a-z0-9]{5}$')))`;
}
const OWNER_MESSAGE =
  "the Pod is not owned by its application's Job or master Pod alone (it could outlive the application)";

/** A stamped master address: an IP literal and a port, never loopback or link-local (a metadata service). */
const ADDRESS = String.raw`^(\[[0-9a-fA-F:]+\]|[0-9]{1,3}(\.[0-9]{1,3}){3}):[0-9]{1,5}$`;
const NOT_LOCAL = String.raw`^(127\.|169\.254\.|0\.|\[::1?\]|\[fe80:|\[::ffff:(127|169\.254)\.)`;
const stampedValue = (e: string) =>
  `${e}.name in [${STAMPED_ENV.map(str).join(', ')}] && !has(${e}.valueFrom) && ${e}.?value.orValue('').matches(r'${ADDRESS}') && !${e}.value.matches(r'${NOT_LOCAL}')`;

/** Each container of the Pod has a template container of its name with the same value of each field. */
const CONTAINER_FIELDS = [
  'command',
  'args',
  'workingDir',
  'ports',
  'envFrom',
  'volumeMounts',
  'volumeDevices',
  'livenessProbe',
  'readinessProbe',
  'startupProbe',
  'lifecycle',
  'securityContext',
  'restartPolicy',
  'stdin',
  'tty',
];
/** Resources: the template's values, plus at most a LimitRange's ephemeral-storage default. */
const resources = (kind: 'requests' | 'limits') =>
  `t.?resources.?${kind}.orValue({}).all(k, c.?resources.?${kind}.orValue({})[?k] == t.resources.${kind}[?k]) && c.?resources.?${kind}.orValue({}).all(k, k in t.?resources.?${kind}.orValue({}) || k == 'ephemeral-storage')`;

/** Pod-level fields pinned to the template's value. */
const POD_FIELDS = [
  'restartPolicy',
  'securityContext',
  'imagePullSecrets',
  'nodeSelector',
  'affinity',
  'topologySpreadConstraints',
  'runtimeClassName',
  'schedulerName',
  'dnsPolicy',
  'dnsConfig',
  'hostAliases',
  'hostname',
  'subdomain',
  'shareProcessNamespace',
  'activeDeadlineSeconds',
  'readinessGates',
  'resourceClaims',
  'hostUsers',
  'os',
  'enableServiceLinks',
];
/** What DefaultTolerationSeconds adds to every Pod that does not tolerate these taints itself. */
const DEFAULT_TOLERATION = `x.?key.orValue('') in ['node.kubernetes.io/not-ready', 'node.kubernetes.io/unreachable'] && x.?operator.orValue('') == 'Exists' && x.?effect.orValue('') == 'NoExecute'`;

/** Against the worker template (`variables.template`, `variables.templateContainers`) that names the creator. */
export const TEMPLATE_CHECKS: readonly PodCheck[] = [
  check(
    'variables.template.metadata.?labels.orValue({}).all(k, object.metadata.?labels.orValue({})[?k] == variables.template.metadata.labels[?k])',
    "the Pod lacks the application's labels",
  ),
  check(
    `object.metadata.?annotations.orValue({}).all(k, k.startsWith('seatunnel.apache.org/') || variables.template.metadata.?annotations.orValue({})[?k] == object.metadata.annotations[?k])`,
    "the Pod has an annotation that is not in the worker template's",
  ),
  check(ownerIsTheApplication('variables.appId'), OWNER_MESSAGE),
  check(
    "object.spec.?serviceAccountName.orValue('default') == variables.template.spec.?serviceAccountName.orValue('default')",
    "the Pod runs as another ServiceAccount than the worker template's",
  ),
  NO_TOKEN,
  NO_HOST_NAMESPACES,
  NO_HOST_PATH,
  check(
    `${VOLUMES}.all(v, variables.template.spec.?volumes.orValue([]).exists(t, t == v))`,
    'the Pod has a volume that is not in the worker template',
  ),
  NO_PRIVILEGE,
  check(
    'object.spec.containers.size() == variables.template.spec.containers.size() && object.spec.?initContainers.orValue([]).size() == variables.template.spec.?initContainers.orValue([]).size() && !has(object.spec.ephemeralContainers) && variables.containers.all(c, variables.templateContainers.exists(t, t.name == c.name && t.image == c.image))',
    "the Pod's containers or images differ from the worker template's",
  ),
  check(
    // Equal except the variables the runtime stamps with the master's address (a plain address only).
    `variables.containers.all(c, variables.templateContainers.exists(t, t.name == c.name && ${CONTAINER_FIELDS.map((f) => `t.?${f} == c.?${f}`).join(' && ')} && t.?env.orValue([]).size() == c.?env.orValue([]).size() && c.?env.orValue([]).all(e, t.?env.orValue([]).exists(te, te == e || (te.name == e.name && ${stampedValue('e')})))))`,
    "a container's command, environment, ports, probes, hooks, mounts or security context differ from the worker template's",
  ),
  check(
    `variables.containers.all(c, variables.templateContainers.exists(t, t.name == c.name && ${resources('requests')} && ${resources('limits')}))`,
    "a container's resources differ from the worker template's",
  ),
  check(
    `${POD_FIELDS.map((f) => `object.spec.?${f} == variables.template.spec.?${f}`).join(' && ')} && !has(object.spec.nodeName)`,
    "the Pod's restart policy, security context, pull Secrets, placement or DNS differ from the worker template's, or it names a node",
  ),
  check(
    `object.spec.?priorityClassName.orValue('') == variables.template.spec.?priorityClassName.orValue('') || (variables.template.spec.?priorityClassName.orValue('') == '' && !object.spec.priorityClassName.startsWith('system-'))`,
    "the Pod's priority class differs from the worker template's",
  ),
  check(
    `object.spec.?tolerations.orValue([]).all(x, variables.template.spec.?tolerations.orValue([]).exists(y, y == x) || (${DEFAULT_TOLERATION}))`,
    'the Pod tolerates a taint the worker template does not',
  ),
];

const usable = (mark: { resource: string; verb: string }, name: string) => marked(mark, `${name}.orValue('')`);

// Kubernetes prices an authorization check so that one CEL expression makes at most two
// (k8s.io/apiserver pkg/cel/library/cost.go: 350000 each, against a per-call limit of 1000000); a
// third is an error, and the policy, failing closed, refuses the Pod. So every Secret, ConfigMap
// and claim a Pod names is checked in an expression of its own: the variable `references` lists the
// main container's environment references as [resource, name] (no check in it), and each slot
// (position) has its expression; so do the image pull Secrets and the volumes. The slots bound what
// a fenced Pod may name (the model refuses a worker beyond them:
// lib/model/rules/fence-budget.ts), and the binding's budget (10000000) holds every slot with the
// application's check.

/**
 * The floor policy's variable: per container, the [resource, name] of each Secret/ConfigMap its env and
 * envFrom name (`string()`: the containers' list is `dyn` to the type checker, and a list literal must have one type).
 */
export const REFERENCES_VARIABLE = {
  name: 'references',
  expression: `object.spec.containers.map(c, c.?env.orValue([]).filter(e, has(e.valueFrom) && (has(e.valueFrom.secretKeyRef) || has(e.valueFrom.configMapKeyRef))).map(e, has(e.valueFrom.secretKeyRef) ? [${str(FENCE_MARKS.secrets.resource)}, string(e.valueFrom.secretKeyRef.?name.orValue(''))] : [${str(FENCE_MARKS.configMaps.resource)}, string(e.valueFrom.configMapKeyRef.?name.orValue(''))]) + c.?envFrom.orValue([]).filter(f, has(f.secretRef) || has(f.configMapRef)).map(f, has(f.secretRef) ? [${str(FENCE_MARKS.secrets.resource)}, string(f.secretRef.?name.orValue(''))] : [${str(FENCE_MARKS.configMaps.resource)}, string(f.configMapRef.?name.orValue(''))]))`,
};

const REFERENCE_MESSAGE =
  "the Pod's environment or image pull Secrets refer to an object its creator's Role does not mark for its workers";
/** Secrets and ConfigMaps carry the same verb; the resource comes from the reference. */
const usableReference = (ref: string) =>
  `authorizer.group(${str(FENCE_MARK_GROUP)}).resource(${ref}[0]).namespace(request.namespace).name(${ref}[1]).check(${str(FENCE_MARKS.secrets.verb)}).allowed()`;

const { containers: C, perContainer: K, pullSecrets: P, volumes: V } = FENCE_REFERENCE_SLOTS;
const PULL_SECRETS = 'object.spec.?imagePullSecrets.orValue([])';
const ENVIRONMENT_REFERENCE_CHECKS: readonly PodCheck[] = [
  check(
    `variables.references.size() <= ${C} && variables.references.all(r, r.size() <= ${K}) && ${PULL_SECRETS}.size() <= ${P}`,
    `the Pod has more containers, or names more Secrets and ConfigMaps, than the fence checks (${C} container, ${K} in its environment, ${P} image pull Secrets)`,
  ),
  check(
    `object.spec.?initContainers.orValue([]).all(c, c.?envFrom.orValue([]).size() == 0 && c.?env.orValue([]).all(e, !has(e.valueFrom) || (!has(e.valueFrom.secretKeyRef) && !has(e.valueFrom.configMapKeyRef))))`,
    "an init container's environment names a Secret or ConfigMap (a worker's init container has none)",
  ),
  ...Array.from({ length: C * K }, (_, i) => {
    const [c, k] = [Math.floor(i / K), i % K];
    const ref = `variables.references[${c}][${k}]`;
    return check(
      `variables.references.size() <= ${c} || variables.references[${c}].size() <= ${k} || ${usableReference(ref)}`,
      REFERENCE_MESSAGE,
    );
  }),
  ...Array.from({ length: P }, (_, i) =>
    check(
      `${PULL_SECRETS}.size() <= ${i} || ${usable(FENCE_MARKS.secrets, `${PULL_SECRETS}[${i}].?name`)}`,
      REFERENCE_MESSAGE,
    ),
  ),
];

/**
 * One expression per volume slot, one authorization check in each: the volume's kind picks it (a
 * conditional is priced at its dearest branch, where `||` would add both sides).
 */
const VOLUME_REFERENCE_CHECKS: readonly PodCheck[] = Array.from({ length: V }, (_, i) => {
  const v = `${VOLUMES}[${i}]`;
  return check(
    `${VOLUMES}.size() <= ${i} || (has(${v}.secret) ? ${usable(FENCE_MARKS.secrets, `${v}.secret.?secretName`)} : has(${v}.configMap) ? ${usable(FENCE_MARKS.configMaps, `${v}.configMap.?name`)} : has(${v}.persistentVolumeClaim) ? ${usable(FENCE_MARKS.claims, `${v}.persistentVolumeClaim.?claimName`)} : true)`,
    "the Pod has a volume that refers to an object its creator's Role does not mark for its workers",
  );
});

/** Without a template: what a fenced ServiceAccount's Pods must be, whatever its template was. */
export const FLOOR_CHECKS: readonly PodCheck[] = [
  check(
    `object.metadata.?labels.orValue({})[?${str(LABELS.role)}] == optional.of('worker') && ${marked(FENCE_MARKS.application, `object.metadata.?labels.orValue({})[?${str(LABELS.applicationId)}].orValue('')`)}`,
    "the Pod is not labelled as a worker of an application this ServiceAccount's Role marks as its own",
  ),
  check(
    ownerIsTheApplication(`object.metadata.?labels.orValue({})[?${str(LABELS.applicationId)}].orValue('')`),
    OWNER_MESSAGE,
  ),
  check(
    "object.spec.?serviceAccountName.orValue('default') == request.userInfo.username.split(':')[3]",
    'the Pod runs as another ServiceAccount than its creator',
  ),
  check("object.spec.?restartPolicy.orValue('Always') == 'Never'", "the Pod's restart policy is not Never"),
  NO_TOKEN,
  NO_HOST_NAMESPACES,
  NO_HOST_PATH,
  NO_PRIVILEGE,
  NO_NODE,
  check(
    `!has(object.spec.ephemeralContainers) && variables.containers.all(c, c.?ports.orValue([]).all(p, !has(p.hostPort)))`,
    'the Pod has an ephemeral container or a host port',
  ),
  check(
    `object.spec.?tolerations.orValue([]).all(x, has(x.key))`,
    'the Pod tolerates every taint (a toleration without a key)',
  ),
  check(
    `${VOLUMES}.size() <= ${V} && ${VOLUMES}.all(v, (${VOLUME_KINDS.map((k) => `has(v.${k})`).join(' || ')}) && (!has(v.projected) || v.projected.?sources.orValue([]).all(s, has(s.downwardAPI))))`,
    `the Pod has a volume of a kind workers do not use, or more volumes than the fence checks (${V})`,
  ),
  ...VOLUME_REFERENCE_CHECKS,
  ...ENVIRONMENT_REFERENCE_CHECKS,
];
