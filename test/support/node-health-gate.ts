// Every test file of the node tier starts on a cluster that can run applications on each node, or
// fails at once saying which node cannot and why (node-health.ts) instead of timing out test by test.
import { assertNodesUsable } from './node-health';

beforeAll(() => assertNodesUsable(), 5 * 60_000);
