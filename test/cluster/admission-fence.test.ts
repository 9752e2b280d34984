// The admission fence on Pod creations (docs/security.md, "Admission fencing") against the real
// kube-apiserver's ValidatingAdmissionPolicy, with real ServiceAccount tokens: the runtime's
// account, bound to the plan's own runtime Role, creates its stamped workers and nothing that
// deviates from the worker template in anything a worker may differ in; another account bound to
// the same Role is held to the floor, not to the template; and once the template is gone the
// runtime's account is still held to the floor (the fence fails closed).
import type { Pod } from 'kubernetes-types/core/v1';
import { LABELS } from '../../lib/model/reserved';
import {
  ADMISSION_FENCE_FLOOR_POLICY,
  ADMISSION_FENCE_POLICY,
  admissionFencePolicies,
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
import { createPod, installFence, removeFence, typeCheckWarnings } from '../support/cluster/fence';

const ns = useTestNamespace('fence');
const APP = 'fenced-0123456789ab';
const MASTER_POD = `${APP}-x7k2p`;
/** The master Pod's uid: the workers' owner must exist, or the garbage collector removes them at once. */
let masterUid = '';
let p: ApplicationPlan;
let runtime: KubeHttp;
let other: KubeHttp;

const templatePath = () => `/api/v1/namespaces/${ns.name}/podtemplates/${p.workerTemplate.metadata.name}`;

/** Worker `n` as the runtime stamps it: owned by the master Pod, the master's address stamped. */
function worker(n = 1): Pod {
  return stampWorker(
    {
      template: p.workerTemplate,
      appId: APP,
      namespace: ns.name,
      master: { name: MASTER_POD, uid: masterUid },
      masterHost: '10.0.0.1',
      masterPort: 5801,
    },
    n,
  );
}

/** Worker `n`, changed by `edit`. */
function stampedAs(n: number, edit: (pod: Pod) => void): Pod {
  const pod = worker(n);
  edit(pod);
  return pod;
}

/** Worker 1, changed by `edit`. */
const deviant = (edit: (pod: Pod) => void) => stampedAs(1, edit);

const admitted = { status: 201, message: expect.any(String) };
const main = (pod: Pod) => pod.spec!.containers[0];
const setEnv = (name: string, value: string) => (pod: Pod) => {
  main(pod).env = main(pod).env!.map((e) => (e.name === name ? { name, value } : e));
};

beforeAll(async () => {
  const admin = adminHttp();
  // With a spread and a topology spread constraint: the template's placement travels to every
  // stamped worker, and the fence must admit it. An image pull Secret: the floor admits it by its mark.
  p = buildTestPlan({
    namespace: ns.name,
    serviceAccount: 'app-runtime',
    applicationId: APP,
    imagePullSecrets: ['regcred'],
    workerSpread: 'required',
    workerTopologySpreadConstraints: [
      { maxSkew: 1, topologyKey: 'topology.kubernetes.io/zone', whenUnsatisfiable: 'ScheduleAnyway' },
    ],
  });
  for (const name of ['app-runtime', 'other-runtime'])
    await admin.call('POST', `/api/v1/namespaces/${ns.name}/serviceaccounts`, { metadata: { name } });
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
  const master = await admin.call<Pod>('POST', `/api/v1/namespaces/${ns.name}/pods`, {
    metadata: { name: MASTER_POD },
    spec: { containers: [{ name: 'c', image: 'busybox:1.36' }] },
  });
  masterUid = master.metadata!.uid!;
  await installFence(ns.name);
  runtime = tokenHttp(await mintServiceAccountToken(ns.name, 'app-runtime'));
  other = tokenHttp(await mintServiceAccountToken(ns.name, 'other-runtime'));
  // RBAC and the policies are read from informers: wait until each policy refuses a deviant Pod.
  const hostNetwork = deviant((pod) => {
    pod.spec!.hostNetwork = true;
  });
  await waitFor(async () => (await createPod(runtime, ns.name, hostNetwork)).message.includes(ADMISSION_FENCE_POLICY), {
    description: 'the admission fence to take effect',
  });
  // The floor skips dry runs (they create nothing): a real create, under a fresh name each time.
  const fresh = () => ({
    ...hostNetwork,
    metadata: { ...hostNetwork.metadata, name: undefined, generateName: 'probe-' },
  });
  await waitFor(
    async () => (await createPod(other, ns.name, fresh(), false)).message.includes(ADMISSION_FENCE_FLOOR_POLICY),
    { description: "the fence's floor to take effect" },
  );
}, 180_000);

afterAll(() => removeFence(ns.name));

test.each(admissionFencePolicies().map((x) => x.metadata.name))(
  'the API server type-checks every expression of %s without a warning',
  async (name) => {
    const warnings = await waitFor(() => typeCheckWarnings(name), { description: `policy ${name} to be type-checked` });
    expect(warnings).toEqual([]);
  },
);

test(
  "the runtime's ServiceAccount creates its stamped workers, spread as the template says",
  withComponentLogs(async () => {
    expect(worker(1).spec?.affinity?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution).toHaveLength(1);
    expect(worker(1).spec?.topologySpreadConstraints).toHaveLength(1);
    // Not a dry run: what the API server adds on the way (default tolerations, defaults) is admitted.
    expect(await createPod(runtime, ns.name, worker(1), false)).toEqual(admitted);
    const created = await adminHttp().call<Pod>(
      'GET',
      `/api/v1/namespaces/${ns.name}/pods/${worker(1).metadata!.name}`,
    );
    expect(created.spec?.affinity).toEqual(p.workerTemplate.template!.spec!.affinity);
    expect(created.spec?.topologySpreadConstraints).toEqual(p.workerTemplate.template!.spec!.topologySpreadConstraints);
    expect(await createPod(runtime, ns.name, worker(2))).toEqual(admitted);
  }),
);

// [what, edit, the refusal's words] — each refused by the template policy.
const DEVIATIONS: Array<[string, (pod: Pod) => void, RegExp]> = [
  ['another image', (pod) => void (main(pod).image = 'busybox:1.36'), /containers or images differ/],
  [
    'an extra volume',
    (pod) => void (pod.spec!.volumes = [...(pod.spec!.volumes ?? []), { name: 'extra', emptyDir: {} }]),
    /volume that is not in the worker template/,
  ],
  [
    'a hostPath volume',
    (pod) => void (pod.spec!.volumes = [...(pod.spec!.volumes ?? []), { name: 'host', hostPath: { path: '/' } }]),
    /mounts a hostPath volume/,
  ],
  ['the host network', (pod) => void (pod.spec!.hostNetwork = true), /host network, PID or IPC/],
  ['the host PID namespace', (pod) => void (pod.spec!.hostPID = true), /host network, PID or IPC/],
  [
    'a privileged container',
    (pod) => void (main(pod).securityContext = { privileged: true }),
    /privileged or adds capabilities/,
  ],
  [
    'an added capability',
    (pod) => void (main(pod).securityContext = { ...main(pod).securityContext, capabilities: { add: ['NET_ADMIN'] } }),
    /privileged or adds capabilities/,
  ],
  ['another ServiceAccount', (pod) => void (pod.spec!.serviceAccountName = 'other-runtime'), /another ServiceAccount/],
  ['a mounted token', (pod) => void (pod.spec!.automountServiceAccountToken = true), /mounts an API token/],
  [
    'missing application labels',
    (pod) => void delete pod.metadata!.labels![LABELS.applicationId],
    /lacks the application's labels/,
  ],
  [
    'a Secret in its environment',
    (pod) =>
      void (main(pod).env = [
        ...(main(pod).env ?? []),
        { name: 'X', valueFrom: { secretKeyRef: { name: 'anything', key: 'k' } } },
      ]),
    /command, environment, ports, probes, hooks, mounts or security context differ/,
  ],
  [
    'another command',
    (pod) => void (main(pod).command = ['sh', '-c', 'id']),
    /command, environment, ports, probes, hooks, mounts or security context differ/,
  ],
  // What a worker could otherwise differ in (issue 27, item 5).
  ['no owner (it would outlive the application)', (pod) => void delete pod.metadata!.ownerReferences, /not owned/],
  [
    'another owner',
    (pod) =>
      void (pod.metadata!.ownerReferences = [
        { apiVersion: 'v1', kind: 'Pod', name: 'long-lived', uid: '00000000-0000-4000-8000-000000000002' },
      ]),
    /not owned/,
  ],
  ['restart policy Always', (pod) => void (pod.spec!.restartPolicy = 'Always'), /restart policy/],
  [
    'the system-node-critical priority class',
    (pod) => void (pod.spec!.priorityClassName = 'system-node-critical'),
    /priority class differs/,
  ],
  [
    'a toleration of every taint',
    (pod) => void (pod.spec!.tolerations = [{ operator: 'Exists' }]),
    /tolerates a taint the worker template does not/,
  ],
  ['a host port', (pod) => void (main(pod).ports = [{ containerPort: 5801, hostPort: 5801 }]), /ports, probes, hooks/],
  [
    "a probe aimed at the node's kubelet",
    (pod) =>
      void (main(pod).livenessProbe = { httpGet: { host: '10.0.0.2', port: 10250, path: '/pods', scheme: 'HTTPS' } }),
    /ports, probes, hooks/,
  ],
  [
    'a postStart hook aimed at a metadata address',
    (pod) =>
      void (main(pod).lifecycle = { postStart: { httpGet: { host: '169.254.169.254', port: 80, path: '/latest' } } }),
    /ports, probes, hooks/,
  ],
  [
    'an unrelated image pull Secret',
    (pod) => void (pod.spec!.imagePullSecrets = [{ name: 'someone-elses' }]),
    /pull Secrets/,
  ],
  [
    'more memory than the template',
    (pod) => void (main(pod).resources = { requests: { memory: '64Gi' }, limits: { memory: '64Gi' } }),
    /resources differ/,
  ],
  [
    'a master address at a metadata service',
    setEnv('SEATUNNEL_APPLICATION_MASTER_ADDRESS', '169.254.169.254:80'),
    /command, environment/,
  ],
  [
    'a master address that is a host name',
    setEnv('ST_DOCKER_MEMBER_LIST', 'attacker.example:5801'),
    /command, environment/,
  ],
  [
    'an annotation the template does not have',
    (pod) =>
      void (pod.metadata!.annotations = { 'container.apparmor.security.beta.kubernetes.io/seatunnel': 'unconfined' }),
    /annotation that is not in the worker template/,
  ],
];

test.each(DEVIATIONS)("the runtime's ServiceAccount cannot create a Pod with %s", async (_what, edit, reason) => {
  const r = await createPod(runtime, ns.name, deviant(edit));
  expect(r.status).toBe(403);
  expect(r.message).toContain(`ValidatingAdmissionPolicy '${ADMISSION_FENCE_POLICY}'`);
  expect(r.message).toMatch(reason);
});

/** A Pod as the issue's report made it: privileged, the node's root, the default account, a foreign Secret. */
function escape(): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'escape' },
    spec: {
      containers: [
        {
          name: 'c',
          image: 'busybox:1.36',
          securityContext: { privileged: true },
          volumeMounts: [
            { name: 'root', mountPath: '/host' },
            { name: 'loot', mountPath: '/loot' },
          ],
        },
      ],
      volumes: [
        { name: 'root', hostPath: { path: '/' } },
        { name: 'loot', secret: { secretName: 'unrelated' } },
      ],
    },
  };
}

// [what, edit of a stamped worker, the refusal's words] — each refused by the floor.
const BELOW_THE_FLOOR: Array<[string, (pod: Pod) => void, RegExp]> = [
  [
    "another application's labels",
    (pod) => void (pod.metadata!.labels![LABELS.applicationId] = 'other-app'),
    /labelled as a worker/,
  ],
  ['no owner', (pod) => void delete pod.metadata!.ownerReferences, /not owned/],
  ['the default ServiceAccount', (pod) => void (pod.spec!.serviceAccountName = 'default'), /another ServiceAccount/],
  ['restart policy Always', (pod) => void (pod.spec!.restartPolicy = 'Always'), /restart policy is not Never/],
  ['a mounted token', (pod) => void (pod.spec!.automountServiceAccountToken = true), /mounts an API token/],
  [
    'a hostPath volume',
    (pod) => void (pod.spec!.volumes = [...pod.spec!.volumes!, { name: 'h', hostPath: { path: '/' } }]),
    /hostPath/,
  ],
  ['a privileged container', (pod) => void (main(pod).securityContext = { privileged: true }), /privileged/],
  ['a node of its choice', (pod) => void (pod.spec!.nodeName = 'control-plane'), /names a node/],
  ['a host port', (pod) => void (main(pod).ports = [{ containerPort: 80, hostPort: 80 }]), /host port/],
  [
    'a toleration of every taint',
    (pod) => void (pod.spec!.tolerations = [{ operator: 'Exists' }]),
    /tolerates every taint/,
  ],
  [
    'an unrelated Secret as a volume',
    (pod) => void (pod.spec!.volumes = [...pod.spec!.volumes!, { name: 'loot', secret: { secretName: 'unrelated' } }]),
    /refers to an object/,
  ],
  [
    'an unrelated Secret in its environment',
    (pod) => void (main(pod).envFrom = [{ secretRef: { name: 'unrelated' } }]),
    /refer to an object/,
  ],
  [
    // Each reference has its own check (one CEL expression affords two): the third is still checked.
    'an unrelated Secret behind two marked ones in its environment',
    (pod) =>
      void main(pod).env!.push(
        ...['regcred', 'regcred', 'unrelated'].map((name, i) => ({
          name: `REF_${i}`,
          valueFrom: { secretKeyRef: { name, key: 'k' } },
        })),
      ),
    /refer to an object/,
  ],
  [
    'more Secrets in its environment than the fence checks',
    (pod) => void (main(pod).envFrom = Array.from({ length: 11 }, () => ({ secretRef: { name: 'regcred' } }))),
    /than the fence checks/,
  ],
  [
    // Each volume has its own check (one CEL expression affords two): the fourth is still checked.
    'an unrelated ConfigMap as a volume behind three marked Secrets',
    (pod) =>
      void (pod.spec!.volumes = [
        ...pod.spec!.volumes!,
        ...['regcred', 'regcred', 'regcred'].map((secretName, i) => ({ name: `marked-${i}`, secret: { secretName } })),
        { name: 'loot', configMap: { name: 'unrelated' } },
      ]),
    /volume that refers to an object/,
  ],
  [
    'more volumes than the fence checks',
    (pod) =>
      void (pod.spec!.volumes = [
        ...pod.spec!.volumes!,
        ...Array.from({ length: 12 }, (_, i) => ({ name: `scratch-${i}`, emptyDir: {} })),
      ]),
    /more volumes than the fence checks/,
  ],
  [
    'a Secret in an init container',
    (pod) =>
      void (pod.spec!.initContainers = [
        { name: 'sneak', image: main(pod).image, envFrom: [{ secretRef: { name: 'regcred' } }] },
      ]),
    /init container's environment names a Secret/,
  ],
  [
    'a volume on the node (CSI, inline)',
    (pod) => void (pod.spec!.volumes = [...pod.spec!.volumes!, { name: 'n', csi: { driver: 'any.csi.example' } }]),
    /volume of a kind/,
  ],
];

test(
  'another ServiceAccount bound to the same Role is held to the floor, not to the template',
  withComponentLogs(async () => {
    // A worker of the application, as itself, with another image: the floor does not know the template's image.
    const image = stampedAs(4, (pod) => {
      main(pod).image = 'busybox:1.36';
      pod.spec!.serviceAccountName = 'other-runtime';
    });
    expect(await createPod(other, ns.name, image, false)).toEqual(admitted);
    // As the application's ServiceAccount: the floor holds each account to running as itself.
    const r1 = await createPod(
      other,
      ns.name,
      stampedAs(6, () => undefined),
      false,
    );
    expect(r1.message).toMatch(/runs as another ServiceAccount than its creator/);
    const r = await createPod(other, ns.name, escape(), false);
    expect(r.status).toBe(403);
    expect(r.message).toContain(`ValidatingAdmissionPolicy '${ADMISSION_FENCE_FLOOR_POLICY}'`);
  }),
);

describe('without its template (deleted, as the garbage collector would after a forged owner)', () => {
  beforeAll(async () => {
    await adminHttp().call('DELETE', templatePath());
    // The template policy's parameter cache forgets it: a worker with another image passes (the floor allows it).
    const image = stampedAs(5, (pod) => void (main(pod).image = 'busybox:1.36'));
    await waitFor(async () => (await createPod(runtime, ns.name, image)).status === 201, {
      description: 'the deleted template to leave the policy',
    });
  });

  test("the report's escape Pod is refused", async () => {
    const r = await createPod(runtime, ns.name, escape(), false);
    expect(r.status).toBe(403);
    expect(r.message).toContain(`ValidatingAdmissionPolicy '${ADMISSION_FENCE_FLOOR_POLICY}'`);
  });

  test.each(BELOW_THE_FLOOR)(
    "the runtime's ServiceAccount still cannot create a worker with %s",
    async (_w, edit, why) => {
      const r = await createPod(runtime, ns.name, deviant(edit), false);
      expect(r.status).toBe(403);
      expect(r.message).toContain(`ValidatingAdmissionPolicy '${ADMISSION_FENCE_FLOOR_POLICY}'`);
      expect(r.message).toMatch(why);
    },
  );

  test('its stamped workers are still admitted', async () => {
    expect(await createPod(runtime, ns.name, worker(3), false)).toEqual(admitted);
  });

  test('a worker with four marked volumes is admitted (each checked in its own expression, within the cost limit)', async () => {
    const many = stampedAs(
      8,
      (pod) =>
        void (pod.spec!.volumes = [
          ...pod.spec!.volumes!,
          ...['regcred', 'regcred', 'regcred'].map((secretName, i) => ({
            name: `marked-${i}`,
            secret: { secretName },
          })),
        ]),
    );
    expect(await createPod(runtime, ns.name, many, false)).toEqual(admitted);
  });
});
