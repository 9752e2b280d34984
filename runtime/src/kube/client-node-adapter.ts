// The runtime's only use of @kubernetes/client-node (loaded through lib/kube/client-node.ts):
// KubeConfig.loadFromDefault() finds the credentials — KUBECONFIG when set (tests, local runs),
// else the Pod's ServiceAccount (in-cluster) — and supplies the server, TLS material and the
// Authorization header (re-read per request, so rotated ServiceAccount tokens are picked up).
// The calls themselves go through ./http.ts: one keep-alive pool and plain JSON (client-node
// opens a new TLS connection per request and passes bodies through model classes that drop
// fields they do not know, which a verbatim worker template must not suffer).

import type * as https from 'node:https';
import { loadClientNode } from 'seatunnel-app/internal/kube/client-node';
import { RuntimeFailure } from '../outcome';
import { KubeHttp } from './http';
import type { KubePort } from './port';
import { KubeRest } from './rest';

const HEADER_CACHE_MS = 10_000;

export interface KubeConnection {
  readonly port: KubePort;
  readonly server: string;
  close(): void;
}

export async function connectKube(namespace: string): Promise<KubeConnection> {
  const lib = await loadClientNode();
  const KubeConfig = lib.KubeConfig;
  if (typeof KubeConfig !== 'function') throw new Error('@kubernetes/client-node: KubeConfig is missing from the bundle (runtime/build.mjs subset)');
  const kc = new KubeConfig();
  try {
    kc.loadFromDefault();
  } catch (e) {
    throw new RuntimeFailure('InvalidSettings', `cannot load Kubernetes credentials (KUBECONFIG or the Pod's ServiceAccount): ${(e as Error).message}`);
  }
  const cluster = kc.getCurrentCluster();
  if (!cluster?.server) throw new RuntimeFailure('InvalidSettings', 'no Kubernetes API server configured (KUBECONFIG is unset and this is not a Pod)');
  if (cluster.proxyUrl) throw new RuntimeFailure('InvalidSettings', `the kubeconfig's proxy-url is not supported by the runtime (${cluster.proxyUrl})`);
  const tls: https.RequestOptions = {};
  await kc.applyToHTTPSOptions(tls);
  const buf = (v: unknown) => (v === undefined || v === null ? undefined : Buffer.isBuffer(v) ? v : Buffer.from(String(v)));
  let cached: { at: number; headers: Record<string, string> } | undefined;
  const http = new KubeHttp({
    server: new URL(cluster.server),
    ca: buf(tls.ca),
    cert: buf(tls.cert),
    key: buf(tls.key),
    rejectUnauthorized: cluster.skipTLSVerify ? false : undefined,
    servername: cluster.tlsServerName,
    async headers() {
      const now = Date.now();
      if (cached && now - cached.at < HEADER_CACHE_MS) return cached.headers;
      const opts: https.RequestOptions = {};
      await kc.applyToHTTPSOptions(opts);
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(opts.headers ?? {})) if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(', ') : String(v);
      if (opts.auth) headers.authorization = `Basic ${Buffer.from(opts.auth).toString('base64')}`;
      cached = { at: now, headers };
      return headers;
    },
  });
  return { port: new KubeRest(http, namespace), server: cluster.server, close: () => http.close() };
}
