// The runtime's only use of @kubernetes/client-node (loaded through lib/kube/client-node.ts):
// KubeConfig.loadFromDefault() finds the credentials — KUBECONFIG when set (tests, local runs),
// else the Pod's ServiceAccount (in-cluster) — and supplies the server, TLS material and the
// Authorization header (re-read every 10 s, so rotated ServiceAccount tokens are picked up).
// The calls themselves go through the shared transport (lib/kube/transport.ts, see its README for
// why not through client-node's API classes).

import { clientNodeCredentials, Kube, KubeTransport, loadClientNode } from 'seatunnel-app/runtime-support';
import { RuntimeFailure } from '../outcome';
import type { KubePort } from './port';
import { KubeRest } from './rest';

const HEADER_CACHE_MS = 10_000;
/** The runtime is patient with a busy API server (its own budgets decide when to give up). */
const REQUEST_TIMEOUT_MS = 15_000;

export interface KubeConnection {
  readonly port: KubePort;
  readonly server: string;
  close(): void;
}

export async function connectKube(namespace: string): Promise<KubeConnection> {
  const lib = await loadClientNode();
  const KubeConfig = lib.KubeConfig;
  if (typeof KubeConfig !== 'function')
    throw new Error('@kubernetes/client-node: KubeConfig is missing from the bundle (runtime/build.mjs subset)');
  const kc = new KubeConfig();
  try {
    kc.loadFromDefault();
  } catch (e) {
    throw new RuntimeFailure(
      'InvalidSettings',
      `cannot load Kubernetes credentials (KUBECONFIG or the Pod's ServiceAccount): ${(e as Error).message}`,
    );
  }
  const cluster = kc.getCurrentCluster();
  if (!cluster?.server)
    throw new RuntimeFailure(
      'InvalidSettings',
      'no Kubernetes API server configured (KUBECONFIG is unset and this is not a Pod)',
    );
  if (cluster.proxyUrl)
    throw new RuntimeFailure(
      'InvalidSettings',
      `the kubeconfig's proxy-url is not supported by the runtime (${cluster.proxyUrl})`,
    );
  const transport = new KubeTransport(cluster.server, clientNodeCredentials(kc, { cacheMs: HEADER_CACHE_MS }), {
    timeoutMs: REQUEST_TIMEOUT_MS,
  });
  return { port: new KubeRest(new Kube(transport), namespace), server: cluster.server, close: () => transport.close() };
}
