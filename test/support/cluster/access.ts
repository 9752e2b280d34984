// How a test reaches the control plane started by global-setup.ts: its connection info (the JSON
// file named by SEATUNNEL_TEST_CLUSTER), raw HTTPS clients and client-node API clients as admin.
import * as fs from 'node:fs';
import { loadClientNode, type ClientNode, type k8s } from '../../../lib/kube/client-node';
import type { ClusterInfo } from '../../../tools/local-stack/control-plane';
import { CLUSTER_ENV } from '../../../tools/local-stack/control-server';
import { KubeHttp, KubeHttpError } from '../kube-http';

let cachedInfo: ClusterInfo | undefined;

/** Connection info of the running control plane; throws a helpful error outside the cluster tiers. */
export function clusterInfo(): ClusterInfo {
  if (cachedInfo) return cachedInfo;
  const file = process.env[CLUSTER_ENV];
  if (!file || !fs.existsSync(file)) {
    throw new Error(
      `${CLUSTER_ENV} is not set or names no file (${file ?? 'unset'}): cluster tests need the control plane from ` +
        "test/support/global-setup.ts - run them through Jest's cluster/engine/pulumi projects " +
        '(NODE_OPTIONS=--experimental-vm-modules npx jest --selectProjects cluster --runInBand), ' +
        `or start \`npm run dev-cluster\` and export the ${CLUSTER_ENV} line it prints`,
    );
  }
  cachedInfo = JSON.parse(fs.readFileSync(file, 'utf8')) as ClusterInfo;
  return cachedInfo;
}

let cachedAdmin: KubeHttp | undefined;

/** Raw HTTPS client as admin (client certificate in system:masters); never throws on HTTP status with `request`. */
export function adminHttp(): KubeHttp {
  if (cachedAdmin) return cachedAdmin;
  const info = clusterInfo();
  cachedAdmin = KubeHttp.fromFiles(info.server, info.caFile, info.adminCertFile, info.adminKeyFile);
  return cachedAdmin;
}

/** Raw HTTPS client authenticated with a bearer token (e.g. a ServiceAccount token). */
export function tokenHttp(token: string): KubeHttp {
  const info = clusterInfo();
  return new KubeHttp({ server: info.server, ca: info.caData, token });
}

export interface KubeClients {
  kc: k8s.KubeConfig;
  core: k8s.CoreV1Api;
  batch: k8s.BatchV1Api;
  rbac: k8s.RbacAuthorizationV1Api;
  coordination: k8s.CoordinationV1Api;
  objects: k8s.KubernetesObjectApi;
  /** The loaded @kubernetes/client-node module (Watch, PatchStrategy, setHeaderOptions, ...). */
  lib: ClientNode;
}

export async function clientsFor(kc: k8s.KubeConfig): Promise<KubeClients> {
  const lib = await loadClientNode();
  return {
    kc,
    core: kc.makeApiClient(lib.CoreV1Api),
    batch: kc.makeApiClient(lib.BatchV1Api),
    rbac: kc.makeApiClient(lib.RbacAuthorizationV1Api),
    coordination: kc.makeApiClient(lib.CoordinationV1Api),
    objects: lib.KubernetesObjectApi.makeApiClient(kc),
    lib,
  };
}

/** A client-node KubeConfig for the admin kubeconfig file. */
export async function adminKubeConfig(): Promise<k8s.KubeConfig> {
  const { KubeConfig } = await loadClientNode();
  const kc = new KubeConfig();
  kc.loadFromFile(clusterInfo().kubeconfig);
  return kc;
}

/** client-node API clients acting as the cluster admin. */
export async function adminClients(): Promise<KubeClients> {
  return clientsFor(await adminKubeConfig());
}

/** True if `e` is a client-node ApiException (or KubeHttpError) with HTTP status `code`. */
export function isHttpStatus(e: unknown, code: number): boolean {
  if (e instanceof KubeHttpError) return e.status === code;
  return typeof e === 'object' && e !== null && (e as { code?: unknown }).code === code;
}
