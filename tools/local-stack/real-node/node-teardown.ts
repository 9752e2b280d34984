// Removes everything a real node made, whether its owner stops it or died: Pod processes (every
// process in the node's cgroup tree), containerd's shims, mounts under the node directory (the Pods'
// network namespaces among them), the cgroups, and the node's network namespace (with the bridge, veths,
// iptables chains and ipsets inside it). Each node records what it made in a state file under
// /run/seatunnel-app/nodes; a later start reaps the nodes whose owner is gone.
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { processStartTime, type ManagedProcess } from '../process';
import { waitFor } from '../wait';
import { cgroupProcesses, removeCgroupRoot } from './cgroups';
import { deleteNamespace, namespacePlan } from './network-namespace';

const run = promisify(execFile);
const STATE_DIR = '/run/seatunnel-app/nodes';

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

const stateFile = (s: { block: number }) => path.join(STATE_DIR, `${s.block}.json`);

export function recordNodeState(state: NodeState): void {
  fs.mkdirSync(STATE_DIR, { recursive: true });
  fs.writeFileSync(stateFile(state), JSON.stringify(state, null, 2));
}

export function removeNodeState(state: NodeState): void {
  fs.rmSync(stateFile(state), { force: true });
}

/** Tears down the nodes whose owning process is gone (a crashed test run or dev cluster). */
export async function reapStaleNodes(log: (l: string) => void): Promise<void> {
  let files: string[];
  try {
    files = fs.readdirSync(STATE_DIR).filter((f) => f.endsWith('.json'));
  } catch {
    return;
  }
  for (const f of files) {
    let state: NodeState;
    try {
      state = JSON.parse(fs.readFileSync(path.join(STATE_DIR, f), 'utf8')) as NodeState;
    } catch {
      continue;
    }
    if (processStartTime(state.ownerPid) === state.ownerStart) continue;
    log(`removing node ${state.netns} left by process ${state.ownerPid}, which is gone`);
    await teardownNode(state, { log });
    fs.rmSync(state.dir, { recursive: true, force: true });
    removeNodeState(state);
  }
}

/** Processes whose command line names `needle` (containerd's shims carry the socket address). */
function processesMentioning(needle: string): number[] {
  const out: number[] = [];
  for (const e of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(e)) continue;
    try {
      if (fs.readFileSync(`/proc/${e}/cmdline`, 'utf8').includes(needle)) out.push(Number(e));
    } catch {
      /* gone */
    }
  }
  return out;
}

function kill(pids: number[], sig: NodeJS.Signals): void {
  for (const p of pids) {
    try {
      process.kill(p, sig);
    } catch {
      /* gone */
    }
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
  processes?: ManagedProcess[];
  log: (l: string) => void;
}

export async function teardownNode(state: NodeState, opts: TeardownOptions): Promise<void> {
  const { log } = opts;
  const byName = (...names: string[]) => (opts.processes ?? []).filter((p) => names.includes(p.name));
  // The kubelet first, so it does not restart what is being removed.
  await Promise.all(byName('kubelet').map((p) => p.stop(5000)));
  // The Pods: every process in the node's cgroup tree, and containerd's shims that watch them.
  kill(cgroupProcesses(state.cgroupRoot), 'SIGKILL');
  kill(processesMentioning(state.containerdSocket), 'SIGKILL');
  await waitFor(() => cgroupProcesses(state.cgroupRoot).length === 0, {
    description: `the processes in ${state.cgroupRoot} to exit after SIGKILL`,
    timeoutMs: 10_000,
    intervalMs: 100,
  }).catch((e: Error) => log(e.message));
  // Everything else that runs in the node's namespace (containerd, kube-proxy, kube-router, CoreDNS, relay).
  await Promise.all((opts.processes ?? []).map((p) => p.stop(3000)));
  const inNs = await run('ip', ['netns', 'pids', state.netns]).then(
    (r) => r.stdout.split('\n').filter(Boolean).map(Number),
    () => [] as number[],
  );
  kill(inNs, 'SIGKILL');
  // Container root filesystems, kubelet volumes and the Pods' network namespaces (containerd keeps
  // those under its state directory: netns_mounts_under_state_dir).
  for (const m of mountsUnder(state.dir)) await unmount(m);
  const left = removeCgroupRoot(state.cgroupRoot);
  if (left.length > 0) log(`cgroups not removed (still busy): ${left.join(', ')}`);
  await deleteNamespace(namespacePlan(state.block));
  const stillMounted = mountsUnder(state.dir);
  if (stillMounted.length > 0) log(`mounts left under ${state.dir}: ${stillMounted.join(', ')}`);
}
