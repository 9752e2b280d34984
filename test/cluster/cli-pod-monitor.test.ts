// kubernetes.metrics.pod-monitor through the CLI against a real API server: without the
// PodMonitor CRD, preflight and submit say so in one sentence and nothing is created; with it (our
// own stand-in of the operator's CRD, test/support/cluster/pod-monitor-crd.ts), a submitter holding
// exactly submitterRules({ podMonitors: true }) creates the PodMonitor with the other objects,
// owned by the Job, selecting the master Pod the Job made, and cancel removes it; deleting the Job
// alone, the garbage collector does; a submitter with the plain submitterRules() is told what it lacks, and its cancel of
// an application without a PodMonitor is not disturbed by the podmonitors it may not read.
import type { PolicyRule } from 'kubernetes-types/rbac/v1';
import { jobOwnerReference } from '../../lib/plan/build-plan';
import { submitterRules } from '../../lib/plan/submitter-rbac';
import {
  adminHttp,
  KWOK_LIFECYCLE_ANNOTATION,
  serviceAccountIdentity,
  useTestNamespace,
  waitFor,
  withComponentLogs,
} from '../support/cluster';
import { installPodMonitorCrd, removePodMonitorCrd } from '../support/cluster/pod-monitor-crd';
import {
  collection,
  deploymentFiles,
  labelled,
  run,
  serviceAccountWithRole,
  waitAllGone,
  type Obj,
} from './cli-support';

const ns = useTestNamespace('cli-podmon');
const POD_MONITOR = 'kubernetes.metrics.pod-monitor';
const UNSERVED = `${POD_MONITOR}: the cluster does not serve podmonitors.monitoring.coreos.com (monitoring.coreos.com/v1 PodMonitor); install the Prometheus operator's CRDs, or set ${POD_MONITOR} = false`;
const RUNNING_MASTER = `kubernetes.master.annotations { "${KWOK_LIFECYCLE_ANNOTATION}" = "no-complete" }`;
const WITH_POD_MONITOR = `${RUNNING_MASTER}\n${POD_MONITOR} = true\nkubernetes.metrics.pod-monitor-labels { release = prometheus }`;

const podMonitors = (namespace: string) => collection('monitoring.coreos.com/v1', 'podmonitors', namespace);
const podMonitor = async (name: string) => {
  const r = await adminHttp().request<Obj>('GET', `${podMonitors(ns.name)}/${name}`);
  return r.status === 404 ? undefined : r.body;
};
const jobsIn = async (namespace: string) =>
  (await adminHttp().call<{ items: Obj[] }>('GET', collection('batch/v1', 'jobs', namespace))).items;

/** A ServiceAccount bound to `rules`; its kubeconfig once the binding took effect. */
async function submitter(name: string, rules: readonly PolicyRule[]): Promise<string> {
  await serviceAccountWithRole(ns.name, name, rules);
  const id = await serviceAccountIdentity(ns.name, name);
  await waitFor(
    async () => {
      const probe = deploymentFiles(ns.name, '', { kubeconfig: id.kubeconfigPath }).deploy;
      return (await run(['status', '--id', 'probe-0123456789ab', '-a', probe])).code === 0 ? true : undefined;
    },
    { description: `the RoleBinding of ${name} to take effect` },
  );
  return id.kubeconfigPath;
}

afterAll(() => removePodMonitorCrd());

describe('a cluster without the PodMonitor CRD', () => {
  beforeAll(() => removePodMonitorCrd());

  test(
    'preflight and submit say so in one sentence, and nothing is created',
    withComponentLogs(async () => {
      const files = deploymentFiles(ns.name, WITH_POD_MONITOR);
      const preflight = await run(['preflight', ...files.args]);
      expect(preflight.code).toBe(4);
      expect(preflight.out).toContain(`  - [served-api] ${UNSERVED}`);
      // Its dry run's 404 is not a second problem.
      expect(preflight.out.filter((l) => l.includes('PodMonitor') && l.startsWith('  - '))).toHaveLength(1);

      const submitted = await run(['submit', ...files.args, '--output', 'json'], { json: true });
      expect(submitted.code).toBe(1);
      expect(submitted.err).toEqual([`error: submit refused before creating anything: ${UNSERVED}`]);
      const data = submitted.data[0] as { step: string; applicationId: string; rolledBack: string[] };
      expect(data.step).toBe('apis');
      expect(data.rolledBack).toEqual([]);
      expect([...(await labelled(ns.name, data.applicationId)).keys()]).toEqual([]);
      expect(await jobsIn(ns.name)).toEqual([]);
    }),
  );
});

describe('a cluster with the PodMonitor CRD', () => {
  beforeAll(() => installPodMonitorCrd());

  test(
    'the documented submitter with podMonitors creates it owned by the Job, selecting the master Pod; gone after cancel',
    withComponentLogs(async () => {
      const kubeconfig = await submitter('podmon-submitter', submitterRules({ podMonitors: true }));
      const files = deploymentFiles(ns.name, WITH_POD_MONITOR, { kubeconfig });
      const preflight = await run(['preflight', ...files.args]);
      expect(preflight.out.filter((l) => l.startsWith('  - '))).toEqual([]);
      expect(preflight.code).toBe(0);

      const submitted = await run(['submit', ...files.args]);
      expect(submitted.code).toBe(0);
      const appId = submitted.value('Application ID')!;
      const job = (await jobsIn(ns.name)).find((j) => j.metadata.name === appId)!;
      const monitor = await podMonitor(`${appId}-metrics`);
      expect(monitor?.metadata.ownerReferences).toEqual([jobOwnerReference(appId, job.metadata.uid)]);
      expect(monitor?.metadata.labels).toMatchObject({
        'seatunnel.apache.org/application-id': appId,
        'app.kubernetes.io/managed-by': 'seatunnel-app',
        release: 'prometheus',
      });
      const spec = monitor!.spec as { selector: { matchLabels: Record<string, string> }; podMetricsEndpoints: unknown };
      expect(spec.podMetricsEndpoints).toEqual([{ port: 'metrics', path: '/metrics' }]);

      // The Pod the Job controller made carries every label the selector asks for, and a port named metrics.
      const master = await waitFor(
        async () => [...(await labelled(ns.name, appId))].find(([k]) => k.startsWith('Pod/'))?.[1],
        { description: `the master Pod of ${appId}` },
      );
      expect(master.metadata.labels).toMatchObject(spec.selector.matchLabels);
      const containers = (master.spec as { containers: Array<{ ports?: Array<{ name?: string }> }> }).containers;
      expect(containers.flatMap((c) => c.ports ?? []).map((p) => p.name)).toContain('metrics');

      const cancelled = await run(['cancel', '--id', appId, '-a', files.deploy]);
      expect(cancelled.code).toBe(0);
      await waitAllGone(ns.name, appId);
      await waitFor(async () => ((await podMonitor(`${appId}-metrics`)) ? undefined : true), {
        description: `PodMonitor ${appId}-metrics to be garbage-collected`,
        timeoutMs: 120_000,
      });
    }),
  );

  test(
    'owned by the Job: deleting the Job alone (as its TTL or kubectl delete job does) garbage-collects the PodMonitor',
    withComponentLogs(async () => {
      const files = deploymentFiles(ns.name, WITH_POD_MONITOR, { name: 'collected' });
      const submitted = await run(['submit', ...files.args]);
      expect(submitted.code).toBe(0);
      const appId = submitted.value('Application ID')!;
      expect(await podMonitor(`${appId}-metrics`)).toBeDefined();
      await adminHttp().call('DELETE', `${collection('batch/v1', 'jobs', ns.name)}/${appId}`, {
        apiVersion: 'v1',
        kind: 'DeleteOptions',
        propagationPolicy: 'Background',
      });
      await waitFor(async () => ((await podMonitor(`${appId}-metrics`)) ? undefined : true), {
        description: `PodMonitor ${appId}-metrics to be garbage-collected with its Job`,
        timeoutMs: 120_000,
      });
      await waitAllGone(ns.name, appId);
    }),
  );

  test(
    'the plain submitter Role: preflight names the podmonitors verbs it lacks; its cancel of another application is clean',
    withComponentLogs(async () => {
      const kubeconfig = await submitter('plain-submitter', submitterRules());
      const withMonitor = deploymentFiles(ns.name, WITH_POD_MONITOR, { kubeconfig });
      const preflight = await run(['preflight', ...withMonitor.args]);
      expect(preflight.code).toBe(4);
      const missing = preflight.out.filter((l) => l.startsWith('  - [permission]'));
      expect(missing.map((l) => l.replace(/ in namespace .*$/, ''))).toEqual([
        '  - [permission] missing permission: create podmonitors.monitoring.coreos.com',
        '  - [permission] missing permission: get podmonitors.monitoring.coreos.com',
        '  - [permission] missing permission: delete podmonitors.monitoring.coreos.com',
      ]);

      const plain = deploymentFiles(ns.name, RUNNING_MASTER, { kubeconfig, name: 'plain' });
      const submitted = await run(['submit', ...plain.args]);
      expect(submitted.code).toBe(0);
      const appId = submitted.value('Application ID')!;
      const cancelled = await run(['cancel', '--id', appId, '-a', plain.deploy, '--output', 'json'], { json: true });
      expect(cancelled.data[0]).toMatchObject({ jobFound: true, errors: [] });
      expect(cancelled.code).toBe(0);
      await waitAllGone(ns.name, appId);
    }),
  );
});
