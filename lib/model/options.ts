// The option registry: every deployment-file key (`application.*`, `kubernetes.*`), the typed
// prop it maps to, how a raw value is converted, and its default, bounds, allowed values and
// documentation. This is the one place an option's default and limits are written: the resolver
// (lib/model/rules/) reads them from here, docs/options.md is generated from here, and unit tests
// check that props.ts's `@default` tags and a resolved minimal configuration agree with it. The
// compiler checks that the registry covers every field of SeaTunnelApplicationProps.

import {
  CLASS_DATA_SHARING,
  IMAGE_PULL_POLICIES,
  POD_ROLES,
  POD_SECURITY_LEVELS,
  RUNTIME_MODES,
  SPREAD_MODES,
  TOPOLOGY,
  WORKER_FAILURE_POLICIES,
} from './allowed-values';
import {
  asBoolean,
  asEntries,
  asEnum,
  asEnvValue,
  asFileMap,
  asInteger,
  asLong,
  asNumber,
  asRecord,
  asRoles,
  asString,
  asStringList,
  asStringMap,
  asTolerations,
  asTopologySpreadConstraints,
  type Coercer,
} from './coerce';
import { APP_ID_PREFIX_MAX } from './ids';
import type { SeaTunnelApplicationProps } from './props';
import { DEFAULT_RUNTIME_IMAGE } from './version';

/**
 * Where an option's key comes from, judged by the reference (docs/seatunnel-application-mode.md
 * §2): `published` = the key is in the known part of SeaTunnel's published documentation;
 * `published-name` = the published pages name it in prose but its table row is not known, so type,
 * default and syntax come from SeaTunnel's pre-release code or are ours (the description says
 * which); `pr-era` = only SeaTunnel's pre-release docs/code (PR #12460, STIP-41); `ours` = chosen
 * by this project (the description says where SeaTunnel publishes the capability).
 */
export type OptionOrigin = 'published' | 'published-name' | 'pr-era' | 'ours';

export type OptionType = 'string' | 'int' | 'long' | 'number' | 'boolean' | 'enum' | 'list' | 'map' | 'object';

export interface OptionDef<T = unknown> {
  /** The deployment-file key, e.g. `kubernetes.image-pull-policy`. `<entry>` marks a user-chosen name. */
  readonly key: string;
  readonly type: OptionType;
  /** The value the resolver uses when the option is not set. */
  readonly default?: T;
  /**
   * What happens when the option is not set and there is no default value, e.g. `generated`:
   * shown in the docs, and the start of props.ts's `@default - …` tag. Without it (and without
   * `default`), an unset option means "none": an absent or empty value.
   */
  readonly unset?: string;
  /** The option must be set. */
  readonly required?: boolean;
  /** Inclusive bounds of a numeric option. */
  readonly min?: number;
  readonly max?: number;
  /** Unit of the bounds in messages and docs (`MiB`, `ms`). */
  readonly unit?: string;
  /** The only values accepted (an enum), in the order they are listed to users. */
  readonly values?: readonly T[];
  readonly description: string;
  readonly origin: OptionOrigin;
  readonly coerce: Coercer<unknown>;
  /** Used only on the submitting host; never reaches the cluster. */
  readonly submitterOnly?: boolean;
  /** A family whose sub-keys are user-chosen entry names (`kubernetes.configmap.<entry>`). */
  readonly family?: boolean;
}

/** Props that have no deployment-file key (they come from flags such as `-c`, or only from TypeScript). */
export interface PropsOnlyDef {
  readonly propsOnly: string;
}

type Props = Required<SeaTunnelApplicationProps>;

/** The registry's shape: one definition per prop, typed by the prop's own type. */
export type OptionRegistry = { readonly [K in keyof Props]: OptionDef<Props[K]> | PropsOnlyDef };

/** An enum option: its type, allowed values and coercer all come from one list. */
const oneOf = <T extends string>(values: readonly T[]) => ({ type: 'enum' as const, values, coerce: asEnum(values) });

/** Memory of a Pod role, in MiB. */
const MEMORY_MIB = { type: 'int', default: 1024, min: 256, max: 1024 * 1024, unit: 'MiB', coerce: asInteger } as const;
/** CPU of a Pod role, in cores. The lower bound is "positive, with at most three decimals" (millicores). */
const CPU_CORES = { type: 'number', default: 1, max: 256, unit: 'cores', coerce: asNumber } as const;
/** Ports below 1024 are privileged: a process that is not root cannot bind them. */
const PORT = { type: 'int', min: 1024, max: 65535, coerce: asInteger } as const;

const roleFiles = (what: string, defaultRoles: readonly string[]) =>
  asEntries(
    asRecord(
      {
        ref: { prop: 'ref', coerce: asString },
        data: { prop: 'data', coerce: asFileMap },
        name: { prop: 'name', coerce: asString },
        mounts: { prop: 'mounts', coerce: asFileMap },
        roles: { prop: 'roles', coerce: asRoles },
      },
      `a ${what} entry (ref or data, optional name, mounts, roles; default roles [${defaultRoles.join(', ')}])`,
    ),
  );

const envFromEntries = asEntries(
  asRecord(
    {
      secret: { prop: 'secret', coerce: asString },
      configmap: { prop: 'configmap', coerce: asString },
      prefix: { prop: 'prefix', coerce: asString },
      optional: { prop: 'optional', coerce: asBoolean },
    },
    'an env-from entry (secret or configmap, optional prefix, optional)',
  ),
);

/** A role's own environment (`kubernetes.<role>.env.<NAME>` / `kubernetes.<role>.env-from.<entry>`). */
const roleEnv = (role: 'master' | 'worker', pods: string) =>
  ({
    key: `kubernetes.${role}.env.<NAME>`,
    type: 'object',
    origin: 'ours',
    family: true,
    coerce: asEntries(asEnvValue),
    description: `Environment variables of ${pods} only, in the forms and under the rules of \`kubernetes.env.<NAME>\` (reserved names included); a variable named here replaces the shared one of that name there. SeaTunnel has no per-role form.`,
  }) as const;
const roleEnvFrom = (role: 'master' | 'worker', pods: string) =>
  ({
    key: `kubernetes.${role}.env-from.<entry>`,
    type: 'object',
    origin: 'ours',
    family: true,
    coerce: envFromEntries,
    description: `Whole Secrets or ConfigMaps as environment variables of ${pods} only, as \`kubernetes.env-from.<entry>\` (same prefix rules); an entry named here replaces the shared entry of that name there. SeaTunnel has no per-role form.`,
  }) as const;

const runtimeFile = asRecord(
  {
    enabled: { prop: 'enabled', coerce: asBoolean },
    content: { prop: 'content', coerce: asString },
    file: { prop: 'file', coerce: asString },
  },
  'a runtime file (enabled, content or file)',
);

/** Bounds that hold only with `haEnabled` (outside HA the plain bounds apply). */
export const HA_LIMITS = {
  /** Fewer masters cannot take over from a lost one. */
  minMasters: 2,
  /** With no backups, a lost master loses its partitions. */
  minBackupCount: 1,
} as const;

/** Which Pods mount a ConfigMap or Secret entry that does not name its `roles`. */
export const DEFAULT_ROLES = {
  /** Connector tasks run on workers, so their files are needed there too. */
  configMaps: POD_ROLES,
  /** Least exposure: add 'worker' for files connector tasks read, such as keystores. */
  secrets: ['master'],
} as const;

export const OPTIONS: OptionRegistry = {
  // ---- application.* ----
  name: {
    key: 'application.name',
    type: 'string',
    default: 'seatunnel',
    origin: 'pr-era',
    coerce: asString,
    description: `Readable prefix of the application ID (lower-cased, sanitised, at most ${APP_ID_PREFIX_MAX} characters) and the Zeta job name.`,
  },
  applicationId: {
    propsOnly: 'The application ID; the CLI takes it from `--id` for status/cancel; constructs derive it unless given.',
  },
  runId: {
    key: 'application.run-id',
    type: 'string',
    origin: 'ours',
    coerce: asString,
    description:
      'For declarative doors (synth, cdk8s, Pulumi): changing it derives a new application ID, i.e. starts a new run. `submit` always makes a new random ID.',
  },
  jobId: {
    key: 'application.job-id',
    type: 'long',
    unset: 'generated',
    origin: 'pr-era',
    coerce: asLong,
    description:
      'Positive native Zeta job ID. Generated once on the submitting host when not set; the master never regenerates it. `--job-id` wins over this key.',
  },
  restoreJobId: {
    key: 'application.restore-job-id',
    type: 'long',
    unset: 'fresh start',
    origin: 'pr-era',
    coerce: asLong,
    description:
      'Historical Zeta job ID whose latest checkpoint initialises this new job; must differ from the job ID. A missing checkpoint fails the application (the runtime checks the checkpoint storage before submitting: a PVC, or HDFS or S3 (s3a://) through the Hadoop client of the image; other remote storage is refused). SeaTunnel 2.3 restores only under the old ID, so there the job keeps running as that ID (recorded in the job-id annotation). `--restore-job-id` wins over this key.',
  },
  workerCount: {
    key: 'application.worker-count',
    type: 'int',
    default: 1,
    min: 1,
    max: 1000,
    origin: 'published',
    coerce: asInteger,
    description: 'Fixed number of worker Pods. Capacity = worker-count × worker.slots.',
  },
  workerSlots: {
    key: 'application.worker.slots',
    type: 'int',
    default: 2,
    min: 1,
    max: 1024,
    origin: 'published',
    coerce: asInteger,
    description: 'Fixed task slots per worker.',
  },
  workerCpuCores: {
    key: 'application.worker.cpu-cores',
    ...CPU_CORES,
    origin: 'pr-era',
    description:
      'Worker CPU request and limit in cores. SeaTunnel takes whole cores; fractions with up to three decimals (e.g. 0.5) are our extension.',
  },
  workerMemoryMb: {
    key: 'application.worker.memory-mb',
    ...MEMORY_MIB,
    origin: 'pr-era',
    description:
      'Worker memory request and limit in MiB. The JVM heap is that less what the JVM needs beside it (a quarter, at least 384 MiB), and at least half of it.',
  },
  workerPort: {
    key: 'application.worker.port',
    ...PORT,
    default: 5802,
    origin: 'ours',
    description: 'Hazelcast member port of the workers; must differ from the master port and REST port.',
  },
  masterCpuCores: {
    key: 'application.master.cpu-cores',
    ...CPU_CORES,
    origin: 'pr-era',
    description: 'Master CPU request and limit in cores (fractions as for workers).',
  },
  masterMemoryMb: {
    key: 'application.master.memory-mb',
    ...MEMORY_MIB,
    origin: 'pr-era',
    description:
      'Master memory request and limit in MiB. The JVM heap is that less what the JVM needs beside it (a quarter, at least 384 MiB), and at least half of it.',
  },
  masterPort: {
    key: 'application.master.port',
    ...PORT,
    default: 5801,
    origin: 'pr-era',
    description: 'Hazelcast TCP port of the master; also the Service port and the probe port.',
  },
  masterRestPort: {
    key: 'application.master.rest-port',
    ...PORT,
    default: 8080,
    origin: 'ours',
    description:
      "Port of Zeta's REST API v2 on the master (SeaTunnel 2.3.9 and later). Only the runtime in the same Pod calls it; the NetworkPolicy admits no other Pod. SeaTunnel 2.3.8 and earlier have no REST v2: the runtime then uses REST v1 on the master's Hazelcast port, which only the application's own Pods can reach.",
  },
  startupTimeoutMillis: {
    key: 'application.startup-timeout-millis',
    type: 'long',
    default: 120_000,
    min: 5_000,
    max: 86_400_000,
    unit: 'ms',
    origin: 'pr-era',
    coerce: asInteger,
    description:
      'Applied separately to master startup (the startup probe budget) and to creating and registering all workers. Not a limit on job execution.',
  },
  scaleUpGraceMillis: {
    key: 'application.scale-up-grace-millis',
    type: 'long',
    default: 30_000,
    min: 0,
    max: 3_600_000,
    unit: 'ms',
    origin: 'ours',
    coerce: asInteger,
    description:
      "How long a worker Pod may stay Unschedulable before it fails the application when the cluster has not (yet) answered for it. A cluster autoscaler's `NotTriggerScaleUp` Event on the Pod fails it at once; its `TriggeredScaleUp` (or Karpenter's `Nominated`) Event, or a node nomination, makes the runtime wait for the new node until `application.startup-timeout-millis`. The default gives cluster-autoscaler (10 s scan interval) three scans to answer; 0 fails an Unschedulable worker at once, as on a cluster without an autoscaler. Must be less than `application.startup-timeout-millis`.",
  },
  imagePullRetryMillis: {
    key: 'application.image-pull-retry-millis',
    type: 'long',
    default: 60_000,
    min: 0,
    max: 3_600_000,
    unit: 'ms',
    origin: 'ours',
    coerce: asInteger,
    description:
      'How long a worker Pod may fail to pull its image (`ErrImagePull`, `ImagePullBackOff`) before it fails the application: the kubelet retries the pull after 10, 20, 40 s, so the default lets a registry hiccup pass with two or three retries. `InvalidImageName`, `ErrImageNeverPull` (pull policy `Never`, image not on the node) and `CreateContainerConfigError` still fail at once; 0 fails every pull error at once. Must be less than `application.startup-timeout-millis`. The master Pod (with HA the coordinator) gets the same time: its runtime cannot start without its images, so `status` reports it FAILED with `ImagePullFailed` after it, and `status --wait` returns.',
  },
  workerJoinTimeoutMillis: {
    key: 'application.worker-join-timeout-millis',
    type: 'long',
    default: 45_000,
    min: 5_000,
    max: 3_600_000,
    unit: 'ms',
    origin: 'ours',
    coerce: asInteger,
    description:
      "How long a worker's container may run, while the masters list their cluster, without the worker joining it; then its Pod is deleted and created again (a `WorkerRestarted` Event), at most twice per worker while the workers register and twice while the job runs (for a worker created meanwhile: a replacement, a restart), whatever the worker failure policy. A JVM that never joins does not recover by itself: Hazelcast's joiner can blacklist a master address it tried while that master was still starting. While the job runs, it is also how long a worker the cluster dropped may stay outside once its Pod is Ready again (after a partition it may never merge back) before it is restarted the same way (a `WorkerRejoined` Event). A worker normally joins seconds after its container starts; the default leaves room for a slow node. Must be less than `application.startup-timeout-millis`.",
  },
  apiOutageToleranceMillis: {
    key: 'application.api-outage-tolerance-millis',
    type: 'long',
    default: 900_000,
    min: 60_000,
    max: 86_400_000,
    unit: 'ms',
    origin: 'ours',
    coerce: asInteger,
    description:
      'How long the Kubernetes API server may be unreachable (a control-plane upgrade or restart, a network cut between the node and the API) before the runtime gives up with `ApiUnavailable`. Meanwhile the job keeps running: the runtime retries its watches, reads and writes, and the status annotations and Events catch up once the API answers again; a job that finished during the outage ends as it ended. Kubernetes itself keeps workloads running through such an outage, so the default is 15 minutes.',
  },
  haEnabled: {
    key: 'application.ha.enabled',
    type: 'boolean',
    default: false,
    origin: 'ours',
    coerce: asBoolean,
    description: `High availability (SeaTunnel #12886): the Zeta masters run as a StatefulSet of \`application.ha.masters\` Pods behind a stable ClusterIP Service, and the Job's Pod runs the coordinator, which survives being replaced. Needs at least ${HA_LIMITS.minMasters} masters, a backup-count of at least ${HA_LIMITS.minBackupCount} and checkpoint storage every master reaches (docs/ha.md).`,
  },
  haMasters: {
    key: 'application.ha.masters',
    type: 'int',
    default: 2,
    min: 1,
    max: 9,
    origin: 'ours',
    coerce: asInteger,
    description: `Number of Zeta masters with HA; at least ${HA_LIMITS.minMasters}. SeaTunnel has no published key for it yet (#12886 says "at least two master replicas").`,
  },
  haBackupCount: {
    key: 'application.ha.backup-count',
    type: 'int',
    default: 1,
    min: 0,
    max: 6,
    origin: 'ours',
    coerce: asInteger,
    description: `Written as \`seatunnel.engine.backup-count\` into the engine files with HA; at least ${HA_LIMITS.minBackupCount} and less than the number of masters. Zeta 2.3.8 does not read it (its maps keep Hazelcast's own single backup); later engines do.`,
  },
  haWorkerFailurePolicy: {
    key: 'application.ha.worker-failure-policy',
    ...oneOf(WORKER_FAILURE_POLICIES),
    default: 'fail',
    origin: 'ours',
    description:
      '`fail`: a lost worker Pod ends the application (as without HA). `replace`: the coordinator creates the worker again (same name) and Zeta restores the affected pipelines from the latest checkpoint, within `application.ha.worker-replacements`. Zeta restores a pipeline onto free slots, so give the workers spare slots with `replace`.',
  },
  haWorkerReplacements: {
    key: 'application.ha.worker-replacements',
    type: 'int',
    default: 3,
    min: 0,
    max: 100,
    origin: 'ours',
    coerce: asInteger,
    description:
      "With `replace`: how many worker Pods may be replaced over the life of the application; one more loss fails it. The job's `job.retry.times` (how often Zeta may restore a pipeline) becomes 4 × this + 4 unless the job config sets it (docs/ha.md).",
  },
  haCoordinatorRestarts: {
    key: 'application.ha.coordinator-restarts',
    type: 'int',
    default: 3,
    min: 0,
    max: 20,
    origin: 'ours',
    coerce: asInteger,
    description:
      "With HA: how many times a coordinator Pod that crashes or fails is started again; it re-attaches to the running job (never a second submission). Evictions, preemption and node drains do not count; a job failure or cancel still ends the Job at once. The Job's backoffLimit is one more: once the restarts are used up, one last coordinator only removes the masters and workers and fails the application (`CoordinatorRestartsExhausted`), so nothing keeps running until the Job's TTL.",
  },
  metricsEnabled: {
    key: 'application.metrics.enabled',
    type: 'boolean',
    default: true,
    origin: 'ours',
    coerce: asBoolean,
    description:
      "Zeta's telemetry (`seatunnel.engine.telemetry.metric.enabled`) on every master and worker, and one Prometheus endpoint, `/metrics` on `application.metrics.port` of the runtime's Pod (the master; with HA the coordinator), which serves the members' telemetry again with the runtime's own metrics; the Pod carries the `prometheus.io/*` scrape annotations. Scrapers never reach a member port: its Hazelcast client protocol controls jobs (docs/metrics.md). SeaTunnel publishes the telemetry key; this option and the endpoint are ours.",
  },
  metricsPort: {
    key: 'application.metrics.port',
    ...PORT,
    default: 9464,
    origin: 'ours',
    description:
      "Port of the runtime's `/metrics` in its own Pod (container port `metrics`); without HA it must differ from `application.master.port` and `application.master.rest-port`, which are in the same Pod.",
  },
  // ---- kubernetes.* ----
  namespace: {
    key: 'kubernetes.namespace',
    type: 'string',
    default: 'default',
    origin: 'published',
    coerce: asString,
    description: 'Existing namespace that holds every object of the application (DNS-1123 label).',
  },
  image: {
    key: 'kubernetes.image',
    type: 'string',
    required: true,
    origin: 'published',
    coerce: asString,
    description:
      'Image with the SeaTunnel distribution and every connector, format and driver jar the job needs; nothing is downloaded at run time.',
  },
  imagePullPolicy: {
    key: 'kubernetes.image-pull-policy',
    ...oneOf(IMAGE_PULL_POLICIES),
    default: 'IfNotPresent',
    origin: 'published',
    description: 'Pull policy of `kubernetes.image` (case-sensitive).',
  },
  imagePullSecrets: {
    key: 'kubernetes.image-pull-secrets',
    type: 'list',
    origin: 'published',
    coerce: asStringList,
    description:
      'Existing image pull Secrets: a comma-separated string or a HOCON array; entries are trimmed and an empty entry is an error.',
  },
  serviceAccount: {
    key: 'kubernetes.service-account',
    type: 'string',
    unset: 'generated: `<application-id>-runtime`',
    origin: 'published',
    coerce: asString,
    description:
      'Existing ServiceAccount of the master, the only Pod that mounts an API token; the generated Role is bound to it. Unset: a ServiceAccount is generated for the application and owned by it. `default` is refused (the Role would go to every Pod that runs as `default`). Applications that share a named ServiceAccount share their Roles: name one per application.',
  },
  seatunnelHome: {
    key: 'kubernetes.seatunnel-home',
    type: 'string',
    default: '/opt/seatunnel',
    origin: 'published',
    coerce: asString,
    description: 'SEATUNNEL_HOME inside the image: absolute, without ":".',
  },
  classDataSharing: {
    key: 'kubernetes.class-data-sharing',
    ...oneOf(CLASS_DATA_SHARING),
    default: 'auto',
    origin: 'ours',
    description:
      "Class-data sharing for the Zeta JVMs: `auto` starts each master and worker with the image's archive of the engine's classes, `<seatunnel-home>/cds/zeta.jsa`, when the image has one (a Java 17 image built with it: the JVMs start about a third faster; without it nothing changes); `off` never uses it. SeaTunnel has no such option.",
  },
  configMaps: {
    key: 'kubernetes.configmap.<entry>',
    type: 'object',
    origin: 'published',
    family: true,
    coerce: roleFiles('ConfigMap', DEFAULT_ROLES.configMaps),
    description:
      "`ref` = mount an existing ConfigMap; `data` = create and own one (name `<application-id>-<entry>` unless `name` is set; a set `name` must start with the application's readable name and a `-`, as generated names do, and must not be another application's). Keys must not start with `..` (the kubelet's own files); mount paths are written in normal form and must not be at, above or inside a path the application uses (`/opt/seatunnel-app`, `/etc/seatunnel-app/engine`, `/var/run/seatunnel-app`, the checkpoint and secret-ref paths, the ServiceAccount token directory), nor at or above SEATUNNEL_HOME, nor overlap another mount on the same Pod. SeaTunnel's engine files (`seatunnel.yaml`, `hazelcast*.yaml`, `log4j2*.properties`, `jvm_*options`) cannot be mounted into `<seatunnel-home>/config`, where the engines would not read them: give them to `kubernetes.runtime-files.<file>` or `kubernetes.config-map` (docs/runtime.md). `mounts` maps each mounted key to its full path (mounted alone with subPath, read-only); `roles` chooses master and/or worker (default both). The `mounts`/`roles` sub-keys are ours: SeaTunnel publishes only that every mounted key declares its full path.",
  },
  secrets: {
    key: 'kubernetes.secret.<entry>',
    type: 'object',
    origin: 'published-name',
    family: true,
    coerce: roleFiles('Secret', DEFAULT_ROLES.secrets),
    description:
      'Like `kubernetes.configmap.<entry>` for Secrets: `data` creates an owned Secret (values never land in a ConfigMap or a log), `ref` mounts an existing one. Default roles: master only. SeaTunnel publishes that `kubernetes.secret.*` creates an owned Secret; the sub-keys are ours.',
  },
  secretRef: {
    key: 'kubernetes.secret-ref',
    type: 'string',
    origin: 'published',
    coerce: asString,
    description:
      'Existing Secret mounted whole and read-only at `/etc/seatunnel-secret` on the master (SeaTunnel publishes a path beginning `/etc/seatunnel-se`; the rest is ours).',
  },
  env: {
    key: 'kubernetes.env.<NAME>',
    type: 'object',
    origin: 'published-name',
    family: true,
    coerce: asEntries(asEnvValue),
    description:
      'Environment variables of every engine container — the master (with HA the coordinator and the masters) and the workers, where connectors run — which on the master also resolve `${VAR}` in the job config: a literal string, `{ secret = s, key = k }` or `{ configmap = c, key = k }` (optional `optional = true`). A value reaches the container verbatim (`$` and `$(VAR)` included: the kubelet expands nothing). `kubernetes.master.env.<NAME>` / `kubernetes.worker.env.<NAME>` set a variable on one role only. SeaTunnel publishes literal, Secret-key and ConfigMap-key sources; the syntax is ours. Reserved names, on every role (they steer the runtime, Node.js, the Kubernetes client, the JVMs or Hazelcast, or this tool sets them): `KUBECONFIG`, `HOME`, `OPENSSL_CONF`, `OPENSSL_MODULES`, `OPENSSL_ENGINES`, `LD_PRELOAD`, `LD_AUDIT`, `JAVA_TOOL_OPTIONS`, `_JAVA_OPTIONS`, the variables this tool sets (`SEATUNNEL_HOME`, `JAVA_OPTS`, `JvmOption`, `JDK_JAVA_OPTIONS`, `ST_DOCKER_MEMBER_LIST`, `HZ_PHONE_HOME_ENABLED`) and every name starting with `SEATUNNEL_APP_`, `SEATUNNEL_APPLICATION_`, `SEATUNNEL_POD_`, `NODE_`, `KUBERNETES_SERVICE_` or `HZ_`.',
  },
  envFrom: {
    key: 'kubernetes.env-from.<entry>',
    type: 'object',
    origin: 'published-name',
    family: true,
    coerce: envFromEntries,
    description:
      'A whole existing Secret or ConfigMap as environment variables of every engine container (master and workers): `{ secret = s }` or `{ configmap = c }`, optional `prefix` and `optional`. A prefix that makes or could complete a reserved name (see `kubernetes.env.<NAME>`) is rejected; without a prefix the keys are only known when the Pod starts, so keep reserved names out of the object or set a prefix. SeaTunnel publishes `kubernetes.env-from.*` (whole-object envFrom); the sub-keys are ours.',
  },
  masterEnv: roleEnv('master', 'the master role (the master; with HA the coordinator and the masters)'),
  workerEnv: roleEnv('worker', 'the workers'),
  masterEnvFrom: roleEnvFrom('master', 'the master role (the master; with HA the coordinator and the masters)'),
  workerEnvFrom: roleEnvFrom('worker', 'the workers'),
  jobConfig: { propsOnly: 'The job config text; the CLI reads it from `-c`.' },
  jobConfigFile: {
    key: 'kubernetes.job-config-file',
    type: 'string',
    origin: 'published-name',
    coerce: asString,
    description:
      'Absolute path of the job file inside the master, mounted from a `kubernetes.configmap.<entry>` or `kubernetes.secret.<entry>` mount. Makes `-c` unnecessary (and `-c` is then rejected, so nothing is silently ignored). SeaTunnel publishes the key; the value syntax is ours.',
  },
  labels: {
    key: 'kubernetes.labels',
    type: 'map',
    origin: 'ours',
    coerce: asStringMap,
    description:
      "Labels on every object of the application (e.g. a cost centre from a team template). Every object also carries the recommended `app.kubernetes.io/` labels: `name` (`seatunnel`), `instance` (the application ID), `component`, `managed-by` (`seatunnel-app`), which are reserved, and `part-of` (the readable part of the application ID, the same for every run of a job) and `version` (the engine image's tag), which these labels may replace for every object.",
  },
  annotations: {
    key: 'kubernetes.annotations',
    type: 'map',
    origin: 'ours',
    coerce: asStringMap,
    description:
      'Annotations on every object of the application. Keys under `seatunnel.apache.org/` are reserved: the runtime and `status` act on them.',
  },
  masterLabels: {
    key: 'kubernetes.master.labels',
    type: 'map',
    origin: 'pr-era',
    coerce: asStringMap,
    description:
      'Extra labels of the master Pod: `k:v,k:v` or a HOCON object. Keys under `seatunnel.apache.org/` and the `app.kubernetes.io/` keys this tool sets are reserved (`part-of` and `version` can be set for every object with `kubernetes.labels`).',
  },
  workerLabels: {
    key: 'kubernetes.worker.labels',
    type: 'map',
    origin: 'pr-era',
    coerce: asStringMap,
    description: 'Extra labels of the worker Pods (same rules as master labels).',
  },
  masterAnnotations: {
    key: 'kubernetes.master.annotations',
    type: 'map',
    origin: 'pr-era',
    coerce: asStringMap,
    description: 'Annotations of the master Pod (keys under `seatunnel.apache.org/` are reserved).',
  },
  workerAnnotations: {
    key: 'kubernetes.worker.annotations',
    type: 'map',
    origin: 'pr-era',
    coerce: asStringMap,
    description: 'Annotations of the worker Pods (keys under `seatunnel.apache.org/` are reserved).',
  },
  masterNodeSelector: {
    key: 'kubernetes.master.node-selector',
    type: 'map',
    origin: 'pr-era',
    coerce: asStringMap,
    description: 'nodeSelector of the master Pod; a value may be empty (`disktype:`), as Kubernetes allows.',
  },
  workerNodeSelector: {
    key: 'kubernetes.worker.node-selector',
    type: 'map',
    origin: 'pr-era',
    coerce: asStringMap,
    description: 'nodeSelector of the worker Pods (values may be empty).',
  },
  masterTolerations: {
    key: 'kubernetes.master.tolerations',
    type: 'list',
    origin: 'ours',
    coerce: asTolerations,
    description:
      'Tolerations of the master Pod: a HOCON array of `{ key, operator, value, effect, toleration-seconds }`, or `key=value:Effect,key:Effect` (operator Exists when there is no "="). SeaTunnel publishes that tolerations are configurable; the names are ours.',
  },
  nodeLossTolerationSeconds: {
    key: 'kubernetes.node-loss-toleration-seconds',
    type: 'int',
    default: 30,
    min: 0,
    max: 3600,
    unit: 's',
    origin: 'ours',
    coerce: asInteger,
    description:
      'How long every Pod of the application stays bound to a node that stopped answering (`node.kubernetes.io/unreachable`) or is not ready (`node.kubernetes.io/not-ready`) before Kubernetes evicts it — the `tolerationSeconds` of those two NoExecute taints, 300 s when a Pod says nothing. The node controller notices a silent node after its grace period (50 s by default), so a worker on a lost node is given up about 80 s after the loss instead of 350 s: replaced under `application.ha.worker-failure-policy = replace`, else the application fails; a lost coordinator is started again elsewhere. A lost HA master is not replaced until its Pod object is gone (a StatefulSet keeps at most one Pod per name): docs/ha.md says how. A toleration for either taint in `kubernetes.master.tolerations` / `kubernetes.worker.tolerations` wins.',
  },
  workerTolerations: {
    key: 'kubernetes.worker.tolerations',
    type: 'list',
    origin: 'ours',
    coerce: asTolerations,
    description: 'Tolerations of the worker Pods (same syntax).',
  },
  masterSpread: {
    key: 'kubernetes.master.spread',
    ...oneOf(SPREAD_MODES),
    default: 'preferred',
    origin: 'ours',
    description:
      "How the HA masters keep apart: pod anti-affinity among the application's masters over `kubernetes.master.spread-topology` (by default: each on a node of its own). `preferred`: the scheduler avoids putting two masters in one domain, and does when nothing else fits. `required`: at most one master per domain; a master that finds no free domain stays Pending (Unschedulable), and a replacement needs a free domain too, so have more domains than masters. `none`: no rule. With one master (no HA) there is nothing to keep apart. cdk8s-plus's `scheduling.spread()` with a weight is `preferred`, without one `required`. SeaTunnel has no such option.",
  },
  workerSpread: {
    key: 'kubernetes.worker.spread',
    ...oneOf(SPREAD_MODES),
    default: 'none',
    origin: 'ours',
    description:
      "As `kubernetes.master.spread`, for the application's workers over `kubernetes.worker.spread-topology`. `required` places at most one worker per domain: more workers than domains leave some Unschedulable, which fails the application after `application.scale-up-grace-millis`. To balance many workers over zones, use `kubernetes.worker.topology-spread-constraints`.",
  },
  masterSpreadTopology: {
    key: 'kubernetes.master.spread-topology',
    type: 'list',
    default: [TOPOLOGY.hostname],
    origin: 'ours',
    coerce: asStringList,
    description: `Node labels whose values are the domains \`kubernetes.master.spread\` keeps the masters apart over: \`${TOPOLOGY.hostname}\` (a node), \`${TOPOLOGY.zone}\`, \`${TOPOLOGY.region}\` or any node label key; a list or a comma-separated string. With several, each applies (with \`required\`: one master per node and one per zone). Nodes without the label are not in any domain and are not held back.`,
  },
  workerSpreadTopology: {
    key: 'kubernetes.worker.spread-topology',
    type: 'list',
    default: [TOPOLOGY.hostname],
    origin: 'ours',
    coerce: asStringList,
    description: 'As `kubernetes.master.spread-topology`, for `kubernetes.worker.spread`.',
  },
  masterTopologySpreadConstraints: {
    key: 'kubernetes.master.topology-spread-constraints',
    type: 'list',
    origin: 'ours',
    coerce: asTopologySpreadConstraints,
    description:
      "Kubernetes topology spread constraints of the HA masters, passed through: a HOCON array of `{ maxSkew, topologyKey, whenUnsatisfiable, labelSelector, minDomains, nodeAffinityPolicy, nodeTaintsPolicy, matchLabelKeys }` (Kubernetes' names, or kebab-case: `max-skew`, …), or `topologyKey:maxSkew:whenUnsatisfiable,…` on the command line. Without `labelSelector` the application's masters are counted. Checked as the API server checks them (`minDomains` only with DoNotSchedule; one constraint per topologyKey and whenUnsatisfiable). `minDomains` is on by default from Kubernetes 1.27, the node policies from 1.26, `matchLabelKeys` from 1.27; older servers drop them. Without HA they have no effect.",
  },
  workerTopologySpreadConstraints: {
    key: 'kubernetes.worker.topology-spread-constraints',
    type: 'list',
    origin: 'ours',
    coerce: asTopologySpreadConstraints,
    description:
      'As `kubernetes.master.topology-spread-constraints`, for the worker Pods (without `labelSelector` the application\'s workers are counted), e.g. `[{ maxSkew = 1, topologyKey = "topology.kubernetes.io/zone", whenUnsatisfiable = DoNotSchedule }]` to balance them over zones. A worker a DoNotSchedule constraint holds back is Unschedulable.',
  },
  checkpointPvc: {
    key: 'kubernetes.checkpoint-pvc',
    type: 'string',
    origin: 'published-name',
    coerce: asString,
    description:
      "Existing PVC mounted read-write at `/opt/seatunnel/checkpoints` on the master only; never owner-referenced, changed or deleted. SeaTunnel's published pages name the key; the mount path and semantics follow its pre-release code.",
  },
  finishedJobRetentionSeconds: {
    key: 'kubernetes.finished-job-retention-seconds',
    type: 'int',
    default: 86_400,
    min: 1,
    max: 2_147_483_647,
    unit: 's',
    origin: 'published-name',
    coerce: asInteger,
    description:
      "How long a finished application stays visible: the Job's `ttlSecondsAfterFinished`. SeaTunnel's published pages name the key; default and bounds follow its pre-release code.",
  },
  kubeconfig: {
    key: 'kubernetes.kubeconfig',
    type: 'string',
    unset: 'KUBECONFIG, then in-cluster',
    origin: 'published-name',
    coerce: asString,
    submitterOnly: true,
    description:
      "Kubeconfig of the submitting host. Never sent to the cluster; keep it in the deployment file rather than in `-D`. SeaTunnel's published pages name the key; the details follow its pre-release code.",
  },
  runtimeConfigMap: {
    key: 'kubernetes.config-map',
    type: 'string',
    origin: 'pr-era',
    coerce: asString,
    description:
      "Existing ConfigMap with SeaTunnel's runtime files (a distribution's whole `config/` directory will do), mounted read-only at `<seatunnel-home>/config` on the master and every worker; never created, changed or deleted. `submit` and `preflight` read it first: it must hold `seatunnel.yaml`, a Hazelcast file per role (`hazelcast-master.yaml`/`hazelcast-worker.yaml`, else `hazelcast.yaml`) and `log4j2.properties`, except files that `kubernetes.runtime-files` supplies or disables; `jvm_master_options`/`jvm_worker_options` (else `jvm_options`) are read when present, their flags placed after the generated ones (heap from memory-mb) and before `kubernetes.runtime-files.jvm-options`; other files are ignored. Its files take the place of the generated defaults; the keys application mode controls are applied on top when each engine starts. SeaTunnel's shipped values of those keys (cluster name `seatunnel`, localhost member lists, the 2g heap…) are replaced with a warning; a file that sets one to another value, or sets the heap, is refused before anything is created. See docs/runtime.md.",
  },
  runtimeFiles: {
    key: 'kubernetes.runtime-files.<file>',
    type: 'object',
    unset: 'all generated',
    origin: 'ours',
    family: true,
    coerce: asRecord(
      {
        engine: { prop: 'engine', coerce: runtimeFile },
        hazelcast: { prop: 'hazelcast', coerce: runtimeFile },
        'jvm-options': { prop: 'jvmOptions', coerce: runtimeFile },
        log4j2: { prop: 'log4j2', coerce: runtimeFile },
      },
      'runtime files: engine, hazelcast, jvm-options, log4j2',
    ),
    description:
      '`<file>` is `engine` (seatunnel.yaml), `hazelcast`, `jvm-options` or `log4j2`. Each is generated by default; `{ file = path }` or `{ content = "…" }` supplies one (YAML: merged under the keys application mode controls; JVM options: appended; Log4j2: replaces it); `{ enabled = false }` uses the image\'s own file. A Hazelcast file may not change member discovery (no auto-detection, multicast, kubernetes or cloud join, discovery strategies, advanced network) nor `network.rest-api`. Supplied files go into one ConfigMap (engine, hazelcast and jvm-options once per role), which must stay under the API server\'s 1 MiB. SeaTunnel publishes that each can be specified or disabled; the names are ours.',
  },
  rbacCreate: {
    key: 'kubernetes.rbac.create',
    type: 'boolean',
    default: true,
    origin: 'ours',
    coerce: asBoolean,
    description:
      "Generate the master's Role (exactly the calls the runtime makes) and its RoleBinding to the service account.",
  },
  networkPolicyEnabled: {
    key: 'kubernetes.network-policy.enabled',
    type: 'boolean',
    default: true,
    origin: 'ours',
    coerce: asBoolean,
    description:
      "Generate NetworkPolicies: the master and workers accept Hazelcast only from the application's own Pods; the REST port is reachable by no other Pod.",
  },
  metricsScraperNamespaceLabels: {
    key: 'kubernetes.metrics.scraper-namespace-labels',
    type: 'map',
    origin: 'ours',
    coerce: asStringMap,
    description:
      "Labels of the namespaces whose Pods may scrape the runtime's `/metrics` (`k:v,k:v` or a HOCON object, rules as for `kubernetes.master.node-selector`). With `kubernetes.metrics.scraper-pod-labels` too, a scraper must match both; alone, every Pod of those namespaces may. The NetworkPolicy then admits them to `application.metrics.port` of the runtime's Pod and nowhere else; with neither set no scraper is admitted. Needs `application.metrics.enabled`.",
  },
  metricsScraperPodLabels: {
    key: 'kubernetes.metrics.scraper-pod-labels',
    type: 'map',
    origin: 'ours',
    coerce: asStringMap,
    description:
      "Labels of the Pods that may scrape the runtime's `/metrics`; alone, they are looked for in the application's namespace (with `kubernetes.metrics.scraper-namespace-labels`, in the namespaces it matches). Needs `application.metrics.enabled`.",
  },
  metricsPodMonitor: {
    key: 'kubernetes.metrics.pod-monitor',
    type: 'boolean',
    default: false,
    origin: 'ours',
    coerce: asBoolean,
    description:
      "Also create a `PodMonitor` (the Prometheus operator's `monitoring.coreos.com/v1`) named `<application-id>-metrics` that selects the runtime's Pod and scrapes its `metrics` port at `/metrics`; owned by the Job like the application's other objects. The cluster must serve the PodMonitor CRD (`preflight` and `submit` check it before creating anything), and the submitter needs `create`, `get` and `delete` on `podmonitors` (docs/metrics.md). Needs `application.metrics.enabled`.",
  },
  metricsPodMonitorLabels: {
    key: 'kubernetes.metrics.pod-monitor-labels',
    type: 'map',
    origin: 'ours',
    coerce: asStringMap,
    description:
      "Labels of the PodMonitor, besides the application's, for a Prometheus whose `podMonitorSelector` selects by label (e.g. `release:prometheus`); `k:v,k:v` or a HOCON object, rules as for `kubernetes.labels`. Needs `kubernetes.metrics.pod-monitor`.",
  },
  podSecurity: {
    key: 'kubernetes.pod-security',
    ...oneOf(POD_SECURITY_LEVELS),
    default: 'baseline',
    origin: 'ours',
    description:
      "Pod Security Standards level the master and worker Pods are built to pass (`preflight` reports the namespace's enforced level). `baseline`: no privilege escalation, seccomp RuntimeDefault, no host access. `restricted` adds runAsNonRoot and drops all capabilities: it needs an image whose user is non-root, or `kubernetes.run-as-user`. The default is `baseline` because the stock apache/seatunnel image runs as root and writes under /opt/seatunnel.",
  },
  runAsUser: {
    key: 'kubernetes.run-as-user',
    type: 'int',
    unset: "the image's user",
    min: 1,
    max: 2_147_483_647,
    origin: 'ours',
    coerce: asInteger,
    description:
      "Non-root user ID every container of the master and worker Pods runs as (Pod `securityContext.runAsUser`). The user must be able to read SEATUNNEL_HOME and write its logs directory, and the image's /etc/passwd must name it: Zeta's checkpoint storage logs in through Hadoop, which fails without a user name (`invalid null input: name`).",
  },
  admissionFence: {
    key: 'kubernetes.admission-fence',
    type: 'boolean',
    default: true,
    origin: 'ours',
    coerce: asBoolean,
    description:
      "Name the master's ServiceAccount on the worker PodTemplate (annotation `seatunnel.apache.org/fenced-creator`) and mark it in the runtime's Role (rules of `fence.seatunnel.apache.org`, which no API serves), so that where a platform team installed the admission fence (ValidatingAdmissionPolicies `seatunnel-app-worker-fence`…, Kubernetes 1.30+, see docs/security.md) that ServiceAccount can create only Pods that match the template — and, should the template be gone, only workers of its own application. Without the platform's policies it has no effect.",
  },
  runtimeMode: {
    key: 'kubernetes.runtime.mode',
    ...oneOf(RUNTIME_MODES),
    default: 'init-container',
    origin: 'ours',
    description:
      '`init-container` copies Node.js and the runtime from `kubernetes.runtime.image` into a shared volume, so the stock SeaTunnel image is used unchanged; `embedded` expects them at /opt/seatunnel-app inside `kubernetes.image`.',
  },
  runtimeImage: {
    key: 'kubernetes.runtime.image',
    type: 'string',
    default: DEFAULT_RUNTIME_IMAGE,
    origin: 'ours',
    coerce: asString,
    description: 'Image with Node.js and the runtime bundle (built from runtime/Dockerfile).',
  },
  runtimeImagePullPolicy: {
    key: 'kubernetes.runtime.image-pull-policy',
    ...oneOf(IMAGE_PULL_POLICIES),
    default: 'IfNotPresent',
    origin: 'ours',
    description: 'Pull policy of the runtime image.',
  },
};

export const isOptionDef = (d: OptionDef | PropsOnlyDef): d is OptionDef => 'key' in d;

/** The registry entry of a prop that has a deployment-file key. */
export function fileOption<K extends keyof Props>(prop: K): OptionDef<Props[K]> {
  const def = OPTIONS[prop];
  if (!isOptionDef(def)) throw new Error(`${prop} is a props-only option: it has no deployment-file entry`);
  return def;
}

/** An option's default value; a programming error when the registry gives it none. */
export function defaultOf<K extends keyof Props>(prop: K): Props[K] {
  const value = fileOption(prop).default;
  if (value === undefined) throw new Error(`the option registry gives ${prop} no default value`);
  return value;
}

/** Deployment-file options by prop name. */
export const FILE_OPTIONS: ReadonlyArray<[keyof SeaTunnelApplicationProps, OptionDef]> = (
  Object.entries(OPTIONS) as Array<[keyof SeaTunnelApplicationProps, OptionDef | PropsOnlyDef]>
).filter((e): e is [keyof SeaTunnelApplicationProps, OptionDef] => isOptionDef(e[1]));

/** The key path of an option without its `<entry>` placeholder: `kubernetes.configmap.<entry>` → `kubernetes.configmap`. */
export const optionPath = (def: OptionDef): string => def.key.replace(/\.<[^>]+>$/, '');
