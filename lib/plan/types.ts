import type { StatefulSet } from 'kubernetes-types/apps/v1';
import type { Job } from 'kubernetes-types/batch/v1';
import type {
  ConfigMap,
  Container,
  PodSpec,
  PodTemplate,
  Secret,
  Service,
  ServiceAccount,
} from 'kubernetes-types/core/v1';
import type { LabelSelector, ObjectMeta } from 'kubernetes-types/meta/v1';
import type { NetworkPolicy } from 'kubernetes-types/networking/v1';
import type { Role, RoleBinding } from 'kubernetes-types/rbac/v1';
import type { ApplicationSpec } from '../model/spec';
import type { MasterTopology } from './topology';

export type {
  StatefulSet,
  Job,
  ConfigMap,
  Container,
  PodSpec,
  PodTemplate,
  Secret,
  Service,
  ServiceAccount,
  NetworkPolicy,
  Role,
  RoleBinding,
  ObjectMeta,
};

/**
 * The Prometheus operator's PodMonitor (`monitoring.coreos.com/v1`), as far as the plan writes it:
 * which Pods (in the PodMonitor's own namespace) and which of their named ports and paths to scrape.
 */
export interface PodMonitor {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  spec: {
    selector: LabelSelector;
    podMetricsEndpoints: Array<{ port: string; path: string }>;
  };
}

/** Any object of the plan: plain JSON with apiVersion, kind and a named metadata. */
export type KubeObject = (
  | Job
  | StatefulSet
  | Service
  | ServiceAccount
  | ConfigMap
  | Secret
  | PodTemplate
  | Role
  | RoleBinding
  | NetworkPolicy
  | PodMonitor
) & {
  apiVersion: string;
  kind: string;
  metadata: ObjectMeta & { name: string; namespace: string };
};

export interface PlanOptions {
  /**
   * Create the Job suspended. The CLI and Pulumi do (and unsuspend once the dependents exist);
   * `kubectl apply` of synthesized YAML does not (the Job comes last in the file instead).
   * @default true
   */
  readonly suspend?: boolean;
}

/** Everything one application consists of, as plain typed JSON. */
export interface ApplicationPlan {
  readonly spec: ApplicationSpec;
  /** The Job whose single Pod runs the runtime, and without HA the Zeta master too. */
  readonly job: Job & KubeObject;
  readonly service: Service & KubeObject;
  /** ConfigMaps the application owns: the engine files and every `configmap.<entry>.data`. */
  readonly configMaps: ReadonlyArray<ConfigMap & KubeObject>;
  /** Secrets the application owns (`secret.<entry>.data`). */
  readonly secrets: ReadonlyArray<Secret & KubeObject>;
  /** The worker Pod spec as data: the runtime only stamps name, labels, owner and master address. */
  readonly workerTemplate: PodTemplate & KubeObject;
  /** The generated ServiceAccount of the application (absent when the user names one). */
  readonly serviceAccount?: ServiceAccount & KubeObject;
  readonly roles: ReadonlyArray<Role & KubeObject>;
  readonly roleBindings: ReadonlyArray<RoleBinding & KubeObject>;
  readonly networkPolicies: ReadonlyArray<NetworkPolicy & KubeObject>;
  /** kubernetes.metrics.pod-monitor: the Prometheus operator's PodMonitor of the runtime's Pod. */
  readonly podMonitor?: PodMonitor & KubeObject;
  /** With HA: the masters, and the ClusterIP Service that is the stable REST endpoint (docs/ha.md). */
  readonly masters?: StatefulSet & KubeObject;
  readonly restService?: Service & KubeObject;
}

/**
 * What the feature steps fold over: the master topology (whose Pods the steps edit through the
 * selectors of pod.ts), the Job (with the topology's Job Pod inside it), the worker Pod template,
 * and the objects added so far.
 */
export interface PlanDraft {
  readonly spec: ApplicationSpec;
  readonly options: Required<PlanOptions>;
  readonly topology: MasterTopology;
  job: Job & KubeObject;
  workerTemplate: PodTemplate & KubeObject;
  service?: Service & KubeObject;
  configMaps: Array<ConfigMap & KubeObject>;
  secrets: Array<Secret & KubeObject>;
  serviceAccount?: ServiceAccount & KubeObject;
  roles: Array<Role & KubeObject>;
  roleBindings: Array<RoleBinding & KubeObject>;
  networkPolicies: Array<NetworkPolicy & KubeObject>;
  podMonitor?: PodMonitor & KubeObject;
  masters?: StatefulSet & KubeObject;
  restService?: Service & KubeObject;
}

/**
 * One feature step: takes the draft and returns it with its feature added. A step edits what it
 * is given and keeps every existing field (Spark's KubernetesFeatureConfigStep contract).
 */
export interface FeatureStep {
  readonly name: string;
  apply(draft: PlanDraft): PlanDraft;
}
