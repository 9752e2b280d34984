// The port the typed client (client.ts) talks through: plain JSON requests, watches and streams.
// KubeTransport (transport.ts) implements it over HTTP; unit tests implement it with fakes.

import type { KubeApiError } from './errors';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface KubeRequest {
  readonly method: HttpMethod;
  /** API path with query, e.g. /api/v1/namespaces/ns/pods?labelSelector=a%3Db */
  readonly path: string;
  /** Sent as JSON; a string is sent as is. */
  readonly body?: unknown;
  /** Default application/json. */
  readonly contentType?: string;
  /** Default application/json. */
  readonly accept?: string;
  /** Total deadline of this request; default the transport's. */
  readonly timeoutMs?: number;
}

export interface KubeResponse<T = unknown> {
  readonly status: number;
  /** Parsed JSON; the text as is when it is not JSON (e.g. /readyz's "ok"); undefined when empty. */
  readonly body: T;
}

export interface WatchEvents {
  /** One event, as the server sent it: type (ADDED, MODIFIED, DELETED, BOOKMARK, ERROR) and object. */
  event(type: string, object: unknown): void;
  /** Called once when the watch ends: without an error after a clean end, else with it (a non-200 answer is a KubeApiError with its status). Not called after stop(). */
  closed(error?: KubeApiError): void;
}

export interface WatchStream {
  /** Ends the watch silently. */
  stop(): void;
}

export interface StreamEvents {
  /** A piece of a 200 answer's body, as it arrives (a Pod log is text cut anywhere, even inside a character). */
  data(chunk: Buffer): void;
  /** Called once when the stream ends: without an error after a clean end, else with it (a non-200 answer is a KubeApiError with its status). Not called after stop(). */
  closed(error?: KubeApiError): void;
}

export interface StreamOptions {
  /** Break the stream off after this much silence; none when undefined (a followed log may be quiet for hours). */
  readonly idleMs?: number;
  /** Default application/json. */
  readonly accept?: string;
}

/** What the typed client (client.ts) needs; the transport below, and fakes in unit tests. */
export interface KubeApi {
  /** Resolves for every HTTP status; rejects only with a KubeApiError of status 0 (no usable answer). */
  request<T = unknown>(req: KubeRequest): Promise<KubeResponse<T>>;
  /** A streaming GET of `path` (which carries watch=1 and its parameters). */
  watch(path: string, events: WatchEvents, opts: { readonly idleMs: number }): WatchStream;
  /** A streaming GET of `path` whose body is handed over as it arrives (Pod logs with follow=true). */
  stream(path: string, events: StreamEvents, opts?: StreamOptions): WatchStream;
  /** The API server's URL, for messages. */
  readonly server: string;
  /** Releases kept-alive connections. */
  close(): void;
}
