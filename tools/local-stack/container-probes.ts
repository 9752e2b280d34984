// The kubelet's container probes for the local kubelet (local-kubelet.ts), by the rules of
// k8s.io/kubernetes pkg/kubelet/prober: each probe runs every periodSeconds after
// initialDelaySeconds, with timeoutSeconds per attempt; its result flips only after
// successThreshold consecutive successes or failureThreshold consecutive failures.
//   - startupProbe: until it succeeds the container is not started, and the other probes do not
//     run; failureThreshold failures kill the container;
//   - readinessProbe: drives the container's (and so the Pod's) readiness, initially not ready;
//     without one a started container is ready;
//   - livenessProbe: failureThreshold failures kill the container (the restart policy decides the rest).
// Handlers: httpGet (HTTP or HTTPS without verification, as the kubelet; 200–399 is success),
// tcpSocket (a connect), exec (the command run locally with the container's environment; exit 0).
// A probe's own terminationGracePeriodSeconds replaces the Pod's when it kills the container.
// Not emulated: grpc probes, redirects to other hosts.
import { spawn } from 'node:child_process';
import * as http from 'node:http';
import * as https from 'node:https';
import * as net from 'node:net';
import type { Container, Probe } from 'kubernetes-types/core/v1';

/** Where and how a probe of one container runs. */
export interface ProbeTarget {
  /** The Pod IP (default host of httpGet, host of tcpSocket). */
  readonly ip: string;
  readonly env: Readonly<Record<string, string>>;
  readonly cwd: string;
  /** Maps an exec probe's command to local paths, as the container's own command was. */
  readonly mapArgv: (argv: string[]) => string[];
}

export interface ProbeEvents {
  /** The container's started/ready state changed. */
  changed(state: { started: boolean; ready: boolean }): void;
  /** A startup or liveness probe failed for good: the container must be killed (with the probe's own grace, if it has one). */
  kill(reason: string, graceSeconds?: number): void;
}

/** A port given by number or by the name of one of the container's ports. */
export function probePort(c: Container, port: number | string | undefined): number {
  if (typeof port === 'number') return port;
  const named = (c.ports ?? []).find((p) => p.name === port);
  if (!named)
    throw new Error(
      `container ${c.name}: probe port ${JSON.stringify(port)} is neither a number nor a named container port`,
    );
  return named.containerPort;
}

/** One attempt of a probe: whether it succeeded. */
export async function runProbe(c: Container, probe: Probe, target: ProbeTarget): Promise<boolean> {
  const timeoutMs = (probe.timeoutSeconds ?? 1) * 1000;
  if (probe.exec) {
    const argv = target.mapArgv(probe.exec.command ?? []);
    if (argv.length === 0) return false;
    return new Promise((resolve) => {
      const child = spawn(argv[0], argv.slice(1), {
        env: target.env,
        cwd: target.cwd,
        stdio: 'ignore',
        timeout: timeoutMs,
        killSignal: 'SIGKILL',
      });
      child.once('error', () => resolve(false));
      child.once('exit', (code) => resolve(code === 0));
    });
  }
  if (probe.tcpSocket) {
    const port = probePort(c, probe.tcpSocket.port);
    return new Promise((resolve) => {
      const s = net.connect({ host: probe.tcpSocket?.host || target.ip, port, timeout: timeoutMs });
      const done = (ok: boolean) => {
        s.destroy();
        resolve(ok);
      };
      s.once('connect', () => done(true));
      s.once('timeout', () => done(false));
      s.once('error', () => done(false));
    });
  }
  if (probe.httpGet) {
    const g = probe.httpGet;
    const port = probePort(c, g.port);
    const client = g.scheme === 'HTTPS' ? https : http;
    const headers = Object.fromEntries((g.httpHeaders ?? []).map((h) => [h.name, h.value]));
    return new Promise((resolve) => {
      const req = client.get(
        {
          host: g.host || target.ip,
          port,
          path: g.path || '/',
          headers: { 'user-agent': 'kube-probe/local', ...headers },
          timeout: timeoutMs,
          rejectUnauthorized: false,
        },
        (res) => {
          res.resume();
          resolve((res.statusCode ?? 0) >= 200 && (res.statusCode ?? 0) < 400);
        },
      );
      req.once('timeout', () => req.destroy(new Error('timeout')));
      req.once('error', () => resolve(false));
    });
  }
  throw new Error(`container ${c.name}: probe has no handler the local kubelet supports (exec, tcpSocket, httpGet)`);
}

/** A probe's result as the prober keeps it: flips only after enough consecutive attempts. */
export class ProbeResult {
  private successes = 0;
  private failures = 0;
  constructor(
    private readonly probe: Probe,
    public ok: boolean,
  ) {}

  /** Records one attempt; returns whether the result flipped. */
  record(success: boolean): boolean {
    if (success) {
      this.failures = 0;
      this.successes++;
      if (!this.ok && this.successes >= (this.probe.successThreshold ?? 1)) return (this.ok = true);
    } else {
      this.successes = 0;
      this.failures++;
      if (this.ok && this.failures >= (this.probe.failureThreshold ?? 3)) {
        this.ok = false;
        return true;
      }
    }
    return false;
  }

  /** Consecutive failures so far (a startup probe that never succeeded fails on this count). */
  get failuresInARow(): number {
    return this.failures;
  }
}

/** Runs the probes of one container until stopped. */
export class ContainerProber {
  private readonly timers = new Set<NodeJS.Timeout>();
  private stopped = false;
  private started: boolean;
  private ready: boolean;

  constructor(
    private readonly container: Container,
    private readonly target: ProbeTarget,
    private readonly events: ProbeEvents,
  ) {
    this.started = !container.startupProbe;
    this.ready = this.started && !container.readinessProbe;
  }

  /** The state right after the container starts (before any probe ran). */
  get state(): { started: boolean; ready: boolean } {
    return { started: this.started, ready: this.ready };
  }

  start(): this {
    const c = this.container;
    if (c.startupProbe) this.startup(c.startupProbe);
    else this.afterStartup();
    return this;
  }

  stop(): void {
    this.stopped = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }

  private afterStartup(): void {
    const c = this.container;
    if (c.readinessProbe) {
      const result = new ProbeResult(c.readinessProbe, false);
      this.loop(c.readinessProbe, (ok) => {
        if (result.record(ok)) this.set({ ready: result.ok });
        return true;
      });
    }
    if (c.livenessProbe) {
      const result = new ProbeResult(c.livenessProbe, true);
      this.loop(c.livenessProbe, (ok) => {
        if (result.record(ok) && !result.ok) {
          this.events.kill(
            `liveness probe failed ${c.livenessProbe?.failureThreshold ?? 3} times`,
            c.livenessProbe?.terminationGracePeriodSeconds,
          );
          return false;
        }
        return true;
      });
    }
  }

  private startup(probe: Probe): void {
    const result = new ProbeResult(probe, false);
    this.loop(probe, (ok) => {
      result.record(ok);
      if (result.ok) {
        this.set({ started: true, ready: !this.container.readinessProbe });
        this.afterStartup();
        return false;
      }
      if (result.failuresInARow >= (probe.failureThreshold ?? 3)) {
        this.events.kill(
          `startup probe failed ${probe.failureThreshold ?? 3} times`,
          probe.terminationGracePeriodSeconds,
        );
        return false;
      }
      return true;
    });
  }

  private set(change: { started?: boolean; ready?: boolean }): void {
    if (this.stopped) return;
    this.started = change.started ?? this.started;
    this.ready = change.ready ?? this.ready;
    this.events.changed({ started: this.started, ready: this.ready });
  }

  /** Runs `probe` on its schedule; `after` gets each result and says whether to go on. */
  private loop(probe: Probe, after: (ok: boolean) => boolean): void {
    const schedule = (ms: number) => {
      const t = setTimeout(() => {
        this.timers.delete(t);
        void runProbe(this.container, probe, this.target)
          .catch(() => false)
          .then((ok) => {
            if (!this.stopped && after(ok)) schedule((probe.periodSeconds ?? 10) * 1000);
          });
      }, ms);
      this.timers.add(t);
    };
    schedule((probe.initialDelaySeconds ?? 0) * 1000);
  }
}
