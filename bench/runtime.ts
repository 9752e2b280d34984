// bench/runtime: the runtime in the master Pod, against a real control plane (etcd, kube-apiserver,
// controller manager, scheduler, kwok), measured in one run against the baselines:
//
//   1. Worker start-up for N = 10 and 100: the runtime bundle (as a local process with the
//      application ServiceAccount's token and an engine stand-in, as in the cluster tier) from its
//      start to N worker Pods created and to N Running — against creating the same N stamped Pods
//      one after another with the same HTTP client (sequential creation).
//   2. Worker-loss detection latency (a worker Pod deleted → the runtime records WorkerLost), p50/p95
//      over 20 trials, each a full runtime process — against a 1 s list-polling loop (what
//      SeaTunnel's PR-era driver did) observing the same deletion.
//   3. Runtime start-up time (process start → engine process started) and peak RSS.
//
// Targets: 100 workers created in < 2 s; detection p95 < 500 ms; RSS < 100 MB.
//
//   npm run build && node build/bench/runtime.js        (SEATUNNEL_TEST_CLUSTER=<file> reuses a running dev-cluster)

import * as fs from 'node:fs';
import type { Pod } from 'kubernetes-types/core/v1';
import { ControlPlane } from '../tools/local-stack/control-plane';
import { CLUSTER_ENV } from '../tools/local-stack/control-server';
import { ensureBundle } from '../tools/local-stack/runtime-bundle';
import {
  adminHttp,
  clusterInfo,
  createTestNamespace,
  deleteNamespace,
  recordWatch,
  type RecordedWatch,
} from '../test/support/cluster';
import {
  deleteApplication,
  deployApplication,
  startRuntime,
  waitForExit,
  waitForStandIn,
  workerSelector,
  type Deployed,
  type RuntimeRun,
} from '../runtime/test/support/application';
import { Kube, KubeTransport } from '../lib/kube';
import { stampWorker } from '../lib/plan/stamp';
import { KubeRest } from '../runtime/src/kube/rest';
import { median, percentile, table } from './harness';

const TRIALS = Number(process.env.BENCH_TRIALS ?? 20);

function logTime(run: RuntimeRun, pattern: RegExp): number | undefined {
  const line = run
    .output()
    .split('\n')
    .find((l) => pattern.test(l));
  return line ? Date.parse(line.slice(0, 24)) : undefined;
}

function exitFields(run: RuntimeRun): Record<string, string> {
  const line =
    run
      .output()
      .split('\n')
      .find((l) => l.includes('runtime: exit ')) ?? '';
  return Object.fromEntries([...line.matchAll(/(\w+)=(\S+)/g)].map((m) => [m[1], m[2]]));
}

/** First time each worker Pod was seen ADDED and Running (Date.now() at the watch event). */
class PodTimes {
  readonly added = new Map<string, number>();
  readonly running = new Map<string, number>();
  private constructor(private readonly watch: RecordedWatch<Pod>) {}

  static async start(namespace: string, selector: string): Promise<PodTimes> {
    const watch = await recordWatch<Pod>(`/api/v1/namespaces/${namespace}/pods`, { labelSelector: selector });
    const times = new PodTimes(watch);
    // recordWatch appends each event to `events`; stamping the arrival time there needs no second watch.
    const origPush = watch.events.push.bind(watch.events);
    watch.events.push = (...items) => {
      const now = Date.now();
      for (const e of items) {
        const name = e.object.metadata?.name;
        if (!name) continue;
        if (e.type === 'ADDED' && !times.added.has(name)) times.added.set(name, now);
        if (e.object.status?.phase === 'Running' && !times.running.has(name)) times.running.set(name, now);
      }
      return origPush(...items);
    };
    return times;
  }

  async until(n: number, what: 'added' | 'running', timeoutMs = 120_000): Promise<number> {
    const map = this[what];
    const deadline = Date.now() + timeoutMs;
    while (map.size < n) {
      if (Date.now() > deadline) throw new Error(`only ${map.size}/${n} Pods ${what} after ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 20));
    }
    return Math.max(...map.values());
  }

  stop(): void {
    this.watch.stop();
  }
}

interface StartupResult {
  n: number;
  toCreated: number;
  toRunning: number;
  creationPhase: number;
  creationToRunning: number;
  startup: number;
  peakRssMiB: number;
}

async function runtimeStartup(ns: string, n: number): Promise<StartupResult> {
  const app = await deployApplication(ns, `rt${n}`, {
    owned: true,
    props: { workerCount: n, workerSlots: 1, startupTimeoutMillis: 120_000 },
  });
  const times = await PodTimes.start(ns, workerSelector(app.appId));
  try {
    const run = await startRuntime(app, { standIn: { STANDIN_JOB: 'finish', STANDIN_JOB_MS: '200' } });
    const created = await times.until(n, 'added');
    const running = await times.until(n, 'running');
    const code = await waitForExit(run);
    if (code !== 0) throw new Error(`the runtime exited ${code}:\n${run.output()}`);
    const creating = logTime(run, /phase CreatingWorkers/)!;
    return {
      n,
      toCreated: created - run.startedAt,
      toRunning: running - run.startedAt,
      creationPhase: created - creating,
      creationToRunning: running - creating,
      startup: logTime(run, /engine process started/)! - run.startedAt,
      peakRssMiB: Number(exitFields(run).peakRssMiB),
    };
  } finally {
    times.stop();
    await deleteApplication(app);
  }
}

/** The same N stamped worker Pods, created one at a time with the runtime's HTTP client (as admin). */
async function sequentialStartup(ns: string, n: number): Promise<{ created: number; running: number }> {
  const app = await deployApplication(ns, `seq${n}`, { owned: true, props: { workerCount: n, workerSlots: 1 } });
  const info = clusterInfo();
  const tls = {
    ca: fs.readFileSync(info.caFile),
    cert: fs.readFileSync(info.adminCertFile),
    key: fs.readFileSync(info.adminKeyFile),
  };
  const http = new KubeTransport(info.server, async () => ({ headers: {}, tls }));
  const client = new Kube(http);
  const kube = new KubeRest(client, ns);
  const times = await PodTimes.start(ns, workerSelector(app.appId));
  try {
    const template = await kube.getPodTemplate(`${app.appId}-worker`);
    const master = { name: app.masterPod.metadata!.name!, uid: app.masterPod.metadata!.uid! };
    const stamp = {
      appId: app.appId,
      namespace: ns,
      template,
      master,
      masterHost: app.masterPod.status!.podIP!,
      masterPort: app.spec.master.port,
    };
    const t0 = Date.now();
    for (let i = 1; i <= n; i++) await kube.createPod(stampWorker(stamp, i));
    const created = Date.now() - t0;
    const running = (await times.until(n, 'running')) - t0;
    // The bench's own cleanup (admin credentials); the runtime deletes workers by name only.
    await client.deleteCollection('v1', 'Pod', ns, workerSelector(app.appId), {
      propagationPolicy: 'Background',
      timeoutMs: 30_000,
    });
    return { created, running };
  } finally {
    times.stop();
    http.close();
    await deleteApplication(app);
  }
}

interface DetectionTrial {
  runtime: number;
  polling: number;
  startup: number;
  peakRssMiB: number;
}

async function detectionTrial(ns: string, i: number): Promise<DetectionTrial> {
  const app: Deployed = await deployApplication(ns, `det${i}`, {
    owned: true,
    props: { workerCount: 1, workerSlots: 1 },
  });
  const admin = adminHttp();
  try {
    const run = await startRuntime(app, { standIn: { STANDIN_JOB: 'hang', STANDIN_FAIL_ON_LOSS: 'false' } });
    await waitForStandIn(run, (e) => e.call === 'submit', 'the job to be submitted');
    const worker = `${app.appId}-worker-1`;
    // The baseline: list the workers every second and look for the deletion.
    let t0 = 0;
    let polled: number | undefined;
    let stop = false;
    const poller = (async () => {
      while (!stop && polled === undefined) {
        const list = await admin.call<{ items: Pod[] }>(
          'GET',
          `/api/v1/namespaces/${ns}/pods?labelSelector=${encodeURIComponent(workerSelector(app.appId))}`,
        );
        const pod = list.items.find((p) => p.metadata!.name === worker);
        if (t0 && (!pod || pod.metadata!.deletionTimestamp)) polled = Date.now();
        await new Promise((r) => setTimeout(r, 1000));
      }
    })();
    await new Promise((r) => setTimeout(r, 1000 + Math.random() * 1000)); // a random phase of the poll loop
    t0 = Date.now();
    await admin.call('DELETE', `/api/v1/namespaces/${ns}/pods/${worker}`);
    const code = await waitForExit(run);
    if (code !== 3) throw new Error(`expected exit 3, got ${code}:\n${run.output()}`);
    const reacted = logTime(run, /event WorkerLost/);
    if (!reacted) throw new Error(`no WorkerLost in the runtime output:\n${run.output()}`);
    const deadline = Date.now() + 5000;
    while (polled === undefined && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    stop = true;
    await poller;
    return {
      runtime: reacted - t0,
      polling: (polled ?? Date.now()) - t0,
      startup: logTime(run, /engine process started/)! - run.startedAt,
      peakRssMiB: Number(exitFields(run).peakRssMiB),
    };
  } finally {
    await deleteApplication(app);
  }
}

async function main(): Promise<void> {
  let cp: ControlPlane | undefined;
  const existing = process.env[CLUSTER_ENV];
  if (!existing || !fs.existsSync(existing)) {
    cp = await ControlPlane.start({ nodes: 3 });
    process.env[CLUSTER_ENV] = cp.writeInfo();
  }
  ensureBundle();
  const ns = await createTestNamespace('bench-runtime');
  try {
    process.stderr.write('warm-up run …\n');
    await runtimeStartup(ns, 3);

    const startups: StartupResult[] = [];
    const sequential = new Map<number, { created: number; running: number }>();
    for (const n of [10, 100]) {
      process.stderr.write(`N = ${n}: runtime …\n`);
      startups.push(await runtimeStartup(ns, n));
      process.stderr.write(`N = ${n}: sequential creation …\n`);
      sequential.set(n, await sequentialStartup(ns, n));
    }

    const trials: DetectionTrial[] = [];
    for (let i = 0; i < TRIALS; i++) {
      process.stderr.write(`detection trial ${i + 1}/${TRIALS} …\r`);
      trials.push(await detectionTrial(ns, i));
    }
    process.stderr.write('\n');

    const rows: Array<Array<string | number>> = [];
    for (const s of startups) {
      const seq = sequential.get(s.n)!;
      rows.push([
        `N=${s.n}: creation phase → all created (ms)`,
        s.creationPhase,
        seq.created,
        `${(seq.created / s.creationPhase).toFixed(1)}x`,
        s.n === 100 ? '< 2000' : '',
      ]);
      rows.push([
        `N=${s.n}: creation phase → all Running (ms)`,
        s.creationToRunning,
        seq.running,
        `${(seq.running / s.creationToRunning).toFixed(1)}x`,
        '',
      ]);
      rows.push([`N=${s.n}: runtime start → all created (ms)`, s.toCreated, '', '', '']);
      rows.push([`N=${s.n}: runtime start → all Running (ms)`, s.toRunning, '', '', '']);
    }
    const rt = trials.map((t) => t.runtime);
    const poll = trials.map((t) => t.polling);
    rows.push([
      `worker loss detection p50 (ms, ${trials.length} trials)`,
      median(rt),
      median(poll),
      `${(median(poll) / median(rt)).toFixed(1)}x`,
      '',
    ]);
    rows.push([
      `worker loss detection p95 (ms, ${trials.length} trials)`,
      percentile(rt, 95),
      percentile(poll, 95),
      `${(percentile(poll, 95) / percentile(rt, 95)).toFixed(1)}x`,
      '< 500',
    ]);
    const startup = [...startups.map((s) => s.startup), ...trials.map((t) => t.startup)];
    rows.push([`runtime start → engine started (ms, median of ${startup.length})`, median(startup), '', '', '']);
    const rss = [...startups.map((s) => s.peakRssMiB), ...trials.map((t) => t.peakRssMiB)];
    rows.push([
      `peak RSS (MiB, max of ${rss.length} runs; N=100 run: ${startups[1].peakRssMiB})`,
      Math.max(...rss),
      '',
      '',
      '< 100',
    ]);
    process.stdout.write(
      `\nbench/runtime — ${new Date().toISOString()}, ${clusterInfo().kubernetesVersion}, ${process.version}\n`,
    );
    process.stdout.write(`${table(['metric', 'runtime', 'baseline', 'baseline/runtime', 'target'], rows)}\n`);
    process.stdout.write('baselines: sequential creation with the same HTTP client; list polling every 1 s\n');
  } finally {
    await deleteNamespace(ns).catch(() => undefined);
    await cp?.stop();
  }
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    process.stderr.write(`bench/runtime failed: ${(e as Error).stack ?? String(e)}\n`);
    process.exit(1);
  },
);
