// The runtime is a reconciler over a Pod watch: it needs ADDED / MODIFIED / DELETED for exactly
// its label selector, and a clear 410 Gone when its resourceVersion has expired (then it re-lists).
import type { k8s } from '../support/cluster';
import {
  adminClients,
  recordWatch,
  restartApiServer,
  useTestNamespace,
  waitFor,
  withComponentLogs,
} from '../support/cluster';

const ns = useTestNamespace('watch');

const spec = { containers: [{ name: 'main', image: 'seatunnel-app-test:fake' }] };

test(
  'a watch on Pods by label selector delivers ADDED, MODIFIED and DELETED for matching Pods only',
  withComponentLogs(async () => {
    const { core } = await adminClients();
    const namespace = ns.name;
    const watch = await recordWatch<k8s.V1Pod>(`/api/v1/namespaces/${namespace}/pods`, {
      labelSelector: 'app=watched',
    });
    try {
      await core.createNamespacedPod({
        namespace,
        body: { metadata: { name: 'outside', labels: { app: 'other' } }, spec },
      });
      await core.createNamespacedPod({
        namespace,
        body: { metadata: { name: 'inside', labels: { app: 'watched' } }, spec },
      });
      await watch.until((e) => e.type === 'ADDED' && e.object.metadata?.name === 'inside', 'ADDED for Pod inside');
      await watch.until(
        (e) => e.type === 'MODIFIED' && e.object.status?.phase === 'Running',
        'MODIFIED with phase Running (kwok)',
      );
      await core.deleteNamespacedPod({ name: 'inside', namespace });
      await watch.until((e) => e.type === 'DELETED' && e.object.metadata?.name === 'inside', 'DELETED for Pod inside');

      const types = watch.events.map((e) => e.type);
      expect(types[0]).toBe('ADDED');
      expect(types[types.length - 1]).toBe('DELETED');
      expect(types).toContain('MODIFIED');
      // Only the selected Pod, and every event newer than the one before.
      expect(new Set(watch.events.map((e) => e.object.metadata?.name))).toEqual(new Set(['inside']));
      const rvs = watch.events.map((e) => Number(e.object.metadata?.resourceVersion));
      expect(rvs).toEqual([...rvs].sort((a, b) => a - b));
    } finally {
      watch.stop();
    }
    // The other Pod exists; it was filtered out by the selector, not missed.
    expect((await core.readNamespacedPod({ name: 'outside', namespace })).metadata?.labels?.app).toBe('other');
  }),
);

test(
  'a watch from an expired resourceVersion gets 410 Gone',
  withComponentLogs(async () => {
    const { core } = await adminClients();
    const namespace = ns.name;
    await core.createNamespacedPod({
      namespace,
      body: { metadata: { name: 'before', labels: { app: 'expiry' } }, spec },
    });
    const staleRv = (await core.listNamespacedPod({ namespace, labelSelector: 'app=expiry' })).metadata!
      .resourceVersion!;

    // The API server's watch cache serves every resourceVersion since it started, so on a young
    // cluster nothing expires by itself (etcd compaction does not touch the cache's event
    // window). A restart starts the cache over at the current revision, which expires staleRv -
    // as an API server restart or upgrade does in production.
    await restartApiServer();
    await core.createNamespacedPod({
      namespace,
      body: { metadata: { name: 'after', labels: { app: 'expiry' } }, spec },
    });

    const watch = await recordWatch<k8s.V1Status>(`/api/v1/namespaces/${namespace}/pods`, {
      labelSelector: 'app=expiry',
      resourceVersion: staleRv,
    });
    try {
      // The server answers HTTP 200 and then sends one ERROR event carrying a Status with code 410
      // (reason Expired); client-node hands it to the event callback, not to `done`.
      const error = await watch.until(
        (e) => e.type === 'ERROR',
        'an ERROR event on the watch from the stale resourceVersion',
      );
      expect(error.object).toMatchObject({ kind: 'Status', code: 410, reason: 'Expired' });
      expect(watch.events.filter((e) => e.type !== 'ERROR')).toEqual([]);
    } finally {
      watch.stop();
    }

    // A fresh list + watch from its resourceVersion works again (what the runtime does on 410).
    const relist = await core.listNamespacedPod({ namespace, labelSelector: 'app=expiry' });
    expect(relist.items.map((p) => p.metadata?.name).sort()).toEqual(['after', 'before']);
    const again = await recordWatch<k8s.V1Pod>(`/api/v1/namespaces/${namespace}/pods`, {
      labelSelector: 'app=expiry',
      resourceVersion: relist.metadata!.resourceVersion!,
    });
    try {
      await core.deleteNamespacedPod({ name: 'before', namespace });
      await again.until(
        (e) => e.type === 'DELETED' && e.object.metadata?.name === 'before',
        'DELETED after re-listing',
      );
      expect(again.events.some((e) => e.type === 'ERROR')).toBe(false);
    } finally {
      again.stop();
    }
    await waitFor(
      async () => (await core.listNamespacedPod({ namespace, labelSelector: 'app=expiry' })).items.length === 1,
      {
        description: 'only Pod "after" left',
      },
    );
  }),
);
