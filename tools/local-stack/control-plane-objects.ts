// The control plane's objects and files, built without side effects where possible: fake nodes for
// kwok, kubeconfigs, the scheduler's config version, the cluster's address ranges.
import type { KubeHttp } from '../../test/support/kube-http';
import { KWOK_NODE_ANNOTATION, KWOK_NODE_ANNOTATION_VALUE } from './kwok-stages';
import { waitFor } from './wait';

export interface Taint {
  key: string;
  value?: string;
  effect: 'NoSchedule' | 'PreferNoSchedule' | 'NoExecute';
}

export interface FakeNodeOptions {
  /** Allocatable = capacity. Defaults: 32 CPU, 128Gi memory, 110 Pods. */
  cpu?: string;
  memory?: string;
  pods?: string;
  ephemeralStorage?: string;
  labels?: Record<string, string>;
  taints?: Taint[];
}

export const DEFAULT_NODE: Required<Omit<FakeNodeOptions, 'labels' | 'taints'>> = {
  cpu: '32',
  memory: '128Gi',
  pods: '110',
  ephemeralStorage: '1Ti',
};

export const SERVICE_CIDR = '10.96.0.0/16';
/** The Pod range: kwok's fake Pod IPs, and the real nodes' per-node /24s (allocateNodeCidrs). */
export const POD_CIDR = '10.244.0.0/16';

export function kubeconfigYaml(opts: {
  server: string;
  caData: string;
  user: string;
  certData?: string;
  keyData?: string;
  token?: string;
  namespace?: string;
}): string {
  const b64 = (s: string) => Buffer.from(s).toString('base64');
  const user: Record<string, string> = {};
  if (opts.certData) user['client-certificate-data'] = b64(opts.certData);
  if (opts.keyData) user['client-key-data'] = b64(opts.keyData);
  if (opts.token) user.token = opts.token;
  const doc = {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [
      { name: 'seatunnel-app-test', cluster: { server: opts.server, 'certificate-authority-data': b64(opts.caData) } },
    ],
    users: [{ name: opts.user, user }],
    contexts: [
      {
        name: opts.user,
        context: {
          cluster: 'seatunnel-app-test',
          user: opts.user,
          ...(opts.namespace ? { namespace: opts.namespace } : {}),
        },
      },
    ],
    'current-context': opts.user,
  };
  // JSON is valid YAML, and every kubeconfig loader accepts it.
  return JSON.stringify(doc, null, 2) + '\n';
}

/** The Node object the harness creates for a kwok-managed fake node. */
export function fakeNodeObject(name: string, opts: FakeNodeOptions = {}, internalIp?: string): Record<string, unknown> {
  const resources = {
    cpu: opts.cpu ?? DEFAULT_NODE.cpu,
    memory: opts.memory ?? DEFAULT_NODE.memory,
    pods: opts.pods ?? DEFAULT_NODE.pods,
    'ephemeral-storage': opts.ephemeralStorage ?? DEFAULT_NODE.ephemeralStorage,
  };
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name,
      annotations: { [KWOK_NODE_ANNOTATION]: KWOK_NODE_ANNOTATION_VALUE, 'node.alpha.kubernetes.io/ttl': '0' },
      labels: {
        'kubernetes.io/arch': 'amd64',
        'kubernetes.io/os': 'linux',
        'kubernetes.io/hostname': name,
        'node-role.kubernetes.io/agent': '',
        type: 'kwok',
        ...opts.labels,
      },
    },
    spec: { taints: opts.taints ?? [] },
    // kube-node creation keeps status (as the kubelet's registration does); kwok's node-initialize
    // stage keeps capacity/allocatable/addresses that are already set.
    status: {
      capacity: resources,
      allocatable: resources,
      ...(internalIp
        ? {
            addresses: [
              { type: 'InternalIP', address: internalIp },
              { type: 'Hostname', address: name },
            ],
          }
        : {}),
    },
  };
}

/** The newest KubeSchedulerConfiguration version a scheduler of this minor reads (v1 is GA from 1.25). */
export function schedulerConfigApiVersion(minor: number): string {
  return minor >= 25 ? 'kubescheduler.config.k8s.io/v1' : 'kubescheduler.config.k8s.io/v1beta3';
}

export async function createFakeNode(
  admin: KubeHttp,
  name: string,
  opts: FakeNodeOptions = {},
  internalIp?: string,
): Promise<void> {
  await admin.call('POST', '/api/v1/nodes', fakeNodeObject(name, opts, internalIp));
}

export async function waitForNodesReady(
  admin: KubeHttp,
  names: string[],
  timeoutMs: number,
  guard?: () => void,
): Promise<void> {
  await waitFor(
    async () => {
      const list = await admin.call<{
        items: Array<{ metadata: { name: string }; status?: { conditions?: Array<{ type: string; status: string }> } }>;
      }>('GET', '/api/v1/nodes');
      const ready = new Set(
        list.items
          .filter((n) => n.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True'))
          .map((n) => n.metadata.name),
      );
      const missing = names.filter((n) => !ready.has(n));
      if (missing.length > 0) throw new Error(`not Ready yet: ${missing.join(', ')}`);
      return true;
    },
    {
      description: `nodes ${names.join(', ')} to become Ready (kwok node-initialize stage)`,
      timeoutMs,
      guard,
      intervalMs: 300,
    },
  );
}

/** Resolves once /readyz answers 200; otherwise throws with the failing checks (`[-]` lines). */
export async function apiServerReady(admin: KubeHttp): Promise<true> {
  const r = await admin.request('GET', '/readyz', undefined, { timeoutMs: 5000 });
  if (r.status !== 200)
    throw new Error(
      `HTTP ${r.status}: ${
        r.text
          .split('\n')
          .filter((l) => l.includes('[-]'))
          .join('; ') || r.text
      }`,
    );
  return true;
}
