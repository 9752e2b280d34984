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
// without h2, or `http2: false` — HTTP/1.1 with a kept-alive agent. Credentials come from a
// provider asked before every request, so rotating tokens (token files, exec plugins) keep working.

import * as http from 'node:http';
import * as http2 from 'node:http2';
import * as https from 'node:https';
import { StringDecoder } from 'node:string_decoder';
import { KubeApiError, statusError, type Sent } from './errors';

/** SeaTunnel's own client uses 10 s connect/read/call timeouts. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 10_000;
/**
 * Largest answer body (and largest watch event) read. etcd stores objects of at most 1.5 MiB, so a
 * single object is far below it; a list of a few hundred Pods is too.
 */
export const DEFAULT_MAX_BODY_BYTES = 32 * 1024 * 1024;

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

export interface TlsMaterial {
  ca?: string | Buffer | Array<string | Buffer>;
  cert?: string | Buffer | Array<string | Buffer>;
  key?: string | Buffer | Array<string | Buffer>;
  servername?: string;
  rejectUnauthorized?: boolean;
}

export interface Credentials {
  /** Authorization and impersonation headers. */
  readonly headers: Readonly<Record<string, string>>;
  readonly tls: TlsMaterial;
  /** An agent of the credential source's own (e.g. through a proxy); replaces the kept-alive one. */
  readonly agent?: http.Agent;
}

export interface TransportOptions {
  /** Default total deadline per request. */
  readonly timeoutMs?: number;
  readonly maxBodyBytes?: number;
  /** false: HTTP/1.1 even where the server offers HTTP/2 (bench/submit.ts compares the two). */
  readonly http2?: boolean;
}

/** One HTTP exchange in flight, whichever protocol carries it. */
interface Exchange {
  abort(): void;
  /** Whether the request may have reached the server. */
  sent(): Sent;
}

/** Where an exchange reports; after `fail` or `end` nothing more is reported. */
interface Sink {
  response(status: number): void;
  data(chunk: Buffer): void;
  end(): void;
  fail(error: KubeApiError): void;
}

interface Outgoing {
  readonly method: string;
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly payload?: string;
}

// What a session or agent was made with, to tell when the credentials changed it. Once per
// TlsMaterial object: a credential source that does not rotate hands out the same one every time,
// and serialising keys and certificates for every request cost ~0.2 ms each.
const tlsKeys = new WeakMap<TlsMaterial, string>();
function tlsKey(tls: TlsMaterial): string {
  let key = tlsKeys.get(tls);
  if (key === undefined) {
    // A Buffer's own toJSON runs before a replacer sees it: turn them to base64 first.
    key = JSON.stringify(tls, function (this: Record<string, unknown>, k: string, v: unknown) {
      const raw = k === '' ? v : this[k];
      return Buffer.isBuffer(raw) ? raw.toString('base64') : v;
    });
    tlsKeys.set(tls, key);
  }
  return key;
}

export class KubeTransport implements KubeApi {
  readonly server: string;
  private readonly url: URL;
  private readonly timeoutMs: number;
  private readonly maxBodyBytes: number;
  private agent?: http.Agent;
  private agentKey?: string;
  private session?: http2.ClientHttp2Session;
  private sessionKey?: string;
  private sessionReady?: Promise<http2.ClientHttp2Session>;
  /** False once the server turned out not to speak HTTP/2 (or when told not to use it). */
  private h2: boolean;

  constructor(
    server: string,
    private readonly credentials: () => Promise<Credentials>,
    opts: TransportOptions = {},
  ) {
    this.server = server.replace(/\/+$/, '');
    this.url = new URL(this.server);
    this.timeoutMs = opts.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
    this.maxBodyBytes = opts.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
    this.h2 = opts.http2 ?? true;
  }

  /** The protocol the next request will use (after the first, what the server negotiated). */
  get protocol(): 'h2' | 'http/1.1' {
    return this.h2 && this.url.protocol === 'https:' ? 'h2' : 'http/1.1';
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
      const timer = setTimeout(
        () =>
          fail(
            new KubeApiError(
              0,
              'ETIMEDOUT',
              `no complete answer from ${this.server} within ${ms} ms`,
              what,
              exchange?.sent() ?? 'no',
            ),
          ),
        ms,
      );
      this.open(this.outgoing(req), {
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
          settled = true;
          clearTimeout(timer);
          resolve({ status, body: parseBody(Buffer.concat(chunks).toString('utf8')) as T });
        },
        fail,
      }).then((x) => {
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
      idle = setTimeout(
        () => finish(new KubeApiError(0, 'ETIMEDOUT', `the stream was silent for ${opts.idleMs} ms`, what)),
        opts.idleMs,
      );
    };
    touch();
    let status = 0;
    let size = 0;
    const errorBody: Buffer[] = [];
    this.open(this.outgoing({ method: 'GET', path, ...(opts.accept ? { accept: opts.accept } : {}) }), {
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
        if (status !== 200) finish(statusError(what, status, parseBody(Buffer.concat(errorBody).toString('utf8'))));
        else finish();
      },
      fail: finish,
    }).then((x) => {
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
    this.agent?.destroy();
    this.agent = undefined;
    this.session?.close();
    this.session = undefined;
    this.sessionReady = undefined;
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

  /** Starts an exchange over HTTP/2 when possible, else HTTP/1.1. Rejects only before anything was sent. */
  private async open(out: Outgoing, sink: Sink): Promise<Exchange> {
    const what = { method: out.method, path: out.path };
    let creds: Credentials;
    try {
      creds = await this.credentials();
    } catch (e) {
      throw new KubeApiError(0, 'EAUTH', `cannot authenticate to ${this.server}: ${(e as Error).message}`, what, 'no');
    }
    const headers = { ...out.headers };
    for (const [k, v] of Object.entries(creds.headers)) headers[k.toLowerCase()] = v;
    if (this.h2 && this.url.protocol === 'https:' && !creds.agent) {
      let session: http2.ClientHttp2Session | undefined;
      try {
        session = await this.sessionFor(creds, what);
      } catch (e) {
        if (!(e instanceof NoHttp2)) throw e;
        this.h2 = false; // nothing was sent: go on with HTTP/1.1
      }
      if (session) return this.open2(session, { ...out, headers }, sink);
    }
    return this.open1(creds, { ...out, headers }, sink);
  }

  private sessionFor(c: Credentials, what: { method: string; path: string }): Promise<http2.ClientHttp2Session> {
    const key = tlsKey(c.tls);
    const s = this.session;
    if (s && this.sessionReady && !s.closed && !s.destroyed && key === this.sessionKey) return this.sessionReady;
    s?.close();
    const session = http2.connect(this.server, { ...c.tls, ALPNProtocols: ['h2'] } as http2.SecureClientSessionOptions);
    this.session = session;
    this.sessionKey = key;
    const forget = () => {
      if (this.session === session) {
        this.session = undefined;
        this.sessionReady = undefined;
      }
    };
    session.on('error', forget);
    session.on('goaway', forget);
    session.on('close', forget);
    // Never keeps the process alive by itself: a request in flight does, through its deadline timer.
    session.unref();
    // Concurrent first requests share this promise: one TLS handshake, one session.
    this.sessionReady = new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        session.destroy();
        reject(
          new KubeApiError(
            0,
            'ETIMEDOUT',
            `connect to ${this.server}: no TLS session within ${this.timeoutMs} ms`,
            what,
            'no',
          ),
        );
      }, this.timeoutMs);
      session.once('connect', () => {
        clearTimeout(timer);
        const alpn = (session.socket as unknown as { alpnProtocol?: string | false } | undefined)?.alpnProtocol;
        if (alpn !== undefined && alpn !== 'h2') {
          session.destroy();
          reject(new NoHttp2());
          return;
        }
        resolve(session);
      });
      session.once('error', (e: NodeJS.ErrnoException) => {
        clearTimeout(timer);
        // A server that does not negotiate h2 fails the session before anything was sent.
        if (/ALPN|NO_APPLICATION_PROTOCOL|ERR_HTTP2_ERROR|ERR_HTTP2_SESSION_ERROR/.test(`${e.code} ${e.message}`))
          reject(new NoHttp2());
        else reject(new KubeApiError(0, e.code ?? 'ECONNECT', `connect to ${this.server}: ${e.message}`, what, 'no'));
      });
    });
    this.sessionReady.catch(forget);
    return this.sessionReady;
  }

  private open2(session: http2.ClientHttp2Session, out: Outgoing, sink: Sink): Exchange {
    const what = { method: out.method, path: out.path };
    const headers: http2.OutgoingHttpHeaders = { ...out.headers, ':method': out.method, ':path': out.path };
    let stream: http2.ClientHttp2Stream;
    try {
      stream = session.request(headers, { endStream: out.payload === undefined });
    } catch (e) {
      throw new KubeApiError(
        0,
        (e as NodeJS.ErrnoException).code ?? 'ECONNECT',
        `${(e as Error).message} (${this.server})`,
        what,
        'no',
      );
    }
    let ended = false;
    stream.on('response', (h) => sink.response(Number(h[':status'] ?? 0)));
    stream.on('data', (c: Buffer) => sink.data(c));
    stream.on('end', () => {
      ended = true;
      sink.end();
    });
    stream.on('error', (e: NodeJS.ErrnoException) =>
      sink.fail(new KubeApiError(0, e.code ?? 'ECONNRESET', `${e.message} (${this.server})`, what)),
    );
    stream.on('close', () => {
      if (!ended)
        sink.fail(
          new KubeApiError(0, 'ECONNRESET', `the stream closed without a complete answer (${this.server})`, what),
        );
    });
    if (out.payload !== undefined) stream.end(out.payload);
    return {
      abort: () => {
        ended = true;
        if (!stream.closed) stream.close(http2.constants.NGHTTP2_CANCEL);
      },
      sent: () => 'maybe',
    };
  }

  private agentFor(c: Credentials): http.Agent {
    if (c.agent) return c.agent;
    const key = tlsKey(c.tls);
    if (!this.agent || key !== this.agentKey) {
      this.agent?.destroy();
      this.agent =
        this.url.protocol === 'http:'
          ? new http.Agent({ keepAlive: true })
          : new https.Agent({ keepAlive: true, ...c.tls });
      this.agentKey = key;
    }
    return this.agent;
  }

  private open1(creds: Credentials, out: Outgoing, sink: Sink): Exchange {
    const what = { method: out.method, path: out.path };
    let sent = false;
    let ended = false;
    const lib = this.url.protocol === 'http:' ? http : https;
    const r = lib.request(
      {
        method: out.method,
        hostname: this.url.hostname,
        port: this.url.port,
        path: out.path,
        headers: out.headers,
        agent: this.agentFor(creds),
      },
      (res) => {
        sink.response(res.statusCode ?? 0);
        res.on('data', (c: Buffer) => sink.data(c));
        res.on('end', () => {
          ended = true;
          sink.end();
        });
        res.on('error', (e: NodeJS.ErrnoException) =>
          sink.fail(
            new KubeApiError(0, e.code ?? 'ECONNRESET', `the answer broke off: ${e.message} (${this.server})`, what),
          ),
        );
        res.on('close', () => {
          if (!ended)
            sink.fail(
              new KubeApiError(
                0,
                'ECONNRESET',
                `the connection closed before the answer was complete (${this.server})`,
                what,
              ),
            );
        });
      },
    );
    r.on('error', (e: NodeJS.ErrnoException) => {
      const refused = e.code === 'ECONNREFUSED' || e.code === 'ENOTFOUND' || e.code === 'EAI_AGAIN';
      sink.fail(
        new KubeApiError(
          0,
          e.code ?? 'ECONNRESET',
          `${e.message} (${this.server})`,
          what,
          sent && !refused ? 'maybe' : 'no',
        ),
      );
    });
    r.on('finish', () => {
      sent = true;
    });
    r.end(out.payload);
    return {
      abort: () => {
        ended = true;
        r.destroy();
      },
      sent: () => (sent ? 'maybe' : 'no'),
    };
  }
}

/** The server does not speak HTTP/2; nothing was sent. */
class NoHttp2 extends Error {}

function parseBody(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
