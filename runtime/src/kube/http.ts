// JSON over HTTPS to the API server, with one keep-alive connection pool. Objects are sent and
// received as plain JSON, never through generated model classes: the worker template must reach
// the API server exactly as the plan wrote it, including fields newer than any client library.

import * as http from 'node:http';
import * as https from 'node:https';
import { KubeApiError } from './port';

export interface KubeEndpoint {
  readonly server: URL;
  readonly ca?: Buffer;
  readonly cert?: Buffer;
  readonly key?: Buffer;
  readonly rejectUnauthorized?: boolean;
  readonly servername?: string;
  /** Authorization (and other) headers, fetched per request (tokens rotate). */
  headers(): Promise<Record<string, string>>;
}

export interface RequestOptions {
  readonly body?: unknown;
  readonly contentType?: string;
  readonly accept?: string;
  readonly timeoutMs?: number;
}

export interface StreamHandle {
  abort(): void;
}

const DEFAULT_TIMEOUT_MS = 15_000;

function statusError(status: number, text: string, what: string): KubeApiError {
  try {
    const s = JSON.parse(text) as { reason?: string; message?: string };
    if (s && typeof s === 'object' && (s.message || s.reason)) return new KubeApiError(status, s.reason ?? '', `${what}: HTTP ${status}: ${s.message ?? s.reason}`);
  } catch {
    // not a Status
  }
  return new KubeApiError(status, '', `${what}: HTTP ${status}${text ? `: ${text.slice(0, 300)}` : ''}`);
}

export class KubeHttp {
  private readonly agent: http.Agent;
  private readonly transport: typeof http | typeof https;

  constructor(
    private readonly endpoint: KubeEndpoint,
    opts: { maxSockets?: number } = {},
  ) {
    const secure = endpoint.server.protocol === 'https:';
    this.transport = secure ? https : http;
    const common = { keepAlive: true, keepAliveMsecs: 10_000, maxSockets: opts.maxSockets ?? 64, maxFreeSockets: 16, scheduling: 'lifo' as const };
    this.agent = secure
      ? new https.Agent({
          ...common,
          ca: endpoint.ca,
          cert: endpoint.cert,
          key: endpoint.key,
          ...(endpoint.rejectUnauthorized !== undefined ? { rejectUnauthorized: endpoint.rejectUnauthorized } : {}),
          ...(endpoint.servername ? { servername: endpoint.servername } : {}),
        })
      : new http.Agent(common);
  }

  private url(path: string): URL {
    const base = this.endpoint.server.pathname.replace(/\/+$/, '');
    return new URL(base + path, this.endpoint.server);
  }

  private async open(method: string, path: string, headers: Record<string, string>): Promise<http.ClientRequest> {
    const auth = await this.endpoint.headers();
    return this.transport.request(this.url(path), { method, agent: this.agent, headers: { ...auth, ...headers } });
  }

  /** One call; resolves with the parsed JSON body, rejects with KubeApiError (status 0 = no answer). */
  async request<T>(method: string, path: string, opts: RequestOptions = {}): Promise<T> {
    const what = `${method} ${path.split('?')[0]}`;
    const body = opts.body === undefined ? undefined : typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body);
    const headers: Record<string, string> = { accept: opts.accept ?? 'application/json' };
    if (body !== undefined) {
      headers['content-type'] = opts.contentType ?? 'application/json';
      headers['content-length'] = String(Buffer.byteLength(body));
    }
    let req: http.ClientRequest;
    try {
      req = await this.open(method, path, headers);
    } catch (e) {
      throw new KubeApiError(0, 'ClientError', `${what}: ${(e as Error).message}`);
    }
    return new Promise<T>((resolve, reject) => {
      req.setTimeout(opts.timeoutMs ?? DEFAULT_TIMEOUT_MS, () => req.destroy(new Error(`no answer within ${opts.timeoutMs ?? DEFAULT_TIMEOUT_MS} ms`)));
      req.once('error', (e) => reject(new KubeApiError(0, (e as NodeJS.ErrnoException).code ?? 'ConnectionError', `${what}: ${e.message}`)));
      req.once('response', (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.once('error', (e) => reject(new KubeApiError(0, 'ConnectionError', `${what}: ${e.message}`)));
        res.once('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          const status = res.statusCode ?? 0;
          if (status < 200 || status >= 300) return reject(statusError(status, text, what));
          if (!text) return resolve(undefined as T);
          try {
            resolve(JSON.parse(text) as T);
          } catch (e) {
            reject(new KubeApiError(0, 'BadResponse', `${what}: the answer is not JSON: ${(e as Error).message}`));
          }
        });
      });
      req.end(body);
    });
  }

  /**
   * A streaming GET (watch): `line` gets each newline-terminated line of a 200 answer, `closed`
   * is called once when the stream ends — without an argument after a clean end, with the error
   * otherwise (a non-200 answer is a KubeApiError with its status). `abort()` ends it silently.
   * A stream that is silent for `idleMs` is treated as broken.
   */
  stream(path: string, line: (text: string) => void, closed: (error?: Error) => void, idleMs: number): StreamHandle {
    let done = false;
    let req: http.ClientRequest | undefined;
    const finish = (error?: Error) => {
      if (done) return;
      done = true;
      req?.destroy();
      closed(error);
    };
    const handle: StreamHandle = {
      abort() {
        if (done) return;
        done = true;
        req?.destroy();
      },
    };
    this.open('GET', path, { accept: 'application/json' }).then(
      (r) => {
        req = r;
        if (done) return void r.destroy();
        r.setTimeout(idleMs, () => finish(new KubeApiError(0, 'Timeout', `watch silent for ${idleMs} ms`)));
        r.once('error', (e) => finish(new KubeApiError(0, (e as NodeJS.ErrnoException).code ?? 'ConnectionError', `watch: ${e.message}`)));
        r.once('response', (res) => {
          const status = res.statusCode ?? 0;
          if (status !== 200) {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.once('end', () => finish(statusError(status, Buffer.concat(chunks).toString('utf8'), 'watch')));
            res.once('error', (e) => finish(new KubeApiError(status, 'ConnectionError', `watch: ${e.message}`)));
            return;
          }
          let buffered = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => {
            if (done) return;
            buffered += chunk;
            let nl: number;
            while ((nl = buffered.indexOf('\n')) >= 0) {
              const text = buffered.slice(0, nl).trim();
              buffered = buffered.slice(nl + 1);
              if (text && !done) line(text);
            }
          });
          res.once('end', () => finish());
          res.once('error', (e) => finish(new KubeApiError(0, 'ConnectionError', `watch: ${e.message}`)));
          res.once('close', () => {
            if (!res.complete) finish(new KubeApiError(0, 'ConnectionError', 'watch: the connection closed before the stream ended'));
          });
        });
        r.end();
      },
      (e: Error) => finish(new KubeApiError(0, 'ClientError', `watch: ${e.message}`)),
    );
    return handle;
  }

  close(): void {
    this.agent.destroy();
  }
}
