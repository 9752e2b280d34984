// The runtime reports a worker that cannot be placed from its PodScheduled condition, so the real
// scheduler must leave a Pod larger than every node Pending with PodScheduled=False/Unschedulable.
// Node capacity is configurable: a small node proves it is capacity that decides.
import type { k8s } from '../support/cluster';
import {
  adminClients,
  createFakeNode,
  deleteNode,
  useTestNamespace,
  waitFor,
  withComponentLogs,
} from '../support/cluster';

const ns = useTestNamespace('sched');
const SMALL = `small-${process.pid}`;

beforeAll(() => createFakeNode(SMALL, { cpu: '2', memory: '4Gi', labels: { size: 'small' } }), 90_000);
afterAll(() => deleteNode(SMALL));

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
