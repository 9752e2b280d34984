// Test-side helpers for the control plane started by global-setup.ts (cluster, engine and pulumi
// projects), one module per concern. Everything here works in any Jest worker: it reads the
// connection info from the JSON file named by SEATUNNEL_TEST_CLUSTER.
//
//   const ns = useTestNamespace('gc');                        // created before, deleted after the file's tests
//   const { core, batch } = await adminClients();             // @kubernetes/client-node APIs as admin
//   const sa = await serviceAccountClients(ns.name, 'runner'); // clients acting as a ServiceAccount (TokenRequest)
//   test('x', withComponentLogs(async () => { ... }));        // prints component log tails if the test fails

export * from './access';
export * from './service-accounts';
export * from './namespaces';
export * from './nodes';
export * from './components';
export * from './dry-run';
export * from './watch';
export { waitFor, type WaitOptions } from '../../../tools/local-stack/wait';
export { KubeHttp, KubeHttpError } from '../kube-http';
export { KWOK_LIFECYCLE_ANNOTATION, type KwokLifecycle } from '../../../tools/local-stack/kwok-stages';
export type { ClusterInfo, FakeNodeOptions, Taint } from '../../../tools/local-stack/control-plane';
export { loadClientNode, type k8s } from '../../../lib/kube/client-node';

/**
 * Default timeout of every test in a file that imports this module: cluster tests wait for
 * controllers, so Jest's 5 s default is far too short (each wait has its own, shorter, deadline
 * with a message saying what was awaited).
 */
export const CLUSTER_TEST_TIMEOUT_MS = 180_000;
if (typeof jest !== 'undefined') jest.setTimeout(CLUSTER_TEST_TIMEOUT_MS);
