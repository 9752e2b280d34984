// A bare Zeta cluster for the benches' baselines: an application's own engine files (the same
// shape as in its Pods), its masters and workers started directly as processes on loopback
// addresses, no Kubernetes, driven through REST v1 on a master's member port.

import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';
import { ZETA_MAIN_CLASS, zetaClasspath, zetaCommand, zetaEnvironment } from '../lib/engine/command';
import { haMasterAddresses, MASTER_HOST_PLACEHOLDER, renderEngineFiles } from '../lib/engine/files';
import { jvmOptionFlags } from '../lib/model/rules/runtime-files';
import type { ApplicationSpec } from '../lib/model/spec';
import { parseDocument } from 'yaml';
import { STOCK_CONFIG_2_3_8 } from '../test/support/seatunnel-stock-config';
import { cpuLimit, type CpuLimit } from './cpu-limit';

export type Role = 'master' | 'worker';

export class BareZeta {
  readonly conf: string;
  private readonly procs = new Map<string, ChildProcess>();
  /** Each limited member's cgroup, by its address: a restarted member goes back into its own. */
  private readonly limits = new Map<string, CpuLimit>();

  /**
   * Writes the engine files of `spec` into `dir`, with the master addresses (the runtime's
   * placeholder, or with HA the masters' DNS names) replaced by `masterIps`.
   */
  constructor(
    readonly spec: ApplicationSpec,
    readonly dir: string,
    readonly masterIps: readonly string[],
    /** Cores per member, as a container's CPU limit (cpu-limit.ts); undefined: the whole machine. */
    readonly cpuCores?: number,
  ) {
    this.conf = path.join(dir, 'conf');
    fs.mkdirSync(this.conf, { recursive: true });
    const port = spec.master.port;
    const names = spec.ha ? haMasterAddresses(spec, spec.ha.masters) : [];
    if (names.length && names.length !== masterIps.length)
      throw new Error(`${names.length} masters in the spec, ${masterIps.length} addresses given`);
    for (const [name, content] of Object.entries(renderEngineFiles(spec).files)) {
      let text = content.split(MASTER_HOST_PLACEHOLDER).join(masterIps[0]);
      names.forEach((n, i) => (text = text.split(n).join(`${masterIps[i]}:${port}`)));
      fs.writeFileSync(path.join(this.conf, name), text);
    }
  }

  logFile(ip: string): string {
    return path.join(this.dir, `zeta-${ip}.log`);
  }

  /** The member's command line, as application mode starts it in its Pods. */
  protected argv(role: Role): string[] {
    return zetaCommand(this.spec, role, { configDir: this.conf, logDir: path.join(this.dir, 'logs') });
  }

  /** The master list as the runtime stamps it into worker Pods (Zeta prefers it to the file's). */
  protected memberListEnv(): Record<string, string> {
    return { ST_DOCKER_MEMBER_LIST: this.masterIps.map((m) => `${m}:${this.spec.master.port}`).join(',') };
  }

  /** Starts a member bound to `ip`; its output is appended to logFile(ip). */
  start(role: Role, ip: string): void {
    let [cmd, ...args] = this.argv(role);
    if (this.cpuCores) {
      const limit = this.limits.get(ip) ?? cpuLimit(`${path.basename(this.dir)}-${process.pid}-${ip}`, this.cpuCores);
      this.limits.set(ip, limit);
      [cmd, args] = limit.wrap(cmd, args);
    }
    const out = fs.openSync(this.logFile(ip), 'a');
    const p = spawn(cmd, args, {
      cwd: this.spec.seatunnelHome,
      stdio: ['ignore', out, out],
      detached: true,
      env: {
        ...process.env,
        ...zetaEnvironment(),
        ...this.memberListEnv(),
        JAVA_TOOL_OPTIONS: `-Dhazelcast.local.localAddress=${ip} -Dhazelcast.socket.bind.any=false`,
      },
    });
    fs.closeSync(out);
    this.procs.set(ip, p);
  }

  /** Whether the member at `ip` still runs. */
  running(ip: string): boolean {
    const p = this.procs.get(ip);
    return p !== undefined && p.exitCode === null && p.signalCode === null;
  }

  /** Signals the member at `ip` (its process group) and resolves when it has exited. */
  stopMember(ip: string, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    const p = this.procs.get(ip);
    if (!p?.pid || p.exitCode !== null || p.signalCode !== null) return Promise.resolve();
    return new Promise((resolve) => {
      p.once('exit', () => resolve());
      try {
        process.kill(-p.pid!, signal);
      } catch {
        resolve();
      }
    });
  }

  /** REST v1 of the master at `ip` (any master: a standby forwards to the active one). */
  async rest(ip: string, method: string, p: string, body?: string, timeoutMs = 5000): Promise<string> {
    const r = await httpCall(ip, this.spec.master.port, method, `/hazelcast/rest/maps${p}`, body, timeoutMs);
    if (r.status !== 200) throw new Error(`${method} ${p}: ${r.status} ${r.body}`);
    return r.body;
  }

  /** Resolves once the master at `ip` counts `workers` workers. */
  async waitWorkers(ip: string, workers: number, timeoutMs = 300_000): Promise<void> {
    const t0 = Date.now();
    for (;;) {
      try {
        const o = JSON.parse(await this.rest(ip, 'GET', '/overview')) as { workers?: string };
        if (Number(o.workers) >= workers) return;
      } catch {
        /* not up yet */
      }
      if (Date.now() - t0 > timeoutMs)
        throw new Error(`bare Zeta: ${workers} workers not registered at ${ip} in ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  /** Kills every member still running. */
  /** killAll, then waits (at most 10 s) for the members to exit and removes their cgroups at once. */
  async stopAll(): Promise<void> {
    const exits = [...this.procs.values()]
      .filter((p) => p.exitCode === null && p.signalCode === null)
      .map((p) => new Promise<void>((resolve) => p.once('exit', () => resolve())));
    const limits = [...this.limits.values()];
    this.killAll();
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([Promise.all(exits), new Promise<void>((resolve) => (timer = setTimeout(resolve, 10_000)))]);
    clearTimeout(timer);
    limits.forEach((l) => l.remove());
  }

  killAll(): void {
    for (const p of this.procs.values())
      if (p.pid)
        try {
          process.kill(-p.pid, 'SIGKILL');
        } catch {
          /* gone */
        }
    this.procs.clear();
    // A cgroup is removable once its process has exited: a moment after the SIGKILL (a large JVM
    // takes a while to go), or when this process exits. stopAll waits for the exits instead.
    const limits = [...this.limits.values()];
    this.limits.clear();
    if (!limits.length) return;
    const remove = () => limits.forEach((l) => l.remove());
    setTimeout(remove, 2000).unref();
    process.once('exit', remove);
  }
}

/**
 * A bare Zeta cluster on SeaTunnel's own configuration: the 2.3.8 `config/` directory unchanged
 * (its JVM options with the 2 GiB heap, its separate master and worker Hazelcast files, its
 * checkpoint storage), the members started as `bin/seatunnel-cluster.sh -r <role>` starts them, and
 * only what a user deploying it to one master and two worker hosts must edit: the member list,
 * which names those hosts instead of `localhost`.
 */
export class StockZeta extends BareZeta {
  constructor(spec: ApplicationSpec, dir: string, masterIp: string, workerIps: readonly string[]) {
    super(spec, dir, [masterIp]);
    const members = [`${masterIp}:5801`, ...workerIps.map((ip) => `${ip}:5802`)];
    for (const [name, content] of Object.entries(STOCK_CONFIG_2_3_8)) {
      const text = /^hazelcast(-master|-worker)?\.yaml$/.test(name) ? withMembers(content, members) : content;
      fs.writeFileSync(path.join(this.conf, name), text);
    }
  }

  /** A hand-made cluster has no ST_DOCKER_MEMBER_LIST: the files' member list decides. */
  protected override memberListEnv(): Record<string, string> {
    return {};
  }

  protected override argv(role: Role): string[] {
    const home = this.spec.seatunnelHome;
    const jvm = jvmOptionFlags(fs.readFileSync(path.join(this.conf, `jvm_${role}_options`), 'utf8'));
    return [
      'java',
      ...jvm,
      `-Dseatunnel.config=${this.conf}/seatunnel.yaml`,
      `-Dhazelcast.config=${this.conf}/hazelcast-${role}.yaml`,
      `-Dlog4j2.configurationFile=${this.conf}/log4j2.properties`,
      `-Dseatunnel.logs.path=${path.join(this.dir, 'logs')}`,
      `-Dseatunnel.logs.file_name=seatunnel-engine-${role}`,
      `-DSEATUNNEL_HOME=${home}`,
      `-Dseatunnel.home=${home}`,
      '-cp',
      zetaClasspath(home),
      ZETA_MAIN_CLASS,
      '-r',
      role,
    ];
  }
}

/** A stock Hazelcast file whose tcp-ip member list names `members` instead of localhost. */
function withMembers(text: string, members: readonly string[]): string {
  const doc = parseDocument(text);
  const path = ['hazelcast', 'network', 'join', 'tcp-ip', 'member-list'];
  if (!doc.hasIn(path)) throw new Error('no tcp-ip member-list in a stock Hazelcast file');
  doc.setIn(path, [...members]);
  return doc.toString();
}

/** One plain HTTP call to a Zeta member (loopback, no keep-alive); rejects on network errors and timeouts. */
export function httpCall(
  host: string,
  port: number,
  method: string,
  p: string,
  body?: string,
  timeoutMs = 5000,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host, port, method, path: p, timeout: timeoutMs }, (res) => {
      let s = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (s += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: s }));
    });
    req.on('timeout', () => req.destroy(new Error(`${method} ${p}: timeout`)));
    req.on('error', reject);
    req.end(body);
  });
}
