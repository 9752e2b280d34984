// The benches' cluster: the local control plane (tools/local-stack), or a running one named by
// SEATUNNEL_TEST_CLUSTER (its cluster.json), and a namespace ready for Pods (its default
// ServiceAccount exists).

import * as fs from 'node:fs';
import type { Kube } from '../lib/kube';
import { ControlPlane, type ClusterInfo } from '../tools/local-stack/control-plane';

export async function benchControlPlane(): Promise<{ info: ClusterInfo; stop: () => Promise<void> }> {
  const reuse = process.env.SEATUNNEL_TEST_CLUSTER;
  if (reuse && fs.existsSync(reuse)) return { info: JSON.parse(fs.readFileSync(reuse, 'utf8')) as ClusterInfo, stop: async () => undefined };
  const cp = await ControlPlane.start({ nodes: 1 });
  return { info: cp.info, stop: () => cp.stop() };
}

/** Creates `namespace` unless it exists, and waits (up to 10 s) for its default ServiceAccount. */
export async function benchNamespace(kube: Kube, namespace: string): Promise<void> {
  await kube
    .call({ method: 'POST', path: '/api/v1/namespaces', body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } } })
    .catch(() => undefined);
  for (let i = 0; i < 50; i++) {
    if (await kube.find({ apiVersion: 'v1', kind: 'ServiceAccount', namespace, name: 'default' })) break;
    await new Promise((r) => setTimeout(r, 200));
  }
}
