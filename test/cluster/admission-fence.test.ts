// The admission fence (docs/security.md, "Admission fencing") against the real kube-apiserver's
// ValidatingAdmissionPolicy: with the platform's policy and binding installed, the master's
// ServiceAccount token — bound to the plan's own runtime Role — can create its stamped workers
// and nothing that deviates from the worker template, while another ServiceAccount with the same
// rights is not fenced.
import type { Pod } from 'kubernetes-types/core/v1';
import { LABELS } from '../../lib/model/reserved';
import {
  admissionFence,
  ADMISSION_FENCE_POLICY,
  ADMISSION_FENCE_TEMPLATE_POLICY,
} from '../../lib/plan/admission-fence';
import { stampWorker } from '../../lib/plan/stamp';
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

const ns = useTestNamespace('fence');
const BINDING_PREFIX = 'test-';
const POLICIES = [ADMISSION_FENCE_POLICY, ADMISSION_FENCE_TEMPLATE_POLICY];
const VAP = '/apis/admissionregistration.k8s.io/v1';
let p: ApplicationPlan;
let master: KubeHttp;
let other: KubeHttp;

const podsPath = (dryRun: boolean) => `/api/v1/namespaces/${ns.name}/pods${dryRun ? '?dryRun=All' : ''}`;
const templatePath = () => `/api/v1/namespaces/${ns.name}/podtemplates/${p.workerTemplate.metadata.name}`;

function worker(n = 1): Pod {
  return stampWorker(
    { template: p.workerTemplate, appId: p.spec.appId, namespace: ns.name, masterHost: '10.0.0.1', masterPort: 5801 },
    n,
  );
}

/** Worker 1, changed by `edit`. */
function deviant(edit: (pod: Pod) => void): Pod {
  const pod = worker(1);
  edit(pod);
  return pod;
}

async function create(as: KubeHttp, pod: Pod, dryRun = true): Promise<{ status: number; message: string }> {
  const res = await as.request<{ message?: string }>('POST', podsPath(dryRun), pod);
  return { status: res.status, message: res.body?.message ?? res.text };
}

beforeAll(async () => {
  const admin = adminHttp();
  // With a spread and a topology spread constraint: the template's placement travels to every
  // stamped worker, and the fence must admit it.
  p = buildTestPlan({
    namespace: ns.name,
    serviceAccount: 'app-runtime',
    applicationId: 'fenced-0123456789ab',
    workerSpread: 'required',
    workerTopologySpreadConstraints: [
      { maxSkew: 1, topologyKey: 'topology.kubernetes.io/zone', whenUnsatisfiable: 'ScheduleAnyway' },
    ],
  });
  for (const name of ['app-runtime', 'other-runtime']) {
    await admin.call('POST', `/api/v1/namespaces/${ns.name}/serviceaccounts`, {
      apiVersion: 'v1',
      kind: 'ServiceAccount',
      metadata: { name },
    });
  }
  // The plan's own runtime Role, bound to the application's ServiceAccount and to another one.
  for (const role of p.roles)
    await admin.call('POST', `/apis/rbac.authorization.k8s.io/v1/namespaces/${ns.name}/roles`, role);
  for (const b of p.roleBindings) {
    const subjects = [...(b.subjects ?? []), { kind: 'ServiceAccount', name: 'other-runtime', namespace: ns.name }];
    await admin.call('POST', `/apis/rbac.authorization.k8s.io/v1/namespaces/${ns.name}/rolebindings`, {
      ...b,
      subjects,
    });
  }
  await admin.call('POST', `/api/v1/namespaces/${ns.name}/podtemplates`, p.workerTemplate);
  const objects = admissionFence({
    bindingPrefix: BINDING_PREFIX,
    // Only this file's namespace: the rest of the cluster tier is not fenced by this test.
    namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': ns.name } },
  });
  for (const o of objects) {
    const plural =
      o.kind === 'ValidatingAdmissionPolicy' ? 'validatingadmissionpolicies' : 'validatingadmissionpolicybindings';
    await admin.call('DELETE', `${VAP}/${plural}/${o.metadata.name}`, undefined, { accept: [404] });
    await admin.call('POST', `${VAP}/${plural}`, o);
  }
  master = tokenHttp(await mintServiceAccountToken(ns.name, 'app-runtime'));
  other = tokenHttp(await mintServiceAccountToken(ns.name, 'other-runtime'));
  // RBAC and the policy are both read from informers: wait until a deviant Pod is refused by the fence.
  await waitFor(
    async () =>
      (
        await create(
          master,
          deviant((pod) => {
            pod.spec!.hostNetwork = true;
          }),
        )
      ).message.includes(ADMISSION_FENCE_POLICY),
    {
      description: 'the admission fence to take effect',
    },
  );
}, 180_000);

afterAll(async () => {
  const admin = adminHttp();
  for (const name of POLICIES) {
    await admin.call('DELETE', `${VAP}/validatingadmissionpolicybindings/${BINDING_PREFIX}${name}`, undefined, {
      accept: [404],
    });
    await admin.call('DELETE', `${VAP}/validatingadmissionpolicies/${name}`, undefined, { accept: [404] });
  }
});

test.each(POLICIES)('the API server type-checks every expression of %s without a warning', async (name) => {
  const status = await waitFor(
    async () => {
      const vap = await adminHttp().call<{
        metadata: { generation: number };
        status?: { observedGeneration?: number; typeChecking?: { expressionWarnings?: unknown[] } };
      }>('GET', `${VAP}/validatingadmissionpolicies/${name}`);
      return vap.status?.observedGeneration === vap.metadata.generation ? vap.status : undefined;
    },
    { description: `policy ${name} to be type-checked` },
  );
  expect(status.typeChecking?.expressionWarnings ?? []).toEqual([]);
});

test(
  "the master's ServiceAccount creates its stamped workers, spread as the template says",
  withComponentLogs(async () => {
    expect(worker(1).spec?.affinity?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution).toHaveLength(1);
    expect(worker(1).spec?.topologySpreadConstraints).toHaveLength(1);
    expect(await create(master, worker(1), false)).toMatchObject({ status: 201 });
    const created = await adminHttp().call<Pod>(
      'GET',
      `/api/v1/namespaces/${ns.name}/pods/${worker(1).metadata!.name}`,
    );
    expect(created.spec?.affinity).toEqual(p.workerTemplate.template!.spec!.affinity);
    expect(created.spec?.topologySpreadConstraints).toEqual(p.workerTemplate.template!.spec!.topologySpreadConstraints);
    expect(await create(master, worker(2))).toMatchObject({ status: 201 });
  }),
);

const DEVIATIONS: Array<[string, (pod: Pod) => void, RegExp]> = [
  [
    'another image',
    (pod) => {
      pod.spec!.containers[0].image = 'busybox:1.36';
    },
    /containers or images differ/,
  ],
  [
    'an extra volume',
    (pod) => {
      pod.spec!.volumes = [...(pod.spec!.volumes ?? []), { name: 'extra', emptyDir: {} }];
    },
    /volume that is not in the worker template/,
  ],
  [
    'a hostPath volume',
    (pod) => {
      pod.spec!.volumes = [...(pod.spec!.volumes ?? []), { name: 'host', hostPath: { path: '/etc' } }];
    },
    /mounts a hostPath volume/,
  ],
  [
    'the host network',
    (pod) => {
      pod.spec!.hostNetwork = true;
    },
    /host network, PID or IPC/,
  ],
  [
    'the host PID namespace',
    (pod) => {
      pod.spec!.hostPID = true;
    },
    /host network, PID or IPC/,
  ],
  [
    'a privileged container',
    (pod) => {
      pod.spec!.containers[0].securityContext = { privileged: true };
    },
    /privileged or adds capabilities/,
  ],
  [
    'an added capability',
    (pod) => {
      pod.spec!.containers[0].securityContext = {
        ...pod.spec!.containers[0].securityContext,
        capabilities: { add: ['NET_ADMIN'] },
      };
    },
    /privileged or adds capabilities/,
  ],
  [
    'another ServiceAccount',
    (pod) => {
      pod.spec!.serviceAccountName = 'other-runtime';
    },
    /another ServiceAccount/,
  ],
  [
    'a mounted token',
    (pod) => {
      pod.spec!.automountServiceAccountToken = true;
    },
    /mounts an API token/,
  ],
  [
    'missing application labels',
    (pod) => {
      delete pod.metadata!.labels![LABELS.applicationId];
    },
    /lacks the application's labels/,
  ],
  [
    'a Secret in its environment',
    (pod) => {
      pod.spec!.containers[0].env = [
        ...(pod.spec!.containers[0].env ?? []),
        { name: 'X', valueFrom: { secretKeyRef: { name: 'anything', key: 'k' } } },
      ];
    },
    /command, environment, mounts or security context differ/,
  ],
  [
    'another command',
    (pod) => {
      pod.spec!.containers[0].command = ['sh', '-c', 'id'];
    },
    /command, environment, mounts or security context differ/,
  ],
];

test.each(DEVIATIONS)("the master's ServiceAccount cannot create a Pod with %s", async (_what, edit, reason) => {
  const r = await create(master, deviant(edit));
  expect(r.status).toBe(403);
  expect(r.message).toContain(`ValidatingAdmissionPolicy '${ADMISSION_FENCE_POLICY}'`);
  expect(r.message).toMatch(reason);
});

test(
  'another ServiceAccount with the same Role is not fenced',
  withComponentLogs(async () => {
    const pod = stampWorker({ template: p.workerTemplate, appId: p.spec.appId, namespace: ns.name }, 3);
    pod.spec!.containers[0].image = 'busybox:1.36';
    const r = await create(other, pod);
    expect(r).toMatchObject({ status: 201 });
  }),
);

test(
  "the master's ServiceAccount cannot loosen its template, but can still adopt it",
  withComponentLogs(async () => {
    const image = await master.request<{ message?: string }>(
      'PATCH',
      templatePath(),
      { template: { spec: { containers: [{ name: 'seatunnel', image: 'busybox:1.36' }] } } },
      { contentType: 'application/strategic-merge-patch+json' },
    );
    expect(image.status).toBe(403);
    expect(image.body?.message).toContain(`ValidatingAdmissionPolicy '${ADMISSION_FENCE_TEMPLATE_POLICY}'`);
    expect(image.body?.message).toMatch(/worker template's Pod spec, labels and annotations cannot be changed/);
    const unlabel = await master.request(
      'PATCH',
      templatePath(),
      { metadata: { labels: { [LABELS.component]: null } } },
      { contentType: 'application/merge-patch+json' },
    );
    expect(unlabel.status).toBe(403);
    // Adoption after `kubectl apply` only adds an owner reference (here a ConfigMap that outlives the test).
    const owner = await adminHttp().call<{ metadata: { uid: string } }>(
      'POST',
      `/api/v1/namespaces/${ns.name}/configmaps`,
      {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'owner' },
      },
    );
    const adopt = await master.request(
      'PATCH',
      templatePath(),
      {
        metadata: {
          ownerReferences: [
            {
              apiVersion: 'v1',
              kind: 'ConfigMap',
              name: 'owner',
              uid: owner.metadata.uid,
              controller: false,
              blockOwnerDeletion: false,
            },
          ],
        },
      },
      { contentType: 'application/merge-patch+json' },
    );
    expect(adopt.status).toBe(200);
  }),
);
