// The API requests one `seatunnel-app submit` sends, counted by a proxy in front of the real API
// server: exactly the minimum the order of operations needs — the server's version (what the
// command may rely on, lib/submit/server-support.ts), one read per referenced object,
// one create for the Job, one per dependent, one patch to unsuspend — and nothing else (no
// discovery, no read of the Job's uid, which the create's answer carries). bench/submit prints the
// same count for 50 concurrent submissions.
import { parseCommandLine } from '../../lib/cli/args';
import { loadFromArgs } from '../../lib/cli/load';
import { collectionPath } from '../../lib/kube';
import { buildPlan, dependents } from '../../lib/plan/build-plan';
import { referencedObjects } from '../../lib/submit/references';
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

/** "METHOD /path" without the query, with the namespace and the object names kept. */
const line = (l: { method: string; path: string }) => `${l.method} ${l.path.split('?')[0]}`;

test('submit sends one version read, one request per object to create, one patch, one read per referenced object, and nothing else', async () => {
  await createObj(ns.name, { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'db' }, stringData: { password: 'p' } });
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
  expect(r.err).toEqual([]);
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
  // Order: the version first, the reads before any create, the Job before its dependents, the patch last.
  expect(line(proxy.log[0])).toBe(expected[0]);
  expect(line(proxy.log[1])).toBe(expected[1]);
  expect(line(proxy.log[2])).toBe(expected[2]);
  expect(line(proxy.log[proxy.log.length - 1])).toBe(expected[expected.length - 1]);
  expect(proxy.log.every((l) => l.upstream !== undefined && l.upstream < 300)).toBe(true);
});
