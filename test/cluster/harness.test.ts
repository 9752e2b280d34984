// The control plane itself: what every other cluster test takes for granted.
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as https from 'node:https';
import {
  KWOK_LIFECYCLE_ANNOTATION,
  adminClients,
  adminHttp,
  clusterInfo,
  dryRunStrict,
  loadClientNode,
  patchPodStatus,
  serviceAccountIdentity,
  useTestNamespace,
  waitFor,
  withComponentLogs,
} from '../support/cluster';
import { CLUSTER_ENV } from '../../tools/local-stack/control-server';
import type { ClusterInfo } from '../../tools/local-stack/control-plane';

const ns = useTestNamespace('harness');

test(
  'the API server is a stamped Kubernetes 1.36 on 127.0.0.1 with Ready kwok nodes of the configured size',
  withComponentLogs(async () => {
    const info = clusterInfo();
    expect(new URL(info.server).hostname).toBe('127.0.0.1');
    const version = await adminHttp().call<{ gitVersion: string; major: string; minor: string }>('GET', '/version');
    expect(version).toMatchObject({ major: '1', minor: '36' });
    expect(version.gitVersion).toMatch(/^v1\.36\.\d+$/);

    const { core } = await adminClients();
    const nodes = (await core.listNode()).items.filter((n) => info.nodes.includes(n.metadata!.name!));
    expect(nodes).toHaveLength(info.nodes.length);
    for (const node of nodes) {
      expect(node.metadata?.annotations?.['kwok.x-k8s.io/node']).toBe('fake');
      expect(node.status?.conditions?.find((c) => c.type === 'Ready')?.status).toBe('True');
      expect(node.status?.allocatable).toMatchObject({ cpu: '32', memory: '128Gi' });
    }
  }),
);

test(
  'a ServiceAccount identity works from a kubeconfig file and from a Pod-like token mount',
  withComponentLogs(async () => {
    const { core } = await adminClients();
    await core.createNamespacedServiceAccount({ namespace: ns.name, body: { metadata: { name: 'probe' } } });
    const id = await serviceAccountIdentity(ns.name, 'probe');
    expect(id.username).toBe(`system:serviceaccount:${ns.name}:probe`);

    const { KubeConfig, AuthenticationV1Api } = await loadClientNode();
    const fromFile = new KubeConfig();
    fromFile.loadFromFile(id.kubeconfigPath);
    const review = await fromFile.makeApiClient(AuthenticationV1Api).createSelfSubjectReview({
      body: { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' },
    });
    expect(review.status?.userInfo?.username).toBe(id.username);
    expect(fromFile.getContextObject(fromFile.getCurrentContext())?.namespace).toBe(ns.name);

    const saved = { host: process.env.KUBERNETES_SERVICE_HOST, port: process.env.KUBERNETES_SERVICE_PORT };
    Object.assign(process.env, id.inClusterEnv);
    try {
      const inCluster = new KubeConfig();
      inCluster.loadFromCluster(id.rootPrefix);
      const again = await inCluster.makeApiClient(AuthenticationV1Api).createSelfSubjectReview({
        body: { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' },
      });
      expect(again.status?.userInfo?.username).toBe(id.username);
      expect(inCluster.getContextObject(inCluster.getCurrentContext())?.namespace).toBe(ns.name);
    } finally {
      for (const [k, v] of [
        ['KUBERNETES_SERVICE_HOST', saved.host],
        ['KUBERNETES_SERVICE_PORT', saved.port],
      ] as const) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    }
  }),
);

test(
  'dryRunStrict accepts valid objects without persisting them and rejects unknown fields by name',
  withComponentLogs(async () => {
    const { core } = await adminClients();
    const good = [
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'dry-cm' }, data: { a: 'b' } },
      {
        apiVersion: 'batch/v1',
        kind: 'Job',
        metadata: { name: 'dry-job' },
        spec: {
          suspend: true,
          template: {
            spec: { restartPolicy: 'Never', containers: [{ name: 'main', image: 'seatunnel-app-test:fake' }] },
          },
        },
      },
    ];
    const results = await dryRunStrict(good, { namespace: ns.name });
    expect(results.map((r) => r.ok)).toEqual([true, true]);
    expect(results[1].response).toMatchObject({ kind: 'Job', spec: { backoffLimit: 6 } }); // defaulted by the server
    await expect(core.readNamespacedConfigMap({ name: 'dry-cm', namespace: ns.name })).rejects.toMatchObject({
      code: 404,
    });

    const bad = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'dry-bad' },
      data: { a: 'b' },
      dataa: { typo: 'x' },
    };
    await expect(dryRunStrict([bad], { namespace: ns.name })).rejects.toThrow(
      /ConfigMap\/dry-bad: HTTP 400: .*unknown field "dataa"/,
    );
    // Server-side apply reports an undeclared field as HTTP 500 "field not declared in schema"
    // (API server behaviour, not ours); what matters is that the object is rejected by name.
    const [applied] = await dryRunStrict([bad], { namespace: ns.name, mode: 'apply', throwOnError: false });
    expect(applied.ok).toBe(false);
    expect(applied.message).toMatch(/\.dataa: field not declared in schema/);
  }),
);

test(
  'a Pod annotated for manual lifecycle is scheduled but left to the test, which sets its status',
  withComponentLogs(async () => {
    const { core } = await adminClients();
    const namespace = ns.name;
    const spec = { containers: [{ name: 'main', image: 'seatunnel-app-test:fake' }] };
    await core.createNamespacedPod({
      namespace,
      body: { metadata: { name: 'manual', annotations: { [KWOK_LIFECYCLE_ANNOTATION]: 'manual' } }, spec },
    });
    await core.createNamespacedPod({ namespace, body: { metadata: { name: 'managed' }, spec } });
    await waitFor(
      async () => (await core.readNamespacedPod({ name: 'managed', namespace })).status?.phase === 'Running',
      {
        description: 'kwok to run the managed Pod',
      },
    );
    const manual = await waitFor(
      async () => {
        const p = await core.readNamespacedPod({ name: 'manual', namespace });
        return p.spec?.nodeName ? p : undefined;
      },
      { description: 'the scheduler to bind the manual Pod' },
    );
    expect(manual.status?.phase).toBe('Pending');
    expect(manual.status?.podIP).toBeUndefined();

    const now = new Date().toISOString();
    await patchPodStatus(namespace, 'manual', {
      phase: 'Running',
      podIP: '10.244.200.1',
      podIPs: [{ ip: '10.244.200.1' }],
      conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: now }],
      containerStatuses: [
        {
          name: 'main',
          image: 'seatunnel-app-test:fake',
          imageID: '',
          ready: true,
          restartCount: 0,
          started: true,
          state: { running: { startedAt: now } },
        },
      ],
    });
    const running = await core.readNamespacedPod({ name: 'manual', namespace });
    expect(running.status).toMatchObject({ phase: 'Running', podIP: '10.244.200.1' });
    expect(running.status?.containerStatuses?.[0]?.state?.running).toBeDefined();
  }),
);

// The local stack's etcd (issue 27, item 15): it holds every Secret, so plain HTTP on 127.0.0.1
// would hand them to any local user. Only the API server's client certificate, of etcd's own CA,
// gets an answer.
test('etcd answers only a client certificate of its own CA: not plain HTTP, no certificate, nor the admin’s', async () => {
  const info = clusterInfo();
  const url = new URL(info.etcdUrl);
  expect(url.protocol).toBe('https:');
  const get = (protocol: 'http' | 'https', opts: https.RequestOptions = {}) =>
    new Promise<string>((resolve) => {
      const mod = protocol === 'https' ? https : http;
      const req = mod.get(
        `${protocol}://${url.host}/v3/kv/range`,
        { rejectUnauthorized: false, timeout: 5000, ...opts },
        (res) => {
          res.resume();
          resolve(`HTTP ${res.statusCode}`);
        },
      );
      req.on('timeout', () => req.destroy(new Error('timeout')));
      req.on('error', (e: NodeJS.ErrnoException) => resolve(`error ${e.code ?? e.message}`));
    });
  // Plain HTTP: etcd speaks TLS there; no answer comes back as HTTP.
  expect(await get('http')).toMatch(/^error|HTTP 400/);
  // TLS without a client certificate, and with the admin's (the Kubernetes CA, not etcd's): refused in the handshake.
  expect(await get('https')).toMatch(/^error/);
  expect(
    await get('https', { cert: fs.readFileSync(info.adminCertFile), key: fs.readFileSync(info.adminKeyFile) }),
  ).toMatch(/^error/);
});

test(
  'kube-scheduler killed: the harness starts it again, as a kubelet restarts a static Pod, and Pods are scheduled again',
  withComponentLogs(async () => {
    const file = process.env[CLUSTER_ENV]!;
    const schedulerPid = () =>
      (JSON.parse(fs.readFileSync(file, 'utf8')) as ClusterInfo).components.find((c) => c.name === 'kube-scheduler')!
        .pid;
    const before = schedulerPid();
    // As kube-scheduler ends itself when it finds its cache inconsistent: at once, no clean shutdown.
    process.kill(before, 'SIGKILL');
    const after = await waitFor(
      () => {
        const pid = schedulerPid();
        return pid !== before && processAlive(pid) ? pid : undefined;
      },
      { description: 'kube-scheduler started again', timeoutMs: 30_000, intervalMs: 200 },
    );
    expect(processAlive(before)).toBe(false);
    await adminHttp().call('POST', `/api/v1/namespaces/${ns.name}/pods`, {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'after-scheduler-restart' },
      spec: { containers: [{ name: 'c', image: 'example.invalid/none:1' }] },
    });
    const node = await waitFor(
      async () =>
        (
          await adminHttp().call<{ spec: { nodeName?: string } }>(
            'GET',
            `/api/v1/namespaces/${ns.name}/pods/after-scheduler-restart`,
          )
        ).spec.nodeName,
      { description: `the Pod scheduled by kube-scheduler ${after}`, timeoutMs: 60_000, intervalMs: 500 },
    );
    expect(clusterInfo().nodes).toContain(node);
  }),
);

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
