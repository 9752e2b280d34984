// The port through which the CLI reaches Kubernetes: one raw request method, implemented by
// http-kube-api.ts (credentials from the client-node adapter or from a static kubeconfig, see
// client-node-api.ts) and by fakes in unit tests. Everything above it —
// paths, errors, create/get/delete helpers — is plain code in this file, so the submitter,
// status, cancel and preflight read as Kubernetes calls, not as HTTP.

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface KubeRequest {
  readonly method: HttpMethod;
  /** API path with query, e.g. /api/v1/namespaces/ns/pods?labelSelector=a%3Db */
  readonly path: string;
  readonly body?: unknown;
  /** Default application/json. */
  readonly contentType?: string;
  /** Default application/json. */
  readonly accept?: string;
}

export interface KubeResponse<T = unknown> {
  readonly status: number;
  readonly body: T;
}

/** The port. `request` resolves for every HTTP status; it rejects only with a KubeTransportError. */
export interface KubeApi {
  request<T = unknown>(req: KubeRequest): Promise<KubeResponse<T>>;
  /** The API server's URL, for messages. */
  readonly server: string;
  /** Releases kept-alive connections. */
  close(): void;
}

/** No HTTP response: timeout, refused or reset connection, TLS failure. */
export class KubeTransportError extends Error {
  constructor(
    message: string,
    /** True when the request may have reached the server (anything after the request was sent). */
    readonly mayHaveReachedServer: boolean,
    readonly code?: string,
  ) {
    super(message);
    this.name = 'KubeTransportError';
  }
}

/** A failed API call: an HTTP error status, or no response at all (status 0). */
export class KubeApiError extends Error {
  constructor(
    readonly method: string,
    readonly path: string,
    /** HTTP status; 0 when there was no response. */
    readonly status: number,
    /** Kubernetes Status reason (NotFound, AlreadyExists, Forbidden, …) or the transport error code. */
    readonly reason: string,
    /** The server's (or the transport's) message. */
    readonly detail: string,
    /** For status 0: the request certainly never reached the server (connection refused). */
    readonly neverSent = false,
  ) {
    super(`${method} ${path}: ${status ? `HTTP ${status} ${reason}` : reason}: ${detail}`);
    this.name = 'KubeApiError';
  }

  /**
   * The request may or may not have taken effect: no response (timeout, dropped connection) or a
   * server error. The submitter verifies such creates before deciding what to roll back.
   */
  get ambiguous(): boolean {
    return (this.status === 0 && !this.neverSent) || this.status >= 500;
  }

  /** Worth retrying for an idempotent request (reads, deletes by uid). */
  get transient(): boolean {
    return this.status === 0 || this.status >= 500 || this.status === 429;
  }
}

export function isStatus(e: unknown, status: number): boolean {
  return e instanceof KubeApiError && e.status === status;
}

/** Short description for messages: "HTTP 403 Forbidden: …" or "timeout: …". */
export function describeError(e: unknown): string {
  if (e instanceof KubeApiError) return `${e.status ? `HTTP ${e.status} ${e.reason}` : e.reason}: ${e.detail}`;
  return e instanceof Error ? e.message : String(e);
}

// ---- resources ----

export interface ObjectRef {
  readonly apiVersion: string;
  readonly kind: string;
  readonly namespace: string;
  readonly name: string;
}

export interface KubeMeta {
  name?: string;
  generateName?: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  ownerReferences?: Array<{ apiVersion: string; kind: string; name: string; uid: string; controller?: boolean; blockOwnerDeletion?: boolean }>;
  deletionTimestamp?: string;
  creationTimestamp?: string;
}

export interface AnyObject {
  apiVersion?: string;
  kind?: string;
  metadata?: KubeMeta;
  [k: string]: unknown;
}

/** Plural resource names of every kind the CLI touches (namespaced, except SelfSubjectAccessReview). */
const RESOURCES: Record<string, string> = {
  Job: 'jobs',
  Pod: 'pods',
  Service: 'services',
  ConfigMap: 'configmaps',
  Secret: 'secrets',
  PodTemplate: 'podtemplates',
  ServiceAccount: 'serviceaccounts',
  PersistentVolumeClaim: 'persistentvolumeclaims',
  ResourceQuota: 'resourcequotas',
  LimitRange: 'limitranges',
  Event: 'events',
  Role: 'roles',
  RoleBinding: 'rolebindings',
  NetworkPolicy: 'networkpolicies',
};

export function resourceOf(kind: string): string {
  const r = RESOURCES[kind];
  if (!r) throw new Error(`no resource name known for kind ${kind}`);
  return r;
}

/** API group of an apiVersion ('' for the core group). */
export function groupOf(apiVersion: string): string {
  return apiVersion.includes('/') ? apiVersion.split('/')[0] : '';
}

/** kubectl's way of naming a resource: "networkpolicies.networking.k8s.io", "pods". */
export function qualifiedResource(apiVersion: string, kind: string): string {
  const g = groupOf(apiVersion);
  return g ? `${resourceOf(kind)}.${g}` : resourceOf(kind);
}

export function collectionPath(apiVersion: string, kind: string, namespace: string): string {
  const base = apiVersion.includes('/') ? `/apis/${apiVersion}` : `/api/${apiVersion}`;
  return `${base}/namespaces/${encodeURIComponent(namespace)}/${resourceOf(kind)}`;
}

export function objectPath(ref: ObjectRef): string {
  return `${collectionPath(ref.apiVersion, ref.kind, ref.namespace)}/${encodeURIComponent(ref.name)}`;
}

export function query(params: Record<string, string | number | boolean | undefined>): string {
  const q = Object.entries(params)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`)
    .join('&');
  return q ? `?${q}` : '';
}

export function refOf(obj: { apiVersion: string; kind: string; metadata: { name: string; namespace: string } }): ObjectRef {
  return { apiVersion: obj.apiVersion, kind: obj.kind, namespace: obj.metadata.namespace, name: obj.metadata.name };
}

export function describeRef(ref: ObjectRef): string {
  return `${ref.kind} ${ref.namespace}/${ref.name}`;
}

interface StatusBody {
  kind?: string;
  reason?: string;
  message?: string;
}

/** Typed calls over the port; every non-2xx answer becomes a KubeApiError. */
export class Kube {
  constructor(readonly api: KubeApi) {}

  async call<T = AnyObject>(req: KubeRequest): Promise<T> {
    let res: KubeResponse<unknown>;
    try {
      res = await this.api.request(req);
    } catch (e) {
      if (e instanceof KubeTransportError) throw new KubeApiError(req.method, req.path, 0, e.code ?? 'no response', e.message, !e.mayHaveReachedServer);
      throw e;
    }
    if (res.status >= 200 && res.status < 300) return res.body as T;
    const body = (typeof res.body === 'object' && res.body !== null ? res.body : {}) as StatusBody;
    const text = typeof res.body === 'string' ? res.body : body.message ?? JSON.stringify(res.body ?? '');
    throw new KubeApiError(req.method, req.path, res.status, body.reason ?? statusText(res.status), String(text).slice(0, 2000));
  }

  get<T = AnyObject>(ref: ObjectRef, opts: { metadataOnly?: boolean } = {}): Promise<T> {
    return this.call<T>({
      method: 'GET',
      path: objectPath(ref),
      ...(opts.metadataOnly ? { accept: 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json' } : {}),
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

  create<T = AnyObject>(obj: { apiVersion: string; kind: string }, namespace: string, opts: { dryRun?: boolean; fieldManager?: string } = {}): Promise<T> {
    const q = query({
      fieldManager: opts.fieldManager,
      ...(opts.dryRun ? { dryRun: 'All', fieldValidation: 'Strict' } : {}),
    });
    return this.call<T>({ method: 'POST', path: `${collectionPath(obj.apiVersion, obj.kind, namespace)}${q}`, body: obj });
  }

  list<T = AnyObject>(apiVersion: string, kind: string, namespace: string, params: { labelSelector?: string; fieldSelector?: string } = {}): Promise<{ items: T[] }> {
    return this.call<{ items: T[] }>({ method: 'GET', path: `${collectionPath(apiVersion, kind, namespace)}${query(params)}` });
  }

  /** DELETE; `uid` makes it a no-op for any other object that has the name now (HTTP 409). */
  delete(ref: ObjectRef, opts: { uid?: string; propagationPolicy?: 'Foreground' | 'Background' | 'Orphan'; gracePeriodSeconds?: number } = {}): Promise<AnyObject> {
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

  deleteCollection(apiVersion: string, kind: string, namespace: string, labelSelector: string, opts: { gracePeriodSeconds?: number } = {}): Promise<AnyObject> {
    return this.call({
      method: 'DELETE',
      path: `${collectionPath(apiVersion, kind, namespace)}${query({ labelSelector, gracePeriodSeconds: opts.gracePeriodSeconds })}`,
    });
  }

  jsonPatch<T = AnyObject>(ref: ObjectRef, ops: ReadonlyArray<Record<string, unknown>>): Promise<T> {
    return this.call<T>({ method: 'PATCH', path: objectPath(ref), body: ops, contentType: 'application/json-patch+json' });
  }

  mergePatch<T = AnyObject>(ref: ObjectRef, patch: Record<string, unknown>): Promise<T> {
    return this.call<T>({ method: 'PATCH', path: objectPath(ref), body: patch, contentType: 'application/merge-patch+json' });
  }
}

function statusText(status: number): string {
  const known: Record<number, string> = {
    400: 'BadRequest', 401: 'Unauthorized', 403: 'Forbidden', 404: 'NotFound', 409: 'Conflict', 410: 'Gone',
    422: 'Invalid', 429: 'TooManyRequests', 500: 'InternalError', 502: 'BadGateway', 503: 'ServiceUnavailable', 504: 'Timeout',
  };
  return known[status] ?? 'Error';
}

/** Retries an idempotent call on transient errors (3 attempts, 200 ms then 600 ms apart). */
export async function withRetry<T>(fn: () => Promise<T>, attempts = 3, delays: readonly number[] = [200, 600]): Promise<T> {
  let last: unknown;
  for (let i = 0; i < attempts; i++) {
    try {
      return await fn();
    } catch (e) {
      last = e;
      if (!(e instanceof KubeApiError) || !e.transient || i === attempts - 1) throw e;
      await new Promise((r) => setTimeout(r, delays[Math.min(i, delays.length - 1)]));
    }
  }
  throw last;
}
