// `npm run dev-cluster` must not tell a person something false: on its fake nodes no container
// runs, so by default they carry a taint and a Pod stays Pending with the scheduler's message naming
// it (`kubectl describe node` shows what the taint means), instead of kwok marking it Running (and a
// Job's Pod Succeeded). `--simulate` (the untainted node) keeps that bookkeeping for the tests.
import { randomBytes } from 'node:crypto';
import { devClusterNodes, FAKE_NODE_TAINT } from '../../tools/local-stack/dev-cluster-nodes';
import { adminHttp, createFakeNode, deleteNode, useTestNamespace, waitFor } from '../support/cluster';

interface Pod {
  status?: { phase?: string; conditions?: Array<{ type: string; status: string; reason?: string; message?: string }> };
}

describe('dev-cluster fake nodes', () => {
  const ns = useTestNamespace('devnodes');
  const suffix = randomBytes(3).toString('hex');
  const made: string[] = [];
  afterAll(async () => {
    for (const n of made) await deleteNode(n);
  });

  async function podOn(label: string, simulate: boolean): Promise<string> {
    const spec = devClusterNodes(1, simulate)[0];
    const name = `dev-${label}-${suffix}`;
    await createFakeNode(name, { ...spec, labels: { 'seatunnel-app.test/dev-node': name } });
    made.push(name);
    await adminHttp().call('POST', `/api/v1/namespaces/${ns.name}/pods`, {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: label },
      spec: {
        restartPolicy: 'Never',
        nodeSelector: { 'seatunnel-app.test/dev-node': name },
        containers: [{ name: 'c', image: 'x' }],
      },
    });
    return label;
  }

  test("by default a Pod stays Pending, Unschedulable, and the node's taint says why", async () => {
    const pod = await podOn('honest', false);
    const p = await waitFor(
      async () => {
        const got = await adminHttp().call<Pod>('GET', `/api/v1/namespaces/${ns.name}/pods/${pod}`);
        return got.status?.conditions?.find((c) => c.type === 'PodScheduled' && c.status === 'False') ? got : undefined;
      },
      { description: 'the scheduler to refuse the Pod', timeoutMs: 60_000 },
    );
    expect(p.status?.phase).toBe('Pending');
    const cond = p.status!.conditions!.find((c) => c.type === 'PodScheduled')!;
    expect(cond.reason).toBe('Unschedulable');
    // The scheduler (1.36) counts the taint without naming it; the node (kubectl describe node) says what it means.
    expect(cond.message).toMatch(/1 node\(s\) had untolerated taint/);
    const node = await adminHttp().call<{ spec: { taints?: unknown[] } }>('GET', `/api/v1/nodes/dev-honest-${suffix}`);
    expect(node.spec.taints).toContainEqual(FAKE_NODE_TAINT);
  });

  test('with --simulate kwok marks the Pod Running although nothing ran', async () => {
    const pod = await podOn('simulated', true);
    await waitFor(
      async () =>
        (await adminHttp().call<Pod>('GET', `/api/v1/namespaces/${ns.name}/pods/${pod}`)).status?.phase === 'Running',
      {
        description: 'kwok to mark the Pod Running',
        timeoutMs: 60_000,
      },
    );
  });
});
