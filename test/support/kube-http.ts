// A minimal HTTPS client for the harness's own calls to the API server (readiness, nodes,
// namespaces, tokens). The harness uses it instead of @kubernetes/client-node so that starting a
// control plane needs no ESM loading (Jest's globalSetup, dev-cluster) and so errors show the raw
// status and body.
import * as fs from 'node:fs';
import * as https from 'node:https';

export interface KubeHttpAuth {
  server: string; // https://127.0.0.1:<port>
  ca: string | Buffer; // PEM
  cert?: string | Buffer;
  key?: string | Buffer;
  token?: string;
}

export interface KubeResponse<T = unknown> {
  status: number;
  body: T;
  text: string;
}

export class KubeHttpError extends Error {
  constructor(
    readonly method: string,
    readonly path: string,
    readonly status: number,
    readonly text: string,
  ) {
    super(`${method} ${path} -> HTTP ${status}: ${text.slice(0, 500)}`);
  }
}

export class KubeHttp {
  private readonly agent: https.Agent;
  readonly server: string;

  constructor(private readonly auth: KubeHttpAuth) {
    this.server = auth.server.replace(/\/$/, '');
    this.agent = new https.Agent({ ca: auth.ca, cert: auth.cert, key: auth.key, keepAlive: false });
  }

  static fromFiles(server: string, caFile: string, certFile?: string, keyFile?: string, token?: string): KubeHttp {
    return new KubeHttp({
      server,
      ca: fs.readFileSync(caFile),
      cert: certFile ? fs.readFileSync(certFile) : undefined,
      key: keyFile ? fs.readFileSync(keyFile) : undefined,
      token,
    });
  }

  /** Raw request; never throws for HTTP status codes (only for connection errors and timeouts). */
  request<T = unknown>(
    method: string,
    path: string,
    body?: unknown,
    opts: { contentType?: string; timeoutMs?: number } = {},
  ): Promise<KubeResponse<T>> {
    const url = new URL(this.server + path);
    const payload = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (payload !== undefined) {
      headers['Content-Type'] = opts.contentType ?? 'application/json';
      headers['Content-Length'] = String(Buffer.byteLength(payload));
    }
    if (this.auth.token) headers.Authorization = `Bearer ${this.auth.token}`;
    return new Promise((resolve, reject) => {
      const req = https.request(
        { method, hostname: url.hostname, port: url.port, path: url.pathname + url.search, headers, agent: this.agent },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            let parsed: unknown = text;
            try {
              parsed = text ? JSON.parse(text) : undefined;
            } catch {
              /* not JSON (e.g. /readyz prints "ok") */
            }
            resolve({ status: res.statusCode ?? 0, body: parsed as T, text });
          });
          res.on('error', reject);
        },
      );
      req.setTimeout(opts.timeoutMs ?? 30_000, () => req.destroy(new Error(`${method} ${path}: no response within ${opts.timeoutMs ?? 30_000} ms`)));
      req.on('error', reject);
      if (payload !== undefined) req.write(payload);
      req.end();
    });
  }

  /** Like request, but a status outside 2xx (and outside `accept`) throws KubeHttpError. */
  async call<T = unknown>(
    method: string,
    path: string,
    body?: unknown,
    opts: { contentType?: string; timeoutMs?: number; accept?: number[] } = {},
  ): Promise<T> {
    const res = await this.request<T>(method, path, body, opts);
    if ((res.status < 200 || res.status > 299) && !(opts.accept ?? []).includes(res.status)) {
      throw new KubeHttpError(method, path, res.status, res.text);
    }
    return res.body;
  }

  close(): void {
    this.agent.destroy();
  }
}
