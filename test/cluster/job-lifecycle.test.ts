// The Job behaviour the submitter relies on: a suspended Job runs nothing until a JSON patch
// unsuspends it; a finished Job with ttlSecondsAfterFinished is deleted together with its Pods.
import type { k8s } from '../support/cluster';
import {
  KWOK_LIFECYCLE_ANNOTATION,
  adminClients,
  clusterInfo,
  recordWatch,
  useTestNamespace,
  waitFor,
  withComponentLogs,
} from '../support/cluster';

const ns = useTestNamespace('job');

function job(name: string, spec: Partial<k8s.V1JobSpec>, podAnnotations: Record<string, string> = {}): k8s.V1Job {
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name },
    spec: {
      backoffLimit: 0,
      ...spec,
      template: {
        metadata: { labels: { app: name }, annotations: podAnnotations },
        spec: {
          restartPolicy: 'Never',
          containers: [
            {
              name: 'main',
              image: 'seatunnel-app-test:fake',
              resources: { requests: { cpu: '100m', memory: '64Mi' } },
            },
          ],
        },
      },
    },
  };
}

test(
  'a Job created with suspend: true creates no Pod; after a JSON-patch unsuspend its Pod runs on a kwok node with a Pod IP',
  withComponentLogs(async () => {
    const { batch, core } = await adminClients();
    // "no-complete": kwok makes the Pod Running but never Succeeded, like a master Pod whose
    // process is still working.
    await batch.createNamespacedJob({
      namespace: ns.name,
      body: job('suspended', { suspend: true }, { [KWOK_LIFECYCLE_ANNOTATION]: 'no-complete' }),
    });

    // The job controller has seen the Job once it records the Suspended condition; from then on
    // it has decided not to create Pods.
    await waitFor(
      async () => {
        const j = await batch.readNamespacedJob({ name: 'suspended', namespace: ns.name });
        return j.status?.conditions?.some((c) => c.type === 'Suspended' && c.status === 'True');
      },
      { description: 'the Suspended=True condition on the Job' },
    );
    // job-name: the label every version sets (batch.kubernetes.io/job-name only from 1.27).
    const selector = 'job-name=suspended';
    expect((await core.listNamespacedPod({ namespace: ns.name, labelSelector: selector })).items).toHaveLength(0);
    expect((await batch.readNamespacedJob({ name: 'suspended', namespace: ns.name })).status?.active ?? 0).toBe(0);

    // The generated client sends application/json-patch+json for an array body.
    await batch.patchNamespacedJob({
      name: 'suspended',
      namespace: ns.name,
      body: [{ op: 'replace', path: '/spec/suspend', value: false }],
    });

    const pod = await waitFor(
      async () => {
        const pods = (await core.listNamespacedPod({ namespace: ns.name, labelSelector: selector })).items;
        return pods.find((p) => p.status?.phase === 'Running' && p.status.podIP);
      },
      { description: 'a Running Pod with a Pod IP for Job "suspended"' },
    );
    expect(clusterInfo().nodes).toContain(pod.spec?.nodeName);
    expect(pod.status?.podIP).toMatch(/^10\.244\.\d+\.\d+$/);
    expect(pod.status?.conditions?.find((c) => c.type === 'PodScheduled')?.status).toBe('True');
    expect(pod.status?.conditions?.find((c) => c.type === 'Ready')?.status).toBe('True');
    const unsuspended = await waitFor(
      async () => {
        const j = await batch.readNamespacedJob({ name: 'suspended', namespace: ns.name });
        return j.status?.active === 1 ? j : undefined;
      },
      { description: 'status.active = 1 on the unsuspended Job' },
    );
    expect(unsuspended.spec?.suspend).toBe(false);
  }),
);

test(
  'ttlSecondsAfterFinished deletes a finished Job and its Pods',
  withComponentLogs(async () => {
    const { batch, core } = await adminClients();
    const watch = await recordWatch<k8s.V1Job>(`/apis/batch/v1/namespaces/${ns.name}/jobs`, {
      fieldSelector: 'metadata.name=ttl',
    });
    try {
      // kwok's pod-complete stage turns the Running Pod of a Job into Succeeded (exit code 0).
      await batch.createNamespacedJob({ namespace: ns.name, body: job('ttl', { ttlSecondsAfterFinished: 1 }) });
      const deleted = await watch.until((e) => e.type === 'DELETED', 'the TTL controller to delete Job "ttl"', 90_000);
      // It was deleted because it finished: the watch saw it Complete first, with a Pod that succeeded.
      const completeSeen = watch.events.some(
        (e) =>
          e.type === 'MODIFIED' &&
          e.object.status?.conditions?.some((c) => c.type === 'Complete' && c.status === 'True'),
      );
      expect(completeSeen).toBe(true);
      expect(deleted.object.status?.succeeded).toBe(1);
    } finally {
      watch.stop();
    }
    // The TTL controller deletes with foreground propagation: the Pods go too.
    await waitFor(
      async () =>
        (await core.listNamespacedPod({ namespace: ns.name, labelSelector: 'job-name=ttl' })).items.length === 0,
      {
        description: 'the Pods of Job "ttl" to be deleted',
      },
    );
    await expect(batch.readNamespacedJob({ name: 'ttl', namespace: ns.name })).rejects.toMatchObject({ code: 404 });
  }),
);
