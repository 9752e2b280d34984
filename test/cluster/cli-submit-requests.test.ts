// The API requests one `seatunnel-app submit` sends, counted by a proxy in front of the real API
// server: exactly the minimum the order of operations needs — the server's version (what the
// command may rely on, lib/submit/admit/server-support.ts), one read per referenced object,
// one create for the Job, one per dependent, one patch to unsuspend — and nothing else (no
// discovery, no read of the Job's uid, which the create's answer carries). bench/submit prints the
// same count for 50 concurrent submissions. And `status` asks for the version, the Job and its Pods
// at once: one round trip, not two, which on a remote cluster is the larger part of its time.
import { parseCommandLine } from '../../lib/cli/args';
import { loadFromArgs } from '../../lib/cli/load';
import { collectionPath } from '../../lib/kube';
import { buildPlan, dependents } from '../../lib/plan/build-plan';
import { referencedObjects } from '../../lib/submit/admit/references';
import { createObj, deploymentFiles, FaultProxy, run } from './cli-support';
import { useTestNamespace } from '../support/cluster';

const ns = useTestNamespace('cli-reqs');
let proxy: FaultProxy;

beforeAll(async () => {
  proxy = await FaultProxy.start();
});
afterAll(async () => {
  await proxy?.close();
});

/** What the command printed on stderr, but for what the server's version makes it say (an old server's warning). */
const errors = (r: { err: string[] }) => r.err.filter((l) => !l.startsWith('warning: Kubernetes server '));

/** A small application submitted through the proxy (nothing injected), for the other commands to read. */
async function submitThroughProxy(): Promise<{ appId: string; files: ReturnType<typeof deploymentFiles> }> {
  const files = deploymentFiles(ns.name, 'application.worker-count = 1', { kubeconfig: proxy.kubeconfig() });
  proxy.inject();
  const sub = await run(['submit', ...files.args]);
  expect(sub.code).toBe(0);
  return { appId: sub.value('Application ID')!, files };
}

/** "METHOD /path" without the query, with the namespace and the object names kept. */
const line = (l: { method: string; path: string }) => `${l.method} ${l.path.split('?')[0]}`;

test('submit sends one version read, one request per object to create, one patch, one read per referenced object, and nothing else', async () => {
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
  env.DB_PASSWORD { secret = db, key = password }
  secret.extra { data { token = "t0k3n" } }
}`,
    { kubeconfig: proxy.kubeconfig() },
  );
  proxy.inject();
  const r = await run(['submit', ...files.args], { json: true });
  expect(errors(r)).toEqual([]);
  expect(r.code).toBe(0);
  const jobName = (r.data[0] as { job: { name: string } }).job.name;

  // The plan of the same deployment (another random ID: the same kinds of objects) says which
  // objects there are to create and which to read.
  const { spec } = loadFromArgs(parseCommandLine(['submit', ...files.args]), 'random');
  const plan = buildPlan(spec, { suspend: true });
  const deps = dependents(plan);
  const refs = new Set(referencedObjects(spec).map((x) => `${x.ref.kind}/${x.ref.name}`));
  expect(refs).toEqual(new Set(['Secret/db']));

  const job = `/apis/batch/v1/namespaces/${ns.name}/jobs`;
  const expected = [
    'GET /version',
    `GET /api/v1/namespaces/${ns.name}/secrets/db`,
    `POST ${job}`,
    ...deps.map((d) => `POST ${collectionPath(d.apiVersion, d.kind, ns.name)}`),
    `PATCH ${job}/${jobName}`,
  ];
  expect(proxy.log.map(line).sort()).toEqual([...expected].sort());
  expect(proxy.log.length).toBe(1 + refs.size + 1 + deps.length + 1);
  // Order: the version and the reads (at once, in either order) before any create, the Job before
  // its dependents, the patch last.
  expect(proxy.log.slice(0, 2).map(line).sort()).toEqual([expected[0], expected[1]].sort());
  expect(line(proxy.log[2])).toBe(expected[2]);
  expect(line(proxy.log[proxy.log.length - 1])).toBe(expected[expected.length - 1]);
  expect(proxy.log.every((l) => l.upstream !== undefined && l.upstream < 300)).toBe(true);
});

test('submit reads the referenced objects while it asks for the version, and creates nothing before the version has answered', async () => {
  await createObj(ns.name, {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: 'db2' },
    stringData: { password: 'p' },
  });
  const files = deploymentFiles(
    ns.name,
    'application.worker-count = 1\nkubernetes.env.DB_PASSWORD { secret = db2, key = password }',
    {
      kubeconfig: proxy.kubeconfig(),
    },
  );
  proxy.inject({ method: 'GET', path: /^\/version$/, action: 'delay-after', delayMs: 300 });
  const r = await run(['submit', ...files.args]);
  expect(errors(r)).toEqual([]);
  expect(r.code).toBe(0);
  const at = (l: string) => proxy.log.find((e) => line(e) === l)!;
  const version = at('GET /version');
  const secret = at(`GET /api/v1/namespaces/${ns.name}/secrets/db2`);
  const firstCreate = proxy.log.find((e) => e.method === 'POST')!;
  expect(secret.receivedAt).toBeLessThan(version.answeredAt!);
  expect(firstCreate.receivedAt).toBeGreaterThan(version.answeredAt!);
  await run(['cancel', '--id', r.value('Application ID')!, '-a', files.deploy]);
});

test("status sends the version read, the Job read and the Pod list at once: none waits for another's answer", async () => {
  const { appId, files } = await submitThroughProxy();

  // Every answer held 300 ms: a client that waited for the version before reading would send its
  // reads 300 ms after the version read, after its answer.
  proxy.inject({ method: 'GET', path: /./, times: 1000, action: 'delay-after', delayMs: 300 });
  const st = await run(['status', '--id', appId, '-a', files.deploy]);
  expect(errors(st)).toEqual([]);
  expect(st.code).toBe(0);
  expect(st.value('Status')).toMatch(/^(CREATED|DEPLOYING|RUNNING|SUCCEEDED|FAILED)$/); // found, whatever kwok made of it
  const first = proxy.log.slice(0, 3);
  expect(first.map(line).sort()).toEqual(
    [
      'GET /version',
      `GET /apis/batch/v1/namespaces/${ns.name}/jobs/${appId}`,
      `GET /api/v1/namespaces/${ns.name}/pods`,
    ].sort(),
  );
  const lastSent = Math.max(...first.map((l) => l.receivedAt));
  const firstAnswered = Math.min(...proxy.log.map((l) => l.answeredAt ?? Infinity));
  expect(lastSent).toBeLessThan(firstAnswered);
  // Anything after those three (the Job's events, when the Pods do not explain the status) is one more round.
  expect(proxy.log.slice(3).map(line)).toEqual(
    proxy.log.length > 3 ? [`GET /api/v1/namespaces/${ns.name}/events`] : [],
  );

  const cancel = await run(['cancel', '--id', appId, '-a', files.deploy]);
  expect(cancel.code).toBe(0);
});

test('cancel reads the Job while it asks for the version, and deletes nothing before the version has answered', async () => {
  const { appId, files } = await submitThroughProxy();

  proxy.inject({ method: 'GET', path: /^\/version$/, action: 'delay-after', delayMs: 300 });
  const r = await run(['cancel', '--id', appId, '-a', files.deploy]);
  expect(errors(r)).toEqual([]);
  expect(r.code).toBe(0);
  const version = proxy.log.find((e) => line(e) === 'GET /version')!;
  const jobRead = proxy.log.find((e) => line(e) === `GET /apis/batch/v1/namespaces/${ns.name}/jobs/${appId}`)!;
  const firstDelete = proxy.log.find((e) => e.method === 'DELETE')!;
  expect(jobRead.receivedAt).toBeLessThan(version.answeredAt!);
  expect(firstDelete.receivedAt).toBeGreaterThan(version.answeredAt!);
  expect(line(firstDelete)).toBe(`DELETE /apis/batch/v1/namespaces/${ns.name}/jobs/${appId}`);
});
