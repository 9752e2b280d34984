// One Pod network across the nodes of a cluster: a "fabric" network namespace of its own holding a
// bridge (the switch between the nodes), one veth pair per node (`fabric0` inside the node), and
// static routes in every node to every other node's Pod subnet and node address. The fabric has no
// uplink and the host's ip_forward is never touched, so nothing routed here can leave the machine.
// The API server's relay for Pods and node components listens on the bridge (FABRIC_API_ADDRESS):
// it is on no node, so losing any one node leaves the API reachable for the others.
//
// Address plan: the fabric's addresses (10.248.0.0/24) and the Pod subnets exist only inside this
// cluster's own namespaces, so two clusters on one machine can use the same ones. What is visible
// machine-wide is named after the node's address block (network-namespace.ts): the namespaces
// (seatunnel-node-<B>, seatunnel-fabric-<B of node 1>) and the host's /30 per node.
import * as fs from 'node:fs';
import { createByCommands, runStep } from './network-namespace';

export const FABRIC_SUBNET_PREFIX = '10.248.0';
/** The bridge's own address: where the API relay for the whole cluster listens. */
export const FABRIC_API_ADDRESS = `${FABRIC_SUBNET_PREFIX}.254`;
/** The node's interface on the fabric (inside the node's namespace). */
export const FABRIC_IF = 'fabric0';
const BRIDGE = 'br0';
const MTU = '1400';

export interface FabricPlan {
  /** `ip netns` name, e.g. seatunnel-fabric-3 (named after the first node's block). */
  name: string;
}

/** One node as the fabric sees it. */
export interface FabricMember {
  /** 1-based position in the cluster (node 1, 2, ...): its fabric address is 10.248.0.<index>. */
  index: number;
  /** Address block of the node (network-namespace.ts): names its port on the bridge. */
  block: number;
  /** The node's network namespace. */
  netns: string;
  /** The node's own address (the namespace side of its host veth pair). */
  nodeAddress: string;
  /** The node's Pod subnet (spec.podCIDR), once the controller manager has given it one. */
  podCidr?: string;
}

export function fabricPlan(firstBlock: number): FabricPlan {
  return { name: `seatunnel-fabric-${firstBlock}` };
}

export function fabricAddress(index: number): string {
  if (!Number.isInteger(index) || index < 1 || index > 250)
    throw new Error(`fabric member index must be a whole number from 1 to 250, got ${index}`);
  return `${FABRIC_SUBNET_PREFIX}.${index}`;
}

/** The bridge's side of a node's veth pair (at most 15 characters). */
export function fabricPort(block: number): string {
  return `stfab${block}`;
}

export function fabricNetnsPath(plan: FabricPlan): string {
  return `/run/netns/${plan.name}`;
}

/** The commands that create the fabric namespace and its bridge, in order. */
export function fabricSetupCommands(plan: FabricPlan): string[][] {
  const ns = ['ip', '-n', plan.name];
  return [
    ['ip', 'netns', 'add', plan.name],
    [...ns, 'link', 'set', 'lo', 'up'],
    [...ns, 'link', 'add', BRIDGE, 'mtu', MTU, 'type', 'bridge'],
    [...ns, 'addr', 'add', `${FABRIC_API_ADDRESS}/24`, 'dev', BRIDGE],
    [...ns, 'link', 'set', BRIDGE, 'up'],
  ];
}

/** The commands that plug a node into the bridge: a veth pair, the node's fabric address, both ends up. */
export function attachCommands(plan: FabricPlan, m: FabricMember): string[][] {
  const port = fabricPort(m.block);
  const fab = ['ip', '-n', plan.name];
  const node = ['ip', '-n', m.netns];
  return [
    [...fab, 'link', 'add', port, 'mtu', MTU, 'type', 'veth', 'peer', 'name', FABRIC_IF, 'netns', m.netns],
    [...fab, 'link', 'set', port, 'master', BRIDGE],
    [...fab, 'link', 'set', port, 'up'],
    [...node, 'link', 'set', FABRIC_IF, 'mtu', MTU],
    [...node, 'addr', 'add', `${fabricAddress(m.index)}/24`, 'dev', FABRIC_IF],
    [...node, 'link', 'set', FABRIC_IF, 'up'],
  ];
}

/**
 * Routes between the members: in each node, every other node's Pod subnet and node address via
 * that node's fabric address (node addresses keep their own as source, so replies come back the
 * same way); in the fabric, every Pod subnet (the relay answers Pods). `replace`, so running it
 * again after a node got another subnet updates the routes. Members without a subnet yet get
 * only the node-address routes.
 */
export function routeCommands(plan: FabricPlan, members: FabricMember[]): string[][] {
  const out: string[][] = [];
  for (const m of members) {
    for (const other of members) {
      if (other === m) continue;
      const via = ['via', fabricAddress(other.index), 'dev', FABRIC_IF];
      if (other.podCidr) out.push(['ip', '-n', m.netns, 'route', 'replace', other.podCidr, ...via]);
      out.push(['ip', '-n', m.netns, 'route', 'replace', `${other.nodeAddress}/32`, ...via, 'src', m.nodeAddress]);
    }
    if (m.podCidr)
      out.push(['ip', '-n', plan.name, 'route', 'replace', m.podCidr, 'via', fabricAddress(m.index), 'dev', BRIDGE]);
  }
  return out;
}

export function fabricExists(plan: FabricPlan): boolean {
  return fs.existsSync(fabricNetnsPath(plan));
}

export async function createFabric(plan: FabricPlan): Promise<void> {
  if (fabricExists(plan))
    throw new Error(`network namespace ${plan.name} already exists (a leftover: \`ip netns delete ${plan.name}\`)`);
  await createByCommands(fabricSetupCommands(plan), () => deleteFabric(plan), 'fabric step');
}

export async function attachNode(plan: FabricPlan, m: FabricMember): Promise<void> {
  for (const argv of attachCommands(plan, m)) await runStep(argv, 'fabric step');
}

export async function applyRoutes(plan: FabricPlan, members: FabricMember[]): Promise<void> {
  for (const argv of routeCommands(plan, members)) await runStep(argv, 'fabric route');
}

/** Deletes the fabric namespace (the bridge and the bridge ends of the veth pairs go with it). Idempotent. */
export async function deleteFabric(plan: FabricPlan): Promise<void> {
  if (fabricExists(plan)) await runStep(['ip', 'netns', 'delete', plan.name], 'fabric step');
}
