// The admission fence on the objects a runtime could otherwise use to undo it (docs/security.md,
// "Admission fencing"), with real ServiceAccount tokens against the real kube-apiserver: the
// runtime's account — given a Role wider than the plan's, as a platform team's hand-written Role
// might be — cannot change or delete its worker template (the fence's parameter; a forged owner
// would have the garbage collector delete it); the runtime and the HA coordinator can write their
// status annotations on their Job, with and without a resourceVersion precondition, and nothing
// else; a submitter's account is not the Job's runtime, and its dry runs are admitted.
import type { Pod } from 'kubernetes-types/core/v1';
import { ANNOTATIONS } from '../../lib/contract';
import { LABELS } from '../../lib/model/reserved';
import {
  ADMISSION_FENCE_FLOOR_POLICY,
  ADMISSION_FENCE_JOB_POLICY,
  ADMISSION_FENCE_TEMPLATE_POLICY,
} from '../../lib/plan/admission-fence';
import { stampMasterPod, stampWorkers } from '../../lib/plan/stamp';
import { submitterRole } from '../../lib/plan/submitter-rbac';
import type { ApplicationPlan } from '../../lib/plan/types';
import { plan as buildTestPlan } from '../support/fixtures';
import {
  adminHttp,
  mintServiceAccountToken,
  tokenHttp,
  useTestNamespace,
  waitFor,
  withComponentLogs,
  type KubeHttp,
} from '../support/cluster';
import { answer, createPod, installFence, removeFence } from '../support/cluster/fence';

const ns = useTestNamespace('fence-objects');
let p: ApplicationPlan;
let runtime: KubeHttp;
let submitter: KubeHttp;

const rbac = (kind: string) => `/apis/rbac.authorization.k8s.io/v1/namespaces/${ns.name}/${kind}`;
const templatePath = () => `/api/v1/namespaces/${ns.name}/podtemplates/${p.workerTemplate.metadata.name}`;
const jobPath = () => `/apis/batch/v1/namespaces/${ns.name}/jobs/${p.job.metadata.name}`;
const STRATEGIC = 'application/strategic-merge-patch+json';

beforeAll(async () => {
  const admin = adminHttp();
  // With HA: its runtime is the coordinator, which writes the claims under a resourceVersion.
  p = buildTestPlan(
    {
      namespace: ns.name,
      serviceAccount: 'app-runtime',
      applicationId: 'objects-0123456789ab',
      haEnabled: true,
      checkpointPvc: 'ckpt',
    },
    { suspend: true },
  );
  for (const name of ['app-runtime', 'submitter'])
    await admin.call('POST', `/api/v1/namespaces/${ns.name}/serviceaccounts`, { metadata: { name } });
  for (const role of p.roles) await admin.call('POST', rbac('roles'), role);
  for (const b of p.roleBindings) await admin.call('POST', rbac('rolebindings'), b);
  // Wider than the plan's Role: what the template policy must hold even against a Role that allows it.
  await admin.call('POST', rbac('roles'), {
    metadata: { name: 'too-wide' },
    rules: [{ apiGroups: [''], resources: ['podtemplates'], verbs: ['get', 'patch', 'update', 'delete'] }],
  });
  const bind = (name: string, role: string, account: string) =>
    admin.call('POST', rbac('rolebindings'), {
      metadata: { name },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: role },
      subjects: [{ kind: 'ServiceAccount', name: account, namespace: ns.name }],
    });
  await bind('too-wide', 'too-wide', 'app-runtime');
  await admin.call('POST', rbac('roles'), submitterRole(ns.name));
  await bind('submitter', submitterRole(ns.name).metadata!.name!, 'submitter');
  await admin.call('POST', `/api/v1/namespaces/${ns.name}/podtemplates`, p.workerTemplate);
  await admin.call('POST', `/apis/batch/v1/namespaces/${ns.name}/jobs`, p.job);
  await installFence(ns.name);
  runtime = tokenHttp(await mintServiceAccountToken(ns.name, 'app-runtime'));
  submitter = tokenHttp(await mintServiceAccountToken(ns.name, 'submitter'));
  // Dry runs: a probe that got through before the fence took effect must change nothing.
  const dry = (path: string) => `${path}?dryRun=All`;
  await waitFor(
    async () => {
      const probes = {
        job: await answer(runtime, 'PATCH', dry(jobPath()), { metadata: { labels: { probe: `${Date.now()}` } } }),
        template: await answer(runtime, 'DELETE', dry(templatePath())),
        submitter: await answer(submitter, 'GET', jobPath()),
      };
      if (
        !probes.job.message.includes(ADMISSION_FENCE_JOB_POLICY) ||
        !probes.template.message.includes(ADMISSION_FENCE_TEMPLATE_POLICY) ||
        probes.submitter.status !== 200
      )
        throw new Error(`not yet: ${JSON.stringify(probes)}`);
      return true;
    },
    { description: 'the RoleBindings and the fence to take effect' },
  );
}, 180_000);

afterAll(() => removeFence(ns.name));

describe('the worker template, with a Role that allows changing it', () => {
  const refused = (r: { status: number; message: string }) => {
    expect(r.status).toBe(403);
    expect(r.message).toContain(`ValidatingAdmissionPolicy '${ADMISSION_FENCE_TEMPLATE_POLICY}'`);
  };

  test('an owner that does not exist cannot be added (the garbage collector would delete the template)', async () => {
    const forged = {
      apiVersion: 'batch/v1',
      kind: 'Job',
      name: 'gone',
      uid: '00000000-0000-4000-8000-00000000dead',
    };
    refused(await answer(runtime, 'PATCH', templatePath(), { metadata: { ownerReferences: [forged] } }));
    refused(
      await answer(runtime, 'PATCH', templatePath(), {
        metadata: { ownerReferences: [{ ...forged, name: p.spec.appId }] },
      }),
    );
  });

  test('its Pod spec, labels, annotations and finalizers cannot change, and it cannot be deleted', async () => {
    refused(
      await answer(
        runtime,
        'PATCH',
        templatePath(),
        { template: { spec: { containers: [{ name: 'seatunnel', image: 'busybox:1.36' }] } } },
        STRATEGIC,
      ),
    );
    refused(await answer(runtime, 'PATCH', templatePath(), { metadata: { labels: { [LABELS.component]: null } } }));
    refused(await answer(runtime, 'PATCH', templatePath(), { metadata: { finalizers: ['example.com/keep'] } }));
    refused(await answer(runtime, 'DELETE', templatePath()));
    const still = await adminHttp().call<{ metadata: { ownerReferences?: unknown[] } }>('GET', templatePath());
    expect(still.metadata.ownerReferences).toBeUndefined();
  });
});

describe('the Job, as its own runtime (the HA coordinator)', () => {
  const refused = (r: { status: number; message: string }) => {
    expect(r.status).toBe(403);
    expect(r.message).toContain(`ValidatingAdmissionPolicy '${ADMISSION_FENCE_JOB_POLICY}'`);
  };
  const annotate = (annotations: Record<string, string | null>, resourceVersion?: string) =>
    answer(runtime, 'PATCH', jobPath(), { metadata: { annotations, ...(resourceVersion ? { resourceVersion } : {}) } });

  test(
    'writes and removes its status annotations, and its claims under a resourceVersion precondition',
    withComponentLogs(async () => {
      expect(await annotate({ [ANNOTATIONS.phase]: 'Running', [ANNOTATIONS.workersWaiting]: 'x' })).toMatchObject({
        status: 200,
      });
      expect(await annotate({ [ANNOTATIONS.workersWaiting]: null })).toMatchObject({ status: 200 });
      const job = await adminHttp().call<{ metadata: { resourceVersion: string } }>('GET', jobPath());
      expect(await annotate({ [ANNOTATIONS.coordinator]: 'pod-a' })).toMatchObject({ status: 200 });
      // The claim under the Job's resourceVersion: a stale one is a conflict, as it always was.
      expect(await annotate({ [ANNOTATIONS.submissionIntent]: 'pod-a' }, job.metadata.resourceVersion)).toMatchObject({
        status: 409,
      });
      const now = await adminHttp().call<{ metadata: { resourceVersion: string } }>('GET', jobPath());
      expect(await annotate({ [ANNOTATIONS.submissionIntent]: 'pod-a' }, now.metadata.resourceVersion)).toMatchObject({
        status: 200,
      });
    }),
  );

  test('cannot change its labels, finalizers, TTL, deadline or any annotation but its own', async () => {
    refused(await answer(runtime, 'PATCH', jobPath(), { metadata: { labels: { [LABELS.applicationId]: 'other' } } }));
    refused(await answer(runtime, 'PATCH', jobPath(), { metadata: { finalizers: ['example.com/never'] } }));
    refused(await answer(runtime, 'PATCH', jobPath(), { spec: { ttlSecondsAfterFinished: 2147483647 } }));
    refused(await answer(runtime, 'PATCH', jobPath(), { spec: { activeDeadlineSeconds: 1 } }));
    refused(await annotate({ [ANNOTATIONS.cancelRequested]: 'savepoint' }));
    refused(await annotate({ [ANNOTATIONS.workerTemplate]: 'another-template' }));
    refused(await annotate({ 'example.com/note': 'x' }));
  });

  test("the submitter is not the Job's runtime: it may still request a cancel", async () => {
    expect(
      await answer(submitter, 'PATCH', jobPath(), {
        metadata: { annotations: { [ANNOTATIONS.cancelRequested]: 'savepoint' } },
      }),
    ).toMatchObject({ status: 200 });
  });
});

describe("the submitter's account (it holds the fence's marks: RBAC's escalation check wants them)", () => {
  test("preflight's dry runs of the master Pod and the workers are admitted", async () => {
    expect(await createPod(submitter, ns.name, stampMasterPod(p.job) as Pod)).toMatchObject({ status: 201 });
    for (const w of stampWorkers(p)) expect(await createPod(submitter, ns.name, w)).toMatchObject({ status: 201 });
  });

  test('a Pod it really creates is held to the floor', async () => {
    const r = await createPod(
      submitter,
      ns.name,
      { metadata: { name: 'debug' }, spec: { containers: [{ name: 'c', image: 'busybox:1.36' }] } },
      false,
    );
    expect(r.status).toBe(403);
    expect(r.message).toContain(`ValidatingAdmissionPolicy '${ADMISSION_FENCE_FLOOR_POLICY}'`);
  });
});
