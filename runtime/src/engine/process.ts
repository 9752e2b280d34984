// The Zeta master as a child process of the runtime. Its stdout/stderr go straight to the
// container's (so `kubectl logs` shows the engine next to the runtime). The runtime is PID 1 in
// the container: when it exits, the container and with it the engine end too.

import { spawn, type ChildProcess } from 'node:child_process';
import type { Logger } from '../log';
import type { EngineExit } from './port';

export interface ProcessOptions {
  readonly argv: readonly string[];
  readonly env: NodeJS.ProcessEnv;
  readonly cwd?: string;
  readonly log: Logger;
  readonly spawnFn?: typeof spawn;
}

export class EngineProcess {
  private child: ChildProcess | undefined;
  private resolveExit!: (e: EngineExit) => void;
  readonly exited: Promise<EngineExit>;
  private exit: EngineExit | undefined;

  constructor(private readonly opts: ProcessOptions) {
    this.exited = new Promise((r) => (this.resolveExit = r));
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  get running(): boolean {
    return this.child !== undefined && this.exit === undefined;
  }

  start(): void {
    if (this.child) throw new Error('the engine process was started already');
    const [cmd, ...args] = this.opts.argv;
    const child = (this.opts.spawnFn ?? spawn)(cmd, args, {
      env: this.opts.env,
      cwd: this.opts.cwd,
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    this.child = child;
    const done = (e: EngineExit) => {
      if (this.exit) return;
      this.exit = e;
      this.resolveExit(e);
    };
    child.once('error', (err) => done({ code: null, signal: null, error: `${cmd}: ${err.message}` }));
    child.once('exit', (code, signal) => done({ code, signal }));
    this.opts.log.info('engine process started', { pid: child.pid, command: cmd });
  }

  /** SIGTERM, then SIGKILL if it has not exited after `graceMs`. */
  async stop(graceMs: number): Promise<EngineExit | undefined> {
    const child = this.child;
    if (!child || this.exit) return this.exit;
    child.kill('SIGTERM');
    let timer: NodeJS.Timeout | undefined;
    const killed = new Promise<void>((r) => {
      timer = setTimeout(() => {
        if (!this.exit) {
          this.opts.log.warn('engine process did not stop in time; killing it', { pid: child.pid, graceMs });
          child.kill('SIGKILL');
        }
        r();
      }, graceMs);
    });
    const result = await Promise.race([this.exited, killed.then(() => this.exited)]);
    clearTimeout(timer);
    return result;
  }
}

/** How an engine exit reads in a message. */
export function describeExit(e: EngineExit): string {
  if (e.error) return `could not be started (${e.error})`;
  if (e.signal) return `was killed by ${e.signal}`;
  return `exited with code ${e.code}`;
}
