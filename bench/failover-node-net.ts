// What bench/failover --node needs of the real node besides the API: HTTP to Pod and Service
// addresses (a long-running failover-node-probe inside a Pod's network namespace), the processes
// of containers (containerd's task list; their start time from /proc: the node is a network
// namespace of this machine, so its processes are ours to read and signal), and the containers'
// logs as the kubelet writes them (podLogsDir), read incrementally from disk: the trial loop reads
// the survivors' logs synchronously every 100 ms, as it reads the local kubelet's in memory.

import { execFile, spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as readline from 'node:readline';
import { promisify } from 'node:util';
import { CONTAINER_NAME } from '../lib/plan/pod';
import type { NodeInfo } from '../tools/local-stack/real-node/real-node';
import type { ProbeAnswer, ProbeRequest } from './failover-node-probe';

const run = promisify(execFile);

/** One bench's node: its namespace, its working directory (the checkpoint claim's files are under it). */
export interface NodeBench {
  readonly namespace: string;
  readonly dir: string;
  readonly node: NodeInfo;
  readonly http: NetnsHttp;
  readonly logs: PodLogs;
}

/** HTTP from inside a network namespace of the node, through one failover-node-probe process. */
export class NetnsHttp {
  private readonly child: ChildProcess;
  private readonly pending = new Map<number, (a: ProbeAnswer) => void>();
  private next = 0;
  private exited: string | undefined;
  private stderr = '';

  /** `pid`: a process in the namespace (a Pod's container); nsenter joins its network namespace only. */
  constructor(pid: number) {
    const script = path.join(__dirname, 'failover-node-probe.js');
    this.child = spawn('nsenter', ['-t', String(pid), '-n', '--', process.execPath, script], {
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    readline.createInterface({ input: this.child.stdout! }).on('line', (line) => {
      const a = JSON.parse(line) as ProbeAnswer;
      this.pending.get(a.id)?.(a);
      this.pending.delete(a.id);
    });
    // A write after the probe died: the exit handler answers what is pending.
    this.child.stdin!.on('error', () => undefined);
    this.child.stderr!.on('data', (c: Buffer) => (this.stderr = (this.stderr + c.toString()).slice(-2000)));
    this.child.on('exit', (code, signal) => {
      this.exited = `the HTTP probe exited (${code ?? signal}): ${this.stderr.trim().split('\n').slice(-3).join(' | ')}`;
      for (const [id, done] of this.pending) done({ id, error: this.exited, sent: 0, received: 0 });
      this.pending.clear();
    });
  }

  /** One request; rejects on a network error or timeout (as bare-zeta's httpCall, which the probe runs). */
  async call(
    host: string,
    port: number,
    method: string,
    p: string,
    body?: string,
    timeoutMs = 5000,
  ): Promise<{ status: number; body: string }> {
    if (this.exited) throw new Error(this.exited);
    const id = ++this.next;
    const req: ProbeRequest = { id, host, port, method, path: p, body, timeoutMs };
    const a = await new Promise<ProbeAnswer>((resolve) => {
      if (this.exited) return resolve({ id, error: this.exited, sent: 0, received: 0 });
      this.pending.set(id, resolve);
      this.child.stdin!.write(`${JSON.stringify(req)}\n`);
    });
    if (a.error !== undefined) throw new Error(`${method} ${host}:${port}${p}: ${a.error}`);
    return { status: a.status!, body: a.body! };
  }

  /** The JSON body of a 200 answer, or undefined for anything else (not up yet, down, slow). */
  async json<T>(host: string, port: number, p: string, timeoutMs = 5000): Promise<T | undefined> {
    try {
      const r = await this.call(host, port, 'GET', p, undefined, timeoutMs);
      return r.status === 200 ? (JSON.parse(r.body) as T) : undefined;
    } catch {
      return undefined;
    }
  }

  close(): void {
    this.child.stdin!.end();
    this.child.kill();
  }
}

/** The host PID of a container's main process (containerd's task list on the node), if it runs. */
export async function containerPid(node: NodeInfo, containerId: string): Promise<number | undefined> {
  const { stdout } = await run(node.ctr, ['--address', node.containerdSocket, '-n', 'k8s.io', 'tasks', 'ls'], {
    timeout: 30_000,
  });
  for (const line of stdout.split('\n')) {
    const [id, pid, status] = line.trim().split(/\s+/);
    if (id === containerId && status === 'RUNNING') return Number(pid);
  }
  return undefined;
}

/** The container ID of a Pod's status (first container), without the runtime's scheme. */
export const containerIdOf = (p: { status?: { containerStatuses?: Array<{ containerID?: string }> } }) =>
  p.status?.containerStatuses?.[0]?.containerID?.replace(/^containerd:\/\//, '') || undefined;

/** Boot time in epoch ms, to 10 ms (uptime, like a process's start, counts from boot). */
const bootAt = Date.now() - Number(fs.readFileSync('/proc/uptime', 'utf8').split(' ')[0]) * 1000;
/** USER_HZ: the unit of a process's start time in /proc (100 on every Linux this runs on). */
const TICKS_PER_SECOND = 100;

/** When process `pid` started (epoch ms, to 10 ms); undefined if it is gone. */
export function processStartedAt(pid: number): number | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces and parentheses: count fields after its last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Math.round(bootAt + (Number(fields[19]) * 1000) / TICKS_PER_SECOND);
  } catch {
    return undefined;
  }
}

/** A CRI log line: RFC 3339 time with nanoseconds, stream, tag (F full, P partial), message. */
const CRI_LINE = /^(\S+) (?:stdout|stderr) ([FP]) (.*)$/;

/** The epoch ms of a CRI timestamp (nanoseconds; Date.parse reads milliseconds). */
const criTime = (stamp: string) => Date.parse(stamp.replace(/(\.\d{3})\d*/, '$1'));

interface Tail {
  ino: number;
  offset: number;
  rest: Buffer;
  text: string;
  lastAt?: number;
}

/**
 * The kubelet's container logs of one namespace on one node, read from disk as they grow: for a
 * Pod name, the newest Pod of that name (a StatefulSet's replacement has a new uid) and its main
 * container's current incarnation (`<restart count>.log`).
 */
export class PodLogs {
  private readonly tails = new Map<string, Tail>();
  private readonly root: string;

  constructor(
    node: NodeInfo,
    private readonly namespace: string,
  ) {
    this.root = path.join(node.dir, 'pod-logs');
  }

  /** The container directory of the newest Pod named `pod` (the one whose log was written last). */
  private containerDir(pod: string): string | undefined {
    let best: { dir: string; at: number } | undefined;
    let entries: string[];
    try {
      entries = fs.readdirSync(this.root);
    } catch {
      return undefined;
    }
    for (const e of entries) {
      if (!e.startsWith(`${this.namespace}_${pod}_`)) continue;
      const dir = path.join(this.root, e, CONTAINER_NAME);
      try {
        const at = Math.max(...fs.readdirSync(dir).map((f) => fs.statSync(path.join(dir, f)).mtimeMs));
        if (!best || at > best.at) best = { dir, at };
      } catch {
        // removed meanwhile, or no log yet
      }
    }
    return best?.dir;
  }

  /** The log file of incarnation `back` before the current one (0: the current one). */
  private file(pod: string, back = 0): string | undefined {
    const dir = this.containerDir(pod);
    if (!dir) return undefined;
    const counts = fs
      .readdirSync(dir)
      .flatMap((f) => /^(\d+)\.log$/.exec(f)?.[1] ?? [])
      .map(Number)
      .sort((a, b) => b - a);
    return counts[back] === undefined ? undefined : path.join(dir, `${counts[back]}.log`);
  }

  private read(file: string): Tail {
    let t = this.tails.get(file);
    if (!t) this.tails.set(file, (t = { ino: 0, offset: 0, rest: Buffer.alloc(0), text: '' }));
    let st: fs.Stats;
    try {
      st = fs.statSync(file);
    } catch {
      return t; // gone with its Pod: what was read stays
    }
    // Rotated (the kubelet renames a full file and starts a new one): read the new one from its start.
    if (st.ino !== t.ino) Object.assign(t, { ino: st.ino, offset: 0, rest: Buffer.alloc(0) });
    const size = st.size;
    if (size <= t.offset) return t;
    const fd = fs.openSync(file, 'r');
    try {
      const buf = Buffer.alloc(size - t.offset);
      fs.readSync(fd, buf, 0, buf.length, t.offset);
      t.offset = size;
      const all = Buffer.concat([t.rest, buf]);
      const end = all.lastIndexOf(0x0a);
      t.rest = all.subarray(end + 1);
      for (const line of all
        .subarray(0, end + 1)
        .toString('utf8')
        .split('\n')) {
        const m = CRI_LINE.exec(line);
        if (!m) continue;
        t.text += m[2] === 'P' ? m[3] : `${m[3]}\n`;
        t.lastAt = criTime(m[1]);
      }
    } finally {
      fs.closeSync(fd);
    }
    return t;
  }

  /** What the current container of `pod` printed so far (messages only, as Zeta wrote them). */
  current(pod: string): string {
    const f = this.file(pod);
    return f ? this.read(f).text : '';
  }

  /** When the previous incarnation of `pod`'s container printed its last line (epoch ms): about its exit. */
  previousLastLineAt(pod: string): number | undefined {
    const f = this.file(pod, 1);
    return f ? this.read(f).lastAt : undefined;
  }
}
