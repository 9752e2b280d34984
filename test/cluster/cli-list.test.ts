// `seatunnel-app list` on the real API server: applications in every state (the master Pod's state
// set through the Pod status subresource on Pods kwok leaves alone, the Job controller turning it
// into Job conditions), each line equal to what `status --id` says; the status and label filters;
// --all-namespaces; and the number of API requests, counted by a proxy in front of the API
// server, the same however many applications there are (pages of `limit` objects aside).
import { connectKube } from '../../lib/cli/connect';
import { LABELS } from '../../lib/model/reserved';
import { ANNOTATIONS } from '../../lib/contract';
import { buildPlan } from '../../lib/plan/build-plan';
import { listAll, readList, deriveList } from '../../lib/submit/observe/list';
import type { StatusReport } from '../../lib/submit/observe/status';
import {
  KWOK_LIFECYCLE_ANNOTATION,
  adminHttp,
  createTestNamespace,
  deleteNamespace,
  patchPodStatus,
  useTestNamespace,
  waitFor,
  withComponentLogs,
} from '../support/cluster';
import { spec } from '../support/fixtures';
import { FaultProxy, createObj, deploymentFiles, getObj, labelled, randomSuffix, run, type Obj } from './cli-support';

const ns = useTestNamespace('cli-list');

const container = (state: Record<string, unknown>) => ({
  name: 'seatunnel',
  ready: false,
  restartCount: 0,
  image: 'apache/seatunnel:2.3.12',
  imageID: '',
  state,
});
const terminated = (exitCode: number) => ({
  phase: exitCode === 0 ? 'Succeeded' : 'Failed',
  containerStatuses: [
    container({
      terminated: {
        exitCode,
        reason: exitCode === 0 ? 'Completed' : 'Error',
        startedAt: new Date(Date.now() - 3000).toISOString(),
        finishedAt: new Date().toISOString(),
      },
    }),
  ],
});
const mergePatch = (path: string, body: Record<string, unknown>) =>
  adminHttp().call('PATCH', path, body, { contentType: 'application/merge-patch+json' });

/** Submits with the master Pod under the test's control; answers the ID and the scheduled master Pod. */
async function submitManual(namespace: string, name: string): Promise<{ appId: string; master: Obj }> {
  const files = deploymentFiles(
    namespace,
    `kubernetes.master.annotations { "${KWOK_LIFECYCLE_ANNOTATION}" = "manual" }`,
    { name },
  );
  const r = await run(['submit', ...files.args]);
  expect(r.err).toEqual([]);
  const appId = r.value('Application ID')!;
  const master = await waitFor(
    async () =>
      [...(await labelled(namespace, appId))]
        .filter(([k, o]) => k.startsWith('Pod/') && o.metadata.labels?.[LABELS.role] === 'master')
        .map(([, o]) => o)
        .find((p) => (p as { spec?: { nodeName?: string } }).spec?.nodeName),
    { description: `the scheduled master Pod of ${appId}` },
  );
  return { appId, master };
}

/** Waits until the Job records `type` (Complete / Failed), so nothing changes between list and status. */
const jobCondition = (namespace: string, appId: string, type: string) =>
  waitFor(
    async () =>
      (
        (await getObj(namespace, 'Job', appId)) as
          { status?: { conditions?: Array<{ type: string; status: string }> } } | undefined
      )?.status?.conditions?.some((c) => c.type === type && c.status === 'True') || undefined,
    { description: `Job ${namespace}/${appId} condition ${type}` },
  );

const listJson = async (args: string[]) => {
  const r = await run(['list', ...args, '--output', 'json'], { json: true });
  expect(r.err).toEqual([]);
  expect(r.code).toBe(0);
  return r.data[0] as unknown as StatusReport[];
};
const statusJson = async (appId: string, deploy: string) => {
  const r = await run(['status', '--id', appId, '-a', deploy, '--output', 'json'], { json: true });
  expect(r.code).toBe(0);
  return r.data[0] as unknown as StatusReport;
};

test(
  'every state, each line what status --id says; filters by status and label; --all-namespaces',
  withComponentLogs(async () => {
    const other = await createTestNamespace('cli-list-other');
    try {
      const { deploy } = deploymentFiles(ns.name);
      const { deploy: otherDeploy } = deploymentFiles(other);

      // RUNNING, with the runtime's annotations (phase, workers, Zeta job id, rows).
      const running = await submitManual(ns.name, 'orders-sync');
      await patchPodStatus(ns.name, running.master.metadata.name, {
        phase: 'Running',
        containerStatuses: [container({ running: {} })],
      });
      await mergePatch(`/apis/batch/v1/namespaces/${ns.name}/jobs/${running.appId}`, {
        metadata: {
          labels: { team: 'data' },
          annotations: {
            [ANNOTATIONS.phase]: 'Running',
            [ANNOTATIONS.workersDesired]: '2',
            [ANNOTATIONS.workersRegistered]: '1',
            [ANNOTATIONS.zetaJobId]: '917381145928572929',
            [ANNOTATIONS.rows]: '{"read":1200,"written":1180,"perSecond":118,"at":"2026-01-01T00:00:10Z"}',
          },
        },
      });
      // FAILED (the runtime's infrastructure code 3), CANCELED (its cancel code 2), SUCCEEDED (0).
      const failed = await submitManual(ns.name, 'failing');
      await patchPodStatus(ns.name, failed.master.metadata.name, terminated(3));
      const canceled = await submitManual(ns.name, 'cancelled');
      await patchPodStatus(ns.name, canceled.master.metadata.name, terminated(2));
      const succeeded = await submitManual(other, 'finished');
      await patchPodStatus(other, succeeded.master.metadata.name, terminated(0));
      // CREATED: a suspended Job; UNKNOWN: a Pod with an application label and no Job.
      const created = `created-${randomSuffix(6)}`;
      await createObj(
        ns.name,
        buildPlan(spec({ applicationId: created, namespace: ns.name, name: 'not-started' }), { suspend: true }).job,
      );
      const orphan = `orphan-${randomSuffix(6)}`;
      await createObj(ns.name, {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: `${orphan}-worker-1`, labels: { [LABELS.applicationId]: orphan, [LABELS.role]: 'worker' } },
        spec: { containers: [{ name: 'seatunnel', image: 'apache/seatunnel:2.3.12' }] },
      });
      await jobCondition(ns.name, failed.appId, 'Failed');
      await jobCondition(ns.name, canceled.appId, 'Failed');
      await jobCondition(other, succeeded.appId, 'Complete');
      await waitFor(async () => ((await statusJson(running.appId, deploy)).status === 'RUNNING' ? true : undefined), {
        description: `${running.appId} RUNNING`,
      });

      const listed = await listJson(['-a', deploy]);
      const expected: Record<string, string> = {
        [running.appId]: 'RUNNING',
        [failed.appId]: 'FAILED',
        [canceled.appId]: 'CANCELED',
        [created]: 'CREATED',
        [orphan]: 'UNKNOWN',
      };
      expect(Object.fromEntries(listed.map((r) => [r.applicationId, r.status]))).toEqual(expected);
      for (const r of listed) expect(r).toEqual(await statusJson(r.applicationId, deploy));
      expect(listed.find((r) => r.applicationId === running.appId)).toMatchObject({
        name: 'orders-sync',
        phase: 'Running',
        zetaJobId: '917381145928572929',
        workers: { desired: 2, registered: 1 },
        rows: { read: 1200, written: 1180, perSecond: 118, at: '2026-01-01T00:00:10Z' },
      });

      // The table: one aligned line per application, its cells those of status.
      const text = await run(['list', '-a', deploy]);
      expect(text.code).toBe(0);
      expect(text.out[0]).toMatch(/^ID +STATUS +PHASE +WORKERS +ROWS +JOB ID +AGE +NAME$/);
      const runningLine = text.out.find((l) => l.startsWith(`${running.appId} `))!;
      expect(runningLine.split(/ {2,}/)).toEqual([
        running.appId,
        'RUNNING',
        'Running',
        '1/2',
        '1180',
        '917381145928572929',
        expect.stringMatching(/^\d+[smh]/),
        'orders-sync',
      ]);
      const statusColumn = text.out[0].indexOf('STATUS');
      for (const l of text.out.slice(1)) expect(l.slice(statusColumn).split(' ')[0]).toBe(expected[l.split(' ')[0]]);
      expect(text.out).toHaveLength(6);

      // Filters: statuses (any case), a label selector combined with the application label.
      expect(
        (await listJson(['-a', deploy, '--status', 'failed,CANCELED'])).map((r) => r.applicationId).sort(),
      ).toEqual([canceled.appId, failed.appId].sort());
      expect((await listJson(['-a', deploy, '-l', 'team=data'])).map((r) => r.applicationId)).toEqual([running.appId]);
      expect(await listJson(['-a', deploy, '-l', 'team=data', '--status', 'FAILED'])).toEqual([]);
      const none = await run(['list', '-a', deploy, '--status', 'DEPLOYING']);
      expect(none.out).toEqual([]);
      expect(none.err).toEqual([`No applications found in namespace ${ns.name} that match the filters.`]);

      // --namespace instead of -a's namespace; --all-namespaces spans both (and adds the column).
      const inOther = await listJson(['-a', deploy, '--namespace', other]);
      expect(inOther).toEqual([await statusJson(succeeded.appId, otherDeploy)]);
      expect(inOther[0]).toMatchObject({ status: 'SUCCEEDED', name: 'finished' });
      const all = await listJson(['-a', deploy, '--all-namespaces']);
      const mine = all.filter((r) => r.namespace === ns.name || r.namespace === other);
      expect(mine.map((r) => `${r.namespace}/${r.applicationId}`).sort()).toEqual(
        [...Object.keys(expected).map((id) => `${ns.name}/${id}`), `${other}/${succeeded.appId}`].sort(),
      );
      const allText = await run(['list', '-a', deploy, '-A', '--status', 'SUCCEEDED']);
      expect(allText.out[0]).toMatch(/^NAMESPACE +ID +STATUS/);
      expect(allText.out.some((l) => l.startsWith(`${other} `) && l.includes(succeeded.appId))).toBe(true);
    } finally {
      await deleteNamespace(other);
    }
  }),
);

test(
  'the number of API requests does not grow with the number of applications; pages of limit objects',
  withComponentLogs(async () => {
    const countNs = await createTestNamespace('cli-list-count');
    const proxy = await FaultProxy.start();
    try {
      const { deploy } = deploymentFiles(countNs, '', { kubeconfig: proxy.kubeconfig() });
      const addApplications = async (n: number) => {
        for (let i = 0; i < n; i++) {
          const id = `count-${randomSuffix(6)}`;
          await createObj(countNs, buildPlan(spec({ applicationId: id, namespace: countNs }), { suspend: true }).job);
          await createObj(countNs, {
            apiVersion: 'v1',
            kind: 'Pod',
            metadata: { name: `${id}-worker-1`, labels: { [LABELS.applicationId]: id, [LABELS.role]: 'worker' } },
            spec: { containers: [{ name: 'seatunnel', image: 'apache/seatunnel:2.3.12' }] },
          });
        }
      };
      const requestsOfList = async (expectedApps: number) => {
        proxy.inject();
        const listed = await listJson(['-a', deploy]);
        expect(listed).toHaveLength(expectedApps);
        return proxy.log.map((l) => `${l.method} ${l.path.replace(/\?.*/, '')}`);
      };
      await addApplications(2);
      const few = await requestsOfList(2);
      await addApplications(6);
      const more = await requestsOfList(8);
      // One list of Jobs and one of Pods, whatever the number; no per-application GET.
      expect(few).toEqual(more);
      expect([...more].sort()).toEqual([
        `GET /api/v1/namespaces/${countNs}/pods`,
        `GET /apis/batch/v1/namespaces/${countNs}/jobs`,
      ]);

      // Pages: with 3 objects a page, 8 Jobs take 3 requests (limit/continue), and the result is the same.
      const kube = await connectKube({ kubeconfig: proxy.kubeconfig() });
      try {
        proxy.inject();
        const paged = await readList(kube, { namespace: countNs, pageSize: 3 });
        const pages = proxy.log.filter((l) => l.path.includes('/jobs?'));
        expect(pages).toHaveLength(3);
        expect(pages.every((l) => /[?&]limit=3(&|$)/.test(l.path))).toBe(true);
        expect(pages.slice(1).every((l) => /[?&]continue=/.test(l.path))).toBe(true);
        const whole = await readList(kube, { namespace: countNs });
        expect(deriveList(paged)).toEqual(deriveList(whole));
        expect(await listAll(kube, 'v1', 'Pod', countNs, { labelSelector: LABELS.applicationId }, 1)).toHaveLength(8);
      } finally {
        kube.api.close();
      }
    } finally {
      await proxy.close();
      await deleteNamespace(countNs);
    }
  }),
);
