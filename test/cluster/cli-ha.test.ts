// `submit`, `preflight`, `status` and `cancel` of an HA application (docs/ha.md) against a real
// API server: a checkpoint claim that not every master can mount is refused before anything is
// created; a valid one gets the masters' StatefulSet and the REST Service, owned by the Job, and
// `cancel` removes them all through garbage collection. (Failover itself: test/engine.)
import { adminHttp, useTestNamespace, waitFor, withComponentLogs } from '../support/cluster';
import { createObj, deploymentFiles, labelled, run, waitAllGone } from './cli-support';

const ns = useTestNamespace('cli-ha');

const claim = (name: string, mode: string) => ({
  apiVersion: 'v1',
  kind: 'PersistentVolumeClaim',
  metadata: { name },
  spec: { accessModes: [mode], resources: { requests: { storage: '1Gi' } } },
});

const haFiles = (pvc: string) =>
  deploymentFiles(
    ns.name,
    `
application { name = orders-ha, worker-count = 2 }
application.ha { enabled = true, masters = 3 }
kubernetes.checkpoint-pvc = ${pvc}`,
    { name: 'orders-ha' },
  );

test(
  'a ReadWriteOnce checkpoint claim is refused by preflight and submit, naming the option and the rule; nothing is created',
  withComponentLogs(async () => {
    await createObj(ns.name, claim('ckpt-rwo', 'ReadWriteOnce'));
    const files = haFiles('ckpt-rwo');
    const pre = await run(['preflight', ...files.args]);
    expect(pre.code).not.toBe(0);
    expect(pre.out.concat(pre.err).join('\n')).toMatch(
      /kubernetes\.checkpoint-pvc: PersistentVolumeClaim ckpt-rwo has access modes ReadWriteOnce: high availability needs ReadWriteMany/,
    );
    const sub = await run(['submit', ...files.args]);
    expect(sub.code).not.toBe(0);
    expect(sub.err.join('\n')).toMatch(/high availability needs ReadWriteMany/);
    const jobs = await adminHttp().call<{ items: unknown[] }>('GET', `/apis/batch/v1/namespaces/${ns.name}/jobs`);
    expect(jobs.items).toEqual([]);
    const sets = await adminHttp().call<{ items: unknown[] }>(
      'GET',
      `/apis/apps/v1/namespaces/${ns.name}/statefulsets`,
    );
    expect(sets.items).toEqual([]);
  }),
);

test(
  'with a ReadWriteMany claim: the masters StatefulSet and the REST Service, owned by the Job; status shows the masters; cancel removes everything but the claim',
  withComponentLogs(async () => {
    await createObj(ns.name, claim('ckpt-rwx', 'ReadWriteMany'));
    const files = haFiles('ckpt-rwx');
    const sub = await run(['submit', ...files.args]);
    expect(sub.err).toEqual([]);
    expect(sub.code).toBe(0);
    const appId = sub.value('Application ID')!;
    const objects = await labelled(ns.name, appId);
    const job = objects.get(`Job/${appId}`)!;
    const sts = objects.get(`StatefulSet/${appId}-master`)!;
    expect(sts).toBeDefined();
    expect(sts.metadata.ownerReferences).toEqual([
      {
        apiVersion: 'batch/v1',
        kind: 'Job',
        name: appId,
        uid: job.metadata.uid,
        controller: false,
        blockOwnerDeletion: false,
      },
    ]);
    expect(objects.get(`Service/${appId}-rest`)?.metadata.ownerReferences?.[0]?.uid).toBe(job.metadata.uid);
    const status = await run(['status', '-a', files.deploy, '--id', appId]);
    expect(status.code).toBe(0);
    expect(status.out.join('\n')).toMatch(/Masters: \d\/3 ready/);

    const cancel = await run(['cancel', '-a', files.deploy, '--id', appId]);
    expect(cancel.code).toBe(0);
    await waitAllGone(ns.name, appId, [], 120_000);
    await waitFor(
      async () =>
        (await adminHttp().request('GET', `/apis/apps/v1/namespaces/${ns.name}/statefulsets/${appId}-master`))
          .status === 404,
      {
        description: 'the StatefulSet gone',
      },
    );
    expect(
      (await adminHttp().request('GET', `/api/v1/namespaces/${ns.name}/persistentvolumeclaims/ckpt-rwx`)).status,
    ).toBe(200);
  }),
);
