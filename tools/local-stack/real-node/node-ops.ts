// What fault tests do to and read from the API about nodes, over any admin client: the
// out-of-service taint (non-graceful node shutdown, as an operator sets it), deleting a Node object
// (as a cloud provider's node controller does for a machine that is gone), waiting for a node to be
// NotReady or Ready again, where a Pod runs, and pinning a Pod to a node.
import type { KubeHttp } from '../../../test/support/kube-http';
import { waitFor } from '../wait';
import { nodeCondition, type NodeCondition, type NodeObject } from './node-status';

/** `node.kubernetes.io/out-of-service=nodeshutdown:NoExecute`: Pods on the node are force-deleted (PodGC). */
export const OUT_OF_SERVICE_TAINT = {
  key: 'node.kubernetes.io/out-of-service',
  value: 'nodeshutdown',
  effect: 'NoExecute',
} as const;

/** Every real node has its own zone, so topology spread constraints can use this key. */
export const ZONE_LABEL = 'topology.kubernetes.io/zone';
export const HOSTNAME_LABEL = 'kubernetes.io/hostname';

type Taint = { key: string; value?: string; effect: string };

/**
 * Rewrites the node's taints with `change`, under the resourceVersion it read, so a taint the node
 * lifecycle controller adds meanwhile is not lost (a conflict reads again).
 */
async function editTaints(admin: KubeHttp, name: string, change: (taints: Taint[]) => Taint[]): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    const node = await admin.call<NodeObject & { metadata: { resourceVersion: string } }>(
      'GET',
      `/api/v1/nodes/${name}`,
    );
    const r = await admin.request(
      'PATCH',
      `/api/v1/nodes/${name}`,
      {
        metadata: { resourceVersion: node.metadata.resourceVersion },
        spec: { taints: change(node.spec?.taints ?? []) },
      },
      { contentType: 'application/merge-patch+json' },
    );
    if (r.status >= 200 && r.status < 300) return;
    if (r.status !== 409 || attempt >= 10) throw new Error(`PATCH node ${name} taints -> HTTP ${r.status}: ${r.text}`);
  }
}

export function addTaint(admin: KubeHttp, node: string, taint: Taint): Promise<void> {
  return editTaints(admin, node, (ts) => [
    ...ts.filter((t) => !(t.key === taint.key && t.effect === taint.effect)),
    taint,
  ]);
}

export function removeTaint(admin: KubeHttp, node: string, key: string): Promise<void> {
  return editTaints(admin, node, (ts) => ts.filter((t) => t.key !== key));
}

/** Sets the out-of-service taint: the node is gone for good; its Pods are force-deleted and replaced elsewhere. */
export function setOutOfService(admin: KubeHttp, node: string): Promise<void> {
  return addTaint(admin, node, { ...OUT_OF_SERVICE_TAINT });
}

/** Removes the out-of-service taint; do it before the node comes back, or it evicts everything new on it. */
export function clearOutOfService(admin: KubeHttp, node: string): Promise<void> {
  return removeTaint(admin, node, OUT_OF_SERVICE_TAINT.key);
}

/** Deletes the Node object (its Pods are then removed by the Pod garbage collector). */
export async function deleteNodeObject(admin: KubeHttp, node: string): Promise<void> {
  await admin.call('DELETE', `/api/v1/nodes/${node}`, undefined, { accept: [404] });
}

export async function readyCondition(admin: KubeHttp, node: string): Promise<NodeCondition | undefined> {
  return nodeCondition(await admin.call<NodeObject>('GET', `/api/v1/nodes/${node}`), 'Ready');
}

/**
 * Waits until the node's Ready condition is `want`: 'Ready' (True), 'NotReady' (False or Unknown)
 * or exactly 'Unknown' (the node controller heard nothing within node-monitor-grace-period).
 * Resolves with the condition.
 */
export function waitForNode(
  admin: KubeHttp,
  node: string,
  want: 'Ready' | 'NotReady' | 'Unknown',
  timeoutMs = 180_000,
): Promise<NodeCondition> {
  const matches = (s: string | undefined) =>
    want === 'Ready' ? s === 'True' : want === 'Unknown' ? s === 'Unknown' : s === 'False' || s === 'Unknown';
  return waitFor(
    async () => {
      const c = await readyCondition(admin, node);
      return matches(c?.status) ? c : undefined;
    },
    { description: `node ${node} ${want}`, timeoutMs, intervalMs: 500 },
  );
}

/** The node a Pod is bound to (spec.nodeName), or undefined while it is not scheduled. */
export async function nodeOfPod(admin: KubeHttp, namespace: string, pod: string): Promise<string | undefined> {
  const p = await admin.call<{ spec?: { nodeName?: string } }>('GET', `/api/v1/namespaces/${namespace}/pods/${pod}`);
  return p.spec?.nodeName;
}

/** Names of the Pods (all namespaces, or one) bound to `node`. */
export async function podsOnNode(admin: KubeHttp, node: string, namespace?: string): Promise<string[]> {
  const base = namespace ? `/api/v1/namespaces/${namespace}/pods` : '/api/v1/pods';
  const list = await admin.call<{ items: Array<{ metadata: { name: string; namespace: string } }> }>(
    'GET',
    `${base}?fieldSelector=${encodeURIComponent(`spec.nodeName=${node}`)}`,
  );
  return list.items.map((p) => (namespace ? p.metadata.name : `${p.metadata.namespace}/${p.metadata.name}`));
}

/** A copy of a Pod (or Pod template) object whose spec selects exactly `node` by its hostname label. */
export function pinnedToNode<T extends { spec?: Record<string, unknown> }>(pod: T, node: string): T {
  const spec = pod.spec ?? {};
  const nodeSelector = { ...((spec.nodeSelector as Record<string, string> | undefined) ?? {}), [HOSTNAME_LABEL]: node };
  return { ...pod, spec: { ...spec, nodeSelector } };
}
