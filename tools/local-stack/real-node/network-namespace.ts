// The node's own network namespace: loopback, one veth pair to the host (a /30: the host side
// reaches the kubelet, the namespace side is the node's address) and, once Pods exist, the CNI
// bridge. It gets no default route and the host gets a route to nothing but that /30, so a Pod's
// packet to anywhere else ends in "network unreachable" inside the namespace and never reaches a
// wire. Deleting the namespace removes the bridge, the veths, the iptables chains and ipsets of
// kube-proxy and kube-router with it.
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface NamespacePlan {
  /** `ip netns` name, e.g. seatunnel-node-37. */
  name: string;
  /** Interface names (at most 15 characters). */
  hostVeth: string;
  nodeVeth: string;
  /** Host side and namespace side of the /30. */
  hostAddress: string;
  nodeAddress: string;
}

/** Addresses and names for address block `block` (1-250): 10.247.<block>.0/30. */
export function namespacePlan(block: number): NamespacePlan {
  if (!Number.isInteger(block) || block < 1 || block > 250)
    throw new Error(`namespace block must be a whole number from 1 to 250, got ${block}`);
  return {
    name: `seatunnel-node-${block}`,
    hostVeth: `stnode${block}h`,
    nodeVeth: `stnode${block}n`,
    hostAddress: `10.247.${block}.1`,
    nodeAddress: `10.247.${block}.2`,
  };
}

export function netnsPath(plan: NamespacePlan): string {
  return `/run/netns/${plan.name}`;
}

/** argv prefix that runs a command inside the namespace (network only: mounts stay shared with the host, as the kubelet and containerd need). */
export function inNamespace(plan: NamespacePlan): string[] {
  return ['nsenter', `--net=${netnsPath(plan)}`, '--'];
}

/** The commands that create the namespace, in order (pure, for tests and for the error messages). */
export function setupCommands(plan: NamespacePlan): string[][] {
  const ns = ['ip', '-n', plan.name];
  const sysctl = (kv: string) => [...inNamespace(plan), 'sysctl', '-q', '-w', kv];
  return [
    ['ip', 'netns', 'add', plan.name],
    [...ns, 'link', 'set', 'lo', 'up'],
    ['ip', 'link', 'add', plan.hostVeth, 'type', 'veth', 'peer', 'name', plan.nodeVeth, 'netns', plan.name],
    ['ip', 'addr', 'add', `${plan.hostAddress}/30`, 'dev', plan.hostVeth],
    ['ip', 'link', 'set', plan.hostVeth, 'up'],
    [...ns, 'addr', 'add', `${plan.nodeAddress}/30`, 'dev', plan.nodeVeth],
    [...ns, 'link', 'set', plan.nodeVeth, 'up'],
    // Forwarding between the Pods' bridge and the node's own addresses only (there is no other route).
    sysctl('net.ipv4.ip_forward=1'),
    // kube-proxy's Service rules and kube-router's policy rules see bridged Pod-to-Pod traffic.
    sysctl('net.bridge.bridge-nf-call-iptables=1'),
  ];
}

async function exec(argv: string[]): Promise<void> {
  try {
    await run(argv[0], argv.slice(1), { maxBuffer: 1024 * 1024 });
  } catch (e) {
    const err = e as Error & { stderr?: string };
    throw new Error(`network namespace step failed: ${argv.join(' ')}: ${(err.stderr || err.message).trim()}`, {
      cause: e,
    });
  }
}

export function namespaceExists(plan: NamespacePlan): boolean {
  return fs.existsSync(netnsPath(plan));
}

/** Creates the namespace; on a failed step removes what was made and throws naming the step. */
export async function createNamespace(plan: NamespacePlan): Promise<void> {
  if (namespaceExists(plan))
    throw new Error(
      `network namespace ${plan.name} already exists (another node on block ${plan.name.split('-').pop()}, or a leftover: \`ip netns delete ${plan.name}\`)`,
    );
  try {
    for (const argv of setupCommands(plan)) await exec(argv);
  } catch (e) {
    await deleteNamespace(plan);
    throw e;
  }
}

/** Deletes the namespace (and with it the veth pair, bridge, iptables chains and ipsets inside). Idempotent. */
export async function deleteNamespace(plan: NamespacePlan): Promise<void> {
  if (namespaceExists(plan)) await exec(['ip', 'netns', 'delete', plan.name]);
  // A veth whose peer was in the namespace goes with it; a half-made pair may not have.
  await run('ip', ['link', 'delete', plan.hostVeth]).catch(() => undefined);
}

/** Blocks whose namespace exists on this machine (to pick a free one). */
export function blocksInUse(): Set<number> {
  let names: string[] = [];
  try {
    names = fs.readdirSync('/run/netns');
  } catch {
    /* no namespaces yet */
  }
  return new Set(
    names
      .map((n) => /^seatunnel-node-(\d+)$/.exec(n)?.[1])
      .filter((b): b is string => b !== undefined)
      .map(Number),
  );
}
