// The runtime reports a worker that cannot be placed from its PodScheduled condition, so the real
// scheduler must leave a Pod larger than every node Pending with PodScheduled=False/Unschedulable.
// Node capacity is configurable: a small node proves it is capacity that decides.
// The HA masters' spread (kubernetes.master.spread) against the real scheduler: two nodes in two
// zones are the only ones the masters may use; `required` puts two of three masters on distinct
// nodes and leaves the third Pending, `preferred` (the default) places all three.
import type { k8s } from '../support/cluster';
import {
  adminClients,
  createFakeNode,
  deleteNode,
  useTestNamespace,
  waitFor,
  withComponentLogs,
} from '../support/cluster';
import { deploymentFiles, run } from './cli-support';

const ns = useTestNamespace('sched');
const SMALL = `small-${process.pid}`;
/** The only nodes the spread test's masters may use (master node selector spread-test=<pid>), one per zone. */
const SPREAD_NODES = ['a', 'b'].map((zone) => ({ name: `spread-${zone}-${process.pid}`, zone: `zone-${zone}` }));

beforeAll(async () => {
  await createFakeNode(SMALL, { cpu: '2', memory: '4Gi', labels: { size: 'small' } });
  for (const n of SPREAD_NODES)
    await createFakeNode(n.name, {
      labels: { 'spread-test': String(process.pid), 'topology.kubernetes.io/zone': n.zone },
    });
}, 120_000);
afterAll(async () => {
  await deleteNode(SMALL);
  for (const n of SPREAD_NODES) await deleteNode(n.name);
});

function pod(name: string, cpu: string, nodeSelector?: Record<string, string>): k8s.V1Pod {
  return {
    metadata: { name },
    spec: {
      nodeSelector,
      containers: [{ name: 'main', image: 'seatunnel-app-test:fake', resources: { requests: { cpu, memory: '1Gi' } } }],
    },
  };
}

async function scheduledCondition(core: k8s.CoreV1Api, namespace: string, name: string) {
  return waitFor(
    async () => {
      const p = await core.readNamespacedPod({ name, namespace });
      const c = p.status?.conditions?.find((x) => x.type === 'PodScheduled');
      return c ? { pod: p, condition: c } : undefined;
    },
    { description: `a PodScheduled condition on Pod ${name}` },
  );
}

test(
  'a Pod too large for every node stays Pending with PodScheduled=False, reason Unschedulable',
  withComponentLogs(async () => {
    const { core } = await adminClients();
    const namespace = ns.name;
    await core.createNamespacedPod({ namespace, body: pod('huge', '64') }); // default nodes have 32 CPUs
    const { pod: huge, condition } = await scheduledCondition(core, namespace, 'huge');
    expect(condition).toMatchObject({ status: 'False', reason: 'Unschedulable' });
    expect(condition.message).toMatch(/Insufficient cpu/);
    expect(huge.status?.phase).toBe('Pending');
    expect(huge.spec?.nodeName).toBeUndefined();
  }),
);

test(
  'node capacity decides: a Pod that fits the small node runs there, one that does not is Unschedulable',
  withComponentLogs(async () => {
    const { core } = await adminClients();
    const namespace = ns.name;
    await core.createNamespacedPod({ namespace, body: pod('fits', '1500m', { size: 'small' }) });
    await core.createNamespacedPod({ namespace, body: pod('too-big', '3', { size: 'small' }) });

    const fits = await waitFor(
      async () => {
        const p = await core.readNamespacedPod({ name: 'fits', namespace });
        return p.status?.phase === 'Running' ? p : undefined;
      },
      { description: 'Pod fits to be Running on the small node' },
    );
    expect(fits.spec?.nodeName).toBe(SMALL);

    const { pod: tooBig, condition } = await scheduledCondition(core, namespace, 'too-big');
    expect(condition).toMatchObject({ status: 'False', reason: 'Unschedulable' });
    expect(condition.message).toMatch(/1 Insufficient cpu/);
    expect(tooBig.spec?.nodeName).toBeUndefined();
  }),
);

/**
 * Submits a 3-master HA application whose masters may only use SPREAD_NODES; returns its ID. Its
 * checkpoints go to remote storage (HA without a claim), so no unbound volume holds a master back.
 */
async function submitHa(name: string, spread: string): Promise<string> {
  const engine = JSON.stringify(
    'seatunnel:\n  engine:\n    checkpoint:\n      storage:\n        plugin-config:\n          fs.defaultFS: hdfs://namenode:9000\n',
  );
  const files = deploymentFiles(
    ns.name,
    `application.ha { enabled = true, masters = 3 }
kubernetes.master { spread = ${spread}, node-selector { spread-test = "${process.pid}" } }
kubernetes.runtime-files.engine.content = ${engine}`,
    { name },
  );
  const sub = await run(['submit', ...files.args]);
  expect(sub.err).toEqual([]);
  expect(sub.code).toBe(0);
  return sub.value('Application ID')!;
}

const mastersOf = async (core: k8s.CoreV1Api, appId: string) =>
  (
    await core.listNamespacedPod({
      namespace: ns.name,
      labelSelector: `seatunnel.apache.org/application-id=${appId},seatunnel.apache.org/role=master`,
    })
  ).items;

const unschedulable = (p: k8s.V1Pod) =>
  p.status?.conditions?.find((c) => c.type === 'PodScheduled' && c.status === 'False' && c.reason === 'Unschedulable');

test(
  'HA masters: required spread puts them on distinct nodes and leaves a third Pending when two nodes fit; preferred places all three',
  withComponentLogs(async () => {
    const { core } = await adminClients();
    const spreadNodes = SPREAD_NODES.map((n) => n.name);

    const required = await submitHa('spread-required', 'required');
    const placed = await waitFor(
      async () => {
        const pods = await mastersOf(core, required);
        const onNodes = pods.filter((p) => p.spec?.nodeName);
        const pending = pods.filter(unschedulable);
        return pods.length === 3 && onNodes.length === 2 && pending.length === 1 ? { onNodes, pending } : undefined;
      },
      { description: 'two required-spread masters placed and the third Unschedulable', timeoutMs: 90_000 },
    );
    const nodes = placed.onNodes.map((p) => p.spec!.nodeName!);
    expect(new Set(nodes).size).toBe(2);
    expect(nodes.every((n) => spreadNodes.includes(n))).toBe(true);
    expect(unschedulable(placed.pending[0])!.message).toMatch(/anti-affinity/);
    expect(placed.pending[0].spec?.nodeName).toBeUndefined();
    // Still Pending a while later: nothing else frees a node for it.
    await new Promise((r) => setTimeout(r, 3000));
    expect((await mastersOf(core, required)).filter((p) => p.spec?.nodeName)).toHaveLength(2);

    // The default: preferred. The required masters above count only their own application, so
    // this one's masters may share their nodes; all three are placed, over both nodes.
    const preferred = await submitHa('spread-preferred', 'preferred');
    const all = await waitFor(
      async () => {
        const pods = await mastersOf(core, preferred);
        return pods.length === 3 && pods.every((p) => p.spec?.nodeName) ? pods : undefined;
      },
      { description: 'all three preferred-spread masters placed', timeoutMs: 90_000 },
    );
    const used = new Set(all.map((p) => p.spec!.nodeName!));
    expect([...used].sort()).toEqual([...spreadNodes].sort());
    expect(all.some(unschedulable)).toBe(false);
  }),
);
