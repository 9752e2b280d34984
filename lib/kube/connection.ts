// Which protocol carries an exchange with the API server, and the connections kept for it: one
// HTTP/2 session over TLS when the server offers h2, else HTTP/1.1 with a kept-alive agent (see
// transport.ts for why). Exchanges report to a Sink; deadlines, body caps and parsing are the
// transport's. Credentials are asked for before every exchange, and a session or agent made with
// other TLS material is replaced.

import * as http from 'node:http';
import * as http2 from 'node:http2';
import * as https from 'node:https';
import { KubeApiError, type Sent } from './errors';

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

/** One HTTP exchange in flight, whichever protocol carries it. */
export interface Exchange {
  abort(): void;
  /**
   * The answer is overdue: check the connection that carries it. Over HTTP/2 every request shares
   * one connection, and one that died without a word (its peer gone while this process or its node
   * was frozen, a NAT or conntrack entry dropped) would otherwise take every later request down
   * with it until the kernel gives up on it, many minutes later. (HTTP/1.1: the aborted request's
   * socket is destroyed with it.)
   */
  suspect(): void;
  /** Whether the request may have reached the server. */
  sent(): Sent;
}

/** Where an exchange reports; after `fail` or `end` nothing more is reported. */
export interface Sink {
  response(status: number): void;
  data(chunk: Buffer): void;
  end(): void;
  fail(error: KubeApiError): void;
}

export interface Outgoing {
  readonly method: string;
  /** The full path on the server (the server URL's own path included). */
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

/**
 * How long an HTTP/2 connection under suspicion (a request on it timed out) may leave a PING
 * unanswered before it is dropped, so that the next request opens a new one — client-go's HTTP/2
 * health check, for the same reason (a dead connection kept for ~15 minutes otherwise).
 */
export const DEFAULT_PING_TIMEOUT_MS = 5_000;

/** The server does not speak HTTP/2; nothing was sent. */
class NoHttp2 extends Error {}

export class Connections {
  private readonly url: URL;
  private agent?: http.Agent;
  private agentKey?: string;
  private session?: http2.ClientHttp2Session;
  private sessionKey?: string;
  private sessionReady?: Promise<http2.ClientHttp2Session>;
  /** Streams open on each session (see carry). */
  private readonly openStreams = new WeakMap<http2.ClientHttp2Session, number>();
  /** Sessions with a PING in flight (see suspect). */
  private readonly pinging = new WeakSet<http2.ClientHttp2Session>();
  /** False once the server turned out not to speak HTTP/2 (or when told not to use it). */
  private h2: boolean;

  constructor(
    private readonly server: string,
    private readonly credentials: () => Promise<Credentials>,
    /** How long a TLS session may take to be established. */
    private readonly connectTimeoutMs: number,
    http2Allowed: boolean,
    private readonly pingTimeoutMs = DEFAULT_PING_TIMEOUT_MS,
  ) {
    this.url = new URL(server);
    this.h2 = http2Allowed;
  }

  /** The protocol the next exchange will use (after the first, what the server negotiated). */
  get protocol(): 'h2' | 'http/1.1' {
    return this.h2 && this.url.protocol === 'https:' ? 'h2' : 'http/1.1';
  }

  close(): void {
    this.agent?.destroy();
    this.agent = undefined;
    // Done with it: streams still open (a watch never stopped) no longer hold the process (carry).
    this.session?.close();
    this.session?.unref();
    this.session = undefined;
    this.sessionReady = undefined;
  }

  /** Starts an exchange over HTTP/2 when possible, else HTTP/1.1. Rejects only before anything was sent. */
  async open(out: Outgoing, sink: Sink): Promise<Exchange> {
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
    // Kept alive by the exchanges it carries, never by itself: an idle session must not hold the
    // process open, and an open stream (a Pod log without follow has no timer of its own) must.
    session.unref();
    // Concurrent first requests share this promise: one TLS handshake, one session.
    this.sessionReady = new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        session.destroy();
        reject(
          new KubeApiError(
            0,
            'ETIMEDOUT',
            `connect to ${this.server}: no TLS session within ${this.connectTimeoutMs} ms`,
            what,
            'no',
          ),
        );
      }, this.connectTimeoutMs);
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
    this.carry(session, stream);
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
      suspect: () => this.ping(session),
    };
  }

  /** Drops `session` unless it answers a PING within pingTimeoutMs (one PING in flight per session). */
  private ping(session: http2.ClientHttp2Session): void {
    if (session.destroyed || session.closed || this.pinging.has(session)) return;
    this.pinging.add(session);
    const drop = () => {
      this.pinging.delete(session);
      // Its other streams fail at once (ECONNRESET, which callers retry); the next request connects anew.
      if (!session.destroyed) session.destroy();
    };
    const timer = setTimeout(drop, this.pingTimeoutMs);
    timer.unref();
    let sent: boolean;
    try {
      sent = session.ping((err) => {
        clearTimeout(timer);
        if (err) drop();
        else this.pinging.delete(session);
      });
    } catch {
      sent = false; // the session is already going away
    }
    if (!sent) {
      clearTimeout(timer);
      this.pinging.delete(session);
    }
  }

  /**
   * Refs the session while `stream` is open. Without it a stream with no timer beside it — a Pod
   * log read to its end, which has no deadline — leaves Node nothing to wait for: the process
   * exits 0 before the answer arrives, printing nothing.
   */
  private carry(session: http2.ClientHttp2Session, stream: http2.ClientHttp2Stream): void {
    const open = (this.openStreams.get(session) ?? 0) + 1;
    this.openStreams.set(session, open);
    if (open === 1) session.ref();
    stream.once('close', () => {
      const left = (this.openStreams.get(session) ?? 1) - 1;
      this.openStreams.set(session, left);
      if (left === 0 && !session.destroyed) session.unref();
    });
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
      suspect: () => undefined,
    };
  }
}
