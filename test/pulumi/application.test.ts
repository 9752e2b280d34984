// Pulumi tier: the real engine (CLI, Node.js language host, Kubernetes provider built from Go
// modules by tools/pulumi/build.sh) against the local control plane (kube-apiserver, controllers,
// scheduler, kwok nodes). Stacks live in a local file backend; nothing is downloaded.
//
//   1. the project's program (Pulumi.yaml → apps/pulumi) for the bundled example, configured the
//      SeaTunnel way (deployment file + job file + -D overrides) — `up`, `up` again, `up` after a
//      refresh, `destroy`;
//   2. the component as an inline program — a change of image replaces the Job, the dependents
//      follow it to the new uid and the new Job is started too.
//
// A missing engine FAILS this tier with the reason (never a skip).

import type { JobStack, JobStackResult } from '../../apps/pulumi/automation';
import { destroyJobs, previewJobs, upJobs } from '../../apps/pulumi/automation';
import type { SeaTunnelApplicationProps } from '../../lib/model/props';
import {
  adminHttp,
  clusterInfo,
  KWOK_LIFECYCLE_ANNOTATION,
  useTestNamespace,
  waitFor,
  withComponentLogs,
} from '../support/cluster';
import { pulumiEngine, pulumiSandbox, type PulumiSandbox } from './engine';

jest.setTimeout(15 * 60_000);

type Meta = {
  name: string;
  namespace?: string;
  uid: string;
  ownerReferences?: Array<Record<string, unknown>>;
  annotations?: Record<string, string>;
  deletionTimestamp?: string;
};
type Obj = { kind?: string; metadata: Meta; spec?: Record<string, unknown>; status?: Record<string, unknown> };

/** API paths of what one application consists of (besides the Job). */
const DEPENDENT_PATHS: ReadonlyArray<[string, string]> = [
  ['Role', '/apis/rbac.authorization.k8s.io/v1/namespaces/%ns/roles'],
  ['RoleBinding', '/apis/rbac.authorization.k8s.io/v1/namespaces/%ns/rolebindings'],
  ['NetworkPolicy', '/apis/networking.k8s.io/v1/namespaces/%ns/networkpolicies'],
  ['ConfigMap', '/api/v1/namespaces/%ns/configmaps'],
  ['Secret', '/api/v1/namespaces/%ns/secrets'],
  ['Service', '/api/v1/namespaces/%ns/services'],
  ['PodTemplate', '/api/v1/namespaces/%ns/podtemplates'],
  ['StatefulSet', '/apis/apps/v1/namespaces/%ns/statefulsets'],
];
const APP_LABEL = 'seatunnel.apache.org/application-id';

const http = () => adminHttp();
const get = <T = Obj>(path: string) => http().call<T>('GET', path);
const exists = async (path: string) => (await http().request('GET', path)).status === 200;

async function applicationObjects(ns: string, appId: string): Promise<Array<Obj & { kind: string }>> {
  const out: Array<Obj & { kind: string }> = [];
  for (const [kind, path] of DEPENDENT_PATHS) {
    const list = await get<{ items: Obj[] }>(
      `${path.replace('%ns', ns)}?labelSelector=${encodeURIComponent(`${APP_LABEL}=${appId}`)}`,
    );
    out.push(...list.items.map((o) => ({ ...o, kind })));
  }
  return out;
}

const masterPod = async (ns: string, appId: string) => {
  const pods = await get<{ items: Obj[] }>(
    `/api/v1/namespaces/${ns}/pods?labelSelector=${encodeURIComponent(`batch.kubernetes.io/job-name=${appId}`)}`,
  );
  return pods.items.find((p) => !p.metadata.deletionTimestamp);
};

async function waitForRunningMaster(ns: string, appId: string): Promise<Obj> {
  return waitFor(
    async () => {
      const pod = await masterPod(ns, appId);
      return pod?.status?.phase === 'Running' ? pod : undefined;
    },
    { description: `the master Pod of Job ${ns}/${appId} to be Running (scheduler + kwok)`, timeoutMs: 120_000 },
  );
}

/** Every dependent carries exactly one owner reference: to the Job with `uid`, not a controller, not blocking. */
function expectOwnedBy(objects: Obj[], appId: string, uid: string): void {
  for (const o of objects) {
    expect({ kind: o.kind, name: o.metadata.name, ownerReferences: o.metadata.ownerReferences }).toEqual({
      kind: o.kind,
      name: o.metadata.name,
      ownerReferences: [
        { apiVersion: 'batch/v1', kind: 'Job', name: appId, uid, controller: false, blockOwnerDeletion: false },
      ],
    });
  }
}

const onlySame = (r: JobStackResult) =>
  Object.keys(r.changes).filter((k) => k !== 'same' && (r.changes as Record<string, number>)[k] > 0);

describe('pulumi up / destroy of the bundled example through Pulumi.yaml (one stack per job)', () => {
  const ns = useTestNamespace('pulumi');
  let sandbox: PulumiSandbox;
  let job: JobStack;
  let result: JobStackResult;
  const log: string[] = [];

  beforeAll(async () => {
    const engine = pulumiEngine(); // throws with the reason when the engine is missing: the tier fails
    sandbox = pulumiSandbox(engine, (stack, text) => log.push(`[${stack}] ${text}`));
    // What the application only references; it must survive `pulumi destroy` untouched.
    const admin = http();
    await admin.call('POST', `/api/v1/namespaces/${ns.name}/serviceaccounts`, {
      apiVersion: 'v1',
      kind: 'ServiceAccount',
      metadata: { name: 'seatunnel-runtime' },
    });
    await admin.call('POST', `/api/v1/namespaces/${ns.name}/configmaps`, {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'jdbc-drivers' },
      data: { driver: 'jar bytes' },
    });
    await admin.call('POST', `/api/v1/namespaces/${ns.name}/secrets`, {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'db-credentials' },
      stringData: { user: 'etl', password: 'p' },
    });
    job = {
      config: {
        deploymentFile: 'apps/examples/deploy.conf',
        jobFile: 'apps/examples/job.conf',
        overrides: {
          'kubernetes.namespace': ns.name,
          // kwok keeps the master Running (a real master runs until its job ends).
          'kubernetes.master.annotations': `${KWOK_LIFECYCLE_ANNOTATION}:no-complete`,
          'kubernetes.configmap.drivers.ref': 'jdbc-drivers',
          'kubernetes.configmap.drivers.mounts.driver': '/opt/seatunnel/plugins/driver.jar',
          'kubernetes.secret-ref': 'db-credentials',
          'kubernetes.env.DB_USER.secret': 'db-credentials',
          'kubernetes.env.DB_USER.key': 'user',
        },
      },
    };
  }, 300_000);

  afterAll(() => {
    if (sandbox && !process.env.KEEP_PULUMI_SANDBOX) sandbox.remove();
  });

  const withLog = <T>(fn: () => Promise<T>) =>
    withComponentLogs(async () => {
      try {
        return await fn();
      } catch (e) {
        if (e instanceof Error)
          e.message += `\n\n===== pulumi output (last 80 lines) =====\n${log.join('').split('\n').slice(-80).join('\n')}`;
        throw e;
      }
    });

  test(
    'up creates the application: objects present, owned by the Job uid, Job unsuspended, master Running',
    withLog(async () => {
      // What an interactive `pulumi up` shows first: the Job's uid is unknown until it exists.
      const [preview] = await previewJobs([job], sandbox.options(clusterInfo().kubeconfig));
      [result] = await upJobs([job], sandbox.options(clusterInfo().kubeconfig));
      expect(preview.changes).toEqual({ create: result.changes.create });
      const appId = result.applicationId;
      expect(appId).toMatch(/^fake-to-console-[0-9a-f]{12}$/);
      expect(result.stack).toBe(appId);
      expect(result).toMatchObject({ namespace: ns.name, jobName: appId });
      expect(result.jobId).toMatch(/^\d+$/);
      expect(result.changes.create).toBeGreaterThanOrEqual(11);

      const jobObj = await get(`/apis/batch/v1/namespaces/${ns.name}/jobs/${appId}`);
      expect(jobObj.metadata.annotations).toMatchObject({
        'pulumi.com/skipAwait': 'true',
        'seatunnel.apache.org/worker-template': `${appId}-worker`,
      });
      await waitFor(
        async () => (await get(`/apis/batch/v1/namespaces/${ns.name}/jobs/${appId}`)).spec?.suspend === false,
        {
          description: 'the JobPatch to have unsuspended the Job',
        },
      );
      const objects = await applicationObjects(ns.name, appId);
      expect(objects.map((o) => o.kind).sort()).toEqual([
        'ConfigMap',
        'ConfigMap',
        'NetworkPolicy',
        'NetworkPolicy',
        'PodTemplate',
        'Role',
        'RoleBinding',
        // The inline job config travels in an owned Secret (docs/security.md), not in an env variable.
        'Secret',
        'Service',
      ]);
      expect(objects.find((o) => o.kind === 'Secret')?.metadata.name).toBe(`${appId}.job-config`);
      expectOwnedBy(objects, appId, jobObj.metadata.uid);
      const pod = await waitForRunningMaster(ns.name, appId);
      expect(pod.metadata.annotations?.[KWOK_LIFECYCLE_ANNOTATION]).toBe('no-complete');
      // Referenced objects are used, never taken over.
      for (const path of [
        `/api/v1/namespaces/${ns.name}/configmaps/jdbc-drivers`,
        `/api/v1/namespaces/${ns.name}/secrets/db-credentials`,
        `/api/v1/namespaces/${ns.name}/serviceaccounts/seatunnel-runtime`,
      ]) {
        expect((await get(path)).metadata.ownerReferences).toBeUndefined();
      }
    }),
  );

  test(
    'a second up changes nothing, and the running master Pod is left alone',
    withLog(async () => {
      const before = await waitForRunningMaster(ns.name, result.applicationId);
      const [again] = await upJobs([job], sandbox.options(clusterInfo().kubeconfig));
      expect(onlySame(again)).toEqual([]);
      expect(again.changes.same).toBe(result.changes.create);
      const after = await masterPod(ns.name, result.applicationId);
      expect(after?.metadata.uid).toBe(before.metadata.uid);
    }),
  );

  test(
    'after a refresh (state now says suspend: false) an up still never re-suspends the Job',
    withLog(async () => {
      const before = await waitForRunningMaster(ns.name, result.applicationId);
      const [again] = await upJobs([job], { ...sandbox.options(clusterInfo().kubeconfig), refresh: true });
      expect(onlySame(again)).toEqual([]);
      const jobObj = await get(`/apis/batch/v1/namespaces/${ns.name}/jobs/${result.applicationId}`);
      expect(jobObj.spec?.suspend).toBe(false);
      expect((await masterPod(ns.name, result.applicationId))?.metadata.uid).toBe(before.metadata.uid);
    }),
  );

  test(
    'destroy removes everything and leaves the referenced objects alone',
    withLog(async () => {
      const [destroyed] = await destroyJobs([job], sandbox.options(clusterInfo().kubeconfig));
      expect(destroyed.changes.delete).toBe(result.changes.create);
      const appId = result.applicationId;
      expect(await exists(`/apis/batch/v1/namespaces/${ns.name}/jobs/${appId}`)).toBe(false);
      await waitFor(
        async () => (await applicationObjects(ns.name, appId)).length === 0 && !(await masterPod(ns.name, appId)),
        {
          description: `every object of application ${appId} to be gone`,
        },
      );
      for (const path of [
        `/api/v1/namespaces/${ns.name}/configmaps/jdbc-drivers`,
        `/api/v1/namespaces/${ns.name}/secrets/db-credentials`,
        `/api/v1/namespaces/${ns.name}/serviceaccounts/seatunnel-runtime`,
      ]) {
        expect(await exists(path)).toBe(true);
      }
      expect(
        (await get<{ data: Record<string, string> }>(`/api/v1/namespaces/${ns.name}/configmaps/jdbc-drivers`)).data,
      ).toEqual({ driver: 'jar bytes' });
    }),
  );
});

describe('the component as an inline program: replacing the Job', () => {
  const ns = useTestNamespace('pulumi-inline');
  let sandbox: PulumiSandbox;
  const log: string[] = [];
  const app = (image: string): JobStack => ({
    stack: 'inline-orders',
    application: {
      name: 'orders',
      namespace: ns.name,
      image,
      serviceAccount: 'runner',
      workerCount: 2,
      jobConfig:
        'env { job.mode = "BATCH" }\nsource { FakeSource { plugin_output = "f" } }\nsink { Console { plugin_input = "f" } }\n',
      secrets: { db: { data: { password: 'p' }, mounts: { password: '/etc/db/password' } } },
      masterAnnotations: { [KWOK_LIFECYCLE_ANNOTATION]: 'no-complete' },
    } satisfies SeaTunnelApplicationProps,
  });

  beforeAll(async () => {
    sandbox = pulumiSandbox(pulumiEngine(), (stack, text) => log.push(`[${stack}] ${text}`));
    await http().call('POST', `/api/v1/namespaces/${ns.name}/serviceaccounts`, {
      apiVersion: 'v1',
      kind: 'ServiceAccount',
      metadata: { name: 'runner' },
    });
  }, 300_000);

  afterAll(() => {
    if (sandbox && !process.env.KEEP_PULUMI_SANDBOX) sandbox.remove();
  });

  test(
    'a new image replaces the Job; the dependents follow the new uid and the new Job is started',
    withComponentLogs(async () => {
      try {
        const opts = sandbox.options(clusterInfo().kubeconfig);
        const [first] = await upJobs([app('apache/seatunnel:2.3.12')], opts);
        const appId = first.applicationId;
        const firstJob = await get(`/apis/batch/v1/namespaces/${ns.name}/jobs/${appId}`);
        await waitForRunningMaster(ns.name, appId);
        const firstObjects = await applicationObjects(ns.name, appId);
        expect(firstObjects.map((o) => o.kind).sort()).toEqual([
          'ConfigMap',
          'NetworkPolicy',
          'NetworkPolicy',
          'PodTemplate',
          'Role',
          'RoleBinding',
          'Secret',
          'Secret',
          'Service',
        ]);
        expect(
          firstObjects
            .filter((o) => o.kind === 'Secret')
            .map((o) => o.metadata.name)
            .sort(),
        ).toEqual([`${appId}-db`, `${appId}.job-config`]);
        expectOwnedBy(firstObjects, appId, firstJob.metadata.uid);
        const secret = await get<Obj & { data?: Record<string, string> }>(
          `/api/v1/namespaces/${ns.name}/secrets/${appId}-db`,
        );
        expect(Buffer.from(secret.data!.password, 'base64').toString()).toBe('p');

        const [second] = await upJobs([app('apache/seatunnel:2.3.13')], opts);
        expect(second.applicationId).toBe(appId);
        // The Job, every dependent and the JobPatch; the stack and the component stay.
        expect(second.changes).toMatchObject({ replace: 1 + firstObjects.length + 1 });
        const newJob = await waitFor(
          async () => {
            const j = await get(`/apis/batch/v1/namespaces/${ns.name}/jobs/${appId}`);
            return j.metadata.uid !== firstJob.metadata.uid && j.spec?.suspend === false ? j : undefined;
          },
          { description: 'a new, unsuspended Job under the same name' },
        );
        expect(
          (newJob.spec as { template: { spec: { containers: Array<{ image: string }> } } }).template.spec.containers[0]
            .image,
        ).toBe('apache/seatunnel:2.3.13');
        const objects = await waitFor(
          async () => {
            const list = await applicationObjects(ns.name, appId);
            return list.length === firstObjects.length &&
              list.every((o) => o.metadata.ownerReferences?.[0]?.uid === newJob.metadata.uid)
              ? list
              : undefined;
          },
          { description: `all ${firstObjects.length} dependents, owned by the new Job` },
        );
        expect(objects.map((o) => `${o.kind}/${o.metadata.name}`).sort()).toEqual(
          firstObjects.map((o) => `${o.kind}/${o.metadata.name}`).sort(),
        );
        expectOwnedBy(objects, appId, newJob.metadata.uid);
        await waitForRunningMaster(ns.name, appId);

        const [destroyed] = await destroyJobs([app('apache/seatunnel:2.3.13')], { ...opts, removeStacks: true });
        expect(destroyed.changes.delete).toBe(first.changes.create);
        await waitFor(async () => (await applicationObjects(ns.name, appId)).length === 0, {
          description: 'everything gone',
        });
        expect(await exists(`/api/v1/namespaces/${ns.name}/serviceaccounts/runner`)).toBe(true);
      } catch (e) {
        if (e instanceof Error)
          e.message += `\n\n===== pulumi output (last 80 lines) =====\n${log.join('').split('\n').slice(-80).join('\n')}`;
        throw e;
      }
    }),
  );
});

describe('an HA application as an inline program (docs/ha.md)', () => {
  const ns = useTestNamespace('pulumi-ha');
  let sandbox: PulumiSandbox;
  const log: string[] = [];
  const app = (): JobStack => ({
    stack: 'inline-orders-ha',
    application: {
      name: 'orders-ha',
      namespace: ns.name,
      image: 'apache/seatunnel:2.3.8',
      workerCount: 2,
      jobConfig:
        'env { job.mode = "STREAMING" }\nsource { FakeSource { plugin_output = "f" } }\nsink { Console { plugin_input = "f" } }\n',
      checkpointPvc: 'ckpt',
      haEnabled: true,
      haMasters: 2,
      masterAnnotations: { [KWOK_LIFECYCLE_ANNOTATION]: 'no-complete' },
    } satisfies SeaTunnelApplicationProps,
  });

  beforeAll(async () => {
    sandbox = pulumiSandbox(pulumiEngine(), (stack, text) => log.push(`[${stack}] ${text}`));
  }, 300_000);

  afterAll(() => {
    if (sandbox && !process.env.KEEP_PULUMI_SANDBOX) sandbox.remove();
  });

  test(
    'up: the masters StatefulSet and the REST Service, owned by the started Job; destroy: all gone',
    withComponentLogs(async () => {
      try {
        const opts = sandbox.options(clusterInfo().kubeconfig);
        const [up] = await upJobs([app()], opts);
        const appId = up.applicationId;
        const job = await get(`/apis/batch/v1/namespaces/${ns.name}/jobs/${appId}`);
        expect(job.spec?.suspend).toBe(false);
        const objects = await applicationObjects(ns.name, appId);
        expect(objects.filter((o) => o.kind === 'StatefulSet').map((o) => o.metadata.name)).toEqual([
          `${appId}-master`,
        ]);
        expect(
          objects
            .filter((o) => o.kind === 'Service')
            .map((o) => o.metadata.name)
            .sort(),
        ).toEqual([appId, `${appId}-rest`]);
        expectOwnedBy(objects, appId, job.metadata.uid);
        const sts = await get(`/apis/apps/v1/namespaces/${ns.name}/statefulsets/${appId}-master`);
        expect(sts.spec?.replicas).toBe(2);

        const [destroyed] = await destroyJobs([app()], { ...opts, removeStacks: true });
        expect(destroyed.changes.delete).toBe(up.changes.create);
        await waitFor(async () => (await applicationObjects(ns.name, appId)).length === 0, {
          description: 'everything gone',
        });
        expect(await exists(`/apis/batch/v1/namespaces/${ns.name}/jobs/${appId}`)).toBe(false);
      } catch (e) {
        if (e instanceof Error)
          e.message += `\n\n===== pulumi output (last 80 lines) =====\n${log.join('').split('\n').slice(-80).join('\n')}`;
        throw e;
      }
    }),
  );
});
