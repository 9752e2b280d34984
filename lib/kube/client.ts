// Typed calls over the transport: paths from the kind table, every non-2xx answer a KubeApiError.
// The CLI (lib/submit) uses it directly; the runtime's KubePort (runtime/src/kube/rest.ts) is a
// thin layer of named calls over it.

import { isStatus, statusError } from './errors';
import { collectionPath, objectPath, query, type ObjectRef } from './resources';
import { parseServerVersion, type ServerVersion } from './server-version';
import type { KubeApi, KubeRequest, StreamEvents, WatchEvents, WatchStream } from './api';

export interface KubeMeta {
  name?: string;
  generateName?: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  ownerReferences?: Array<{
    apiVersion: string;
    kind: string;
    name: string;
    uid: string;
    controller?: boolean;
    blockOwnerDeletion?: boolean;
  }>;
  deletionTimestamp?: string;
  creationTimestamp?: string;
}

export interface AnyObject {
  apiVersion?: string;
  kind?: string;
  metadata?: KubeMeta;
  [k: string]: unknown;
}

/** Accept header that asks for metadata only (Secrets are read without their data). */
export const PARTIAL_METADATA = 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json';
const MERGE_PATCH = 'application/merge-patch+json';
const JSON_PATCH = 'application/json-patch+json';

export interface WatchParams {
  readonly labelSelector?: string;
  readonly fieldSelector?: string;
  readonly resourceVersion: string;
  /** Server-side end of the watch; the client gives up after this plus a margin of silence. */
  readonly timeoutSeconds: number;
}

/** The query of a Pod's log (core/v1 PodLogOptions), as kubectl logs sends it. */
export interface PodLogParams {
  readonly container?: string;
  readonly follow?: boolean;
  readonly previous?: boolean;
  readonly sinceSeconds?: number;
  readonly timestamps?: boolean;
  readonly tailLines?: number;
}

export class Kube {
  constructor(readonly api: KubeApi) {}

  async call<T = AnyObject>(req: KubeRequest): Promise<T> {
    const res = await this.api.request(req);
    if (res.status >= 200 && res.status < 300) return res.body as T;
    throw statusError(req, res.status, res.body);
  }

  /** GET /version: what the CLI's commands decide their behaviour from (lib/submit/admit/server-support.ts). */
  async serverVersion(): Promise<ServerVersion> {
    return parseServerVersion(await this.call({ method: 'GET', path: '/version' }));
  }

  get<T = AnyObject>(ref: ObjectRef, opts: { metadataOnly?: boolean } = {}): Promise<T> {
    return this.call<T>({
      method: 'GET',
      path: objectPath(ref),
      ...(opts.metadataOnly ? { accept: PARTIAL_METADATA } : {}),
    });
  }

  /** GET that answers undefined for 404. */
  async find<T = AnyObject>(ref: ObjectRef, opts: { metadataOnly?: boolean } = {}): Promise<T | undefined> {
    try {
      return await this.get<T>(ref, opts);
    } catch (e) {
      if (isStatus(e, 404)) return undefined;
      throw e;
    }
  }

  create<T = AnyObject>(
    obj: { apiVersion: string; kind: string },
    namespace: string,
    opts: { dryRun?: boolean; fieldManager?: string } = {},
  ): Promise<T> {
    const q = query({
      fieldManager: opts.fieldManager,
      ...(opts.dryRun ? { dryRun: 'All', fieldValidation: 'Strict' } : {}),
    });
    return this.call<T>({
      method: 'POST',
      path: `${collectionPath(obj.apiVersion, obj.kind, namespace)}${q}`,
      body: obj,
    });
  }

  list<T = AnyObject>(
    apiVersion: string,
    kind: string,
    namespace: string,
    params: { labelSelector?: string; fieldSelector?: string } = {},
  ): Promise<{ items: T[]; metadata?: { resourceVersion?: string } }> {
    return this.call({ method: 'GET', path: `${collectionPath(apiVersion, kind, namespace)}${query(params)}` });
  }

  /** DELETE; `uid` makes it a no-op for any other object that has the name now (HTTP 409). */
  delete(
    ref: ObjectRef,
    opts: {
      uid?: string;
      propagationPolicy?: 'Foreground' | 'Background' | 'Orphan';
      gracePeriodSeconds?: number;
    } = {},
  ): Promise<AnyObject> {
    return this.call({
      method: 'DELETE',
      path: objectPath(ref),
      body: {
        apiVersion: 'v1',
        kind: 'DeleteOptions',
        ...(opts.uid ? { preconditions: { uid: opts.uid } } : {}),
        ...(opts.propagationPolicy ? { propagationPolicy: opts.propagationPolicy } : {}),
        ...(opts.gracePeriodSeconds !== undefined ? { gracePeriodSeconds: opts.gracePeriodSeconds } : {}),
      },
    });
  }

  deleteCollection(
    apiVersion: string,
    kind: string,
    namespace: string,
    labelSelector: string,
    opts: {
      gracePeriodSeconds?: number;
      propagationPolicy?: 'Foreground' | 'Background' | 'Orphan';
      timeoutMs?: number;
    } = {},
  ): Promise<AnyObject> {
    return this.call({
      method: 'DELETE',
      path: `${collectionPath(apiVersion, kind, namespace)}${query({ labelSelector, gracePeriodSeconds: opts.gracePeriodSeconds })}`,
      ...(opts.propagationPolicy
        ? { body: { apiVersion: 'v1', kind: 'DeleteOptions', propagationPolicy: opts.propagationPolicy } }
        : {}),
      ...(opts.timeoutMs !== undefined ? { timeoutMs: opts.timeoutMs } : {}),
    });
  }

  jsonPatch<T = AnyObject>(ref: ObjectRef, ops: ReadonlyArray<Record<string, unknown>>): Promise<T> {
    return this.call<T>({ method: 'PATCH', path: objectPath(ref), body: ops, contentType: JSON_PATCH });
  }

  mergePatch<T = AnyObject>(ref: ObjectRef, patch: Record<string, unknown>): Promise<T> {
    return this.call<T>({ method: 'PATCH', path: objectPath(ref), body: patch, contentType: MERGE_PATCH });
  }

  /**
   * A watch of a collection from `resourceVersion`, with bookmarks. The client breaks it off after
   * 30 s of silence beyond the server's own end (timeoutSeconds), which bookmarks prevent normally.
   */
  watch(apiVersion: string, kind: string, namespace: string, params: WatchParams, events: WatchEvents): WatchStream {
    const q = query({
      watch: 1,
      labelSelector: params.labelSelector,
      fieldSelector: params.fieldSelector,
      resourceVersion: params.resourceVersion,
      allowWatchBookmarks: true,
      timeoutSeconds: params.timeoutSeconds,
    });
    return this.api.watch(`${collectionPath(apiVersion, kind, namespace)}${q}`, events, {
      idleMs: (params.timeoutSeconds + 30) * 1000,
    });
  }

  /**
   * A Pod's log, streamed (GET …/pods/NAME/log): the API server relays it from the node's kubelet.
   * Text arrives cut anywhere; with `follow` the stream lasts until the container ends.
   */
  podLog(namespace: string, name: string, params: PodLogParams, events: StreamEvents): WatchStream {
    const q = query({
      container: params.container,
      follow: params.follow || undefined,
      previous: params.previous || undefined,
      sinceSeconds: params.sinceSeconds,
      timestamps: params.timestamps || undefined,
      tailLines: params.tailLines,
    });
    return this.api.stream(`${objectPath({ apiVersion: 'v1', kind: 'Pod', namespace, name })}/log${q}`, events, {
      accept: '*/*',
    });
  }
}
