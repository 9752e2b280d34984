// The transport under both connection adapters, with a hard deadline per request (connect +
// response), as SeaTunnel's client has 10 s timeouts. Over TLS it speaks HTTP/2 when the server
// offers it (the kube-apiserver does): submit's parallel creates and preflight's N dry runs are
// streams of one connection, with no TLS handshake per request. Otherwise (plain HTTP, a proxy
// agent, a server without h2) HTTP/1.1 with a kept-alive agent. Credentials come from a provider
// asked before every request, so rotating tokens (token files, exec plugins) keep working.

import * as http from 'node:http';
import * as http2 from 'node:http2';
import * as https from 'node:https';
import { KubeTransportError, type KubeApi, type KubeRequest, type KubeResponse } from './kube-api';

/** SeaTunnel's client uses 10 s connect/read/call timeouts. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 10_000;

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

export class HttpKubeApi implements KubeApi {
  readonly server: string;
  private readonly url: URL;
  private agent?: http.Agent;
  private agentKey?: string;
  private session?: http2.ClientHttp2Session;
  private sessionKey?: string;
  private sessionReady?: Promise<http2.ClientHttp2Session>;
  /** False once the server turned out not to speak HTTP/2. */
  private h2 = true;

  constructor(
    server: string,
    private readonly credentials: () => Promise<Credentials>,
    private readonly timeoutMs = DEFAULT_REQUEST_TIMEOUT_MS,
  ) {
    this.server = server.replace(/\/+$/, '');
    this.url = new URL(this.server);
  }

  private agentFor(c: Credentials): http.Agent {
    if (c.agent) return c.agent;
    const key = JSON.stringify(c.tls, (_k, v) => (Buffer.isBuffer(v) ? v.toString('base64') : v));
    if (!this.agent || key !== this.agentKey) {
      this.agent?.destroy();
      this.agent = this.url.protocol === 'http:' ? new http.Agent({ keepAlive: true }) : new https.Agent({ keepAlive: true, ...c.tls });
      this.agentKey = key;
    }
    return this.agent;
  }

  async request<T = unknown>(req: KubeRequest): Promise<KubeResponse<T>> {
    let creds: Credentials;
    try {
      creds = await this.credentials();
    } catch (e) {
      throw new KubeTransportError(`cannot authenticate to ${this.server}: ${(e as Error).message}`, false, 'EAUTH');
    }
    if (this.h2 && this.url.protocol === 'https:' && !creds.agent) {
      try {
        return await this.request2<T>(req, creds);
      } catch (e) {
        if (!(e instanceof NoHttp2)) throw e;
        this.h2 = false; // nothing was sent: go on with HTTP/1.1
      }
    }
    return this.request1<T>(req, creds);
  }

  private sessionFor(c: Credentials): Promise<http2.ClientHttp2Session> {
    const key = JSON.stringify(c.tls, (_k, v) => (Buffer.isBuffer(v) ? v.toString('base64') : v));
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
        reject(new KubeTransportError(`connect to ${this.server}: no TLS session within ${this.timeoutMs} ms`, false, 'ETIMEDOUT'));
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
        if (/ALPN|NO_APPLICATION_PROTOCOL|ERR_HTTP2_ERROR|ERR_HTTP2_SESSION_ERROR/.test(`${e.code} ${e.message}`)) reject(new NoHttp2());
        else reject(new KubeTransportError(`connect to ${this.server}: ${e.message}`, false, e.code));
      });
    });
    this.sessionReady.catch(forget);
    return this.sessionReady;
  }

  private async request2<T>(req: KubeRequest, creds: Credentials): Promise<KubeResponse<T>> {
    const session = await this.sessionFor(creds);
    const payload = req.body === undefined ? undefined : JSON.stringify(req.body);
    const headers: http2.OutgoingHttpHeaders = {
      ':method': req.method,
      ':path': this.url.pathname.replace(/\/+$/, '') + req.path,
      accept: req.accept ?? 'application/json',
      'user-agent': 'seatunnel-app',
    };
    for (const [k, v] of Object.entries(creds.headers)) headers[k.toLowerCase()] = v;
    if (payload !== undefined) {
      headers['content-type'] = req.contentType ?? 'application/json';
      headers['content-length'] = Buffer.byteLength(payload);
    }
    return new Promise<KubeResponse<T>>((resolve, reject) => {
      let settled = false;
      let status = 0;
      const fail = (err: KubeTransportError) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        reject(err);
      };
      let stream: http2.ClientHttp2Stream;
      try {
        stream = session.request(headers, { endStream: payload === undefined });
      } catch (e) {
        fail(new KubeTransportError(`${req.method} ${req.path}: ${(e as Error).message} (${this.server})`, false, (e as NodeJS.ErrnoException).code));
        return;
      }
      const timer = setTimeout(() => {
        fail(new KubeTransportError(`${req.method} ${req.path}: no response from ${this.server} within ${this.timeoutMs} ms`, true, 'ETIMEDOUT'));
        stream.close(http2.constants.NGHTTP2_CANCEL);
      }, this.timeoutMs);
      const chunks: Buffer[] = [];
      stream.on('response', (h) => {
        status = Number(h[':status'] ?? 0);
      });
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve({ status, body: responseBody(chunks) as T });
      });
      stream.on('error', (e: NodeJS.ErrnoException) => fail(new KubeTransportError(`${req.method} ${req.path}: ${e.message} (${this.server})`, true, e.code)));
      stream.on('close', () => {
        if (!settled) fail(new KubeTransportError(`${req.method} ${req.path}: the stream closed without a complete response (${this.server})`, true, 'ECONNRESET'));
      });
      if (payload !== undefined) stream.end(payload);
    });
  }

  private request1<T>(req: KubeRequest, creds: Credentials): Promise<KubeResponse<T>> {
    const payload = req.body === undefined ? undefined : JSON.stringify(req.body);
    const headers: http.OutgoingHttpHeaders = { ...creds.headers, Accept: req.accept ?? 'application/json', 'User-Agent': 'seatunnel-app' };
    if (payload !== undefined) {
      headers['Content-Type'] = req.contentType ?? 'application/json';
      headers['Content-Length'] = Buffer.byteLength(payload);
    }
    const basePath = this.url.pathname.replace(/\/+$/, '');
    const agent = this.agentFor(creds);
    const lib = this.url.protocol === 'http:' ? http : https;
    return new Promise<KubeResponse<T>>((resolve, reject) => {
      let sent = false;
      let settled = false;
      const fail = (err: KubeTransportError) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        reject(err);
      };
      const r = lib.request(
        { method: req.method, hostname: this.url.hostname, port: this.url.port, path: basePath + req.path, headers, agent },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            if (settled) return;
            settled = true;
            clearTimeout(timer);
            resolve({ status: res.statusCode ?? 0, body: responseBody(chunks) as T });
          });
          res.on('error', (e) => fail(new KubeTransportError(`${req.method} ${req.path}: response broken: ${e.message}`, true, (e as NodeJS.ErrnoException).code)));
          res.on('aborted', () => fail(new KubeTransportError(`${req.method} ${req.path}: response aborted`, true, 'ECONNRESET')));
        },
      );
      const timer = setTimeout(() => {
        fail(new KubeTransportError(`${req.method} ${req.path}: no response from ${this.server} within ${this.timeoutMs} ms`, true, 'ETIMEDOUT'));
        r.destroy();
      }, this.timeoutMs);
      r.on('error', (e: NodeJS.ErrnoException) => {
        const refused = e.code === 'ECONNREFUSED' || e.code === 'ENOTFOUND' || e.code === 'EAI_AGAIN';
        fail(new KubeTransportError(`${req.method} ${req.path}: ${e.message} (${this.server})`, sent && !refused, e.code));
      });
      r.on('finish', () => {
        sent = true;
      });
      if (payload !== undefined) r.write(payload);
      r.end();
    });
  }

  close(): void {
    this.agent?.destroy();
    this.agent = undefined;
    this.session?.close();
    this.session = undefined;
    this.sessionReady = undefined;
  }
}

/** The server does not speak HTTP/2; nothing was sent. */
class NoHttp2 extends Error {}

/** A response body: parsed JSON, or the text as is when it is not JSON (e.g. "ok"), or undefined when empty. */
function responseBody(chunks: readonly Buffer[]): unknown {
  const text = Buffer.concat(chunks).toString('utf8');
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
