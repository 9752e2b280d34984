// Ownership as the plan emits it: the Job owns its Service, Secrets, ConfigMaps and the worker
// PodTemplate (controller: false, blockOwnerDeletion: false); the master Pod owns the workers.
// Deleting the owner must remove the dependents through the garbage collector.
import type { k8s } from '../support/cluster';
import { adminClients, isHttpStatus, useTestNamespace, waitFor, withComponentLogs } from '../support/cluster';

const ns = useTestNamespace('gc');

const container = { name: 'main', image: 'seatunnel-app-test:fake' };

function ownedBy(
  owner: { apiVersion: string; kind: string; metadata?: { name?: string; uid?: string } },
  controller = false,
): k8s.V1OwnerReference[] {
  return [
    {
      apiVersion: owner.apiVersion,
      kind: owner.kind,
      name: owner.metadata!.name!,
      uid: owner.metadata!.uid!,
      controller,
      blockOwnerDeletion: false,
    },
  ];
}

async function gone(read: () => Promise<unknown>): Promise<boolean> {
  try {
    await read();
    return false;
  } catch (e) {
    if (isHttpStatus(e, 404)) return true;
    throw e;
  }
}

test(
  'Service, Secret, ConfigMap and PodTemplate owned by a Job are removed by the garbage collector when the Job is deleted',
  withComponentLogs(async () => {
    const { batch, core } = await adminClients();
    const namespace = ns.name;
    const created = await batch.createNamespacedJob({
      namespace,
      body: {
        apiVersion: 'batch/v1',
        kind: 'Job',
        metadata: { name: 'app' },
        spec: { suspend: true, template: { spec: { restartPolicy: 'Never', containers: [container] } } },
      },
    });
    const owner = { apiVersion: 'batch/v1', kind: 'Job', metadata: created.metadata };
    const ownerReferences = ownedBy(owner);

    await core.createNamespacedService({
      namespace,
      body: {
        metadata: { name: 'app-master', ownerReferences },
        spec: { selector: { app: 'app' }, ports: [{ name: 'rest', port: 8080 }] },
      },
    });
    await core.createNamespacedSecret({
      namespace,
      body: { metadata: { name: 'app-secret', ownerReferences }, stringData: { k: 'v' } },
    });
    await core.createNamespacedConfigMap({
      namespace,
      body: { metadata: { name: 'app-config', ownerReferences }, data: { 'job.conf': 'env {}' } },
    });
    await core.createNamespacedPodTemplate({
      namespace,
      body: {
        metadata: { name: 'app-worker', ownerReferences },
        template: { metadata: { labels: { app: 'app' } }, spec: { containers: [container] } },
      },
    });
    // A bystander without an owner reference must survive.
    await core.createNamespacedConfigMap({ namespace, body: { metadata: { name: 'user-config' }, data: { a: 'b' } } });

    const readers: Record<string, () => Promise<unknown>> = {
      'Service app-master': () => core.readNamespacedService({ name: 'app-master', namespace }),
      'Secret app-secret': () => core.readNamespacedSecret({ name: 'app-secret', namespace }),
      'ConfigMap app-config': () => core.readNamespacedConfigMap({ name: 'app-config', namespace }),
      'PodTemplate app-worker': () => core.readNamespacedPodTemplate({ name: 'app-worker', namespace }),
    };
    for (const read of Object.values(readers)) await expect(read()).resolves.toBeDefined();

    // Background propagation, as the CLI deletes (the API's default for Jobs is to orphan).
    await batch.deleteNamespacedJob({ name: 'app', namespace, propagationPolicy: 'Background' });
    for (const [what, read] of Object.entries(readers)) {
      await waitFor(() => gone(read), { description: `the garbage collector to delete ${what}`, timeoutMs: 90_000 });
    }
    await expect(core.readNamespacedConfigMap({ name: 'user-config', namespace })).resolves.toBeDefined();
  }),
);

test(
  'a Pod owned by another Pod is removed when that Pod is deleted',
  withComponentLogs(async () => {
    const { core } = await adminClients();
    const namespace = ns.name;
    const master = await core.createNamespacedPod({
      namespace,
      body: { metadata: { name: 'master', labels: { role: 'master' } }, spec: { containers: [container] } },
    });
    await core.createNamespacedPod({
      namespace,
      body: {
        metadata: {
          name: 'worker-0',
          labels: { role: 'worker' },
          ownerReferences: ownedBy({ apiVersion: 'v1', kind: 'Pod', metadata: master.metadata }, true),
        },
        spec: { containers: [container] },
      },
    });
    // An unrelated Pod must survive.
    await core.createNamespacedPod({
      namespace,
      body: { metadata: { name: 'other' }, spec: { containers: [container] } },
    });

    await core.deleteNamespacedPod({ name: 'master', namespace });
    // kwok's pod-delete stage completes the graceful deletion (there is no kubelet).
    await waitFor(() => gone(() => core.readNamespacedPod({ name: 'master', namespace })), {
      description: 'Pod master to be deleted',
    });
    await waitFor(() => gone(() => core.readNamespacedPod({ name: 'worker-0', namespace })), {
      description: 'the garbage collector to delete Pod worker-0 (owned by Pod master)',
      timeoutMs: 90_000,
    });
    const other = await core.readNamespacedPod({ name: 'other', namespace });
    expect(other.metadata?.deletionTimestamp).toBeUndefined();
  }),
);
