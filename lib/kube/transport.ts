// The HTTP transport to the Kubernetes API server, for the CLI, the runtime and the test harness
// (see README.md). Plain JSON in and out, never through generated model classes.
//
// Bounded: every request has a total deadline (credentials, connect, send, the whole answer), not
// an idle timeout a server could reset by dripping bytes; every answer body and every watch event
// is capped, so a broken or hostile server cannot make the process allocate without bound. A watch
// has no total deadline (the server ends it after timeoutSeconds) but is broken off when silent.
//
// Over TLS it speaks HTTP/2 when the server offers it (the kube-apiserver does): parallel creates,
// dry runs and watches are streams of one connection, with one TLS handshake (bench/submit.ts
// measures it against HTTP/1.1 keep-alive: about 1.5x faster for the CLI's cold submit, equal with
// a warm pool; figures in README.md). Otherwise — plain HTTP, a proxy agent, a server
// without h2, or `http2: false` — HTTP/1.1 with a kept-alive agent (connection.ts). Credentials
// come from a provider asked before every request, so rotating tokens (token files, exec plugins)
// keep working. The interface it implements, KubeApi, is api.ts.

import { StringDecoder } from 'node:string_decoder';
import type { KubeApi, KubeRequest, KubeResponse, StreamEvents, StreamOptions, WatchEvents, WatchStream } from './api';
import { Connections, type Credentials, type Exchange, type Outgoing } from './connection';
import { KubeApiError, statusError } from './errors';
import { MAX_JSON_DEPTH, nestsDeeperThan } from './json-depth';

/** SeaTunnel's own client uses 10 s connect/read/call timeouts. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 10_000;
/**
 * Largest answer body (and largest watch event) read. etcd stores objects of at most 1.5 MiB, so a
 * single object is far below it; a list of a few hundred Pods is too.
 */
export const DEFAULT_MAX_BODY_BYTES = 32 * 1024 * 1024;

export interface TransportOptions {
  /** Default total deadline per request. */
  readonly timeoutMs?: number;
  readonly maxBodyBytes?: number;
  /** false: HTTP/1.1 even where the server offers HTTP/2 (bench/submit.ts compares the two). */
  readonly http2?: boolean;
  /** How long an HTTP/2 connection whose request timed out may leave a PING unanswered (connection.ts). */
  readonly pingTimeoutMs?: number;
}

export class KubeTransport implements KubeApi {
  readonly server: string;
  private readonly url: URL;
  private readonly timeoutMs: number;
  private readonly maxBodyBytes: number;
  private readonly connections: Connections;

  constructor(server: string, credentials: () => Promise<Credentials>, opts: TransportOptions = {}) {
    this.server = server.replace(/\/+$/, '');
    this.url = new URL(this.server);
    this.timeoutMs = opts.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
    this.maxBodyBytes = opts.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
    this.connections = new Connections(
      this.server,
      credentials,
      this.timeoutMs,
      opts.http2 ?? true,
      opts.pingTimeoutMs,
    );
  }

  /** The protocol the next request will use (after the first, what the server negotiated). */
  get protocol(): 'h2' | 'http/1.1' {
    return this.connections.protocol;
  }

  request<T = unknown>(req: KubeRequest): Promise<KubeResponse<T>> {
    const what = { method: req.method, path: req.path };
    const ms = req.timeoutMs ?? this.timeoutMs;
    return new Promise<KubeResponse<T>>((resolve, reject) => {
      let settled = false;
      let exchange: Exchange | undefined;
      let status = 0;
      let size = 0;
      const chunks: Buffer[] = [];
      const fail = (e: KubeApiError) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        exchange?.abort();
        reject(e);
      };
      const timer = setTimeout(() => {
        exchange?.suspect();
        fail(
          new KubeApiError(
            0,
            'ETIMEDOUT',
            `no complete answer from ${this.server} within ${ms} ms`,
            what,
            exchange?.sent() ?? 'no',
          ),
        );
      }, ms);
      this.connections
        .open(this.outgoing(req), {
          response: (s) => {
            status = s;
          },
          data: (c) => {
            size += c.length;
            if (size > this.maxBodyBytes)
              fail(
                new KubeApiError(
                  0,
                  'ResponseTooLarge',
                  `the answer from ${this.server} exceeds ${this.maxBodyBytes} bytes`,
                  what,
                ),
              );
            else chunks.push(c);
          },
          end: () => {
            if (settled) return;
            let body: unknown;
            try {
              body = parseBody(Buffer.concat(chunks).toString('utf8'), () => this.tooDeep('answer', what));
            } catch (e) {
              fail(e as KubeApiError);
              return;
            }
            settled = true;
            clearTimeout(timer);
            resolve({ status, body: body as T });
          },
          fail,
        })
        .then((x) => {
          exchange = x;
          if (settled) x.abort();
        }, fail);
    });
  }

  watch(path: string, events: WatchEvents, opts: { readonly idleMs: number }): WatchStream {
    const what = { method: 'GET', path };
    let buffered = '';
    const decoder = new StringDecoder('utf8');
    let ended = false;
    const stream = this.stream(
      path,
      {
        data: (c) => {
          buffered += decoder.write(c);
          let nl: number;
          while (!ended && (nl = buffered.indexOf('\n')) >= 0) {
            const line = buffered.slice(0, nl).trim();
            buffered = buffered.slice(nl + 1);
            if (line) deliver(line);
          }
          if (!ended && buffered.length > this.maxBodyBytes)
            end(
              new KubeApiError(
                0,
                'ResponseTooLarge',
                `a watch event from ${this.server} exceeds ${this.maxBodyBytes} bytes`,
                what,
              ),
            );
        },
        closed: (error) => {
          if (ended) return;
          ended = true;
          events.closed(error);
        },
      },
      { idleMs: opts.idleMs },
    );
    const end = (error: KubeApiError) => {
      stream.stop();
      ended = true;
      events.closed(error);
    };
    const deliver = (line: string) => {
      let ev: { type?: unknown; object?: unknown };
      if (nestsDeeperThan(line)) {
        end(this.tooDeep('watch event', what));
        return;
      }
      try {
        ev = JSON.parse(line) as { type?: unknown; object?: unknown };
      } catch {
        end(new KubeApiError(0, 'BadResponse', `a watch line from ${this.server} is not JSON`, what));
        return;
      }
      if (typeof ev?.type === 'string') events.event(ev.type, ev.object);
    };
    return {
      stop: () => {
        ended = true;
        stream.stop();
      },
    };
  }

  stream(path: string, events: StreamEvents, opts: StreamOptions = {}): WatchStream {
    const what = { method: 'GET', path };
    let done = false;
    let exchange: Exchange | undefined;
    let idle: NodeJS.Timeout | undefined;
    const finish = (error?: KubeApiError) => {
      if (done) return;
      done = true;
      clearTimeout(idle);
      exchange?.abort();
      events.closed(error);
    };
    const touch = () => {
      if (opts.idleMs === undefined) return;
      clearTimeout(idle);
      idle = setTimeout(() => {
        exchange?.suspect();
        finish(new KubeApiError(0, 'ETIMEDOUT', `the stream was silent for ${opts.idleMs} ms`, what));
      }, opts.idleMs);
    };
    touch();
    let status = 0;
    let size = 0;
    const errorBody: Buffer[] = [];
    this.connections
      .open(this.outgoing({ method: 'GET', path, ...(opts.accept ? { accept: opts.accept } : {}) }), {
        response: (s) => {
          status = s;
        },
        data: (c) => {
          if (done) return;
          touch();
          if (status !== 200) {
            size += c.length;
            if (size <= 64 * 1024) errorBody.push(c);
            return;
          }
          events.data(c);
        },
        end: () => {
          if (status !== 200) {
            const text = Buffer.concat(errorBody).toString('utf8');
            // At most 64 KiB is kept, and an error's body need not be JSON: a deep one is shown as text.
            finish(statusError(what, status, nestsDeeperThan(text) ? text : parseBody(text, () => new Error())));
          } else finish();
        },
        fail: finish,
      })
      .then((x) => {
        exchange = x;
        if (done) x.abort();
      }, finish);
    return {
      stop: () => {
        if (done) return;
        done = true;
        clearTimeout(idle);
        exchange?.abort();
      },
    };
  }

  close(): void {
    this.connections.close();
  }

  private tooDeep(kind: string, what: { method: string; path: string }): KubeApiError {
    return new KubeApiError(
      0,
      'BadResponse',
      `the ${kind} from ${this.server} nests JSON deeper than ${MAX_JSON_DEPTH} levels; it is not read`,
      what,
    );
  }

  private outgoing(req: Pick<KubeRequest, 'method' | 'path' | 'body' | 'contentType' | 'accept'>): Outgoing {
    const payload =
      req.body === undefined ? undefined : typeof req.body === 'string' ? req.body : JSON.stringify(req.body);
    const headers: Record<string, string> = { accept: req.accept ?? 'application/json', 'user-agent': 'seatunnel-app' };
    if (payload !== undefined) {
      headers['content-type'] = req.contentType ?? 'application/json';
      headers['content-length'] = String(Buffer.byteLength(payload));
    }
    return {
      method: req.method,
      path: this.url.pathname.replace(/\/+$/, '') + req.path,
      headers,
      ...(payload !== undefined ? { payload } : {}),
    };
  }
}

/** An answer's body: JSON, or the text when it is not JSON. Throws for JSON nested too deep to parse safely. */
function parseBody(text: string, tooDeep: () => Error): unknown {
  if (!text) return undefined;
  if (nestsDeeperThan(text)) throw tooDeep();
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
