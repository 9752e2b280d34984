// Acting as a ServiceAccount: tokens from the TokenRequest API, and the kubeconfig file and
// Pod-like token mount a local process needs to run with that identity.
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { loadClientNode } from '../../../lib/kube/client-node';
import { kubeconfigYaml } from '../../../tools/local-stack/control-plane';
import { adminHttp, clientsFor, clusterInfo, type KubeClients } from './access';

export interface TokenOptions {
  /** Token lifetime (the API server enforces a minimum of 600 s). Default 3600. */
  expirationSeconds?: number;
  /** Audiences; default: the API server's (the issuer URL). */
  audiences?: string[];
}

/** Mints a token for a ServiceAccount with the TokenRequest API (the ServiceAccount must exist). */
export async function mintServiceAccountToken(
  namespace: string,
  name: string,
  opts: TokenOptions = {},
): Promise<string> {
  const res = await adminHttp().call<{ status: { token: string } }>(
    'POST',
    `/api/v1/namespaces/${encodeURIComponent(namespace)}/serviceaccounts/${encodeURIComponent(name)}/token`,
    {
      apiVersion: 'authentication.k8s.io/v1',
      kind: 'TokenRequest',
      spec: {
        expirationSeconds: opts.expirationSeconds ?? 3600,
        ...(opts.audiences ? { audiences: opts.audiences } : {}),
      },
    },
  );
  return res.status.token;
}

export interface ServiceAccountIdentity {
  namespace: string;
  name: string;
  /** system:serviceaccount:<namespace>:<name> */
  username: string;
  token: string;
  /** A kubeconfig file (namespace preset) for a local process: KUBECONFIG=<this>. */
  kubeconfigPath: string;
  /** A directory laid out like a Pod's token mount: token, ca.crt, namespace. */
  mountDir: string;
  /**
   * A fake filesystem root holding mountDir at var/run/secrets/kubernetes.io/serviceaccount, for
   * client-node's `kc.loadFromCluster(rootPrefix)`; combine with `inClusterEnv`.
   */
  rootPrefix: string;
  /** KUBERNETES_SERVICE_HOST/PORT pointing at the test API server (127.0.0.1). */
  inClusterEnv: { KUBERNETES_SERVICE_HOST: string; KUBERNETES_SERVICE_PORT: string };
}

/**
 * Mints a token for an existing ServiceAccount and writes what a local process needs to act as
 * it: a kubeconfig file and a Pod-like token mount directory (both under the cluster's temp dir).
 */
export async function serviceAccountIdentity(
  namespace: string,
  name: string,
  opts: TokenOptions = {},
): Promise<ServiceAccountIdentity> {
  const info = clusterInfo();
  const token = await mintServiceAccountToken(namespace, name, opts);
  const base = path.join(info.dir, 'identities', `${namespace}.${name}.${randomBytes(4).toString('hex')}`);
  const rootPrefix = path.join(base, 'root');
  const mountDir = path.join(rootPrefix, 'var', 'run', 'secrets', 'kubernetes.io', 'serviceaccount');
  fs.mkdirSync(mountDir, { recursive: true, mode: 0o700 });
  fs.writeFileSync(path.join(mountDir, 'token'), token, { mode: 0o600 });
  fs.writeFileSync(path.join(mountDir, 'ca.crt'), info.caData);
  fs.writeFileSync(path.join(mountDir, 'namespace'), namespace);
  const user = `system:serviceaccount:${namespace}:${name}`;
  const kubeconfigPath = path.join(base, 'kubeconfig');
  fs.writeFileSync(
    kubeconfigPath,
    kubeconfigYaml({ server: info.server, caData: info.caData, user, token, namespace }),
    { mode: 0o600 },
  );
  const url = new URL(info.server);
  return {
    namespace,
    name,
    username: user,
    token,
    kubeconfigPath,
    mountDir,
    rootPrefix,
    inClusterEnv: { KUBERNETES_SERVICE_HOST: url.hostname, KUBERNETES_SERVICE_PORT: url.port },
  };
}

/** client-node API clients acting as a ServiceAccount (token from TokenRequest). */
export async function serviceAccountClients(
  namespace: string,
  name: string,
  opts: TokenOptions = {},
): Promise<KubeClients & { identity: ServiceAccountIdentity }> {
  const identity = await serviceAccountIdentity(namespace, name, opts);
  const { KubeConfig } = await loadClientNode();
  const kc = new KubeConfig();
  kc.loadFromFile(identity.kubeconfigPath);
  return { ...(await clientsFor(kc)), identity };
}
