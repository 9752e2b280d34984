// `seatunnel-app status` for every state, from Kubernetes alone: Pod and Job state are set through
// the API (the Pod status subresource on a Pod kwok leaves alone, the Job status subresource),
// the Job controller turns them into Job conditions, and status reads conditions, Pods, the
// runtime's annotations and the Job's events. Plain status exits 0 for every state; --wait ends
// with SeaTunnel's codes (FAILED 1, UNKNOWN 2, SUCCEEDED/CANCELED 0).
import { LABELS } from '../../lib/model/reserved';
import { ANNOTATIONS } from '../../lib/contract';
import { buildPlan } from '../../lib/plan/build-plan';
import {
  KWOK_LIFECYCLE_ANNOTATION,
  adminHttp,
  createTestNamespace,
  deleteNamespace,
  patchPodStatus,
  serviceAccountIdentity,
  useTestNamespace,
  waitFor,
  withComponentLogs,
} from '../support/cluster';
import { spec } from '../support/fixtures';
import { createObj, deploymentFiles, labelled, randomSuffix, run, submitWarnings, type Obj } from './cli-support';

const ns = useTestNamespace('cli-status');

const container = (state: Record<string, unknown>, name = 'seatunnel') => ({
  name,
  ready: false,
  restartCount: 0,
  image: 'apache/seatunnel:2.3.12',
  imageID: '',
  state,
});
const terminated = (exitCode: number, reason: string) => ({
  phase: 'Failed',
  containerStatuses: [
    container({
      terminated: {
        exitCode,
        reason,
        startedAt: new Date(Date.now() - 3000).toISOString(),
        finishedAt: new Date().toISOString(),
      },
    }),
  ],
});

/** Submits with the master Pod under the test's control (kwok neither starts nor completes it). */
async function submitManual(
  namespace = ns.name,
): Promise<{ appId: string; deploy: string; master: () => Promise<Obj> }> {
  const files = deploymentFiles(
    namespace,
    `kubernetes.master.annotations { "${KWOK_LIFECYCLE_ANNOTATION}" = "manual" }`,
  );
  const r = await run(['submit', ...files.args]);
  expect(r.err).toEqual(submitWarnings());
  const appId = r.value('Application ID')!;
  const master = () =>
    waitFor(
      async () => {
        const pods = [...(await labelled(namespace, appId))]
          .filter(([k, o]) => k.startsWith('Pod/') && o.metadata.labels?.[LABELS.role] === 'master')
          .map(([, o]) => o);
        return pods.find((p) => (p as { spec?: { nodeName?: string } }).spec?.nodeName);
      },
      { description: `the scheduled master Pod of ${appId}` },
    );
  return { appId, deploy: files.deploy, master };
}

const status = (appId: string, deploy: string, extra: string[] = []) =>
  run(['status', '--id', appId, '-a', deploy, ...extra]);

async function statusBecomes(appId: string, deploy: string, expected: string, reason?: string) {
  return waitFor(
    async () => {
      const s = await status(appId, deploy);
      return s.value('Status') === expected && (reason === undefined || s.value('Reason') === reason) ? s : undefined;
    },
    { description: `status ${expected}${reason ? ` (${reason})` : ''} for ${appId}` },
  );
}

test(
  'UNKNOWN for a Job that does not exist: exit 0 plainly, 2 with --wait; never CANCELED',
  withComponentLogs(async () => {
    const { deploy } = deploymentFiles(ns.name);
    const plain = await status('never-submitted-0123456789ab', deploy);
    expect(plain.code).toBe(0);
    expect(plain.out.slice(0, 3)).toEqual([
      'Application ID: never-submitted-0123456789ab',
      'Status: UNKNOWN',
      'Reason: NotFound',
    ]);
    const waited = await status('never-submitted-0123456789ab', deploy, ['--wait']);
    expect(waited.code).toBe(2);
    expect(waited.value('Status')).toBe('UNKNOWN');
    const json = await run(['status', '--id', 'never-submitted-0123456789ab', '-a', deploy, '--output', 'json'], {
      json: true,
    });
    expect(json.data[0]).toMatchObject({
      applicationId: 'never-submitted-0123456789ab',
      namespace: ns.name,
      status: 'UNKNOWN',
    });
  }),
);

test(
  "CREATED for a suspended Job; FAILED with the Job condition's reason set through the Job status subresource",
  withComponentLogs(async () => {
    const appId = `created-${randomSuffix(6)}`;
    const plan = buildPlan(spec({ applicationId: appId, namespace: ns.name }), { suspend: true });
    await createObj(ns.name, plan.job);
    const { deploy } = deploymentFiles(ns.name);
    const created = await status(appId, deploy);
    expect(created.value('Status')).toBe('CREATED');
    expect(created.value('Reason')).toBe('Suspended');

    const now = new Date().toISOString();
    await adminHttp().call(
      'PATCH',
      `/apis/batch/v1/namespaces/${ns.name}/jobs/${appId}/status`,
      {
        status: {
          startTime: now,
          conditions: [
            {
              type: 'FailureTarget',
              status: 'True',
              reason: 'DeadlineExceeded',
              message: 'Job was active longer than specified deadline',
              lastTransitionTime: now,
              lastProbeTime: now,
            },
            {
              type: 'Failed',
              status: 'True',
              reason: 'DeadlineExceeded',
              message: 'Job was active longer than specified deadline',
              lastTransitionTime: now,
              lastProbeTime: now,
            },
          ],
        },
      },
      { contentType: 'application/merge-patch+json' },
    );
    const failed = await statusBecomes(appId, deploy, 'FAILED');
    expect(failed.value('Reason')).toBe('DeadlineExceeded');
    expect(failed.value('Message')).toMatch(/active longer than specified deadline/);
  }),
);

test(
  "DEPLOYING with the master Pod's reason (ErrImagePull, CreateContainerConfigError), then RUNNING, then FAILED with the runtime's reason (--wait exit 1)",
  withComponentLogs(async () => {
    const { appId, deploy, master } = await submitManual();
    const pod = await master();
    const deploying = await status(appId, deploy);
    expect(deploying.value('Status')).toBe('DEPLOYING');

    await patchPodStatus(ns.name, pod.metadata.name, {
      phase: 'Pending',
      initContainerStatuses: [
        container(
          { waiting: { reason: 'ErrImagePull', message: 'rpc error: pull access denied for seatunnel-app-runtime' } },
          'install-runtime',
        ),
      ],
    });
    const pull = await statusBecomes(appId, deploy, 'DEPLOYING', 'ErrImagePull');
    expect(pull.value('Message')).toMatch(/install-runtime.*pull access denied/);

    await patchPodStatus(ns.name, pod.metadata.name, {
      initContainerStatuses: [container({ terminated: { exitCode: 0, reason: 'Completed' } }, 'install-runtime')],
      containerStatuses: [
        container({ waiting: { reason: 'CreateContainerConfigError', message: 'secret "db" not found' } }),
      ],
    });
    const config = await statusBecomes(appId, deploy, 'DEPLOYING', 'CreateContainerConfigError');
    expect(config.value('Message')).toMatch(/secret "db" not found/);

    await patchPodStatus(ns.name, pod.metadata.name, {
      phase: 'Running',
      containerStatuses: [container({ running: { startedAt: new Date().toISOString() } })],
    });
    await statusBecomes(appId, deploy, 'RUNNING');

    // The runtime records why it gives up, then exits with its infrastructure code (3).
    await adminHttp().call(
      'PATCH',
      `/apis/batch/v1/namespaces/${ns.name}/jobs/${appId}`,
      {
        metadata: {
          annotations: {
            [ANNOTATIONS.phase]: 'Failed',
            [ANNOTATIONS.reason]: 'WorkerLost',
            [ANNOTATIONS.message]: `worker Pod ${appId}-worker-2 was deleted`,
          },
        },
      },
      { contentType: 'application/merge-patch+json' },
    );
    await patchPodStatus(ns.name, pod.metadata.name, terminated(3, 'Error'));
    const failed = await statusBecomes(appId, deploy, 'FAILED', 'WorkerLost');
    expect(failed.value('Message')).toMatch(
      new RegExp(`exit code 3: infrastructure failure.*worker Pod ${appId}-worker-2 was deleted`),
    );
    const waited = await status(appId, deploy, ['--wait']);
    expect(waited.code).toBe(1);
    expect(waited.value('Status')).toBe('FAILED');
  }),
);

test(
  'FAILED with OOMKilled when the master container is killed for memory',
  withComponentLogs(async () => {
    const { appId, deploy, master } = await submitManual();
    const pod = await master();
    await patchPodStatus(ns.name, pod.metadata.name, terminated(137, 'OOMKilled'));
    const s = await statusBecomes(appId, deploy, 'FAILED', 'OOMKilled');
    expect(s.value('Message')).toMatch(/exceeding its memory limit \(1Gi\)/);
  }),
);

test(
  'CANCELED when the runtime exits with its cancelled code (2); --wait exits 0',
  withComponentLogs(async () => {
    const { appId, deploy, master } = await submitManual();
    const pod = await master();
    await patchPodStatus(ns.name, pod.metadata.name, {
      phase: 'Running',
      containerStatuses: [container({ running: {} })],
    });
    await statusBecomes(appId, deploy, 'RUNNING');
    await patchPodStatus(ns.name, pod.metadata.name, terminated(2, 'Error'));
    await statusBecomes(appId, deploy, 'CANCELED');
    const waited = await status(appId, deploy, ['--wait', '--output', 'json']);
    expect(waited.code).toBe(0);
  }),
);

test(
  "DEPLOYING with the Job controller's FailedCreate event when quota refuses the master Pod",
  withComponentLogs(async () => {
    const quotaNs = await createTestNamespace('cli-status-quota');
    try {
      await createObj(quotaNs, {
        apiVersion: 'v1',
        kind: 'ResourceQuota',
        metadata: { name: 'no-pods' },
        spec: { hard: { pods: '0' } },
      });
      await waitFor(
        async () =>
          (
            await adminHttp().call<{ status?: { hard?: unknown } }>(
              'GET',
              `/api/v1/namespaces/${quotaNs}/resourcequotas/no-pods`,
            )
          ).status?.hard
            ? true
            : undefined,
        { description: 'the quota controller to sync no-pods' },
      );
      const files = deploymentFiles(quotaNs);
      const r = await run(['submit', ...files.args]);
      expect(r.code).toBe(0); // image pull, admission and scheduling problems never fail submit
      const s = await statusBecomes(r.value('Application ID')!, files.deploy, 'DEPLOYING', 'FailedCreate');
      expect(s.value('Message')).toMatch(/exceeded quota: no-pods/);
    } finally {
      await deleteNamespace(quotaNs);
    }
  }),
);

test(
  'an API error is an error (exit 1), never a status',
  withComponentLogs(async () => {
    await createObj(ns.name, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'no-jobs' } });
    const id = await serviceAccountIdentity(ns.name, 'no-jobs');
    const files = deploymentFiles(ns.name, '', { kubeconfig: id.kubeconfigPath });
    const r = await status('some-app-0123456789ab', files.deploy);
    expect(r.code).toBe(1);
    // The Job and the Pods are read in parallel: whichever refusal comes first is reported.
    expect(r.err.join('\n')).toMatch(/HTTP 403 Forbidden: .*cannot (get resource "jobs"|list resource "pods")/);
    expect(r.out.some((l) => l.startsWith('Status:'))).toBe(false);
  }),
);
