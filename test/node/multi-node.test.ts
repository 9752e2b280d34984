// The multi-node substrate itself (tools/local-stack/real-node): three real nodes, one Pod network,
// and the faults later tests build on — each tried once, since detecting a lost node takes the
// node controller's grace period (50 s by default). An echo server and a client Pod run on each node;
// what a Pod sees is checked from inside a Pod (kubectl exec) or from inside a node's namespace.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { ZONE_LABEL } from '../../tools/local-stack/real-node/node-ops';
import { adminHttp, createTestNamespace, deleteNamespace, recordWatch, waitFor } from '../support/cluster';
import {
  apiServer,
  clusterNodes,
  httpFromNode,
  nodeOfPod,
  pinnedToNode,
  waitForNode,
  type NodeHandle,
} from '../support/node-faults';
import { imageRef } from '../support/node-pods';
import { echoServerCommand, probeFromPod } from '../support/pod-probe';
import { assertNodesUsable } from '../support/node-health';

jest.setTimeout(10 * 60_000);

const PORT = 8080;
/** Wall times of the faults, printed at the end (a bench measures them; here they are information). */
const timings: Array<[string, number]> = [];
const since = (t0: number) => (Date.now() - t0) / 1000;

describe('three real nodes', () => {
  let ns: string;
  let nodes: NodeHandle[];

  const pod = (name: string, node: string, command: string[], labels: Record<string, string>, probePort?: number) =>
    pinnedToNode(
      {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name, labels },
        spec: {
          terminationGracePeriodSeconds: 2,
          containers: [
            {
              name: 'main',
              image: imageRef('toolbox'),
              imagePullPolicy: 'Never',
              command,
              env: [{ name: 'NODE_NAME', valueFrom: { fieldRef: { fieldPath: 'spec.nodeName' } } }],
              resources: { requests: { cpu: '20m', memory: '64Mi' }, limits: { cpu: '200m', memory: '64Mi' } },
              ...(probePort ? { readinessProbe: { tcpSocket: { port: probePort }, periodSeconds: 1 } } : {}),
            },
          ],
        },
      },
      node,
    );

  /** The Pod's IP once it is Running and Ready. */
  const readyIp = (name: string) =>
    waitFor(
      async () => {
        const p = await adminHttp().call<{
          status?: { podIP?: string; conditions?: Array<{ type: string; status: string }> };
        }>('GET', `/api/v1/namespaces/${ns}/pods/${name}`);
        const ready = p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True');
        return ready && p.status?.podIP ? p.status.podIP : undefined;
      },
      { description: `Pod ${ns}/${name} Ready`, timeoutMs: 120_000, intervalMs: 300 },
    );

  const serviceIp = async () =>
    (await adminHttp().call<{ spec: { clusterIP: string } }>('GET', `/api/v1/namespaces/${ns}/services/echo`)).spec
      .clusterIP;

  /** What the echo server at `ip` answers a GET from the Pod `client` ("NO ANSWER ..." when nothing does). */
  const getFrom = async (client: string, ip: string, timeoutMs = 2000) =>
    (await probeFromPod(ns, client, { get: `http://${ip}:${PORT}`, timeoutMs })).get![0];

  /** Waits until the echo server at `ip` answers `client` with `node`. */
  const answeredBy = (client: string, ip: string, node: string, description: string) =>
    waitFor(async () => (await getFrom(client, ip)) === node, { description, timeoutMs: 60_000, intervalMs: 1000 });

  /** Distinct answers of `times` GETs through the echo Service from `client`. */
  const throughService = async (client: string, url: string, times = 24) =>
    new Set((await probeFromPod(ns, client, { get: url, times, timeoutMs: 2000 })).get);

  beforeAll(async () => {
    nodes = clusterNodes();
    expect(nodes.length).toBeGreaterThanOrEqual(3);
    ns = await createTestNamespace('multi-node');
    for (const [i, n] of nodes.slice(0, 3).entries()) {
      await adminHttp().call(
        'POST',
        `/api/v1/namespaces/${ns}/pods`,
        pod(`srv-${i + 1}`, n.name, echoServerCommand(PORT), { app: 'echo', instance: `srv-${i + 1}` }, PORT),
      );
      await adminHttp().call(
        'POST',
        `/api/v1/namespaces/${ns}/pods`,
        pod(`cli-${i + 1}`, n.name, ['sleep', 'infinity'], { app: 'client' }),
      );
    }
    await adminHttp().call('POST', `/api/v1/namespaces/${ns}/services`, {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'echo' },
      spec: { selector: { app: 'echo' }, ports: [{ port: 80, targetPort: PORT }] },
    });
    for (const name of ['srv-1', 'srv-2', 'srv-3', 'cli-1', 'cli-2', 'cli-3']) await readyIp(name);
  });

  afterAll(async () => {
    // Whatever a failed test left behind: the next test file needs three Ready nodes and an API server.
    await apiServer()
      .startApiServer()
      .catch(() => undefined);
    for (const n of nodes ?? []) {
      await n.thaw().catch(() => undefined);
      await n.heal().catch(() => undefined);
      await n.restart().catch(() => undefined);
    }
    for (const n of nodes ?? []) await waitForNode(n.name, 'Ready');
    if (ns) await deleteNamespace(ns);
    process.stderr.write(
      `\nmulti-node fault timings:\n${timings.map(([k, v]) => `  ${k}: ${v.toFixed(1)} s`).join('\n')}\n`,
    );
  });

  test('each node has its own zone; Pods on three nodes talk by Pod IP, through a ClusterIP and a DNS name, and reach the API', async () => {
    const zones = await Promise.all(
      nodes.map(
        async (n) =>
          (await adminHttp().call<{ metadata: { labels: Record<string, string> } }>('GET', `/api/v1/nodes/${n.name}`))
            .metadata.labels[ZONE_LABEL],
      ),
    );
    expect(new Set(zones).size).toBe(nodes.length);
    const names = nodes.slice(0, 3).map((n) => n.name);
    expect(await Promise.all(['srv-1', 'srv-2', 'srv-3'].map((p) => nodeOfPod(ns, p)))).toEqual(names);

    // Pod to Pod across the fabric, both ways.
    const ip = { 2: await readyIp('srv-2'), 3: await readyIp('srv-3'), 1: await readyIp('srv-1') };
    expect(await getFrom('cli-1', ip[2])).toBe(names[1]);
    expect(await getFrom('cli-1', ip[3])).toBe(names[2]);
    expect(await getFrom('cli-3', ip[1])).toBe(names[0]);
    // A ClusterIP balances over the three nodes' servers.
    const clusterIp = await serviceIp();
    expect([...(await throughService('cli-2', `http://${clusterIp}`))].sort()).toEqual([...names].sort());
    // The Service's DNS name resolves (CoreDNS) and answers, from a third node.
    const fqdn = `echo.${ns}.svc.cluster.local`;
    const byName = await probeFromPod(ns, 'cli-3', { lookup: fqdn, get: `http://${fqdn}`, times: 3 });
    expect(byName.lookup).toBe(clusterIp);
    for (const answer of byName.get!) expect(names).toContain(answer);
    // The API server through the kubernetes Service, with the Pod's own ServiceAccount token.
    expect((await probeFromPod(ns, 'cli-1', { api: true })).api).toMatch(/"gitVersion":\s*"v1\.36\.3"/);
  });

  test('a NetworkPolicy denies a Pod on another node and admits it once it carries the allowed label', async () => {
    const target = await readyIp('srv-3');
    await adminHttp().call('POST', `/apis/networking.k8s.io/v1/namespaces/${ns}/networkpolicies`, {
      apiVersion: 'networking.k8s.io/v1',
      kind: 'NetworkPolicy',
      metadata: { name: 'srv-3-allowed-only' },
      spec: {
        podSelector: { matchLabels: { instance: 'srv-3' } },
        policyTypes: ['Ingress'],
        ingress: [{ from: [{ podSelector: { matchLabels: { role: 'allowed' } } }] }],
      },
    });
    // Enforced by node 3's kube-router against a client on node 1.
    await waitFor(async () => (await getFrom('cli-1', target)).startsWith('NO ANSWER'), {
      description: 'srv-3 closed to cli-1 by the policy',
      timeoutMs: 60_000,
      intervalMs: 1000,
    });
    await adminHttp().call(
      'PATCH',
      `/api/v1/namespaces/${ns}/pods/cli-1`,
      { metadata: { labels: { role: 'allowed' } } },
      { contentType: 'application/merge-patch+json' },
    );
    await answeredBy('cli-1', target, nodes[2].name, 'srv-3 open to cli-1 once it carries role=allowed');
    // cli-2 (node 2) is still refused.
    expect(await getFrom('cli-2', target)).toMatch(/^NO ANSWER/);
    await adminHttp().call('DELETE', `/apis/networking.k8s.io/v1/namespaces/${ns}/networkpolicies/srv-3-allowed-only`);
  });

  test('node 1 loses power: NotReady, its Pods unreachable, the Service, DNS and the API serve on from the others; restarted it is Ready again', async () => {
    const [n1] = nodes;
    const ip1 = await readyIp('srv-1');
    const t0 = Date.now();
    await n1.stop();
    try {
      // Nothing of the node runs any more (its namespace stays, as a machine's disks do).
      expect((await promisify(execFile)('ip', ['netns', 'pids', n1.netns])).stdout.trim()).toBe('');
      expect(await getFrom('cli-2', ip1)).toMatch(/^NO ANSWER/);
      const cond = await waitForNode(n1.name, 'NotReady');
      timings.push(['stop() -> NotReady', since(t0)]);
      expect(cond.status).toBe('Unknown');
      // The node controller marks node 1's Pods not ready: the echo Service, CoreDNS and the kubernetes
      // Service (its relay is on no node) keep answering from nodes 2 and 3.
      const clusterIp = await serviceIp();
      const fqdn = `echo.${ns}.svc.cluster.local`;
      await waitFor(
        async () => {
          const seen = await throughService('cli-2', `http://${clusterIp}`, 12);
          if ([...seen].some((a) => a.startsWith('NO ANSWER') || a === n1.name)) throw new Error([...seen].join(', '));
          return true;
        },
        { description: 'the echo Service answered only by nodes 2 and 3', timeoutMs: 60_000, intervalMs: 1000 },
      );
      // One probe's 3 s can pass while the API server is busy with the lost node's Pods (seen once on a
      // loaded machine); what is claimed is that it serves on, so a few tries within 30 s are allowed.
      await waitFor(
        async () => {
          const r = await probeFromPod(ns, 'cli-3', { lookup: fqdn, api: true });
          if (r.lookup !== clusterIp || !/"gitVersion"/.test(r.api ?? '')) throw new Error(JSON.stringify(r));
          return true;
        },
        { description: `${fqdn} and the API server answering a Pod on node 3`, timeoutMs: 30_000, intervalMs: 1000 },
      );
    } finally {
      // Restored even when an assertion failed, so the next tests find three nodes.
      const t1 = Date.now();
      await n1.restart();
      timings.push(['restart() -> Ready', since(t1)]);
    }
    await answeredBy('cli-2', await readyIp('srv-1'), n1.name, 'srv-1 answering again after the restart');
  });

  test('node 2 cut off: Unknown while its containers keep running; healed it is Ready again', async () => {
    const n2 = nodes[1];
    const ip2 = await readyIp('srv-2');
    const t0 = Date.now();
    await n2.cutOff();
    try {
      expect(await getFrom('cli-3', ip2)).toMatch(/^NO ANSWER/);
      const cond = await waitForNode(n2.name, 'Unknown');
      timings.push(['cutOff() -> Unknown', since(t0)]);
      expect(cond.reason).toBe('NodeStatusUnknown');
      // The check every node-tier file starts with (node-health.ts) names this node, and only it.
      const unusable = await assertNodesUsable({ patienceMs: 0, probeTimeoutMs: 30_000 }).then(
        () => undefined,
        (e: Error) => e.message,
      );
      expect(unusable).toMatch(new RegExp(`^  ${n2.name}: not Ready \\(Ready=Unknown`, 'm'));
      for (const other of [nodes[0], nodes[2]]) expect(unusable).not.toMatch(new RegExp(`^  ${other.name}:`, 'm'));
      // On the node itself the server still runs and answers.
      expect(await httpFromNode(n2, ip2, PORT)).toBe(n2.name);
    } finally {
      const t1 = Date.now();
      await n2.heal();
      await waitForNode(n2.name, 'Ready');
      timings.push(['heal() -> Ready', since(t1)]);
    }
    await answeredBy('cli-3', ip2, n2.name, 'srv-2 reachable from node 3 again');
  });

  test('node 3 frozen: its server and its kubelet stop answering while the others serve; thawed both resume', async () => {
    const n3 = nodes[2];
    const [ip3, ip2] = [await readyIp('srv-3'), await readyIp('srv-2')];
    const renewTime = async () =>
      (
        await adminHttp().call<{ spec: { renewTime: string } }>(
          'GET',
          `/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/${n3.name}`,
        )
      ).spec.renewTime;
    await n3.freeze();
    const frozenAt = await renewTime();
    try {
      expect(await getFrom('cli-1', ip3, 3000)).toMatch(/^NO ANSWER/);
      expect(await getFrom('cli-1', ip2)).toBe(nodes[1].name);
      // The kubelet renews its Lease every 10 s; a frozen one does not.
      await new Promise((r) => setTimeout(r, 12_000));
      expect(await renewTime()).toBe(frozenAt);
    } finally {
      await n3.thaw();
    }
    await waitFor(async () => (await renewTime()) !== frozenAt, {
      description: `${n3.name}'s Lease renewed after the thaw`,
      timeoutMs: 30_000,
    });
    await answeredBy('cli-1', ip3, n3.name, 'srv-3 answering after the thaw');
  });

  test('the API server stopped and started: Pods serve on meanwhile; list, watch, kubelets and in-cluster clients work again', async () => {
    const [n1, n2] = nodes;
    const ip1 = await readyIp('srv-1');
    const leaseOf = async (node: string) =>
      (
        await adminHttp().call<{ spec: { renewTime: string } }>(
          'GET',
          `/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/${node}`,
        )
      ).spec.renewTime;
    const t0 = Date.now();
    await apiServer().stopApiServer();
    await expect(adminHttp().request('GET', '/version', undefined, { timeoutMs: 3000 })).rejects.toThrow();
    // A Pod keeps serving, on its own node and across the fabric.
    expect(await httpFromNode(n1, ip1, PORT)).toBe(n1.name);
    expect(await httpFromNode(n2, ip1, PORT)).toBe(n1.name);
    await new Promise((r) => setTimeout(r, 5000));
    expect(await httpFromNode(n2, ip1, PORT)).toBe(n1.name);
    const t1 = Date.now();
    await apiServer().startApiServer();
    timings.push(['API server down', (t1 - t0) / 1000], ['startApiServer() -> ready', since(t1)]);

    const pods = await adminHttp().call<{ items: unknown[] }>('GET', `/api/v1/namespaces/${ns}/pods`);
    expect(pods.items).toHaveLength(6);
    const watch = await recordWatch<{ metadata: { name: string } }>(`/api/v1/namespaces/${ns}/configmaps`);
    await adminHttp().call('POST', `/api/v1/namespaces/${ns}/configmaps`, {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'after-the-outage' },
    });
    await watch.until((e) => e.type === 'ADDED' && e.object.metadata.name === 'after-the-outage', 'the ADDED event');
    watch.stop();
    // Every kubelet reconnected through its relay (its Lease renewed after the start).
    for (const n of nodes)
      await waitFor(async () => Date.parse(await leaseOf(n.name)) > t0, {
        description: `${n.name}'s Lease renewed after the API server came back`,
        timeoutMs: 60_000,
        intervalMs: 1000,
      });
    await waitFor(async () => /"gitVersion"/.test((await probeFromPod(ns, 'cli-2', { api: true })).api ?? ''), {
      description: 'a Pod reaching the API server through the kubernetes Service again',
      timeoutMs: 60_000,
      intervalMs: 1000,
    });
  });
});
