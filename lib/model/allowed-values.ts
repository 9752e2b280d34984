// The closed sets of values some props accept. The prop types, the deployment-file coercers, the
// resolver's checks and the option reference are all derived from these lists, so a value added
// here is accepted (and documented) everywhere at once.

export const IMAGE_PULL_POLICIES = ['Always', 'IfNotPresent', 'Never'] as const;
/** kubernetes.class-data-sharing: use the image's archive of the engine's classes when it has one, or never. */
export const CLASS_DATA_SHARING = ['auto', 'off'] as const;

/** How the runtime reaches the master container (see `runtimeMode`). */
export const RUNTIME_MODES = ['init-container', 'embedded'] as const;

/**
 * Pod Security Standards levels the master and worker Pods are built to pass (`privileged` is
 * not offered: the Pods never need it).
 */
export const POD_SECURITY_LEVELS = ['baseline', 'restricted'] as const;

/** The two Pod roles of an application. */
export const POD_ROLES = ['master', 'worker'] as const;

/** What the coordinator does when a worker Pod is lost with HA (application.ha.worker-failure-policy). */
export const WORKER_FAILURE_POLICIES = ['fail', 'replace'] as const;
export type WorkerFailurePolicy = (typeof WORKER_FAILURE_POLICIES)[number];

export const TOLERATION_OPERATORS = ['Equal', 'Exists'] as const;

/**
 * How a role's Pods keep apart (`kubernetes.<role>.spread`): `preferred` and `required` are pod
 * anti-affinity to the role's own Pods, soft (a scheduling preference) or hard (at most one Pod of
 * the role per topology domain) — what cdk8s-plus's `scheduling.spread()` does with and without a weight.
 */
export const SPREAD_MODES = ['none', 'preferred', 'required'] as const;

/** The well-known node labels a spread is usually over (cdk8s-plus's Topology.HOSTNAME, ZONE, REGION). */
export const TOPOLOGY = {
  hostname: 'kubernetes.io/hostname',
  zone: 'topology.kubernetes.io/zone',
  region: 'topology.kubernetes.io/region',
} as const;

/** Fields of a topology spread constraint, as the API server accepts them. */
export const WHEN_UNSATISFIABLE = ['DoNotSchedule', 'ScheduleAnyway'] as const;
export const NODE_INCLUSION_POLICIES = ['Honor', 'Ignore'] as const;
export const SELECTOR_OPERATORS = ['In', 'NotIn', 'Exists', 'DoesNotExist'] as const;
export const TOLERATION_EFFECTS = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'] as const;

/** True when `value` is one of `values` (narrows its type). */
export const isOneOf = <T extends string>(values: readonly T[], value: unknown): value is T =>
  typeof value === 'string' && (values as readonly string[]).includes(value);
