// Credentials from a @kubernetes/client-node KubeConfig, for the transport: client-node finds and
// refreshes them (exec and auth-provider plugins, token files, in-cluster ServiceAccount,
// impersonation); the transport makes the calls. Used by the CLI for every kubeconfig it does not
// read itself (lib/submit/connection/client-node-api.ts) and by the runtime (runtime/src/kube/client-node-adapter.ts).

import type * as https from 'node:https';
import type { k8s } from './client-node';
import type { Credentials } from './connection';

export interface ClientNodeCredentialOptions {
  /** Reuse headers this long (ms) instead of asking client-node before every request. Default 0. */
  readonly cacheMs?: number;
  /** Use client-node's own agent when the cluster has a proxy-url (the CLI; the runtime refuses proxies). */
  readonly proxyAgent?: boolean;
}

/** A credential provider asked before every request (see KubeTransport). */
export function clientNodeCredentials(
  kc: k8s.KubeConfig,
  opts: ClientNodeCredentialOptions = {},
): () => Promise<Credentials> {
  const cluster = kc.getCurrentCluster();
  let cached: { at: number; credentials: Credentials } | undefined;
  return async () => {
    if (cached && Date.now() - cached.at < (opts.cacheMs ?? 0)) return cached.credentials;
    const o: https.RequestOptions = { headers: {} };
    await kc.applyToHTTPSOptions(o);
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(o.headers ?? {}))
      if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(', ') : String(v);
    if (o.auth && !headers.Authorization && !headers.authorization)
      headers.Authorization = `Basic ${Buffer.from(o.auth).toString('base64')}`;
    const credentials: Credentials = {
      headers,
      tls: {
        ...(o.ca ? { ca: o.ca } : {}),
        ...(o.cert ? { cert: o.cert } : {}),
        ...(o.key ? { key: o.key as Buffer } : {}),
        ...(o.servername
          ? { servername: o.servername }
          : cluster?.tlsServerName
            ? { servername: cluster.tlsServerName }
            : {}),
        ...(o.rejectUnauthorized === false || cluster?.skipTLSVerify ? { rejectUnauthorized: false } : {}),
      },
      // Through a proxy only client-node's own agent knows how to tunnel.
      ...(opts.proxyAgent && cluster?.proxyUrl && o.agent ? { agent: o.agent as import('node:http').Agent } : {}),
    };
    cached = { at: Date.now(), credentials };
    return credentials;
  };
}
