// A small HTTP endpoint on 127.0.0.1 through which tests reach the process that owns the control
// plane (Jest's main process runs globalSetup; test files run in other module registries or
// worker processes and cannot call the ControlPlane object directly). Protected by a random token.
//
//   POST /kube-apiserver/restart   restart the API server (expires every older resourceVersion)
//   GET  /memory                   RSS per component, bytes
//   GET  /health                   per component: pid, running or how it exited
// plus the owner's own routes (a node cluster's faults: real-node/node-control.ts), run one at a time.
import { randomBytes } from 'node:crypto';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ControlPlane } from './control-plane';

/** The environment variable naming a running control plane's info file (ControlPlane.writeInfo). */
export const CLUSTER_ENV = 'SEATUNNEL_TEST_CLUSTER';

export interface ControlEndpoint {
  url: string;
  token: string;
}

export interface ControlServer {
  endpoint: ControlEndpoint;
  close(): Promise<void>;
}

/** A route's handler: what it resolves with is the JSON answer. */
export type ControlRoutes = Record<string, () => Promise<unknown>>;

export async function startControlServer(cp: ControlPlane, ownRoutes: ControlRoutes = {}): Promise<ControlServer> {
  const token = randomBytes(16).toString('hex');
  let queue: Promise<unknown> = Promise.resolve();
  const serial = <T>(fn: () => Promise<T>): Promise<T> => {
    const next = queue.then(fn, fn);
    queue = next.catch(() => undefined);
    return next;
  };
  const routes: Record<string, () => Promise<unknown>> = {
    'POST /kube-apiserver/restart': () =>
      serial(() => cp.restartApiServer()).then(() => ({ restarted: 'kube-apiserver' })),
    'GET /memory': async () => cp.memory(),
    'GET /health': async () =>
      cp.processList.map((p) => ({ name: p.name, pid: p.pid, running: p.running, exit: p.exitDescription ?? null })),
    ...Object.fromEntries(Object.entries(ownRoutes).map(([route, fn]) => [route, () => serial(fn)])),
  };
  const server = http.createServer((req, res) => {
    const reply = (status: number, body: unknown) => {
      res.writeHead(status, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.headers.authorization !== `Bearer ${token}`) return reply(401, { error: 'bad token' });
    const route = routes[`${req.method} ${req.url}`];
    if (!route) return reply(404, { error: `no route ${req.method} ${req.url}` });
    route().then(
      (body) => reply(200, body ?? {}),
      (e: unknown) => reply(500, { error: e instanceof Error ? e.message : String(e) }),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  // Never keep the owning process alive just for this endpoint.
  server.unref();
  const port = (server.address() as AddressInfo).port;
  return {
    endpoint: { url: `http://127.0.0.1:${port}`, token },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Calls the control endpoint; throws with the server's error message on failure. */
export function controlRequest<T = unknown>(
  endpoint: ControlEndpoint,
  method: 'GET' | 'POST',
  path: string,
  timeoutMs = 180_000,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const url = new URL(endpoint.url + path);
    const req = http.request(
      {
        method,
        hostname: url.hostname,
        port: url.port,
        path: url.pathname,
        headers: { Authorization: `Bearer ${endpoint.token}` },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => {
          let body: unknown;
          try {
            body = JSON.parse(text);
          } catch {
            body = text;
          }
          if (res.statusCode === 200) resolve(body as T);
          else
            reject(
              new Error(
                `control ${method} ${path} -> HTTP ${res.statusCode}: ${(body as { error?: string })?.error ?? text}`,
              ),
            );
        });
      },
    );
    req.setTimeout(timeoutMs, () =>
      req.destroy(new Error(`control ${method} ${path}: no answer within ${timeoutMs} ms`)),
    );
    req.on('error', reject);
    req.end();
  });
}
