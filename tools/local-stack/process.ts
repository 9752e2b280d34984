// Supervised child processes for the test harnesses: each runs in its own process group with
// stdout/stderr going straight to a log file (so it keeps logging even if we stop reading), is
// recorded in a PID file that the watchdog uses, and is stopped by PID with SIGTERM, then SIGKILL.
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';

export interface StartOptions {
  /** Short name used in messages and as the log file's base name, e.g. "kube-apiserver". */
  name: string;
  command: string;
  args: string[];
  logFile: string;
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** File that gets a line "<pid> <starttime> <name>" for the watchdog. */
  pidFile?: string;
}

/** The kernel's start time of a process (field 22 of /proc/<pid>/stat), or undefined if it is gone. */
export function processStartTime(pid: number): string | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return rest[19];
  } catch {
    return undefined;
  }
}

/** Resident set size in bytes of one process (VmRSS), or 0 if it is gone. */
export function processRss(pid: number): number {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const m = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** The last `lines` lines of a file (whole lines only), or a note saying why there are none. */
export function tailFile(file: string, lines = 40, maxBytes = 64 * 1024): string {
  let fd: number | undefined;
  try {
    fd = fs.openSync(file, 'r');
    const size = fs.fstatSync(fd).size;
    const start = Math.max(0, size - maxBytes);
    const buf = Buffer.alloc(size - start);
    fs.readSync(fd, buf, 0, buf.length, start);
    const all = buf.toString('utf8').split('\n');
    if (start > 0) all.shift();
    if (all.length > 0 && all[all.length - 1] === '') all.pop();
    return all.slice(-lines).join('\n');
  } catch (e) {
    return `(no log: ${(e as Error).message})`;
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

export class ManagedProcess {
  readonly name: string;
  readonly logFile: string;
  readonly pid: number;
  /** How it was started (for a restart with the same command line). */
  readonly options: StartOptions;
  private readonly child: ChildProcess;
  private exitInfo: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  private readonly exited: Promise<void>;
  private stopping = false;

  private constructor(opts: StartOptions, child: ChildProcess) {
    this.name = opts.name;
    this.options = opts;
    this.logFile = opts.logFile;
    this.child = child;
    if (child.pid === undefined) throw new Error(`${opts.name}: spawn returned no PID`);
    this.pid = child.pid;
    this.exited = new Promise((resolve) => {
      child.once('exit', (code, signal) => {
        this.exitInfo = { code, signal };
        resolve();
      });
    });
  }

  static async start(opts: StartOptions): Promise<ManagedProcess> {
    const out = fs.openSync(opts.logFile, 'a');
    fs.writeSync(out, `# ${new Date().toISOString()} ${opts.command} ${opts.args.join(' ')}\n`);
    let child: ChildProcess;
    try {
      child = spawn(opts.command, opts.args, {
        cwd: opts.cwd,
        env: opts.env ?? process.env,
        stdio: ['ignore', out, out],
        // Own process group: a Ctrl-C in the terminal reaches only our process, which then stops
        // the components in order; the watchdog covers the case where we die without doing so.
        detached: true,
      });
    } finally {
      fs.closeSync(out);
    }
    const spawnError = await new Promise<Error | undefined>((resolve) => {
      child.once('error', resolve);
      child.once('spawn', () => resolve(undefined));
    });
    if (spawnError) throw new Error(`${opts.name}: could not start ${opts.command}: ${spawnError.message}`);
    // The child must not keep our event loop alive (dev-cluster and Jest decide when to exit).
    child.unref();
    const p = new ManagedProcess(opts, child);
    if (opts.pidFile) {
      fs.appendFileSync(opts.pidFile, `${p.pid} ${processStartTime(p.pid) ?? '-'} ${opts.name}\n`);
    }
    return p;
  }

  get running(): boolean {
    return this.exitInfo === undefined;
  }

  /** Resolves when the process has exited, for whatever reason. */
  whenExited(): Promise<void> {
    return this.exited;
  }

  /** Why the process is not running, e.g. "exited with code 1", or undefined while it runs. */
  get exitDescription(): string | undefined {
    if (!this.exitInfo) return undefined;
    return this.exitInfo.signal ? `was killed by ${this.exitInfo.signal}` : `exited with code ${this.exitInfo.code}`;
  }

  /** Throws (with the log tail) if the process has died; used inside readiness waits. */
  assertRunning(): void {
    if (!this.running) {
      throw new Error(`${this.name} ${this.exitDescription}; last lines of ${this.logFile}:\n${this.tail(30)}`);
    }
  }

  tail(lines = 40): string {
    return tailFile(this.logFile, lines);
  }

  rss(): number {
    return this.running ? processRss(this.pid) : 0;
  }

  /** SIGTERM, then SIGKILL after `graceMs`; resolves when the process has exited. */
  async stop(graceMs = 10_000): Promise<void> {
    if (!this.running) return;
    this.stopping = true;
    // Keep the event loop alive until the child is gone (it was unref'd at start).
    this.child.ref();
    this.signal('SIGTERM');
    let timer: NodeJS.Timeout | undefined;
    const timedOut = await Promise.race([
      this.exited.then(() => false),
      new Promise<boolean>((r) => (timer = setTimeout(() => r(true), graceMs))),
    ]);
    clearTimeout(timer);
    if (timedOut && this.running) {
      this.signal('SIGKILL');
      await this.exited;
    }
  }

  /**
   * SIGKILL to the whole process group, nothing graceful (a power loss, an outage). The signal is
   * sent before this returns its promise, so several kills in a row land together; the promise
   * resolves when the process has exited.
   */
  kill(): Promise<void> {
    if (!this.running) return Promise.resolve();
    this.stopping = true;
    this.child.ref();
    this.signal('SIGKILL');
    return this.exited;
  }

  get isStopping(): boolean {
    return this.stopping;
  }

  private signal(sig: NodeJS.Signals): void {
    try {
      // Negative PID: the whole process group (the component and anything it spawned).
      process.kill(-this.pid, sig);
    } catch {
      try {
        process.kill(this.pid, sig);
      } catch {
        /* already gone */
      }
    }
  }
}
