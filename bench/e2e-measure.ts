// What every set-up of bench/e2e runs and how it is observed: the job (the same in HOCON for the
// CLI and in JSON for REST), the phases it is timed in, the master's REST polled the same way for
// every set-up (ClusterWatch), and the runtime's log lines read for their timestamps.

import { performance } from 'node:perf_hooks';
import type { KubeHttp } from '../test/support/kube-http';
import { httpCall } from './bare-zeta';
import { sleep } from './harness';

export const POLL_MS = 100;
export const WORKERS = 2;
export const HA_MASTERS = 2;
export const JOB = `env { job.mode = "BATCH", parallelism = 2 }
source { FakeSource { result_table_name = "fake", row.num = 1000, schema { fields { name = "string", age = "int" } } } }
sink { Console { source_table_name = "fake" } }
`;
export const JOB_JSON = JSON.stringify({
  env: { 'job.mode': 'BATCH', parallelism: 2, 'job.retry.times': 0 },
  source: [
    {
      plugin_name: 'FakeSource',
      result_table_name: 'fake',
      row: { num: 1000 },
      schema: { fields: { name: 'string', age: 'int' } },
    },
  ],
  sink: [{ plugin_name: 'Console', source_table_name: 'fake' }],
});

/** The phases every set-up goes through, ms. `undefined`: the set-up has no such phase. */
export type Phases = Record<string, number | undefined>;

export const MASTER_UP = 'master JVM started → REST up';
export const JOINED = 'REST up → workers joined';
export const ZETA_PHASES = [
  MASTER_UP,
  JOINED,
  'joined → workers registered',
  'registered → job RUNNING',
  'RUNNING → FINISHED',
];

export const now = (): number => performance.timeOrigin + performance.now();

/**
 * Polls a master's REST every POLL_MS and notes when it first answers, when the cluster first
 * counts 1 + WORKERS members (Hazelcast join) and when /overview first counts WORKERS workers
 * (Zeta's slot registration). The same reads for every set-up, so they compare.
 */
export class ClusterWatch {
  up?: number;
  joined?: number;
  registered?: number;
  private stopped = false;
  private readonly done: Promise<void>;

  constructor(host: () => string | undefined, port: number) {
    this.done = (async () => {
      while (!this.stopped && this.registered === undefined) {
        const h = host();
        if (h) await this.read(h, port).catch(() => undefined);
        await sleep(POLL_MS);
      }
    })();
  }

  private async read(host: string, port: number): Promise<void> {
    // Up: Zeta's REST answers (running-jobs, what the runtime waits for; Hazelcast's own REST answers earlier).
    const r = await httpCall(host, port, 'GET', '/hazelcast/rest/maps/running-jobs', undefined, 2000);
    if (r.status !== 200) return;
    const t = now();
    this.up ??= t;
    // Zeta 2.3.8 makes its resource manager on the first /overview and registers only the workers
    // joined by then (docs/performance.md): like the runtime, this watch asks it only once all have
    // joined, or it would itself make a worker wait for its heartbeat.
    if (this.joined === undefined) {
      const c = await httpCall(host, port, 'GET', '/hazelcast/rest/cluster', undefined, 2000);
      const members = c.status === 200 ? (JSON.parse(c.body) as { members?: unknown[] }).members : undefined;
      if (!members || members.length < 1 + WORKERS) return;
      this.joined = t;
    }
    const o = await httpCall(host, port, 'GET', '/hazelcast/rest/maps/overview', undefined, 2000);
    if (o.status === 200 && Number((JSON.parse(o.body) as { workers?: string }).workers) >= WORKERS)
      this.registered = now();
  }

  /** Resolves once the workers are registered (or rejects after `timeoutMs`). */
  async registration(timeoutMs: number): Promise<void> {
    const t0 = now();
    while (this.registered === undefined) {
      if (now() - t0 > timeoutMs) throw new Error(`${WORKERS} workers not registered in ${timeoutMs} ms`);
      await sleep(POLL_MS);
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.done;
  }
}

/** Timestamps (ms) of the first log line matching each pattern. */
export function logTimes(log: string, patterns: Record<string, RegExp>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [k, re] of Object.entries(patterns)) {
    const line = log.split('\n').find((l) => re.test(l));
    const m = line ? /(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d+Z)/.exec(line) : null;
    if (!m) throw new Error(`no "${k}" line (${re}) in the master's log`);
    out[k] = Date.parse(m[1]);
  }
  return out;
}

/** Resolves with the time the Job `name` is first seen Complete (polled every POLL_MS); throws if it failed. */
export async function waitJob(admin: KubeHttp, namespace: string, name: string, t0: number): Promise<number> {
  for (;;) {
    const j = await admin.call<{ status?: { conditions?: Array<{ type: string; status: string }> } }>(
      'GET',
      `/apis/batch/v1/namespaces/${namespace}/jobs/${name}`,
    );
    const c = j.status?.conditions ?? [];
    if (c.some((x) => x.type === 'Failed' && x.status === 'True')) throw new Error(`Job ${name} failed`);
    if (c.some((x) => x.type === 'Complete' && x.status === 'True')) return now();
    if (now() - t0 > 300_000) throw new Error(`Job ${name} did not complete in 300 s`);
    await sleep(POLL_MS);
  }
}

/** The floors' trivial Job `name`: one Pod that runs once (`pod`: its containers and the set-up's extras). */
export function trivialJob(name: string, pod: Record<string, unknown>, podMetadata: Record<string, unknown> = {}) {
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name },
    spec: {
      backoffLimit: 0,
      template: {
        metadata: podMetadata,
        spec: { restartPolicy: 'Never', automountServiceAccountToken: false, ...pod },
      },
    },
  };
}

/** The runtime's log lines that time both kinds of application (each adds its own). */
export const RUNTIME_LINES = {
  runtimeStarted: /runtime: settings loaded/,
  workersCreated: /runtime: created worker/,
  registered: /runtime: event AllWorkersRegistered/,
  running: /runtime: Zeta job status .*status=RUNNING/,
  finished: /runtime: ending state=SUCCEEDED/,
  exited: /runtime: exit code=0/,
};

/** The phases from registration to the Job's end, timed alike for both kinds of application. */
export function finishingPhases(
  t: Record<keyof typeof RUNTIME_LINES, number>,
  complete: number,
  removed: string,
): Phases {
  return {
    'registered → job RUNNING': t.running - t.registered,
    'RUNNING → FINISHED': t.finished - t.running,
    [`FINISHED → ${removed} removed, process exited`]: t.exited - t.finished,
    'process exited → Job Complete': complete - t.exited,
  };
}

/** With BENCH_VERBOSE: the runtime's own lines of an application's log, on stderr. */
export function showRuntimeLog(appId: string, log: string): void {
  if (!process.env.BENCH_VERBOSE) return;
  const lines = log.split('\n').filter((l) => / runtime: /.test(l));
  process.stderr.write(`${appId}:\n${lines.map((l) => `  ${l.slice(l.indexOf(' runtime: ') - 24)}`).join('\n')}\n`);
}
