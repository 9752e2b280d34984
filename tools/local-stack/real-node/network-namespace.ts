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
  /** The address block (1-250) everything machine-wide of this node is named after. */
  block: number;
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
    block,
    name: `seatunnel-node-${block}`,
    hostVeth: `stnode${block}h`,
    nodeVeth: `stnode${block}n`,
    hostAddress: `10.247.${block}.1`,
    nodeAddress: `10.247.${block}.2`,
  };
}

export function netnsPath(ns: { name: string }): string {
  return `/run/netns/${ns.name}`;
}

/**
 * argv prefix that runs a command inside a namespace (a node's or the fabric's; network only: mounts
 * stay shared with the host, as the kubelet and containerd need).
 */
export function inNamespace(ns: { name: string }): string[] {
  return ['nsenter', `--net=${netnsPath(ns)}`, '--'];
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

/** Runs one `ip`/`sysctl` step; a failure names the step and what the command said. */
export async function runStep(argv: string[], what = 'network namespace step'): Promise<void> {
  try {
    await run(argv[0], argv.slice(1), { maxBuffer: 1024 * 1024 });
  } catch (e) {
    const err = e as Error & { stderr?: string };
    throw new Error(`${what} failed: ${argv.join(' ')}: ${(err.stderr || err.message).trim()}`, { cause: e });
  }
}

export function namespaceExists(plan: NamespacePlan): boolean {
  return fs.existsSync(netnsPath(plan));
}

/**
 * Runs the commands that make a namespace: the first (`ip netns add`) is the claim, so if it fails
 * (another cluster took the name meanwhile) nothing is ours to remove; a later failure runs `undo`.
 */
export async function createByCommands(commands: string[][], undo: () => Promise<void>, what: string): Promise<void> {
  const [add, ...rest] = commands;
  await runStep(add, what);
  try {
    for (const argv of rest) await runStep(argv, what);
  } catch (e) {
    await undo();
    throw e;
  }
}

/** Creates the namespace; on a failed step removes what was made and throws naming the step. */
export async function createNamespace(plan: NamespacePlan): Promise<void> {
  if (namespaceExists(plan))
    throw new Error(
      `network namespace ${plan.name} already exists (another node on block ${plan.name.split('-').pop()}, or a leftover: \`ip netns delete ${plan.name}\`)`,
    );
  await createByCommands(setupCommands(plan), () => deleteNamespace(plan), 'network namespace step');
}

/**
 * Claims `count` free address blocks by creating their namespaces (the creation is the claim, so two
 * clusters starting at once never share a block), lowest free blocks first.
 */
export async function claimNamespaces(count: number): Promise<NamespacePlan[]> {
  const plans: NamespacePlan[] = [];
  try {
    for (let block = 1; block <= 250 && plans.length < count; block++) {
      if (blocksInUse().has(block)) continue;
      const plan = namespacePlan(block);
      try {
        await createNamespace(plan);
        plans.push(plan);
      } catch (e) {
        if (!namespaceExists(plan)) throw e;
      }
    }
    if (plans.length < count)
      throw new Error(`no ${count} free node address blocks (of 250; seatunnel-node-* namespaces in /run/netns)`);
    return plans;
  } catch (e) {
    for (const p of plans) await deleteNamespace(p);
    throw e;
  }
}

/** Deletes the namespace (and with it the veth pair, bridge, iptables chains and ipsets inside). Idempotent. */
export async function deleteNamespace(plan: NamespacePlan): Promise<void> {
  if (namespaceExists(plan)) await runStep(['ip', 'netns', 'delete', plan.name]);
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
