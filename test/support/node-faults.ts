// Node faults for node-tier tests: a handle per real node (its facts and its faults, run by the
// process that owns the cluster through its control endpoint), the API server's outage, the node
// operations of tools/local-stack/real-node/node-ops.ts as the admin, and commands run inside a
// node's network namespace (what a process on that machine sees).
//
//   const [n1, n2, n3] = clusterNodes();
//   await n2.cutOff(); await waitForNode(n2.name, 'Unknown'); await n2.heal();
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { remoteFaults, type ApiServerFaults } from '../../tools/local-stack/real-node/node-control';
import * as ops from '../../tools/local-stack/real-node/node-ops';
import type { NodeFaults, NodeInfo } from '../../tools/local-stack/real-node/real-node';
import { adminHttp, clusterInfo } from './cluster';
import { nodeInfos } from './node-pods';

const run = promisify(execFile);

export type NodeHandle = NodeInfo & NodeFaults;

function faults() {
  const { control } = clusterInfo();
  if (!control)
    throw new Error(
      'this node cluster has no control endpoint (started outside node-global-setup / npm run node-cluster?)',
    );
  return remoteFaults(control);
}

/** Every real node, node 1 first, with its faults. */
export function clusterNodes(): NodeHandle[] {
  const f = faults();
  return nodeInfos().map((info) => ({ ...info, ...f.node(info.name) }));
}

/** The API server's outage: only kube-apiserver goes away, and comes back on the same address and port. */
export function apiServer(): ApiServerFaults {
  return faults().apiServer;
}

export const waitForNode = (node: string, want: 'Ready' | 'NotReady' | 'Unknown', timeoutMs?: number) =>
  ops.waitForNode(adminHttp(), node, want, timeoutMs);
export const setOutOfService = (node: string) => ops.setOutOfService(adminHttp(), node);
export const clearOutOfService = (node: string) => ops.clearOutOfService(adminHttp(), node);
export const deleteNodeObject = (node: string) => ops.deleteNodeObject(adminHttp(), node);
export const nodeOfPod = (namespace: string, pod: string) => ops.nodeOfPod(adminHttp(), namespace, pod);
export const podsOnNode = (node: string, namespace?: string) => ops.podsOnNode(adminHttp(), node, namespace);
export const { pinnedToNode, ZONE_LABEL, HOSTNAME_LABEL } = ops;

/** Runs a command in a node's network namespace (as a process on that machine); resolves with stdout. */
export async function execInNode(node: Pick<NodeInfo, 'netns'>, argv: string[], timeoutMs = 30_000): Promise<string> {
  const { stdout } = await run('ip', ['netns', 'exec', node.netns, ...argv], { timeout: timeoutMs });
  return stdout;
}

/**
 * An HTTP GET from inside a node's namespace (bash's /dev/tcp; the host has no route to Pod
 * addresses): the body, or "NO ANSWER: ..." when nothing answered within `seconds`.
 */
export async function httpFromNode(node: Pick<NodeInfo, 'netns'>, host: string, port: number, seconds = 3) {
  return httpGetFromNode(node, host, port, '/', seconds);
}

/** httpFromNode for `path` (which must need no quoting: percent-encode a query). */
export async function httpGetFromNode(
  node: Pick<NodeInfo, 'netns'>,
  host: string,
  port: number,
  path: string,
  seconds = 3,
) {
  if (!/^\/[A-Za-z0-9._~%&=?/:+-]*$/.test(path)) throw new Error(`httpGetFromNode: path ${path} needs quoting`);
  const script = `exec 3<>/dev/tcp/${host}/${port} && printf 'GET %s HTTP/1.0\\r\\n\\r\\n' '${path}' >&3 && cat <&3`;
  try {
    const out = await execInNode(node, ['timeout', String(seconds), 'bash', '-c', script], (seconds + 5) * 1000);
    return out.split('\r\n\r\n').slice(1).join('\r\n\r\n') || `NO ANSWER: empty reply`;
  } catch (e) {
    return `NO ANSWER: ${((e as { stderr?: string }).stderr || (e as Error).message).trim().split('\n').pop()}`;
  }
}

/**
 * The node that runs `namespace/pod`: its facts (containerd's socket among them), not its faults, so
 * that a process without the cluster's control endpoint (bench/faults owns its cluster) can use it.
 */
export async function nodeInfoOfPod(namespace: string, pod: string): Promise<NodeInfo> {
  const name = await nodeOfPod(namespace, pod);
  const node = nodeInfos().find((n) => n.name === name);
  if (!node) throw new Error(`Pod ${namespace}/${pod} is on ${name ?? 'no node'}, not on one of the real nodes`);
  return node;
}

/**
 * Kills a Pod's first container with SIGKILL on the node that runs it (containerd's own task kill:
 * a crash as the kubelet sees one, exit code 137, no SIGTERM first).
 */
export async function killContainer(
  namespace: string,
  pod: { metadata: { name: string }; status?: { containerStatuses?: Array<{ containerID?: string }> } },
): Promise<void> {
  const id = pod.status?.containerStatuses?.[0]?.containerID?.replace(/^containerd:\/\//, '');
  if (!id) throw new Error(`Pod ${pod.metadata.name} has no running container to kill`);
  const node = await nodeInfoOfPod(namespace, pod.metadata.name);
  await ctrOnNode(node, ['tasks', 'kill', '-s', 'SIGKILL', id]);
}

type ContainerdOf = Pick<NodeInfo, 'ctr' | 'containerdSocket'>;

/** containerd's `ctr` on a node, in the kubelet's namespace; resolves with stdout. */
async function ctrOnNode(node: ContainerdOf, args: string[], o: { timeoutMs?: number; input?: string } = {}) {
  const pending = run(node.ctr, ['--address', node.containerdSocket, '-n', 'k8s.io', ...args], {
    timeout: o.timeoutMs ?? 30_000,
    maxBuffer: 64 * 1024 * 1024,
  });
  // An exec's stdin is ours: what it reads, then its end (a command that reads stdin does not wait forever).
  pending.child.stdin?.end(o.input ?? '');
  return (await pending).stdout;
}

let execs = 0;

/**
 * Runs `argv` inside a running container (containerd's exec: the container's user, namespaces and
 * cgroup), `input` on its stdin; resolves with stdout, rejects as execFile does (`code`, `stderr`).
 */
export function execInContainer(
  node: ContainerdOf,
  containerId: string,
  argv: string[],
  o: { timeoutMs?: number; input?: string } = {},
): Promise<string> {
  return ctrOnNode(node, ['tasks', 'exec', '--exec-id', `test-${process.pid}-${++execs}`, containerId, ...argv], o);
}

/**
 * Has the kernel's OOM killer end a Pod's first container, as a leak in it would: inside the container
 * (containerd's exec, as the container's user) its Java processes are made the OOM killer's first choice
 * (oom_score_adj 1000: a process may raise it for its own user's processes), then a process grows without
 * bound (`tail` holding one endless line) until the container's memory cgroup is full. The kernel kills the
 * JVM; the container ends OOMKilled with exit code 137, and the growing process goes with it. Resolves when
 * the exec has ended.
 */
export async function oomKillContainer(
  namespace: string,
  pod: { metadata: { name: string }; status?: { containerStatuses?: Array<{ containerID?: string }> } },
): Promise<void> {
  const id = pod.status?.containerStatuses?.[0]?.containerID?.replace(/^containerd:\/\//, '');
  if (!id) throw new Error(`Pod ${pod.metadata.name} has no running container to OOM-kill`);
  const node = await nodeInfoOfPod(namespace, pod.metadata.name);
  // By the executable, not the command line: this shell's own command line says "java".
  const script = [
    'marked=0',
    'for p in /proc/[0-9]*; do case "$(readlink "$p/exe" 2>/dev/null)" in',
    '  */java) echo 1000 > "$p/oom_score_adj" && marked=$((marked + 1)) ;; esac; done',
    '[ "$marked" -gt 0 ] || { echo "no java process in the container" >&2; exit 3; }',
    'head -c 64G /dev/zero | tail',
  ].join('\n');
  try {
    await execInContainer(node, id, ['sh', '-c', script], { timeoutMs: 120_000 });
  } catch (e) {
    const err = e as { code?: number; stderr?: string };
    // The exec dies with the container (the point); a container with no JVM to mark is a wrong target.
    if (err.code === 3)
      throw new Error(`${pod.metadata.name}: ${err.stderr?.trim() || 'no java process marked'}`, { cause: e });
  }
}
