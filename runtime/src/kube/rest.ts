// The KubePort over the shared client (lib/kube): one method per API call the Role allows.

import { isStatus, type Kube, type WatchStream } from 'seatunnel-app/runtime-support';
import type {
  Event,
  Job,
  KubePort,
  ObjectMeta,
  ObjectRef,
  OwnerReference,
  Pod,
  PodList,
  PodTemplate,
  StatefulSet,
  WatchEventType,
  WatchHandle,
  WatchHandlers,
} from './port';

const WATCH_TYPES: ReadonlySet<string> = new Set(['ADDED', 'MODIFIED', 'DELETED', 'BOOKMARK', 'ERROR']);

export interface KubeRestOptions {
  /** Server-side watch timeout range in seconds; each watch picks a value in it (spreads reconnects). */
  readonly watchTimeoutSeconds?: readonly [number, number];
}

export class KubeRest implements KubePort {
  constructor(
    private readonly kube: Kube,
    readonly namespace: string,
    private readonly opts: KubeRestOptions = {},
  ) {}

  private ref(apiVersion: string, kind: string, name: string) {
    return { apiVersion, kind, namespace: this.namespace, name };
  }

  getJob(name: string): Promise<Job> {
    return this.kube.get<Job>(this.ref('batch/v1', 'Job', name));
  }

  getPod(name: string): Promise<Pod> {
    return this.kube.get<Pod>(this.ref('v1', 'Pod', name));
  }

  getPodTemplate(name: string): Promise<PodTemplate> {
    return this.kube.get<PodTemplate>(this.ref('v1', 'PodTemplate', name));
  }

  createPod(pod: Pod): Promise<Pod> {
    return this.kube.create<Pod>({ apiVersion: 'v1', kind: 'Pod', ...pod }, this.namespace);
  }

  async deletePod(name: string, opts: { uid?: string; force?: boolean } = {}): Promise<'deleted' | 'gone'> {
    try {
      await this.kube.delete(this.ref('v1', 'Pod', name), {
        propagationPolicy: 'Background',
        ...(opts.uid ? { uid: opts.uid } : {}),
        ...(opts.force ? { gracePeriodSeconds: 0 } : {}),
      });
      return 'deleted';
    } catch (e) {
      if (isStatus(e, 404)) return 'gone';
      throw e;
    }
  }

  async listPods(labelSelector: string): Promise<PodList> {
    const list = await this.kube.list<Pod>('v1', 'Pod', this.namespace, { labelSelector });
    return { items: list.items ?? [], resourceVersion: list.metadata?.resourceVersion ?? '' };
  }

  watchPods(labelSelector: string, resourceVersion: string, handlers: WatchHandlers): WatchHandle {
    return this.watch('v1', 'Pod', { labelSelector }, resourceVersion, handlers);
  }

  watchJob(name: string, resourceVersion: string, handlers: WatchHandlers): WatchHandle {
    return this.watch('batch/v1', 'Job', { fieldSelector: `metadata.name=${name}` }, resourceVersion, handlers);
  }

  private watch(
    apiVersion: string,
    kind: string,
    selector: { labelSelector?: string; fieldSelector?: string },
    resourceVersion: string,
    handlers: WatchHandlers,
  ): WatchHandle {
    const [lo, hi] = this.opts.watchTimeoutSeconds ?? [60, 120];
    const timeoutSeconds = Math.round(lo + Math.random() * (hi - lo));
    const stream: WatchStream = this.kube.watch(
      apiVersion,
      kind,
      this.namespace,
      { ...selector, resourceVersion, timeoutSeconds },
      {
        event: (type, object) => {
          if (WATCH_TYPES.has(type)) handlers.event(type as WatchEventType, object);
        },
        closed: (error) => handlers.closed(error),
      },
    );
    return { stop: () => stream.stop() };
  }

  async patchJobAnnotations(
    name: string,
    annotations: Readonly<Record<string, string | null>>,
    precondition?: { readonly resourceVersion: string },
  ): Promise<void> {
    // A resourceVersion in a merge patch is a precondition: the server answers 409 if the Job changed.
    const metadata = precondition ? { annotations, resourceVersion: precondition.resourceVersion } : { annotations };
    await this.kube.mergePatch(this.ref('batch/v1', 'Job', name), { metadata });
  }

  async createEvent(event: Event): Promise<void> {
    await this.kube.create({ apiVersion: 'v1', kind: 'Event', ...event }, this.namespace);
  }

  async listPodEvents(podName: string, podUid: string): Promise<Event[]> {
    const fieldSelector = `involvedObject.kind=Pod,involvedObject.name=${podName},involvedObject.uid=${podUid}`;
    const list = await this.kube.list<Event>('v1', 'Event', this.namespace, { fieldSelector });
    return list.items ?? [];
  }

  readPodLog(
    name: string,
    opts: { readonly container: string; readonly tailLines: number; readonly timeoutMs: number },
    data: (chunk: Buffer) => void,
  ): Promise<'complete' | 'timeout'> {
    return new Promise((resolve, reject) => {
      const stream = this.kube.podLog(
        this.namespace,
        name,
        { container: opts.container, follow: false, previous: false, tailLines: opts.tailLines, timestamps: false },
        {
          data,
          closed: (error) => {
            clearTimeout(timer);
            if (error) reject(error);
            else resolve('complete');
          },
        },
      );
      const timer = setTimeout(() => {
        stream.stop();
        resolve('timeout');
      }, opts.timeoutMs);
    });
  }

  async getMetadata(ref: ObjectRef): Promise<ObjectMeta> {
    const o = await this.kube.get<{ metadata?: ObjectMeta }>(
      { ...ref, namespace: this.namespace },
      { metadataOnly: true },
    );
    return o.metadata ?? {};
  }

  getStatefulSet(name: string): Promise<StatefulSet> {
    return this.kube.get<StatefulSet>(this.ref('apps/v1', 'StatefulSet', name));
  }

  async deleteStatefulSet(name: string): Promise<'deleted' | 'gone'> {
    try {
      // The StatefulSet controller's Pods go with it (garbage collection).
      await this.kube.delete(this.ref('apps/v1', 'StatefulSet', name), { propagationPolicy: 'Background' });
      return 'deleted';
    } catch (e) {
      if (isStatus(e, 404)) return 'gone';
      throw e;
    }
  }

  async setOwnerReferences(ref: ObjectRef, ownerReferences: OwnerReference[], resourceVersion: string): Promise<void> {
    await this.kube.mergePatch(
      { ...ref, namespace: this.namespace },
      { metadata: { ownerReferences, resourceVersion } },
    );
  }
}
