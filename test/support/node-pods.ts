// Test helpers for the node tier: the nodes' facts from the cluster info, plain Pods from the locally
// imported images (imagePullPolicy Never), and what is left on the nodes (containerd's tasks).
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { adminHttp, clusterInfo, waitFor } from './cluster';
import type { NodeInfo } from '../../tools/local-stack/real-node/node-cluster';
import { pinnedToNode } from '../../tools/local-stack/real-node/node-ops';
import { importImages, resolveImages, type OnDemandImageName } from '../../tools/local-stack/node-images';

const run = promisify(execFile);

/** Every real node of the cluster, node 1 first. */
export function nodeInfos(): NodeInfo[] {
  const nodes = (clusterInfo() as { node?: NodeInfo[] }).node;
  if (!Array.isArray(nodes) || nodes.length === 0)
    throw new Error(
      'the cluster info has no `node` list: node-tier tests run on the cluster of test/support/node-global-setup.ts',
    );
  return nodes;
}

/** One node by name (default: node 1; what every node shares — kubectl, ctr, images — is the same on each). */
export function nodeInfo(name?: string): NodeInfo {
  const nodes = nodeInfos();
  const node = name === undefined ? nodes[0] : nodes.find((n) => n.name === name);
  if (!node) throw new Error(`no real node ${name} (nodes: ${nodes.map((n) => n.name).join(', ')})`);
  return node;
}

/** The reference of a locally imported image by its build name (pause, seatunnel, runtime, toolbox). */
export function imageRef(name: string): string {
  const ref = nodeInfo().images.find((i) => i.name === name)?.ref;
  if (!ref)
    throw new Error(
      `no image named ${name} was imported on the node (have: ${nodeInfo()
        .images.map((i) => i.name)
        .join(', ')})`,
    );
  return ref;
}

export interface PodSpecOptions {
  labels?: Record<string, string>;
  memory?: string;
  cpu?: string;
  restartPolicy?: 'Never' | 'Always';
  /** Only on this node (its hostname label). */
  node?: string;
}

/** A one-container Pod from a local image, small Guaranteed resources. */
export function podObject(
  name: string,
  image: string,
  command: string[],
  opts: PodSpecOptions = {},
): Record<string, unknown> {
  const resources = { cpu: opts.cpu ?? '50m', memory: opts.memory ?? '128Mi' };
  const pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, labels: opts.labels ?? {} },
    spec: {
      restartPolicy: opts.restartPolicy ?? 'Never',
      terminationGracePeriodSeconds: 2,
      automountServiceAccountToken: false,
      containers: [
        {
          name: 'main',
          image,
          imagePullPolicy: 'Never',
          command,
          resources: { requests: resources, limits: resources },
        },
      ],
    },
  };
  return opts.node ? pinnedToNode(pod, opts.node) : pod;
}

interface PodStatus {
  phase?: string;
  podIP?: string;
  containerStatuses?: Array<{
    state?: { terminated?: { exitCode: number; reason?: string } };
    lastState?: { terminated?: { exitCode: number; reason?: string } };
  }>;
}

export async function getPod(ns: string, name: string): Promise<{ status?: PodStatus; metadata: { uid: string } }> {
  return adminHttp().call('GET', `/api/v1/namespaces/${ns}/pods/${name}`);
}

export async function podLog(ns: string, name: string, container?: string): Promise<string> {
  const r = await adminHttp().request(
    'GET',
    `/api/v1/namespaces/${ns}/pods/${name}/log${container ? `?container=${container}` : ''}`,
  );
  return r.text;
}

/** Runs a Pod to completion; resolves with its phase, exit code and log. */
export async function runPod(
  ns: string,
  name: string,
  image: string,
  command: string[],
  opts: PodSpecOptions & { timeoutMs?: number } = {},
): Promise<{ phase: string; exitCode: number | undefined; reason: string | undefined; log: string }> {
  await adminHttp().call('POST', `/api/v1/namespaces/${ns}/pods`, podObject(name, image, command, opts));
  const pod = await waitFor(
    async () => {
      const p = await getPod(ns, name);
      return p.status?.phase === 'Succeeded' || p.status?.phase === 'Failed' ? p : undefined;
    },
    { description: `Pod ${ns}/${name} to finish`, timeoutMs: opts.timeoutMs ?? 90_000, intervalMs: 250 },
  );
  const term = pod.status?.containerStatuses?.[0]?.state?.terminated;
  return { phase: pod.status!.phase!, exitCode: term?.exitCode, reason: term?.reason, log: await podLog(ns, name) };
}

/** Creates a long-running Pod and waits until it is Running with an IP. */
export async function startPod(
  ns: string,
  name: string,
  image: string,
  command: string[],
  opts: PodSpecOptions = {},
): Promise<{ ip: string }> {
  await adminHttp().call(
    'POST',
    `/api/v1/namespaces/${ns}/pods`,
    podObject(name, image, command, { restartPolicy: 'Always', ...opts }),
  );
  return waitFor(
    async () => {
      const p = await getPod(ns, name);
      return p.status?.phase === 'Running' && p.status.podIP ? { ip: p.status.podIP } : undefined;
    },
    { description: `Pod ${ns}/${name} Running`, timeoutMs: 90_000, intervalMs: 250 },
  );
}

/**
 * A service the tests run in the cluster as users run theirs: Pod `name` (labelled app=<name>, pinned to `node`,
 * non-root UID 1000, no API token) from a locally built image imported into that node on demand, a Service `name`
 * on `port` in front of it; resolves once the Pod is Ready, with its first container's ID.
 */
export async function startServicePod(
  ns: string,
  node: { name: string; ctr: string; containerdSocket: string },
  name: OnDemandImageName,
  port: number,
  container: Record<string, unknown>,
  volumes: unknown[],
  readyTimeoutMs = 120_000,
): Promise<{ containerId: string }> {
  await importImages(node.ctr, node.containerdSocket, await resolveImages({ names: [name] }));
  const [image] = await resolveImages({ names: [name], build: false });
  const create = (p: string, body: unknown) => adminHttp().call('POST', `/api/v1/namespaces/${ns}/${p}`, body);
  const labels = { app: name };
  await create('services', {
    metadata: { name },
    spec: { selector: labels, ports: [{ name, port, targetPort: port }] },
  });
  const pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, labels },
    spec: {
      automountServiceAccountToken: false,
      terminationGracePeriodSeconds: 5,
      securityContext: { runAsUser: 1000, runAsGroup: 1000, runAsNonRoot: true },
      containers: [
        { name, image: image.ref, imagePullPolicy: 'Never', ports: [{ name, containerPort: port }], ...container },
      ],
      volumes,
    },
  };
  await create('pods', pinnedToNode(pod, node.name));
  const { containerId } = await waitForPodReady(ns, name, readyTimeoutMs);
  if (!containerId) throw new Error(`${name} in ${ns} is Ready with no container ID in its status`);
  return { containerId };
}

/**
 * Waits until Pod `ns/name` is Ready; resolves with its address and its first container's ID. On a
 * timeout the error says why: the Pod's status and the last of what it printed.
 */
export async function waitForPodReady(
  ns: string,
  name: string,
  timeoutMs = 120_000,
): Promise<{ podIP?: string; containerId?: string }> {
  type PodView = {
    status?: {
      podIP?: string;
      conditions?: Array<{ type: string; status: string }>;
      containerStatuses?: Array<{ containerID?: string }>;
    };
  };
  const api = adminHttp();
  return waitFor(
    async () => {
      const p = await api.call<PodView>('GET', `/api/v1/namespaces/${ns}/pods/${name}`);
      if (!p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True')) return undefined;
      const containerId = p.status.containerStatuses?.[0]?.containerID?.replace(/^containerd:\/\//, '');
      return { podIP: p.status.podIP, containerId };
    },
    { description: `Pod ${ns}/${name} Ready`, timeoutMs, intervalMs: 500 },
  ).catch(async (e: Error) => {
    const p = await api.call<PodView>('GET', `/api/v1/namespaces/${ns}/pods/${name}`).catch((): PodView => ({}));
    const log = await podLog(ns, name).catch((err: Error) => `(no log: ${err.message})`);
    throw new Error(`${e.message}; Pod status: ${JSON.stringify(p.status)}; log: ${log.slice(-2000)}`, { cause: e });
  });
}

/** IDs of containerd's containers (Pod sandboxes and containers) on every node, optionally only a Pod's (by UID label). */
export async function nodeContainers(podUid?: string): Promise<string[]> {
  const filter = podUid ? ['labels."io.kubernetes.pod.uid"==' + podUid] : [];
  const perNode = await Promise.all(
    nodeInfos().map(async (node) => {
      const { stdout } = await run(node.ctr, [
        '--address',
        node.containerdSocket,
        '-n',
        'k8s.io',
        'containers',
        'ls',
        '-q',
        ...filter,
      ]);
      return stdout.split('\n').filter(Boolean);
    }),
  );
  return perNode.flat();
}

/** A bash command that tries a TCP connection and prints OPEN or CLOSED (bash's /dev/tcp; no extra tools in the image). */
export function tcpProbe(host: string, port: number, seconds = 3): string[] {
  return [
    'bash',
    '-c',
    `if timeout ${seconds} bash -c 'exec 3<>/dev/tcp/${host}/${port}' 2>/tmp/err; then echo OPEN; else echo "CLOSED $(cat /tmp/err)"; fi`,
  ];
}

/** A streaming job with parallelism 1 and no end: it stays RUNNING (checkpointing) until cancelled. */
export const STREAMING_JOB = `env { job.mode = "STREAMING", parallelism = 1, checkpoint.interval = 3000 }
source { FakeSource { result_table_name = "fake", row.num = 5, split.num = 1, split.read-interval = 1000, schema { fields { name = "string" } } } }
sink { Console { source_table_name = "fake" } }
`;

interface EndpointSliceLike {
  endpoints?: Array<{
    addresses: string[];
    conditions?: { ready?: boolean; serving?: boolean; terminating?: boolean };
    targetRef?: { name?: string };
  }>;
}
interface EventLike {
  lastTimestamp?: string;
  eventTime?: string;
  reason?: string;
  message?: string;
  involvedObject?: { kind?: string; name?: string };
}

/**
 * What stands between a Pod and a Service, as text for a failed test: the endpoints with their
 * conditions, the Pods behind them, the namespace's Warning Events, each node's NAT rules for the
 * cluster IP and its kube-proxy's last lines. A ClusterIP with no rule answers "network unreachable"
 * on this node (no default route), so the rules say whether kube-proxy or the endpoints are missing.
 */
export async function serviceDiagnosis(ns: string, service: string): Promise<string> {
  const out: string[] = [`--- diagnosis of Service ${ns}/${service}`];
  const attempt = async (what: string, f: () => Promise<void>) => {
    try {
      await f();
    } catch (e) {
      out.push(`${what}: ${(e as Error).message}`);
    }
  };
  let clusterIP = '';
  await attempt('service', async () => {
    const s = await adminHttp().call<{ spec: { clusterIP: string; selector?: Record<string, string> } }>(
      'GET',
      `/api/v1/namespaces/${ns}/services/${service}`,
    );
    clusterIP = s.spec.clusterIP;
    out.push(`clusterIP ${clusterIP}`);
    const selector = Object.entries(s.spec.selector ?? {})
      .map(([k, v]) => `${k}=${v}`)
      .join(',');
    const pods = await adminHttp().call<{
      items: Array<{
        metadata: { name: string };
        status?: {
          podIP?: string;
          phase?: string;
          conditions?: Array<{ type: string; status: string; lastTransitionTime?: string }>;
          containerStatuses?: Array<{ restartCount: number }>;
        };
      }>;
    }>('GET', `/api/v1/namespaces/${ns}/pods?labelSelector=${encodeURIComponent(selector)}`);
    for (const p of pods.items) {
      const ready = p.status?.conditions?.find((c) => c.type === 'Ready');
      out.push(
        `pod ${p.metadata.name} ${p.status?.phase} ip=${p.status?.podIP} Ready=${ready?.status} since ${ready?.lastTransitionTime} restarts=${p.status?.containerStatuses?.[0]?.restartCount}`,
      );
    }
  });
  await attempt('endpoint slices', async () => {
    const slices = await adminHttp().call<{ items: EndpointSliceLike[] }>(
      'GET',
      `/apis/discovery.k8s.io/v1/namespaces/${ns}/endpointslices?labelSelector=${encodeURIComponent(`kubernetes.io/service-name=${service}`)}`,
    );
    for (const s of slices.items)
      for (const e of s.endpoints ?? [])
        out.push(`endpoint ${e.addresses.join(',')} ${e.targetRef?.name} ${JSON.stringify(e.conditions)}`);
  });
  await attempt('events', async () => {
    const events = await adminHttp().call<{ items: EventLike[] }>(
      'GET',
      `/api/v1/namespaces/${ns}/events?fieldSelector=type%3DWarning`,
    );
    for (const e of events.items.slice(-15))
      out.push(
        `event ${e.lastTimestamp ?? e.eventTime} ${e.involvedObject?.kind}/${e.involvedObject?.name} ${e.reason}: ${e.message}`,
      );
  });
  for (const node of nodeInfos()) {
    await attempt(`nat rules on ${node.name}`, async () => {
      const { stdout } = await run('ip', ['netns', 'exec', node.netns, 'iptables-save', '-t', 'nat']);
      const chains = new Set(
        stdout
          .split('\n')
          .filter((l) => clusterIP && l.includes(clusterIP))
          .flatMap((l) => /-j (KUBE-SVC-\S+)/.exec(l)?.[1] ?? []),
      );
      const rules = stdout
        .split('\n')
        .filter((l) => (clusterIP && l.includes(clusterIP)) || [...chains].some((c) => l.startsWith(`-A ${c} `)));
      out.push(`nat rules for ${clusterIP} on ${node.name}:`, ...(rules.length ? rules : ['(none)']));
    });
    await attempt(`kube-proxy log on ${node.name}`, async () => {
      const log = await fs.promises.readFile(path.join(clusterInfo().logDir, `${node.name}-kube-proxy.log`), 'utf8');
      out.push(`kube-proxy log on ${node.name} (last lines):`, ...log.trimEnd().split('\n').slice(-10));
    });
  }
  return out.join('\n');
}
