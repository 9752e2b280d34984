// The dev cluster's fake nodes (dev-cluster.ts), in a module of their own so tests can use them.
import type { FakeNodeOptions, Taint } from './control-plane';

/** The taint that keeps Pods off the fake nodes; its value is what `status` and `kubectl describe` show. */
export const FAKE_NODE_TAINT: Taint = {
  key: 'seatunnel-app.dev/fake-node',
  value: 'no-container-runs-here',
  effect: 'NoSchedule',
};

/** The fake nodes: tainted unless simulating, so nobody mistakes kwok's bookkeeping for a run. */
export function devClusterNodes(count: number, simulate: boolean): Array<FakeNodeOptions & { name: string }> {
  return Array.from({ length: count }, (_, i) => ({
    name: `kwok-node-${i}`,
    taints: simulate ? [] : [FAKE_NODE_TAINT],
  }));
}
