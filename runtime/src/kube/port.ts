// The Kubernetes port: every API call the runtime makes, in one small interface. Each call is
// allowed by the Role the plan generates (lib/plan/steps/rbac.ts runtimeRules) and nothing else is
// called. The implementation is ./client-node-adapter.ts; unit tests use a fake.

import type { Job } from 'kubernetes-types/batch/v1';
import type { Event, Pod, PodTemplate } from 'kubernetes-types/core/v1';
import type { ObjectMeta, OwnerReference } from 'kubernetes-types/meta/v1';

export type { Job, Event, Pod, PodTemplate, ObjectMeta, OwnerReference };

/** A namespaced object named in runtime.json `dependents`. */
export interface ObjectRef {
  readonly apiVersion: string;
  readonly kind: string;
  readonly name: string;
}

export interface PodList {
  readonly items: Pod[];
  readonly resourceVersion: string;
}

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';

export interface WatchHandlers {
  /** One event; ERROR carries a meta/v1 Status (410 = the resourceVersion has expired). */
  event(type: WatchEventType, object: unknown): void;
  /** The watch ended: normally (server timeout) without an error, else with it. */
  closed(error?: Error): void;
}

export interface WatchHandle {
  stop(): void;
}

export interface KubePort {
  readonly namespace: string;
  getJob(name: string): Promise<Job>;
  getPod(name: string): Promise<Pod>;
  getPodTemplate(name: string): Promise<PodTemplate>;
  createPod(pod: Pod): Promise<Pod>;
  /** 'gone' when the Pod did not exist (404). With `uid`, deletes only that incarnation. */
  deletePod(name: string, opts?: { uid?: string }): Promise<'deleted' | 'gone'>;
  listPods(labelSelector: string): Promise<PodList>;
  watchPods(labelSelector: string, resourceVersion: string, handlers: WatchHandlers): WatchHandle;
  /** Watches one Job (field selector metadata.name=<name>; the Role names it). */
  watchJob(name: string, resourceVersion: string, handlers: WatchHandlers): WatchHandle;
  /** deletecollection by label selector. */
  deletePods(labelSelector: string): Promise<void>;
  /** Merge patch of the Job's annotations; null removes one. */
  patchJobAnnotations(name: string, annotations: Readonly<Record<string, string | null>>): Promise<void>;
  createEvent(event: Event): Promise<void>;
  /** Metadata of a dependent (no data: Secrets are read as PartialObjectMetadata). */
  getMetadata(ref: ObjectRef): Promise<ObjectMeta>;
  /** Sets ownerReferences, only if the object is still at `resourceVersion` (else 409). */
  setOwnerReferences(ref: ObjectRef, ownerReferences: OwnerReference[], resourceVersion: string): Promise<void>;
}

/** An API call that failed: HTTP status (0 = no answer) and the Status reason and message. */
export class KubeApiError extends Error {
  constructor(
    readonly status: number,
    readonly reason: string,
    message: string,
  ) {
    super(message);
    this.name = 'KubeApiError';
  }

  /** Worth retrying: no answer, timeouts, throttling and server errors. */
  get transient(): boolean {
    return this.status === 0 || this.status === 429 || this.status >= 500;
  }
}

export function isStatus(e: unknown, status: number): boolean {
  return e instanceof KubeApiError && e.status === status;
}

export function isTransient(e: unknown): boolean {
  return e instanceof KubeApiError && e.transient;
}

/** REST collection of each dependent kind (the same table as the Role's rules). */
export const RESOURCES: Readonly<Record<string, { readonly group: string; readonly resource: string }>> = {
  'v1/Service': { group: '', resource: 'services' },
  'v1/ConfigMap': { group: '', resource: 'configmaps' },
  'v1/Secret': { group: '', resource: 'secrets' },
  'v1/PodTemplate': { group: '', resource: 'podtemplates' },
  'rbac.authorization.k8s.io/v1/Role': { group: 'rbac.authorization.k8s.io', resource: 'roles' },
  'rbac.authorization.k8s.io/v1/RoleBinding': { group: 'rbac.authorization.k8s.io', resource: 'rolebindings' },
  'networking.k8s.io/v1/NetworkPolicy': { group: 'networking.k8s.io', resource: 'networkpolicies' },
};

/** API path of a namespaced object of a known kind; throws for an unknown kind. */
export function objectPath(namespace: string, ref: ObjectRef): string {
  const r = RESOURCES[`${ref.apiVersion}/${ref.kind}`];
  if (!r) throw new Error(`unknown dependent kind ${ref.apiVersion} ${ref.kind}`);
  const prefix = r.group ? `/apis/${ref.apiVersion}` : `/api/${ref.apiVersion}`;
  return `${prefix}/namespaces/${encodeURIComponent(namespace)}/${r.resource}/${encodeURIComponent(ref.name)}`;
}
