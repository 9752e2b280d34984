// Jest globalSetup/globalTeardown of the node tier: one control plane with three real nodes
// (containerd, kubelet, kube-proxy, kube-router, CoreDNS on each; one Pod network) per run, from
// tools/local-stack/real-node, shared by every test file of the tier. Tests reach it through
// SEATUNNEL_TEST_CLUSTER like the other tiers (its info has a `node` list) and inflict node faults
// through its control endpoint (node-faults.ts). An info file from a running `npm run node-cluster
// -- --nodes 3` is used and left running.
import * as fs from 'node:fs';
import { CLUSTER_ENV, startControlServer, type ControlServer } from '../../tools/local-stack/control-server';
import { NodeCluster } from '../../tools/local-stack/real-node/node-cluster';
import { nodeClusterRoutes } from '../../tools/local-stack/real-node/node-control';

const STATE = Symbol.for('seatunnel-app.test.node-cluster');
/** The node tier's cluster: enough nodes for a lost one and a partition with a majority left. */
export const NODE_TIER_NODES = 3;

interface State {
  nc: NodeCluster;
  control: ControlServer;
}

function reusableNodeCluster(file: string | undefined): boolean {
  if (!file || !fs.existsSync(file)) return false;
  try {
    const info = JSON.parse(fs.readFileSync(file, 'utf8')) as { ownerPid: number; node?: unknown; control?: unknown };
    if (!Array.isArray(info.node) || info.node.length < NODE_TIER_NODES || !info.control) return false;
    process.kill(info.ownerPid, 0);
    return true;
  } catch {
    return false;
  }
}

export default async function globalSetup(): Promise<void> {
  const g = globalThis as Record<symbol, State | undefined>;
  if (g[STATE]) return;
  if (reusableNodeCluster(process.env[CLUSTER_ENV])) {
    process.stderr.write(
      `\n[node-cluster] using the running node cluster from ${CLUSTER_ENV}=${process.env[CLUSTER_ENV]}\n`,
    );
    return;
  }
  process.stderr.write('\n');
  const nc = await NodeCluster.start({ nodes: NODE_TIER_NODES });
  const control = await startControlServer(nc.controlPlane, nodeClusterRoutes(nc));
  nc.controlPlane.info.control = control.endpoint;
  process.env[CLUSTER_ENV] = nc.controlPlane.writeInfo();
  g[STATE] = { nc, control };
}

export async function stopNodeCluster(): Promise<void> {
  const g = globalThis as Record<symbol, State | undefined>;
  const state = g[STATE];
  if (!state) return;
  g[STATE] = undefined;
  await state.control.close();
  await state.nc.stop();
  delete process.env[CLUSTER_ENV];
}
