// The resolved, validated description of one application: every default applied, every rule
// checked. The plan is a pure function of this object.

import type {
  ClassDataSharing,
  ImagePullPolicy,
  PodRole,
  PodSecurityLevel,
  RuntimeMode,
  SpreadMode,
  TolerationProps,
  TopologySpreadConstraintProps,
} from './props';

export interface Toleration {
  readonly key?: string;
  readonly operator: NonNullable<TolerationProps['operator']>;
  readonly value?: string;
  readonly effect?: TolerationProps['effect'];
  readonly tolerationSeconds?: number;
}

/**
 * A topology spread constraint as the API takes it, with one difference: without a
 * `labelSelector` the plan counts this application's Pods of the role.
 */
export type TopologySpreadConstraint = TopologySpreadConstraintProps;

export interface RoleSpec {
  /** CPU request and limit in millicores. */
  readonly cpuMillicores: number;
  /** Memory request and limit in MiB. */
  readonly memoryMiB: number;
  /** JVM maximum heap in MiB: the memory limit less max(384 MiB, a quarter), at least half (rules/pod-roles.ts). */
  readonly heapMiB: number;
  readonly labels: Readonly<Record<string, string>>;
  readonly annotations: Readonly<Record<string, string>>;
  readonly nodeSelector: Readonly<Record<string, string>>;
  readonly tolerations: readonly Toleration[];
  /** Anti-affinity among the role's Pods over `spreadTopology` (lib/plan/spread.ts). */
  readonly spread: SpreadMode;
  /** Node label keys, at least one unless `spread` is `none`. */
  readonly spreadTopology: readonly string[];
  readonly topologySpreadConstraints: readonly TopologySpreadConstraint[];
  /**
   * Environment of this role only (`kubernetes.<role>.env.*`), on top of the shared `env`: a
   * variable named here replaces the shared one of that name on the role's Pods.
   */
  readonly env: readonly EnvVarSpec[];
  /** Like `env`, for `kubernetes.<role>.env-from.*`: an entry named here replaces the shared entry of that name. */
  readonly envFrom: readonly EnvFromSpec[];
}

export interface MasterSpec extends RoleSpec {
  readonly port: number;
  readonly restPort: number;
}

export interface WorkerSpec extends RoleSpec {
  readonly count: number;
  readonly slots: number;
  readonly port: number;
}

/** A mounted file: one key of a ConfigMap or Secret at a full path, on the chosen roles. */
export interface FileMount {
  readonly key: string;
  readonly path: string;
}

export interface MountedObject {
  /** The entry name chosen by the user (`kubernetes.configmap.<entry>`). */
  readonly entry: string;
  /** Name of the Kubernetes object. */
  readonly name: string;
  /** True when the application creates and owns the object (`data`); false for `ref`. */
  readonly owned: boolean;
  /** Content of an owned object; undefined for a reference. */
  readonly data?: Readonly<Record<string, string>>;
  readonly mounts: readonly FileMount[];
  readonly roles: readonly PodRole[];
}

export type EnvVarSpec =
  | { readonly name: string; readonly value: string }
  | { readonly name: string; readonly secret: string; readonly key: string; readonly optional: boolean }
  | { readonly name: string; readonly configmap: string; readonly key: string; readonly optional: boolean };

export interface EnvFromSpec {
  readonly entry: string;
  readonly kind: 'secret' | 'configmap';
  readonly name: string;
  readonly prefix?: string;
  readonly optional: boolean;
}

export type JobConfigSpec =
  /** Carried verbatim in the master's environment. */
  | { readonly kind: 'inline'; readonly text: string }
  /** Read by the runtime from a file mounted from a ConfigMap or Secret. */
  | { readonly kind: 'file'; readonly path: string };

export type RuntimeFileSpec =
  | { readonly mode: 'generated' }
  | { readonly mode: 'supplied'; readonly content: string; readonly origin: string }
  | { readonly mode: 'disabled' };

export interface RuntimeFilesSpec {
  readonly engine: RuntimeFileSpec;
  readonly hazelcast: RuntimeFileSpec;
  readonly jvmOptions: RuntimeFileSpec;
  readonly log4j2: RuntimeFileSpec;
}

export interface HaSpec {
  readonly masters: number;
  readonly backupCount: number;
  readonly workerFailurePolicy: 'fail' | 'replace';
  readonly workerReplacements: number;
  readonly coordinatorRestarts: number;
}

/**
 * Who may scrape the runtime's `/metrics` through the NetworkPolicy: one peer, namespaceSelector
 * AND podSelector; a missing one means the application's namespace (no namespace labels) or every
 * Pod of the matching namespaces (no Pod labels).
 */
export interface MetricsScrapers {
  readonly namespaceLabels?: Readonly<Record<string, string>>;
  readonly podLabels?: Readonly<Record<string, string>>;
}

/** application.metrics.*: Zeta's telemetry on every member, re-served by the runtime (docs/metrics.md). */
export interface MetricsSpec {
  /** The runtime's `/metrics` port in its own Pod. */
  readonly port: number;
  /** Absent: the NetworkPolicy admits no scraper. */
  readonly scrapers?: MetricsScrapers;
  /** kubernetes.metrics.pod-monitor: the Prometheus operator's PodMonitor, with these extra labels; absent when off. */
  readonly podMonitor?: { readonly labels: Readonly<Record<string, string>> };
}

export interface ApplicationSpec {
  /** Job name, value of the application-id label, argument of status/cancel. */
  readonly appId: string;
  /** application.name: the Zeta job name. */
  readonly name: string;
  readonly namespace: string;
  /** Positive 63-bit Zeta job ID as a decimal string (exact). */
  readonly jobId: string;
  readonly restoreJobId?: string;
  readonly image: string;
  readonly imagePullPolicy: ImagePullPolicy;
  readonly imagePullSecrets: readonly string[];
  /** The master's ServiceAccount (workers run as it too, without a token). */
  readonly serviceAccount: string;
  /** True when the plan creates `serviceAccount` (`kubernetes.service-account` unset). */
  readonly serviceAccountGenerated: boolean;
  readonly seatunnelHome: string;
  /** kubernetes.class-data-sharing. */
  readonly classDataSharing: ClassDataSharing;
  readonly master: MasterSpec;
  readonly worker: WorkerSpec;
  readonly startupTimeoutMillis: number;
  readonly scaleUpGraceMillis: number;
  readonly imagePullRetryMillis: number;
  readonly workerJoinTimeoutMillis: number;
  readonly apiOutageToleranceMillis: number;
  readonly nodeLossTolerationSeconds: number;
  readonly finishedJobRetentionSeconds: number;
  readonly checkpointPvc?: string;
  /** kubernetes.config-map: the user's existing runtime ConfigMap, mounted at `runtimeConfigDir(seatunnelHome)`. */
  readonly runtimeConfigMap?: string;
  readonly configMaps: readonly MountedObject[];
  readonly secrets: readonly MountedObject[];
  readonly secretRef?: string;
  /** Environment of every engine container, both roles (`kubernetes.env.*`); `master.env` / `worker.env` add to it per role. */
  readonly env: readonly EnvVarSpec[];
  readonly envFrom: readonly EnvFromSpec[];
  readonly jobConfig: JobConfigSpec;
  readonly labels: Readonly<Record<string, string>>;
  readonly annotations: Readonly<Record<string, string>>;
  readonly runtimeFiles: RuntimeFilesSpec;
  readonly rbacCreate: boolean;
  readonly networkPolicyEnabled: boolean;
  /** The Pod Security Standards level the Pods are built for, and the user they run as (undefined: the image's). */
  readonly podSecurity: { readonly level: PodSecurityLevel; readonly runAsUser?: number };
  readonly admissionFence: boolean;
  /** High availability (docs/ha.md); absent without it. */
  readonly ha?: HaSpec;
  /** application.metrics.enabled; absent when off. */
  readonly metrics?: MetricsSpec;
  readonly runtime: {
    readonly mode: RuntimeMode;
    readonly image: string;
    readonly imagePullPolicy: ImagePullPolicy;
  };
  /** Submitter-local; never rendered into any object. */
  readonly kubeconfig?: string;
}

/** Fixed paths and names shared by the plan, the runtime and the docs. */
export const PATHS = {
  checkpoints: '/opt/seatunnel/checkpoints',
  secretRef: '/etc/seatunnel-secret',
  /** The generated engine files and the runtime's settings (ConfigMap `<appId>-engine`). */
  engineConfig: '/etc/seatunnel-app/engine',
  /** Writable copy of the engine config that the runtime completes with the Pod IP. */
  workDir: '/var/run/seatunnel-app',
  /** Where the init container puts Node.js and the runtime bundle. */
  runtimeDir: '/opt/seatunnel-app',
  /** The inline job config: the key `job.conf` of the owned Secret `<appId>.job-config`, on the runtime's container only. */
  jobConfig: '/etc/seatunnel-app/job',
} as const;

/** Where `kubernetes.config-map` is mounted: SeaTunnel's own config directory, `<seatunnel-home>/config`. */
export const runtimeConfigDir = (seatunnelHome: string): string => `${seatunnelHome.replace(/\/+$/, '')}/config`;
