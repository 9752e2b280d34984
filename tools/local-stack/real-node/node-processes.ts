// Every process that belongs to one real node, found from the kernel's view rather than from what
// the harness remembers starting: the processes in the node's network namespace (kubelet,
// containerd, kube-proxy, kube-router, containerd's shims, hostNetwork containers), every process
// in the node's cgroup tree (all containers), and any process whose command line names the node's
// containerd socket (shims, a `ctr` talking to it). So a power loss, a freeze or a teardown reaches
// what containerd started behind the harness's back, and a reaper finds a dead owner's processes.
// Only the node's own namespace, cgroup root and socket are matched: nothing else on the machine.
import * as fs from 'node:fs';
import { cgroupProcesses } from './cgroups';

export interface NodeScope {
  /** The node's network namespace (`ip netns` name). */
  netns: string;
  /** The kubelet's cgroupRoot, e.g. /seatunnel-node-3. */
  cgroupRoot: string;
  containerdSocket: string;
}

function numericProcEntries(): number[] {
  return fs
    .readdirSync('/proc')
    .filter((e) => /^\d+$/.test(e))
    .map(Number);
}

/** Processes whose network namespace is `netns` (what `ip netns pids` prints), read synchronously. */
export function netnsProcesses(netns: string): number[] {
  let ino: number;
  try {
    ino = fs.statSync(`/run/netns/${netns}`).ino;
  } catch {
    return [];
  }
  const want = `net:[${ino}]`;
  return numericProcEntries().filter((pid) => {
    try {
      return fs.readlinkSync(`/proc/${pid}/ns/net`) === want;
    } catch {
      return false;
    }
  });
}

/** Processes whose command line names `needle` (containerd's shims carry the socket address). */
export function processesMentioning(needle: string): number[] {
  return numericProcEntries().filter((pid) => {
    try {
      return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(needle);
    } catch {
      return false;
    }
  });
}

/** Every process of the node (see the file comment), never this process itself. */
export function nodeProcesses(scope: NodeScope): number[] {
  const all = new Set([
    ...netnsProcesses(scope.netns),
    ...cgroupProcesses(scope.cgroupRoot),
    ...processesMentioning(scope.containerdSocket),
  ]);
  all.delete(process.pid);
  return [...all];
}

export function signalAll(pids: Iterable<number>, sig: NodeJS.Signals): void {
  for (const p of pids) {
    try {
      process.kill(p, sig);
    } catch {
      /* gone */
    }
  }
}

/** Whether the process is stopped (state T) — by SIGSTOP, as freeze leaves it. */
function isStopped(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).startsWith('T');
  } catch {
    return true;
  }
}

/**
 * Sends `sig` to every process of the node in one pass, then again to any that appeared meanwhile
 * (a fork that raced the first pass), until a pass finds none new. Returns every PID signalled.
 */
export function signalNode(scope: NodeScope, sig: NodeJS.Signals, maxPasses = 10): number[] {
  const done = new Set<number>();
  for (let pass = 0; pass < maxPasses; pass++) {
    const fresh = nodeProcesses(scope).filter((p) => !done.has(p));
    if (fresh.length === 0) break;
    signalAll(fresh, sig);
    for (const p of fresh) done.add(p);
  }
  return [...done];
}

/** SIGSTOP of everything on the node; resolves once every one of its processes is stopped. */
export async function freezeNode(scope: NodeScope, timeoutMs = 10_000): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    signalNode(scope, 'SIGSTOP');
    const running = nodeProcesses(scope).filter((p) => !isStopped(p));
    if (running.length === 0) return nodeProcesses(scope).length;
    if (Date.now() > deadline)
      throw new Error(`processes of ${scope.netns} still running after SIGSTOP: ${running.join(' ')}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** SIGCONT of everything on the node. */
export function thawNode(scope: NodeScope): number {
  return signalNode(scope, 'SIGCONT').length;
}

/**
 * SIGKILL of everything on the node at once (a power loss), repeated until none is left. A
 * stopped (frozen) process dies of SIGKILL too.
 */
export async function killNode(scope: NodeScope, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    signalNode(scope, 'SIGKILL');
    const left = nodeProcesses(scope);
    if (left.length === 0) return;
    if (Date.now() > deadline)
      throw new Error(`processes of ${scope.netns} still alive after SIGKILL: ${left.join(' ')}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
