// The harness's own calls to the API server (readiness, nodes, namespaces, tokens) through the
// project's transport (lib/kube/transport.ts), which needs no ESM loading (Jest's globalSetup,
// dev-cluster). This keeps the harness's shape: raw status and body, errors with the raw text.
import * as fs from 'node:fs';
import type { HttpMethod } from '../../lib/kube/api';
import type { Credentials } from '../../lib/kube/connection';
import { KubeTransport } from '../../lib/kube/transport';

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

const textOf = (body: unknown): string =>
  body === undefined ? '' : typeof body === 'string' ? body : JSON.stringify(body);

export class KubeHttp {
  private readonly transport: KubeTransport;
  readonly server: string;

  constructor(auth: KubeHttpAuth) {
    this.server = auth.server.replace(/\/$/, '');
    const creds: Credentials = {
      headers: auth.token ? { authorization: `Bearer ${auth.token}` } : {},
      tls: { ca: auth.ca, cert: auth.cert, key: auth.key },
    };
    this.transport = new KubeTransport(this.server, async () => creds, { timeoutMs: 30_000 });
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
  async request<T = unknown>(
    method: string,
    path: string,
    body?: unknown,
    opts: { contentType?: string; timeoutMs?: number } = {},
  ): Promise<KubeResponse<T>> {
    const res = await this.transport.request<T>({ method: method as HttpMethod, path, body, ...opts });
    return { status: res.status, body: res.body, text: textOf(res.body) };
  }

  /** Like request, but a status outside 2xx (and outside `accept`) throws KubeHttpError. */
  async call<T = unknown>(
    method: string,
    path: string,
    body?: unknown,
    opts: { contentType?: string; timeoutMs?: number; accept?: number[] } = {},
  ): Promise<T> {
    const { accept, ...rest } = opts;
    const res = await this.request<T>(method, path, body, rest);
    if ((res.status < 200 || res.status > 299) && !(accept ?? []).includes(res.status))
      throw new KubeHttpError(method, path, res.status, res.text);
    return res.body;
  }

  close(): void {
    this.transport.close();
  }
}
