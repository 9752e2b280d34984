// Removes everything a real node made, whether its owner stops it or died: every process of the node
// (node-processes.ts: its daemons, containerd's shims, every process in its cgroup tree), mounts under
// the node directory (the Pods' network namespaces among them), the cgroups, the node's network
// namespace (with the bridge, veths, iptables chains — a cut-off's among them — and ipsets inside it)
// and its links in /var/log/containers; and a cluster's fabric namespace. Each node records what it
// made in a state file under /run/seatunnel-app/nodes, each fabric under /run/seatunnel-app/fabrics;
// a later start reaps those whose owner process is gone.
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { processStartTime, type ManagedProcess } from '../process';
import { waitFor } from '../wait';
import { removeCgroupRoot } from './cgroups';
import { deleteFabric } from './fabric';
import { deleteNamespace, namespacePlan } from './network-namespace';
import { killNode, netnsProcesses, signalAll } from './node-processes';

const run = promisify(execFile);
const STATE_DIR = '/run/seatunnel-app/nodes';
// Apart from the nodes' files: a harness of an older version reads every file in STATE_DIR as a node.
const FABRIC_STATE_DIR = '/run/seatunnel-app/fabrics';

export interface NodeState {
  block: number;
  netns: string;
  dir: string;
  cgroupRoot: string;
  containerdSocket: string;
  ctr: string;
  ownerPid: number;
  ownerStart: string;
}

/** Recording and removing one kind of state file, `<dir>/<name>.json`. */
function stateFiles<T>(dir: string, name: (s: T) => string) {
  const file = (s: T) => path.join(dir, `${name(s)}.json`);
  return {
    record: (s: T): void => {
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(file(s), JSON.stringify(s, null, 2));
    },
    remove: (s: T): void => fs.rmSync(file(s), { force: true }),
  };
}

const nodeStateFiles = stateFiles<NodeState>(STATE_DIR, (s) => String(s.block));
export const recordNodeState = nodeStateFiles.record;
export const removeNodeState = nodeStateFiles.remove;

/** The state files in `dir` whose owner process is gone (PID and kernel start time: a reused PID does not count). */
function ownerlessStates<T extends { ownerPid: number; ownerStart: string }>(dir: string): T[] {
  let files: string[];
  try {
    files = fs.readdirSync(dir).filter((f) => f.endsWith('.json'));
  } catch {
    return [];
  }
  const out: T[] = [];
  for (const f of files) {
    try {
      const state = JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')) as T;
      if (processStartTime(state.ownerPid) !== state.ownerStart) out.push(state);
    } catch {
      /* half-written or removed meanwhile */
    }
  }
  return out;
}

/**
 * Tears down the nodes, then the fabrics, whose owning process is gone (a crashed test run or
 * `npm run node-cluster`). A cluster whose owner lives is never touched.
 */
export async function reapStaleNodes(log: (l: string) => void): Promise<void> {
  for (const state of ownerlessStates<NodeState>(STATE_DIR)) {
    log(`removing node ${state.netns} left by process ${state.ownerPid}, which is gone`);
    await teardownNode(state, { log });
    fs.rmSync(state.dir, { recursive: true, force: true });
    // The control plane's directory around it, once empty (its watchdog could not remove it while mounts were in it).
    try {
      if (path.basename(path.dirname(state.dir)).startsWith('seatunnel-app-cp-')) fs.rmdirSync(path.dirname(state.dir));
    } catch {
      /* not empty (another node of it is still to go), or gone */
    }
    removeNodeState(state);
  }
  for (const state of ownerlessStates<FabricState>(FABRIC_STATE_DIR)) {
    log(`removing fabric ${state.netns} left by process ${state.ownerPid}, which is gone`);
    await teardownFabric(state);
    removeFabricState(state);
  }
}

/** Mount points at or under `dir`, deepest first (from this process's mount table). */
function mountsUnder(dir: string): string[] {
  const unescape = (s: string) => s.replace(/\\(\d{3})/g, (_, o: string) => String.fromCharCode(parseInt(o, 8)));
  const points = fs
    .readFileSync('/proc/self/mountinfo', 'utf8')
    .split('\n')
    .map((l) => l.split(' ')[4])
    .filter((p): p is string => p !== undefined)
    .map(unescape)
    .filter((p) => p === dir || p.startsWith(`${dir}/`));
  return [...new Set(points)].sort((a, b) => b.length - a.length);
}

async function unmount(point: string): Promise<void> {
  await run('umount', [point]).catch(() => run('umount', ['-l', point]).catch(() => undefined));
}

export interface TeardownOptions {
  /** The node's supervised processes, when its owner is the one stopping it. */
  processes?: readonly ManagedProcess[];
  log: (l: string) => void;
}

export async function teardownNode(state: NodeState, opts: TeardownOptions): Promise<void> {
  const { log } = opts;
  // Everything at once (daemons, shims, containers, a frozen node's stopped processes too): nothing
  // is left to restart what is being removed.
  const exits = (opts.processes ?? []).map((p) => p.kill());
  await killNode({ netns: state.netns, cgroupRoot: state.cgroupRoot, containerdSocket: state.containerdSocket }).catch(
    (e: Error) => log(e.message),
  );
  await Promise.all(exits);
  // Container root filesystems, kubelet volumes and the Pods' network namespaces (containerd keeps
  // those under its state directory: netns_mounts_under_state_dir).
  for (const m of mountsUnder(state.dir)) await unmount(m);
  const left = removeCgroupRoot(state.cgroupRoot);
  if (left.length > 0) log(`cgroups not removed (still busy): ${left.join(', ')}`);
  await deleteNamespace(namespacePlan(state.block));
  removeContainerLogLinks(state.dir);
  const stillMounted = mountsUnder(state.dir);
  if (stillMounted.length > 0) log(`mounts left under ${state.dir}: ${stillMounted.join(', ')}`);
}

/**
 * Every kubelet on the machine links its containers' logs into /var/log/containers (the path is
 * fixed); a killed node leaves its links there. Removes the ones that point into `dir`.
 */
function removeContainerLogLinks(dir: string, linkDir = '/var/log/containers'): void {
  let names: string[];
  try {
    names = fs.readdirSync(linkDir);
  } catch {
    return;
  }
  for (const n of names) {
    const link = path.join(linkDir, n);
    try {
      if (fs.readlinkSync(link).startsWith(`${dir}/`)) fs.rmSync(link, { force: true });
    } catch {
      /* not a link, or gone */
    }
  }
}

/** What a cluster's fabric (fabric.ts) leaves for a reaper: the namespace and who owns it. */
export interface FabricState {
  netns: string;
  ownerPid: number;
  ownerStart: string;
}

const fabricStateFiles = stateFiles<FabricState>(FABRIC_STATE_DIR, (s) => s.netns);
export const recordFabricState = fabricStateFiles.record;
export const removeFabricState = fabricStateFiles.remove;

/** Kills what runs in the fabric namespace (the API relay) and deletes it (the bridge goes with it). */
export async function teardownFabric(state: FabricState): Promise<void> {
  signalAll(netnsProcesses(state.netns), 'SIGKILL');
  await waitFor(() => netnsProcesses(state.netns).length === 0, {
    description: `the processes in ${state.netns} to exit after SIGKILL`,
    timeoutMs: 10_000,
    intervalMs: 100,
  }).catch(() => undefined);
  await deleteFabric({ name: state.netns });
}
