// The control plane a bench runs against: a fresh local one (tools/local-stack), or the running one
// SEATUNNEL_TEST_CLUSTER=<cluster.json> points at; and a namespace ready for Pods.

import * as fs from 'node:fs';
import type { Kube } from '../lib/kube';
import { ControlPlane, type ClusterInfo } from '../tools/local-stack/control-plane';

export interface BenchCluster {
  readonly info: ClusterInfo;
  /** Stops the control plane if this bench started it. */
  stop(): Promise<void>;
}

export async function benchCluster(nodes = 1): Promise<BenchCluster> {
  const file = process.env.SEATUNNEL_TEST_CLUSTER;
  if (file && fs.existsSync(file))
    return { info: JSON.parse(fs.readFileSync(file, 'utf8')) as ClusterInfo, stop: async () => undefined };
  const cp = await ControlPlane.start({ nodes });
  return { info: cp.info, stop: () => cp.stop() };
}

/** Creates the namespace (if missing) and waits for its default ServiceAccount, which Pods need. */
export async function ensureNamespace(kube: Kube, namespace: string): Promise<void> {
  await kube
    .call({
      method: 'POST',
      path: '/api/v1/namespaces',
      body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } },
    })
    .catch(() => undefined);
  for (let i = 0; i < 50; i++) {
    if (await kube.find({ apiVersion: 'v1', kind: 'ServiceAccount', namespace, name: 'default' })) return;
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** A deployment file for the bench's applications (the image is never pulled: nothing runs it). */
export function writeDeploymentFile(
  file: string,
  o: { name: string; workerCount: number; namespace: string; kubeconfig: string },
): string {
  fs.writeFileSync(
    file,
    `application { name = ${o.name}, worker-count = ${o.workerCount} }\nkubernetes { namespace = ${o.namespace}, image = "apache/seatunnel:2.3.12", kubeconfig = ${JSON.stringify(o.kubeconfig)} }\n`,
  );
  return file;
}
