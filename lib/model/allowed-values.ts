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
export const TOLERATION_EFFECTS = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'] as const;

/** True when `value` is one of `values` (narrows its type). */
export const isOneOf = <T extends string>(values: readonly T[], value: unknown): value is T =>
  typeof value === 'string' && (values as readonly string[]).includes(value);
