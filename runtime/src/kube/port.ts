// The Kubernetes port: every API call the runtime makes, in one small interface. Each call is
// allowed by the Role the plan generates (lib/plan/steps/rbac.ts runtimeRules) and nothing else is
// called. The implementation is ./rest.ts over the shared client (lib/kube), connected by
// ./client-node-adapter.ts; unit tests use a fake.

import type { StatefulSet } from 'kubernetes-types/apps/v1';
import type { Job } from 'kubernetes-types/batch/v1';
import type { Event, Pod, PodTemplate } from 'kubernetes-types/core/v1';
import type { ObjectMeta, OwnerReference } from 'kubernetes-types/meta/v1';

export type { StatefulSet, Job, Event, Pod, PodTemplate, ObjectMeta, OwnerReference };

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
  /**
   * 'gone' when the Pod did not exist (404). With `uid`, deletes only that incarnation; with
   * `force`, without a grace period (the object goes at once, the kubelet kills what still runs).
   */
  deletePod(name: string, opts?: { uid?: string; force?: boolean }): Promise<'deleted' | 'gone'>;
  listPods(labelSelector: string): Promise<PodList>;
  watchPods(labelSelector: string, resourceVersion: string, handlers: WatchHandlers): WatchHandle;
  /** Watch of the runtime's own Job (field selector metadata.name, which the Role's resourceNames allow). */
  watchJob(name: string, resourceVersion: string, handlers: WatchHandlers): WatchHandle;
  /**
   * Merge patch of the Job's annotations; null removes one. With `resourceVersion` only if the Job
   * is still at that version (else 409 Conflict).
   */
  patchJobAnnotations(
    name: string,
    annotations: Readonly<Record<string, string | null>>,
    precondition?: { readonly resourceVersion: string },
  ): Promise<void>;
  createEvent(event: Event): Promise<void>;
  /**
   * The Events about one worker Pod incarnation (field selector involvedObject name and uid), to
   * learn what a cluster autoscaler said about it. `list` only: RBAC cannot narrow it to these
   * Events, so the Role grants no more than `list` on events (docs/runtime.md, Permissions).
   */
  listPodEvents(podName: string, podUid: string): Promise<Event[]>;
  /**
   * A worker's log without follow (GET pods/NAME/log with tailLines), handed over in pieces as it
   * arrives: its last lines, kept before the worker is deleted. Stops after `timeoutMs` ('timeout';
   * what arrived is kept). The Role allows it on the worker names only.
   */
  readPodLog(
    name: string,
    opts: { readonly container: string; readonly tailLines: number; readonly timeoutMs: number },
    data: (chunk: Buffer) => void,
  ): Promise<'complete' | 'timeout'>;
  /** Metadata of a dependent (no data: Secrets are read as PartialObjectMetadata). */
  getMetadata(ref: ObjectRef): Promise<ObjectMeta>;
  /** Sets ownerReferences, only if the object is still at `resourceVersion` (else 409). */
  setOwnerReferences(ref: ObjectRef, ownerReferences: OwnerReference[], resourceVersion: string): Promise<void>;
  /** With HA: the masters' StatefulSet (how many are ready). */
  getStatefulSet(name: string): Promise<StatefulSet>;
  /** With HA, at the end: removes the masters. 'gone' when it did not exist. */
  deleteStatefulSet(name: string): Promise<'deleted' | 'gone'>;
}

// One error type for every API call, the CLI's and the runtime's (lib/kube/errors.ts).
import { isStatus, isTransient } from 'seatunnel-app/runtime-support';
export { KubeApiError } from 'seatunnel-app/runtime-support';
export { isStatus, isTransient };

/**
 * Whether a failed call is worth another try. A 403 is, while the runtime's Role stands: right after
 * an API server restart RBAC answers 403 for a moment. Once the application is being deleted the
 * Role goes with the Job (garbage collection, `cancel`), so a 403 is final — retrying it only keeps
 * the Pod Terminating until its grace period ends.
 */
export function retryableUnlessRoleGone(applicationDeleted: () => boolean): (e: unknown) => boolean {
  return (e) => isTransient(e) || (isStatus(e, 403) && !applicationDeleted());
}
