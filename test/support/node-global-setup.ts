// Jest globalSetup/globalTeardown of the node tier: one control plane with a real node (containerd,
// kubelet, kube-proxy, kube-router, CoreDNS) per run, from tools/local-stack/real-node. Tests reach it
// through SEATUNNEL_TEST_CLUSTER like the other tiers (its info has a `node` section). An info file
// from a running `npm run node-cluster` is used and left running.
import * as fs from 'node:fs';
import { CLUSTER_ENV } from '../../tools/local-stack/control-server';
import { NodeCluster } from '../../tools/local-stack/real-node/node-cluster';

const STATE = Symbol.for('seatunnel-app.test.node-cluster');

function reusableNodeCluster(file: string | undefined): boolean {
  if (!file || !fs.existsSync(file)) return false;
  try {
    const info = JSON.parse(fs.readFileSync(file, 'utf8')) as { ownerPid: number; node?: unknown };
    if (!info.node) return false;
    process.kill(info.ownerPid, 0);
    return true;
  } catch {
    return false;
  }
}

export default async function globalSetup(): Promise<void> {
  const g = globalThis as Record<symbol, NodeCluster | undefined>;
  if (g[STATE]) return;
  if (reusableNodeCluster(process.env[CLUSTER_ENV])) {
    process.stderr.write(
      `\n[node-cluster] using the running node cluster from ${CLUSTER_ENV}=${process.env[CLUSTER_ENV]}\n`,
    );
    return;
  }
  process.stderr.write('\n');
  const nc = await NodeCluster.start();
  process.env[CLUSTER_ENV] = nc.controlPlane.writeInfo();
  g[STATE] = nc;
}

export async function stopNodeCluster(): Promise<void> {
  const g = globalThis as Record<symbol, NodeCluster | undefined>;
  const nc = g[STATE];
  if (!nc) return;
  g[STATE] = undefined;
  await nc.stop();
  delete process.env[CLUSTER_ENV];
}
