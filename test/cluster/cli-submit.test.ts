// `seatunnel-app submit` against a real API server: the objects, their owner references and
// labels, the Job unsuspended, and `status` following the application from DEPLOYING
// (Unschedulable) to RUNNING once kwok runs the master Pod, then SUCCEEDED; `--wait` with its exit
// codes; KUBECONFIG as the connection when the deployment file names none.
import { LABELS } from '../../lib/model/reserved';
import { ANNOTATIONS } from '../../lib/contract';
import { SUBMIT_ATTEMPT_ANNOTATION } from '../../lib/submit/act/submit';
import {
  KWOK_LIFECYCLE_ANNOTATION,
  adminHttp,
  clusterInfo,
  createFakeNode,
  deleteNode,
  patchPodStatus,
  useTestNamespace,
  waitFor,
  withComponentLogs,
} from '../support/cluster';
import { createObj, deploymentFiles, labelled, randomSuffix, run, submitWarnings } from './cli-support';

const ns = useTestNamespace('cli-submit');

test(
  'submit creates the suspended Job, its owned dependents in parallel, unsuspends it; status goes DEPLOYING (Unschedulable) → RUNNING → SUCCEEDED',
  withComponentLogs(async () => {
    const pool = `st-${randomSuffix(3)}`;
    // A referenced Secret that exists (checked before anything is created) and an owned one.
    await createObj(ns.name, {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'db' },
      stringData: { password: 'p' },
    });
    const files = deploymentFiles(
      ns.name,
      `
application.worker-count = 2
kubernetes {
  master.node-selector = "pool:${pool}"
  master.annotations { "${KWOK_LIFECYCLE_ANNOTATION}" = "no-complete" }
  env.DB_PASSWORD { secret = db, key = password }
  secret.extra { data { token = "t0k3n" } }
}`,
    );
    const submitted = await run(['submit', '-t', 'kubernetes', ...files.args]);
    expect(submitted.err).toEqual(submitWarnings());
    expect(submitted.code).toBe(0);
    const appId = submitted.value('Application ID')!;
    expect(appId).toMatch(/^cli-test-[0-9a-f]{12}$/);
    expect(submitted.value('Job ID')).toMatch(/^\d+$/);
    expect(submitted.out).toHaveLength(2);

    // Objects: the Job (unsuspended), and every dependent owned by it, all labelled.
    const objs = await labelled(ns.name, appId);
    const job = objs.get(`Job/${appId}`)!;
    expect(job).toBeDefined();
    expect(job.spec?.suspend).toBe(false);
    expect(job.metadata.ownerReferences).toBeUndefined();
    const attempt = job.metadata.annotations?.[SUBMIT_ATTEMPT_ANNOTATION];
    expect(attempt).toMatch(/^[0-9a-f]{16}$/);
    const dependents = [...objs].filter(([k]) => !k.startsWith('Job/') && !k.startsWith('Pod/'));
    expect(dependents.map(([k]) => k.split('/')[0]).sort()).toEqual([
      'ConfigMap',
      'NetworkPolicy',
      'NetworkPolicy',
      'PodTemplate',
      'Role',
      'RoleBinding',
      'Secret', // kubernetes.secret.extra
      'Secret', // the job config (an owned Secret: it may hold credentials)
      'Service',
      'ServiceAccount',
    ]);
    for (const [key, o] of dependents) {
      expect({ key, owners: o.metadata.ownerReferences }).toEqual({
        key,
        owners: [
          {
            apiVersion: 'batch/v1',
            kind: 'Job',
            name: appId,
            uid: job.metadata.uid,
            controller: false,
            blockOwnerDeletion: false,
          },
        ],
      });
      expect(o.metadata.labels).toMatchObject({ [LABELS.applicationId]: appId, [LABELS.managedBy]: 'seatunnel-app' });
      expect(o.metadata.annotations?.[SUBMIT_ATTEMPT_ANNOTATION]).toBe(attempt);
    }
    // The referenced Secret is referenced, not owned.
    const db = await adminHttp().call<{ metadata: { ownerReferences?: unknown[]; labels?: Record<string, string> } }>(
      'GET',
      `/api/v1/namespaces/${ns.name}/secrets/db`,
    );
    expect(db.metadata.ownerReferences).toBeUndefined();

    // DEPLOYING with the scheduler's reason: no node has the pool label.
    const status = () => run(['status', '--id', appId, '-a', files.deploy]);
    const deploying = await waitFor(
      async () => {
        const s = await status();
        return s.value('Reason') === 'Unschedulable' ? s : undefined;
      },
      { description: 'status DEPLOYING with reason Unschedulable' },
    );
    expect(deploying.code).toBe(0);
    expect(deploying.value('Status')).toBe('DEPLOYING');
    expect(deploying.value('Message')).toMatch(
      /node\(s\) didn't match Pod's node affinity\/selector|0\/\d+ nodes are available/,
    );

    // A node of that pool appears; kwok runs the master Pod: RUNNING.
    const node = `st-node-${randomSuffix(3)}`;
    await createFakeNode(node, { labels: { pool } });
    try {
      const runningNow = await waitFor(
        async () => {
          const s = await status();
          return s.value('Status') === 'RUNNING' ? s : undefined;
        },
        { description: 'status RUNNING once kwok runs the master Pod' },
      );
      expect(runningNow.code).toBe(0);

      // The runtime's annotations show up in status (phase, registered/desired workers).
      await adminHttp().call(
        'PATCH',
        `/apis/batch/v1/namespaces/${ns.name}/jobs/${appId}`,
        {
          metadata: {
            annotations: {
              [ANNOTATIONS.phase]: 'WaitingForWorkers',
              [ANNOTATIONS.workersRegistered]: '1',
              [ANNOTATIONS.workersDesired]: '2',
              [ANNOTATIONS.zetaJobId]: submitted.value('Job ID'),
            },
          },
        },
        { contentType: 'application/merge-patch+json' },
      );
      const withPhase = await status();
      expect(withPhase.value('Phase')).toMatch(/^WaitingForWorkers; workers 1\/2 registered/);
      expect(withPhase.value('Job ID')).toBe(submitted.value('Job ID'));
      const json = await run(['status', '--id', appId, '-a', files.deploy, '--output', 'json'], { json: true });
      expect(json.data[0]).toMatchObject({
        applicationId: appId,
        status: 'RUNNING',
        phase: 'WaitingForWorkers',
        workers: { desired: 2, registered: 1 },
      });

      // --wait-timeout: exit 3 with the last status printed.
      const timedOut = await run([
        'status',
        '--id',
        appId,
        '-a',
        files.deploy,
        '--wait',
        '--wait-timeout',
        '700',
        '--wait-interval',
        '200',
      ]);
      expect(timedOut.code).toBe(3);
      expect(timedOut.value('Status')).toBe('RUNNING');
      expect(timedOut.err.join('\n')).toMatch(/--wait-timeout 700 ms expired/);
      expect(timedOut.progress[0]).toMatch(/RUNNING phase WaitingForWorkers, workers 1\/2/);

      // The master's process ends well: the Job completes; status --wait ends SUCCEEDED, exit 0.
      const master = (await labelled(ns.name, appId)).get(
        [...(await labelled(ns.name, appId)).keys()].find((k) => k.startsWith('Pod/'))!,
      )!;
      await patchPodStatus(ns.name, master.metadata.name, {
        phase: 'Succeeded',
        containerStatuses: [
          {
            name: 'seatunnel',
            ready: false,
            restartCount: 0,
            image: 'apache/seatunnel:2.3.12',
            imageID: '',
            state: {
              terminated: {
                exitCode: 0,
                reason: 'Completed',
                startedAt: new Date(Date.now() - 5000).toISOString(),
                finishedAt: new Date().toISOString(),
              },
            },
          },
        ],
      });
      const done = await run([
        'status',
        '--id',
        appId,
        '-a',
        files.deploy,
        '--wait',
        '--wait-interval',
        '200',
        '--wait-timeout',
        '60000',
      ]);
      expect(done.code).toBe(0);
      expect(done.value('Status')).toBe('SUCCEEDED');
    } finally {
      await deleteNode(node);
    }
  }),
);

test(
  'submit --wait with KUBECONFIG (no kubernetes.kubeconfig): returns when the application ends, exit 0 for SUCCEEDED, progress lines on state changes',
  withComponentLogs(async () => {
    const files = deploymentFiles(ns.name, '', { kubeconfig: null, name: 'wait-test' });
    const saved = process.env.KUBECONFIG;
    process.env.KUBECONFIG = clusterInfo().kubeconfig;
    let r;
    try {
      r = await run(['submit', ...files.args, '--wait', '--wait-interval', '100', '--wait-timeout', '90000']);
    } finally {
      if (saved === undefined) delete process.env.KUBECONFIG;
      else process.env.KUBECONFIG = saved;
    }
    expect(r.err).toEqual(submitWarnings());
    expect(r.code).toBe(0);
    expect(r.out[0]).toMatch(/^Application ID: wait-test-[0-9a-f]{12}$/);
    expect(r.out[1]).toMatch(/^Job ID: \d+$/);
    expect(r.value('Status')).toBe('SUCCEEDED');
    // Plain lines (not a TTY), one per state change, ending with the terminal one.
    expect(r.progress[r.progress.length - 1]).toMatch(/^\[\d\d:\d\d\] SUCCEEDED/);
    expect(new Set(r.progress).size).toBe(r.progress.length);
  }),
);

test('bad input is rejected before any API call, naming the option, the value and the rule', async () => {
  const files = deploymentFiles('default', 'application.worker-count = 0', { kubeconfig: '/nonexistent/kubeconfig' });
  const bad = await run(['submit', ...files.args]);
  expect(bad.code).toBe(64);
  expect(bad.err.join('\n')).toMatch(
    /application\.worker-count: got 0 \(from deployment file\); must be between 1 and 1000/,
  );
  const noKubeconfig = await run([
    'submit',
    ...deploymentFiles('default', '', { kubeconfig: '/nonexistent/kubeconfig' }).args,
  ]);
  expect(noKubeconfig.code).toBe(64);
  expect(noKubeconfig.err.join('\n')).toMatch(
    /kubernetes\.kubeconfig: got "\/nonexistent\/kubeconfig"; file not found/,
  );
  const badId = await run(['status', '--id', 'Not_An_ID']);
  expect(badId.code).toBe(64);
  expect(badId.err.join('\n')).toMatch(/--id: got "Not_An_ID"; /);
  const badNs = await run(['cancel', '--id', 'x-0123456789ab', '-Dkubernetes.namespace=Bad_NS']);
  expect(badNs.code).toBe(64);
  expect(badNs.err.join('\n')).toMatch(/kubernetes\.namespace: got "Bad_NS"/);
});
