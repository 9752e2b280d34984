// The typed input of one SeaTunnel application, for TypeScript users (cdk8s, Pulumi, team
// templates). Deployment files (`application.*` / `kubernetes.*` HOCON keys) map onto exactly
// these fields through the option registry in options.ts; both then go through
// resolveApplication(), so every door shares one set of defaults and rules. The `@default` tags
// below repeat the registry's defaults for editors and generated API docs; a unit test
// (test/unit/model/props-defaults.test.ts) fails when one of them disagrees with the registry.

import type {
  CLASS_DATA_SHARING,
  IMAGE_PULL_POLICIES,
  NODE_INCLUSION_POLICIES,
  POD_ROLES,
  POD_SECURITY_LEVELS,
  RUNTIME_MODES,
  SELECTOR_OPERATORS,
  SPREAD_MODES,
  TOLERATION_EFFECTS,
  TOLERATION_OPERATORS,
  WHEN_UNSATISFIABLE,
} from './allowed-values';

/** The two Pod roles of an application. */
export type PodRole = (typeof POD_ROLES)[number];

export type ImagePullPolicy = (typeof IMAGE_PULL_POLICIES)[number];
export type ClassDataSharing = (typeof CLASS_DATA_SHARING)[number];

export type RuntimeMode = (typeof RUNTIME_MODES)[number];

export type PodSecurityLevel = (typeof POD_SECURITY_LEVELS)[number];

/** `none`, or anti-affinity to the role's own Pods: `preferred` (soft) or `required` (one Pod per domain). */
export type SpreadMode = (typeof SPREAD_MODES)[number];

/** A ConfigMap mounted into the application, either an existing one or one the application creates and owns. */
export interface ConfigMapEntryProps {
  /**
   * Name of an existing ConfigMap to mount. It is only referenced: never created, changed or deleted.
   * Exactly one of `ref` and `data` must be set.
   * @default - none
   */
  readonly ref?: string;
  /**
   * Files of a ConfigMap that the application creates and owns (deleted with the application).
   * @default - none
   */
  readonly data?: Readonly<Record<string, string>>;
  /**
   * Name of the created ConfigMap (only with `data`).
   * @default `<application-id>-<entry>`
   */
  readonly name?: string;
  /**
   * Where each key is mounted: key → absolute file path (mounted alone with `subPath`, read-only).
   * Keys not listed are not mounted (they can still feed environment variables).
   * @default - no key is mounted
   */
  readonly mounts?: Readonly<Record<string, string>>;
  /**
   * Which Pods mount the files.
   * @default ['master', 'worker'] (connector tasks run on workers)
   */
  readonly roles?: readonly PodRole[];
}

/** A Secret mounted into the application: an existing one (`ref`) or one it creates and owns (`data`). */
export interface SecretEntryProps {
  /** @default - none */
  readonly ref?: string;
  /**
   * Values of a Secret the application creates and owns. They are written to the Secret only, never
   * to a ConfigMap, an environment variable or a log.
   * @default - none
   */
  readonly data?: Readonly<Record<string, string>>;
  /** @default `<application-id>-<entry>` */
  readonly name?: string;
  /** @default - no key is mounted */
  readonly mounts?: Readonly<Record<string, string>>;
  /**
   * Which Pods mount the files.
   * @default ['master'] (least exposure; add 'worker' for files connector tasks read, such as keystores)
   */
  readonly roles?: readonly PodRole[];
}

/** The value of one environment variable of the engine containers: a literal, or a key of a Secret or ConfigMap. */
export type EnvValueProps =
  | string
  | { readonly value: string }
  | { readonly secret: string; readonly key: string; readonly optional?: boolean }
  | { readonly configmap: string; readonly key: string; readonly optional?: boolean };

/** A whole Secret or ConfigMap exposed as environment variables of the engine containers (`envFrom`). */
export interface EnvFromProps {
  /** @default - none; exactly one of `secret` and `configmap` */
  readonly secret?: string;
  /** @default - none */
  readonly configmap?: string;
  /** @default - no prefix */
  readonly prefix?: string;
  /** @default false */
  readonly optional?: boolean;
}

/** A Kubernetes toleration. */
export interface TolerationProps {
  /** @default - matches every key (only with operator Exists) */
  readonly key?: string;
  /** @default 'Equal' */
  readonly operator?: (typeof TOLERATION_OPERATORS)[number];
  /** @default '' */
  readonly value?: string;
  /** @default - matches every effect */
  readonly effect?: (typeof TOLERATION_EFFECTS)[number];
  /** @default - tolerate forever (only with effect NoExecute) */
  readonly tolerationSeconds?: number;
}

/** A label selector requirement, as in Kubernetes. */
export interface LabelSelectorRequirementProps {
  readonly key: string;
  readonly operator: (typeof SELECTOR_OPERATORS)[number];
  /** Non-empty with In / NotIn, absent with Exists / DoesNotExist. @default - none */
  readonly values?: readonly string[];
}

/** A label selector, as in Kubernetes. */
export interface LabelSelectorProps {
  /** @default - none */
  readonly matchLabels?: Readonly<Record<string, string>>;
  /** @default - none */
  readonly matchExpressions?: readonly LabelSelectorRequirementProps[];
}

/** A Kubernetes topology spread constraint (Pod `topologySpreadConstraints`), passed through after validation. */
export interface TopologySpreadConstraintProps {
  /** The most the number of matching Pods may differ between two domains; at least 1. */
  readonly maxSkew: number;
  /** The node label whose values are the domains, e.g. `topology.kubernetes.io/zone`. */
  readonly topologyKey: string;
  /** `DoNotSchedule` (a hard rule) or `ScheduleAnyway` (a preference). */
  readonly whenUnsatisfiable: (typeof WHEN_UNSATISFIABLE)[number];
  /**
   * The Pods that are counted.
   * @default - this application's Pods of the same role
   */
  readonly labelSelector?: LabelSelectorProps;
  /** With DoNotSchedule: the fewest domains to count (Kubernetes 1.27+ by default). @default - none */
  readonly minDomains?: number;
  /** Whether nodes the Pod's node selector excludes count (Kubernetes 1.26+). @default - Kubernetes': Honor */
  readonly nodeAffinityPolicy?: (typeof NODE_INCLUSION_POLICIES)[number];
  /** Whether tainted nodes the Pod does not tolerate count (Kubernetes 1.26+). @default - Kubernetes': Ignore */
  readonly nodeTaintsPolicy?: (typeof NODE_INCLUSION_POLICIES)[number];
  /** Pod label keys whose values narrow the counted Pods further (Kubernetes 1.27+). @default - none */
  readonly matchLabelKeys?: readonly string[];
}

/**
 * One of the engine's runtime files. By default each is generated for the application; a supplied
 * file is merged into the generated one (YAML files: deep merge under the keys application mode
 * must control; JVM options: appended; Log4j2: replaces it); a disabled one is not generated, so the
 * image's own file is used.
 */
export interface RuntimeFileProps {
  /** @default true */
  readonly enabled?: boolean;
  /** File content supplied inline. @default - none */
  readonly content?: string;
  /**
   * Path of a file on the submitting host (relative to the deployment file, or to the working
   * directory for props), read at synth/submit time.
   * @default - none
   */
  readonly file?: string;
}

export interface RuntimeFilesProps {
  /** `seatunnel.yaml`. @default - generated */
  readonly engine?: RuntimeFileProps;
  /** `hazelcast-master.yaml` and `hazelcast-worker.yaml`. @default - generated */
  readonly hazelcast?: RuntimeFileProps;
  /** `jvm_master_options` and `jvm_worker_options`. @default - generated (heap = the memory limit less max(384 MiB, a quarter), at least half) */
  readonly jvmOptions?: RuntimeFileProps;
  /** `log4j2.properties` (console logging so that `kubectl logs` works). @default - generated */
  readonly log4j2?: RuntimeFileProps;
}

/**
 * Everything that configures one SeaTunnel application. Only `image` (and a job, given as
 * `jobConfig` or `jobConfigFile`) is required.
 */
export interface SeaTunnelApplicationProps {
  // ---- application.* ------------------------------------------------------------------------
  /**
   * Readable prefix of the application ID, and the Zeta job name.
   * @default 'seatunnel'
   */
  readonly name?: string;
  /**
   * The application ID (Job name). Normally derived: the CLI's `submit` makes a random one per
   * submission; `synth`, cdk8s and Pulumi derive a stable one from namespace, name and `runId`.
   * @default - derived
   */
  readonly applicationId?: string;
  /**
   * Distinguishes runs of the same application in declarative doors (changing it yields a new
   * application ID, i.e. a new run).
   * @default - none
   */
  readonly runId?: string;
  /**
   * Native Zeta job ID (positive 63-bit integer). Decimal strings and bigint keep all 63 bits.
   * @default - generated once when the application is resolved
   */
  readonly jobId?: bigint | number | string;
  /**
   * Historical Zeta job ID whose latest checkpoint initialises this new job. Must differ from `jobId`.
   * @default - fresh start
   */
  readonly restoreJobId?: bigint | number | string;
  /** Fixed number of worker Pods. @default 1 */
  readonly workerCount?: number;
  /** Fixed task slots per worker. @default 2 */
  readonly workerSlots?: number;
  /** Worker CPU request and limit, in cores (up to three decimals). @default 1 */
  readonly workerCpuCores?: number;
  /** Worker memory request and limit, in MiB. @default 1024 */
  readonly workerMemoryMb?: number;
  /** Hazelcast member port of the workers. @default 5802 */
  readonly workerPort?: number;
  /** Master CPU request and limit, in cores. @default 1 */
  readonly masterCpuCores?: number;
  /** Master memory request and limit, in MiB. @default 1024 */
  readonly masterMemoryMb?: number;
  /** Hazelcast port of the master (also the Service and probe port). @default 5801 */
  readonly masterPort?: number;
  /** Port of Zeta's REST API v2 on the master; only the runtime in the same Pod uses it. @default 8080 */
  readonly masterRestPort?: number;
  /**
   * Budget for master startup, and separately for creating and registering all workers.
   * Not a limit on job execution.
   * @default 120000
   */
  readonly startupTimeoutMillis?: number;
  /** How long an Unschedulable worker waits for a cluster autoscaler to answer (docs/runtime.md). @default 30000 */
  readonly scaleUpGraceMillis?: number;
  /** How long a worker's image pull may keep failing before the application fails. @default 60000 */
  readonly imagePullRetryMillis?: number;
  /**
   * How long a worker's container may run without the worker joining the cluster before its Pod
   * is deleted and created again, at most twice per worker (docs/runtime.md). @default 45000
   */
  readonly workerJoinTimeoutMillis?: number;
  /**
   * How long the Kubernetes API server may be unreachable before the application fails
   * (`ApiUnavailable`); the job keeps running meanwhile (docs/runtime.md). @default 900000
   */
  readonly apiOutageToleranceMillis?: number;
  /**
   * `tolerationSeconds` of the not-ready and unreachable NoExecute taints on every Pod: how long
   * a Pod stays bound to a lost node before it is evicted (docs/ha.md). @default 30
   */
  readonly nodeLossTolerationSeconds?: number;
  /** High availability: masters as a StatefulSet behind a ClusterIP Service, the Job runs the coordinator (docs/ha.md). @default false */
  readonly haEnabled?: boolean;
  /** Number of masters with HA. Must be at least 2. @default 2 */
  readonly haMasters?: number;
  /** Zeta `backup-count` with HA. Must be at least 1 and less than the number of masters. @default 1 */
  readonly haBackupCount?: number;
  /** With HA: `fail` (a lost worker ends the application) or `replace` (it is created again). @default 'fail' */
  readonly haWorkerFailurePolicy?: 'fail' | 'replace';
  /** With HA and `replace`: how many worker Pods may be replaced. @default 3 */
  readonly haWorkerReplacements?: number;
  /** With HA: how many times a lost coordinator Pod is started again (the Job's backoffLimit). @default 3 */
  readonly haCoordinatorRestarts?: number;
  /**
   * Zeta's telemetry on every member and the runtime's one Prometheus endpoint, `/metrics` on
   * `metricsPort` of the runtime's Pod (docs/metrics.md). @default true
   */
  readonly metricsEnabled?: boolean;
  /** Port of the runtime's `/metrics` (container port `metrics`). @default 9464 */
  readonly metricsPort?: number;

  // ---- kubernetes.* -------------------------------------------------------------------------
  /** Existing namespace for every object of the application. @default 'default' */
  readonly namespace?: string;
  /** Image with the SeaTunnel distribution and every connector the job needs. */
  readonly image: string;
  /** @default 'IfNotPresent' */
  readonly imagePullPolicy?: ImagePullPolicy;
  /** Existing image pull Secrets. @default - none */
  readonly imagePullSecrets?: readonly string[];
  /**
   * Existing ServiceAccount of the master (the only Pod with an API token); never `default`.
   * @default - generated: `<application-id>-runtime`, owned by the application
   */
  readonly serviceAccount?: string;
  /** SEATUNNEL_HOME inside the image. @default '/opt/seatunnel' */
  readonly seatunnelHome?: string;
  /**
   * Class-data sharing for the Zeta JVMs: `auto` uses the image's archive of the engine's classes,
   * `<seatunnelHome>/cds/zeta.jsa`, when the image has one; `off` never does. @default 'auto'
   */
  readonly classDataSharing?: ClassDataSharing;
  /** ConfigMaps mounted into the application, by entry name. @default - none */
  readonly configMaps?: Readonly<Record<string, ConfigMapEntryProps>>;
  /** Secrets mounted into the application, by entry name. @default - none */
  readonly secrets?: Readonly<Record<string, SecretEntryProps>>;
  /** An existing Secret mounted whole, read-only, at /etc/seatunnel-secret on the master. @default - none */
  readonly secretRef?: string;
  /**
   * Environment variables of every engine container: the master (with HA the coordinator and the
   * masters) and the workers, where connectors run. On the master they also resolve `${VAR}` in
   * the job config. Values reach the containers verbatim (`$` included).
   * @default - none
   */
  readonly env?: Readonly<Record<string, EnvValueProps>>;
  /** Whole Secrets / ConfigMaps as environment variables of every engine container, by entry name. @default - none */
  readonly envFrom?: Readonly<Record<string, EnvFromProps>>;
  /**
   * Environment variables of the master role only (the master; with HA the coordinator and the
   * masters); a name here replaces `env`'s variable of that name there. @default - none
   */
  readonly masterEnv?: Readonly<Record<string, EnvValueProps>>;
  /** Environment variables of the workers only; a name here replaces `env`'s variable of that name there. @default - none */
  readonly workerEnv?: Readonly<Record<string, EnvValueProps>>;
  /** Like `envFrom`, on the master role only; an entry name here replaces `envFrom`'s entry of that name there. @default - none */
  readonly masterEnvFrom?: Readonly<Record<string, EnvFromProps>>;
  /** Like `envFrom`, on the workers only; an entry name here replaces `envFrom`'s entry of that name there. @default - none */
  readonly workerEnvFrom?: Readonly<Record<string, EnvFromProps>>;
  /**
   * The job config text (HOCON), sent verbatim: `${VAR}` placeholders stay unresolved until the
   * master resolves them from its environment. Mutually exclusive with `jobConfigFile`.
   * @default - none
   */
  readonly jobConfig?: string;
  /**
   * Absolute path of a job file mounted from one of `configMaps`/`secrets` on the master; the job
   * config is then not carried inline.
   * @default - none
   */
  readonly jobConfigFile?: string;
  /** Labels on every object of the application. @default - none */
  readonly labels?: Readonly<Record<string, string>>;
  /** Annotations on every object of the application. @default - none */
  readonly annotations?: Readonly<Record<string, string>>;
  /** @default - none */
  readonly masterLabels?: Readonly<Record<string, string>>;
  /** @default - none */
  readonly workerLabels?: Readonly<Record<string, string>>;
  /** @default - none */
  readonly masterAnnotations?: Readonly<Record<string, string>>;
  /** @default - none */
  readonly workerAnnotations?: Readonly<Record<string, string>>;
  /** @default - none */
  readonly masterNodeSelector?: Readonly<Record<string, string>>;
  /** @default - none */
  readonly workerNodeSelector?: Readonly<Record<string, string>>;
  /** @default - none */
  readonly masterTolerations?: readonly TolerationProps[];
  /** @default - none */
  readonly workerTolerations?: readonly TolerationProps[];
  /**
   * How the HA masters keep apart: pod anti-affinity among them over `masterSpreadTopology`,
   * `preferred` (a scheduling preference) or `required` (at most one master per domain; a master
   * that finds no free domain stays Pending). A lone master (no HA) has nothing to keep apart from.
   * @default 'preferred'
   */
  readonly masterSpread?: SpreadMode;
  /** As `masterSpread`, for the worker Pods (`required`: at most one worker per domain). @default 'none' */
  readonly workerSpread?: SpreadMode;
  /** The node labels `masterSpread` keeps the masters apart over (`TOPOLOGY` has the well-known ones). @default ['kubernetes.io/hostname'] */
  readonly masterSpreadTopology?: readonly string[];
  /** The node labels `workerSpread` keeps the workers apart over. @default ['kubernetes.io/hostname'] */
  readonly workerSpreadTopology?: readonly string[];
  /** Topology spread constraints of the HA masters, as in Kubernetes. @default - none */
  readonly masterTopologySpreadConstraints?: readonly TopologySpreadConstraintProps[];
  /** Topology spread constraints of the worker Pods, as in Kubernetes. @default - none */
  readonly workerTopologySpreadConstraints?: readonly TopologySpreadConstraintProps[];
  /**
   * Existing PVC mounted read-write at /opt/seatunnel/checkpoints on the master only; never owned or deleted.
   * @default - none
   */
  readonly checkpointPvc?: string;
  /** Seconds a finished application stays visible (the Job's ttlSecondsAfterFinished). @default 86400 */
  readonly finishedJobRetentionSeconds?: number;
  /** Submitter-local kubeconfig; never sent to the cluster. @default - KUBECONFIG, then in-cluster */
  readonly kubeconfig?: string;
  /**
   * An existing ConfigMap with SeaTunnel's own runtime files (`seatunnel.yaml`, `hazelcast.yaml` or
   * `hazelcast-master.yaml`/`hazelcast-worker.yaml`, `log4j2.properties`, optional JVM options files),
   * mounted read-only at `<seatunnelHome>/config` on the master and every worker; never created,
   * changed or deleted. Its files take the place of the generated defaults; application mode's
   * invariants are applied on top when each engine starts, and a file that contradicts one is refused.
   * @default - none
   */
  readonly runtimeConfigMap?: string;
  /** The engine's runtime files. @default - all generated */
  readonly runtimeFiles?: RuntimeFilesProps;
  /** Generate the master's Role and RoleBinding. @default true */
  readonly rbacCreate?: boolean;
  /** Generate NetworkPolicies that confine Hazelcast and REST traffic to the application. @default true */
  readonly networkPolicyEnabled?: boolean;
  /**
   * Namespace labels of the scrapers the NetworkPolicy admits to the runtime's `/metrics` (and to
   * nothing else); with `metricsScraperPodLabels`, a scraper matches both. @default - none: no scraper admitted
   */
  readonly metricsScraperNamespaceLabels?: Readonly<Record<string, string>>;
  /**
   * Pod labels of the scrapers the NetworkPolicy admits to the runtime's `/metrics`; alone, in the
   * application's namespace. @default - none: no scraper admitted
   */
  readonly metricsScraperPodLabels?: Readonly<Record<string, string>>;
  /**
   * Also create a Prometheus-operator `PodMonitor` (`<applicationId>-metrics`) selecting the
   * runtime's Pod; the cluster must serve the PodMonitor CRD (docs/metrics.md). @default false
   */
  readonly metricsPodMonitor?: boolean;
  /**
   * Labels of the PodMonitor besides the application's, for a Prometheus that selects PodMonitors
   * by label (e.g. `{ release: 'prometheus' }`). @default - none
   */
  readonly metricsPodMonitorLabels?: Readonly<Record<string, string>>;
  /**
   * Pod Security Standards level the master and worker Pods are built to pass. `restricted`
   * needs an image that runs as a non-root user (or `runAsUser`); the stock SeaTunnel image runs as root.
   * @default 'baseline'
   */
  readonly podSecurity?: PodSecurityLevel;
  /** Non-root user ID of every container of the master and worker Pods. @default - the image's user */
  readonly runAsUser?: number;
  /**
   * Name the master's ServiceAccount on the worker template, so that a platform's admission fence
   * (ValidatingAdmissionPolicy `seatunnel-app-worker-fence`) lets it create only such workers.
   * @default true
   */
  readonly admissionFence?: boolean;
  /**
   * How the runtime reaches the master container: `init-container` copies it from `runtimeImage`
   * into a shared volume so the stock SeaTunnel image is used unchanged; `embedded` expects it at
   * /opt/seatunnel-app inside `image`.
   * @default 'init-container'
   */
  readonly runtimeMode?: RuntimeMode;
  /** Image with Node.js and the runtime bundle. @default 'seatunnel-app-runtime:0.1.0' */
  readonly runtimeImage?: string;
  /** @default 'IfNotPresent' */
  readonly runtimeImagePullPolicy?: ImagePullPolicy;
}
