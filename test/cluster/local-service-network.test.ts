// The local kubelet's data path against the real controllers: StatefulSet Pods find each other by
// their headless-Service names (cluster DNS stand-in, from the EndpointSlices the real
// EndpointSlice controller writes), a ClusterIP Service answers through the userspace proxy and
// follows its ready endpoints, a failing readiness probe keeps a Pod out of them, and a container
// that exits under restartPolicy Always is restarted in the same Pod.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Container, Pod, Service } from 'kubernetes-types/core/v1';
import type { EndpointSlice } from 'kubernetes-types/discovery/v1';
import { adminHttp, clusterInfo, KWOK_LIFECYCLE_ANNOTATION, useTestNamespace, waitFor } from '../support/cluster';
import { LocalKubelet } from '../../tools/local-stack/local-kubelet';
import { localPodIp } from '../../tools/local-stack/pod-addresses';
import { ServiceNetwork } from '../../tools/local-stack/service-network';

const NODE = process.execPath;
/** Answers every request with its Pod's name, on the Pod IP only. */
const SERVER = "require('http').createServer((q, r) => r.end(process.env.POD_NAME)).listen(8080, process.env.POD_IP)";
/** Prints what dns.lookup (the resolver net and http use) answers for each name, then one HTTP GET. */
const NODE_CLIENT = `
const dns = require('dns');
const [get, ...names] = process.argv.slice(1);
(async () => {
  for (const n of names) console.log('RESOLVED', n, (await dns.promises.lookup(n, { all: true })).map((a) => a.address).sort().join(','));
  require('http').get(get, (res) => { let b = ''; res.on('data', (d) => (b += d)); res.on('end', () => console.log('BODY', b)); });
})().catch((e) => { console.log('FAILED', e.code || e.message); process.exit(1); });
`;
const JAVA_CLIENT = `import java.net.*;
import java.util.*;
public class Resolve {
  public static void main(String[] names) throws Exception {
    for (String n : names) {
      String[] ips = Arrays.stream(InetAddress.getAllByName(n)).map(InetAddress::getHostAddress).sorted().toArray(String[]::new);
      System.out.println("RESOLVED " + n + " " + String.join(",", ips));
    }
  }
}
`;

const podEnv = [
  { name: 'POD_NAME', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
  { name: 'POD_IP', valueFrom: { fieldRef: { fieldPath: 'status.podIP' } } },
];
const serverContainer = (extra: Partial<Container> = {}): Container => ({
  name: 'server',
  image: 'local',
  command: [NODE, '-e', SERVER],
  env: podEnv,
  ...extra,
});
const LOCAL = { [KWOK_LIFECYCLE_ANNOTATION]: 'local' };

function podObject(name: string, labels: Record<string, string>, container: Container, restartPolicy = 'Always'): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, labels, annotations: LOCAL },
    spec: {
      restartPolicy,
      terminationGracePeriodSeconds: 2,
      automountServiceAccountToken: false,
      containers: [container],
    },
  };
}

describe('local kubelet: cluster DNS, Service proxy, probes and restarts', () => {
  const ns = useTestNamespace('localnet');
  let dir: string;
  let network: ServiceNetwork;
  let kubelet: LocalKubelet;
  const admin = () => adminHttp();
  const api = (kind: string, name = '') => `/api/v1/namespaces/${ns.name}/${kind}${name ? `/${name}` : ''}`;

  beforeAll(() => {
    const info = clusterInfo();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'localnet-'));
    network = new ServiceNetwork({
      admin: admin(),
      namespace: ns.name,
      hostsFile: path.join(dir, 'hosts'),
      periodMs: 200,
    }).start();
    kubelet = new LocalKubelet({
      admin: admin(),
      server: info.server,
      caData: info.caData,
      namespace: ns.name,
      dir: path.join(dir, 'pods'),
      images: {},
      hostsFile: network.hostsFile,
    }).start();
  });

  afterAll(async () => {
    await kubelet?.stop();
    await network?.stop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  const getPod = (name: string) => admin().call<Pod>('GET', api('pods', name));
  const isReady = (p: Pod) => p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;
  const diagnostics = () =>
    `kubelet: ${kubelet.errors.join('; ') || '-'}; network: ${network.errors.join('; ') || '-'}`;

  async function readyPod(name: string): Promise<Pod> {
    return waitFor(async () => ((p) => (isReady(p) ? p : undefined))(await getPod(name)), {
      description: `Pod ${name} Ready (${diagnostics()})`,
      timeoutMs: 60_000,
    });
  }

  /** Runs a one-shot Pod to completion and returns its log. */
  async function runToCompletion(name: string, command: string[]): Promise<string> {
    await admin().call('POST', api('pods'), podObject(name, {}, { name: 'client', image: 'local', command }, 'Never'));
    const done = await waitFor(
      async () =>
        ((p) => (['Succeeded', 'Failed'].includes(p.status?.phase ?? '') ? p : undefined))(await getPod(name)),
      {
        description: `Pod ${name} to finish (${diagnostics()})`,
        timeoutMs: 90_000,
      },
    );
    const log = kubelet.logOf(name);
    expect({ phase: done.status?.phase, log }).toEqual({ phase: 'Succeeded', log });
    return log;
  }

  async function slicesOf(service: string): Promise<EndpointSlice[]> {
    const list = await admin().call<{ items: EndpointSlice[] }>(
      'GET',
      `/apis/discovery.k8s.io/v1/namespaces/${ns.name}/endpointslices?labelSelector=${encodeURIComponent(`kubernetes.io/service-name=${service}`)}`,
    );
    return list.items;
  }

  const endpointOf = async (service: string, ip: string) =>
    (await slicesOf(service)).flatMap((s) => s.endpoints ?? []).find((e) => e.addresses.includes(ip));

  const hostsHave = (name: string, ip: string) =>
    fs.readFileSync(network.hostsFile, 'utf8').split('\n').includes(`${ip} ${name}`);

  test('StatefulSet Pods resolve each other by headless-Service name, from Node.js and from a JVM', async () => {
    await admin().call('POST', api('services'), {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'peers' },
      spec: { clusterIP: 'None', selector: { app: 'web' }, ports: [{ name: 'http', port: 8080 }] },
    });
    await admin().call('POST', `/apis/apps/v1/namespaces/${ns.name}/statefulsets`, {
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      metadata: { name: 'web' },
      spec: {
        serviceName: 'peers',
        replicas: 2,
        podManagementPolicy: 'Parallel',
        selector: { matchLabels: { app: 'web' } },
        template: {
          metadata: { labels: { app: 'web' }, annotations: LOCAL },
          spec: {
            terminationGracePeriodSeconds: 2,
            automountServiceAccountToken: false,
            containers: [serverContainer({ readinessProbe: { httpGet: { path: '/', port: 8080 }, periodSeconds: 1 } })],
          },
        },
      },
    });
    const [web0, web1] = await Promise.all([readyPod('web-0'), readyPod('web-1')]);
    // The API shows each Pod IP in 10.245.0.0/24 (EndpointSlices refuse loopback); names lead to its loopback face.
    const ip0 = localPodIp(web0.status!.podIP!)!;
    const ip1 = localPodIp(web1.status!.podIP!)!;
    expect([ip0, ip1]).toEqual([kubelet.localAddressOf('web-0'), kubelet.localAddressOf('web-1')]);
    expect(ip0).not.toEqual(ip1);
    const fqdn = `web-1.peers.${ns.name}.svc`;
    // The stand-in publishes what the EndpointSlice controller wrote: wait for both names, then ask.
    await waitFor(() => hostsHave(fqdn, ip1) && hostsHave(`peers.${ns.name}.svc`, ip0), {
      description: `hosts file with ${fqdn} (${diagnostics()})`,
    });

    const fromNode = await runToCompletion('resolve-node', [
      NODE,
      '-e',
      NODE_CLIENT,
      `http://${fqdn}.cluster.local:8080/`,
      fqdn,
      'web-1.peers',
      `peers.${ns.name}.svc.cluster.local`,
    ]);
    expect(fromNode).toContain(`RESOLVED ${fqdn} ${ip1}\n`);
    expect(fromNode).toContain(`RESOLVED web-1.peers ${ip1}\n`);
    expect(fromNode).toContain(`RESOLVED peers.${ns.name}.svc.cluster.local ${[ip0, ip1].sort().join(',')}\n`);
    expect(fromNode).toContain('BODY web-1');

    const source = path.join(dir, 'Resolve.java');
    fs.writeFileSync(source, JAVA_CLIENT);
    const java = execFileSync('sh', ['-c', 'command -v java'], { encoding: 'utf8' }).trim();
    const fromJvm = await runToCompletion('resolve-jvm', [
      java,
      source,
      fqdn,
      `web-0.peers.${ns.name}.svc.cluster.local`,
    ]);
    expect(fromJvm).toContain(`RESOLVED ${fqdn} ${ip1}\n`);
    expect(fromJvm).toContain(`RESOLVED web-0.peers.${ns.name}.svc.cluster.local ${ip0}\n`);
  });

  /** GET through the proxy of a Service; the body is the answering Pod's name. */
  const viaProxy = (address: string) =>
    new Promise<string>((resolve, reject) => {
      http
        .get({ host: address, port: 80, path: '/', agent: false }, (res) => {
          let body = '';
          res.on('data', (d: Buffer) => (body += d.toString()));
          res.on('end', () => resolve(body));
        })
        .on('error', reject);
    });

  test('a ClusterIP Service answers through the proxy, from ready Pods only, and follows a deleted Pod to the one left', async () => {
    await admin().call('POST', api('services'), {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'backend' },
      spec: { selector: { role: 'backend' }, ports: [{ name: 'http', port: 80, targetPort: 8080 }] },
    });
    const readyFile = path.join(dir, 'c-ready');
    await admin().call('POST', api('pods'), podObject('a', { role: 'backend' }, serverContainer()));
    await admin().call('POST', api('pods'), podObject('b', { role: 'backend' }, serverContainer()));
    // c serves too, but its readiness probe fails until readyFile exists.
    await admin().call(
      'POST',
      api('pods'),
      podObject(
        'c',
        { role: 'backend' },
        serverContainer({
          readinessProbe: { exec: { command: ['test', '-f', readyFile] }, periodSeconds: 1, failureThreshold: 1 },
        }),
      ),
    );
    await Promise.all([readyPod('a'), readyPod('b')]);
    const ipC = await waitFor(async () => (await getPod('c')).status?.podIP, { description: 'Pod c to get an IP' });
    // The real EndpointSlice controller lists c, not ready (a kubelet reporting Ready at once would make it ready).
    const notReady = await waitFor(() => endpointOf('backend', ipC), {
      description: `Pod c in the EndpointSlice of backend (${diagnostics()})`,
    });
    expect(notReady.conditions?.ready).toBe(false);
    expect(isReady(await getPod('c'))).toBe(false);

    const svc = await admin().call<Service>('GET', api('services', 'backend'));
    const address = await waitFor(() => network.proxyAddress(svc), {
      description: `a proxy for Service backend (${diagnostics()})`,
    });
    expect(address).toMatch(/^127\.0\.[23]\./);
    // The proxy's ready backends are a and b once both are in the slice: round robin answers from both, never c.
    await waitFor(async () => new Set(await Promise.all([1, 2, 3, 4].map(() => viaProxy(address)))).size === 2, {
      description: 'answers from a and b',
    });
    const answers = [];
    for (let i = 0; i < 6; i++) answers.push(await viaProxy(address));
    expect(new Set(answers)).toEqual(new Set(['a', 'b']));

    // A Pod reaches the Service by its short name (the search list's <svc>), through the proxy.
    await waitFor(() => hostsHave('backend', address), { description: 'hosts file with backend' });
    const client = await runToCompletion('client', [
      NODE,
      '-e',
      NODE_CLIENT,
      'http://backend/',
      'backend',
      `backend.${ns.name}.svc.cluster.local`,
    ]);
    expect(client).toContain(`RESOLVED backend ${address}\n`);
    expect(client).toContain(`RESOLVED backend.${ns.name}.svc.cluster.local ${address}\n`);
    expect(client).toMatch(/BODY [ab]\n/);

    // Readiness passes: the controller marks c ready in the slice.
    fs.writeFileSync(readyFile, '');
    await waitFor(async () => (await endpointOf('backend', ipC))?.conditions?.ready === true, {
      description: `c ready in the EndpointSlice (${diagnostics()})`,
    });
    await readyPod('c');

    // a and c go away: every new connection lands on b.
    await admin().call('DELETE', api('pods', 'a'));
    await admin().call('DELETE', api('pods', 'c'));
    await waitFor(async () => (await Promise.all([1, 2, 3, 4].map(() => viaProxy(address)))).every((b) => b === 'b'), {
      description: `every answer from b after a and c were deleted (${diagnostics()})`,
    });
  });

  test('a container that exits under restartPolicy Always restarts in the same Pod', async () => {
    const mark = path.join(dir, 'crash-once');
    // Exits 3 the first time, then runs on.
    await admin().call(
      'POST',
      api('pods'),
      podObject(
        'crash',
        {},
        {
          name: 'main',
          image: 'local',
          command: ['sh', '-c', `if [ -f ${mark} ]; then exec sleep 3600; fi; touch ${mark}; exit 3`],
        },
      ),
    );
    const firstIp = await waitFor(async () => (await getPod('crash')).status?.podIP, {
      description: 'Pod crash to get an IP',
    });
    const restarted = await waitFor(
      async () =>
        ((p) =>
          p.status?.containerStatuses?.[0]?.restartCount === 1 && p.status.containerStatuses[0].state?.running
            ? p
            : undefined)(await getPod('crash')),
      { description: `Pod crash restarted once (${diagnostics()})`, timeoutMs: 60_000 },
    );
    expect(restarted.status?.phase).toBe('Running');
    expect(restarted.status?.podIP).toBe(firstIp);
    expect(restarted.status?.containerStatuses?.[0].lastState?.terminated?.exitCode).toBe(3);
    expect(isReady(restarted)).toBe(true);
  });
});
