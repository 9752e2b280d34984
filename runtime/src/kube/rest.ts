// The KubePort over plain JSON HTTP (./http.ts): one method per API call the Role allows.

import type { KubeHttp } from './http';
import {
  KubeApiError,
  objectPath,
  type Event,
  type Job,
  type KubePort,
  type ObjectMeta,
  type ObjectRef,
  type OwnerReference,
  type Pod,
  type PodList,
  type PodTemplate,
  type WatchEventType,
  type WatchHandle,
  type WatchHandlers,
} from './port';

const MERGE_PATCH = 'application/merge-patch+json';
const PARTIAL_METADATA = 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json';
const WATCH_TYPES = new Set(['ADDED', 'MODIFIED', 'DELETED', 'BOOKMARK', 'ERROR']);

export interface KubeRestOptions {
  /** Server-side watch timeout range in seconds; each watch picks a value in it (spreads reconnects). */
  readonly watchTimeoutSeconds?: readonly [number, number];
}

export class KubeRest implements KubePort {
  private readonly ns: string;

  constructor(
    private readonly http: KubeHttp,
    readonly namespace: string,
    private readonly opts: KubeRestOptions = {},
  ) {
    this.ns = `/namespaces/${encodeURIComponent(namespace)}`;
  }

  private pods(name?: string): string {
    return `/api/v1${this.ns}/pods${name !== undefined ? `/${encodeURIComponent(name)}` : ''}`;
  }

  getJob(name: string): Promise<Job> {
    return this.http.request<Job>('GET', `/apis/batch/v1${this.ns}/jobs/${encodeURIComponent(name)}`);
  }

  getPod(name: string): Promise<Pod> {
    return this.http.request<Pod>('GET', this.pods(name));
  }

  getPodTemplate(name: string): Promise<PodTemplate> {
    return this.http.request<PodTemplate>('GET', `/api/v1${this.ns}/podtemplates/${encodeURIComponent(name)}`);
  }

  createPod(pod: Pod): Promise<Pod> {
    return this.http.request<Pod>('POST', this.pods(), { body: pod });
  }

  async deletePod(name: string, opts: { uid?: string } = {}): Promise<'deleted' | 'gone'> {
    const body = {
      apiVersion: 'v1',
      kind: 'DeleteOptions',
      propagationPolicy: 'Background',
      ...(opts.uid ? { preconditions: { uid: opts.uid } } : {}),
    };
    try {
      await this.http.request('DELETE', this.pods(name), { body });
      return 'deleted';
    } catch (e) {
      if (e instanceof KubeApiError && e.status === 404) return 'gone';
      throw e;
    }
  }

  async listPods(labelSelector: string): Promise<PodList> {
    const list = await this.http.request<{ items?: Pod[]; metadata?: { resourceVersion?: string } }>(
      'GET',
      `${this.pods()}?labelSelector=${encodeURIComponent(labelSelector)}`,
    );
    return { items: list.items ?? [], resourceVersion: list.metadata?.resourceVersion ?? '' };
  }

  watchPods(labelSelector: string, resourceVersion: string, handlers: WatchHandlers): WatchHandle {
    return this.watch(this.pods(), { labelSelector }, resourceVersion, handlers);
  }

  watchJob(name: string, resourceVersion: string, handlers: WatchHandlers): WatchHandle {
    return this.watch(`/apis/batch/v1${this.ns}/jobs`, { fieldSelector: `metadata.name=${name}` }, resourceVersion, handlers);
  }

  private watch(collection: string, selector: Record<string, string>, resourceVersion: string, handlers: WatchHandlers): WatchHandle {
    const [lo, hi] = this.opts.watchTimeoutSeconds ?? [60, 120];
    const timeoutSeconds = Math.round(lo + Math.random() * (hi - lo));
    const q = new URLSearchParams({
      watch: '1',
      ...selector,
      resourceVersion,
      allowWatchBookmarks: 'true',
      timeoutSeconds: String(timeoutSeconds),
    });
    const stream = this.http.stream(
      `${collection}?${q.toString()}`,
      (line) => {
        let ev: { type?: string; object?: unknown };
        try {
          ev = JSON.parse(line) as { type?: string; object?: unknown };
        } catch {
          return;
        }
        if (ev.type && WATCH_TYPES.has(ev.type)) handlers.event(ev.type as WatchEventType, ev.object);
      },
      (error) => handlers.closed(error),
      (timeoutSeconds + 30) * 1000,
    );
    return { stop: () => stream.abort() };
  }

  async deletePods(labelSelector: string): Promise<void> {
    await this.http.request('DELETE', `${this.pods()}?labelSelector=${encodeURIComponent(labelSelector)}`, {
      body: { apiVersion: 'v1', kind: 'DeleteOptions', propagationPolicy: 'Background' },
      timeoutMs: 30_000,
    });
  }

  async patchJobAnnotations(name: string, annotations: Readonly<Record<string, string | null>>): Promise<void> {
    await this.http.request('PATCH', `/apis/batch/v1${this.ns}/jobs/${encodeURIComponent(name)}`, {
      body: { metadata: { annotations } },
      contentType: MERGE_PATCH,
    });
  }

  async createEvent(event: Event): Promise<void> {
    await this.http.request('POST', `/api/v1${this.ns}/events`, { body: event });
  }

  getMetadata(ref: ObjectRef): Promise<ObjectMeta> {
    return this.http
      .request<{ metadata?: ObjectMeta }>('GET', objectPath(this.namespace, ref), { accept: PARTIAL_METADATA })
      .then((o) => o.metadata ?? {});
  }

  async setOwnerReferences(ref: ObjectRef, ownerReferences: OwnerReference[], resourceVersion: string): Promise<void> {
    await this.http.request('PATCH', objectPath(this.namespace, ref), {
      body: { metadata: { ownerReferences, resourceVersion } },
      contentType: MERGE_PATCH,
    });
  }
}
