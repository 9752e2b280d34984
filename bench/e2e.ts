// bench/e2e: wall time of one small batch application from `submit` to the Job Complete, on the
// local control plane with real Zeta processes (the engine tier's setup), phase by phase, next to
// what each phase costs without Kubernetes and to its floor — all measured in the same run, round
// by round, so every column sees the same load:
//
//   - application mode: the CLI's submit, then the runtime's own log (master started, engine ready,
//     workers registered, job RUNNING, FINISHED, exit) and the bench's own reads of the master's
//     REST (members joined, workers registered), then the Job's Complete condition;
//   - bare Zeta on application mode's engine files: master + 2 workers started directly as
//     processes on loopback addresses, the job submitted through REST, no Kubernetes;
//   - bare Zeta on SeaTunnel's default configuration (the 2.3.8 `config/` directory; the target's
//     baseline, issue #15);
//   - floors: a JVM that starts and exits (`java -version`), a Zeta master starting alone, and a
//     trivial Job on the same control plane (Job created → its process runs; process exit → Job
//     Complete);
//   - the same job as an HA application (2 masters, backup-count 1; docs/ha.md): the masters'
//     StatefulSet Pods, then the coordinator's own log.
//
//   npm run bench:e2e        (BENCH_RUNS=3 by default; BENCH_E2E_HA_ONLY=1 runs the HA rounds alone)

import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { main } from '../lib/cli/main';
import type { Output } from '../lib/cli/output';
import { resolveApplication } from '../lib/model/resolve';
import type { SeaTunnelApplicationProps } from '../lib/model/props';
import type { ApplicationSpec } from '../lib/model/spec';
import { JOIN_WAIT_PROPERTY } from '../lib/engine/files';
import { ControlPlane } from '../tools/local-stack/control-plane';
import { createSharedClaim } from '../tools/local-stack/shared-claim';
import { startLocalStack, LOCAL_POD_ANNOTATIONS } from '../tools/local-stack/local-application';
import { BareZeta, httpCall, StockZeta } from './bare-zeta';
import { median, table } from './harness';

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const POLL_MS = 100;
const WORKERS = 2;
const JOB = `env { job.mode = "BATCH", parallelism = 2 }
source { FakeSource { result_table_name = "fake", row.num = 1000, schema { fields { name = "string", age = "int" } } } }
sink { Console { source_table_name = "fake" } }
`;
const JOB_JSON = JSON.stringify({
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
type Phases = Record<string, number | undefined>;

const MASTER_UP = 'master JVM started → REST up';
const JOINED = 'REST up → workers joined';
const ZETA_PHASES = [
  MASTER_UP,
  JOINED,
  'joined → workers registered',
  'registered → job RUNNING',
  'RUNNING → FINISHED',
];

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const now = () => performance.timeOrigin + performance.now();

function quiet(): Output {
  const nop = () => undefined;
  return { json: false, result: nop, line: nop, warn: nop, error: (t) => process.stderr.write(`${t}\n`) };
}

/**
 * Polls a master's REST every POLL_MS and notes when it first answers, when the cluster first
 * counts 1 + WORKERS members (Hazelcast join) and when /overview first counts WORKERS workers
 * (Zeta's slot registration). The same reads for every set-up, so they compare.
 */
class ClusterWatch {
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
    // Up: Zeta's overview answers (what the runtime waits for); Hazelcast's own REST answers earlier.
    const o = await httpCall(host, port, 'GET', '/hazelcast/rest/maps/overview', undefined, 2000);
    if (o.status !== 200) return;
    const t = now();
    this.up ??= t;
    if (this.joined === undefined) {
      const c = await httpCall(host, port, 'GET', '/hazelcast/rest/cluster', undefined, 2000);
      const members = c.status === 200 ? (JSON.parse(c.body) as { members?: unknown[] }).members : undefined;
      if (members && members.length >= 1 + WORKERS) this.joined = t;
    }
    if (Number((JSON.parse(o.body) as { workers?: string }).workers) >= WORKERS) {
      this.joined ??= t;
      this.registered = t;
    }
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
function logTimes(log: string, patterns: Record<string, RegExp>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [k, re] of Object.entries(patterns)) {
    const line = log.split('\n').find((l) => re.test(l));
    const m = line ? /(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d+Z)/.exec(line) : null;
    if (!m) throw new Error(`no "${k}" line (${re}) in the master's log`);
    out[k] = Date.parse(m[1]);
  }
  return out;
}

interface Bench {
  readonly cp: ControlPlane;
  readonly stack: ReturnType<typeof startLocalStack>;
  readonly namespace: string;
  readonly dir: string;
  /** The ReadWriteMany checkpoint claim HA needs, bound to this local directory. */
  readonly checkpoints: string;
}

const HA_ONLY = process.env.BENCH_E2E_HA_ONLY === '1';
const HA_MASTERS = 2;
const CHECKPOINT_CLAIM = 'e2e-checkpoints';

async function waitJob(b: Bench, name: string, t0: number): Promise<number> {
  for (;;) {
    const j = await b.cp.admin.call<{ status?: { conditions?: Array<{ type: string; status: string }> } }>(
      'GET',
      `/apis/batch/v1/namespaces/${b.namespace}/jobs/${name}`,
    );
    const c = j.status?.conditions ?? [];
    if (c.some((x) => x.type === 'Failed' && x.status === 'True')) throw new Error(`Job ${name} failed`);
    if (c.some((x) => x.type === 'Complete' && x.status === 'True')) return now();
    if (now() - t0 > 300_000) throw new Error(`Job ${name} did not complete in 300 s`);
    await sleep(POLL_MS);
  }
}

/**
 * What this release changed for speed (issue #15), undone: the JVMs without the class-data sharing
 * archive, and Hazelcast's own 5 s wait before the master admits a joining member.
 */
const JOIN_WAIT_5S = `hazelcast:\n  properties:\n    ${JOIN_WAIT_PROPERTY}: 5\n`;
const BEFORE_LINES = [
  'kubernetes.class-data-sharing = off',
  `kubernetes.runtime-files.hazelcast.content = ${JSON.stringify(JOIN_WAIT_5S)}`,
];
const NO_CDS = { classDataSharing: 'off' } as const;
const JOIN_WAIT = { runtimeFiles: { hazelcast: { content: JOIN_WAIT_5S } } } as const;

/** One application's submit, in process: its ID once the CLI prints it, and the times around it. */
interface Submission {
  appId: string;
  t0: number;
  tSubmit: number;
}

/** Writes `lines` as the deployment file `name`.conf (and the job) and submits it through the CLI's main. */
async function submitDeployment(b: Bench, name: string, lines: readonly string[], s: Submission): Promise<void> {
  const deploy = path.join(b.dir, `${name}.conf`);
  const job = path.join(b.dir, 'job.conf');
  fs.writeFileSync(deploy, lines.join('\n'));
  fs.writeFileSync(job, JOB);
  s.t0 = now();
  const out: Output = {
    ...quiet(),
    result: (d) => {
      if (!Array.isArray(d) && typeof d.applicationId === 'string') s.appId = d.applicationId;
    },
  };
  const code = await main(['submit', '-a', deploy, '-c', job, '--output', 'json'], out);
  if (code !== 0) throw new Error(`submit of ${name} exited ${code}`);
  s.tSubmit = now();
}

async function applicationRun(
  b: Bench,
  i: number,
  variant: string,
  extraLines: readonly string[] = [],
): Promise<Phases> {
  const annotations = Object.entries(LOCAL_POD_ANNOTATIONS)
    .map(([k, v]) => `"${k}" = ${v}`)
    .join(', ');
  const s: Submission = { appId: '', t0: 0, tSubmit: 0 };
  const isMaster = (n: string) => n.startsWith(`${s.appId}-`) && !n.includes('-worker-');
  const watch = new ClusterWatch(() => {
    const master = s.appId ? b.stack.kubelet.podNames().find(isMaster) : undefined;
    return master ? b.stack.kubelet.localAddressOf(master) : undefined;
  }, 5801);
  try {
    await submitDeployment(
      b,
      `deploy-${variant}-${i}`,
      [
        `application { name = bench-e2e-${variant}-${i}, worker-count = ${WORKERS}, worker.slots = 2, worker.memory-mb = 640, master.memory-mb = 640 }`,
        `kubernetes { namespace = ${b.namespace}, image = "apache/seatunnel:2.3.8", service-account = seatunnel-runtime, seatunnel-home = "${b.stack.seatunnelHome}",`,
        `  master.annotations { ${annotations} }, worker.annotations { ${annotations} }, kubeconfig = "${b.cp.info.kubeconfig}" }`,
        ...extraLines,
      ],
      s,
    );
    const { appId, t0, tSubmit } = s;
    const complete = await waitJob(b, appId, t0);
    const master = b.stack.kubelet.podNames().find(isMaster)!;
    const t = logTimes(b.stack.kubelet.logOf(master), {
      runtimeStarted: /runtime: settings loaded/,
      engineStarted: /runtime: engine process started/,
      workersCreated: /runtime: created worker/,
      masterReady: /runtime: engine ready/,
      registered: /runtime: event AllWorkersRegistered/,
      running: /runtime: Zeta job status .*status=RUNNING/,
      finished: /runtime: ending state=SUCCEEDED/,
      exited: /runtime: exit code=0/,
    });
    const w = watch;
    if (process.env.BENCH_VERBOSE) {
      const lines = b.stack.kubelet
        .logOf(master)
        .split('\n')
        .filter((l) => / runtime: /.test(l));
      process.stderr.write(`${appId}:\n${lines.map((l) => `  ${l.slice(l.indexOf(' runtime: ') - 24)}`).join('\n')}\n`);
    }
    return {
      'submit (CLI process work, in-process here)': tSubmit - t0,
      'Job unsuspended → master process started': t.runtimeStarted - tSubmit,
      'master JVM started → REST up': (w.up ?? t.masterReady) - t.runtimeStarted,
      'REST up → workers joined': w.joined !== undefined && w.up !== undefined ? w.joined - w.up : undefined,
      'joined → workers registered':
        w.registered !== undefined && w.joined !== undefined ? w.registered - w.joined : undefined,
      '(runtime: REST up → all registered, its own reads)': t.registered - t.masterReady,
      '(first worker Pod created → master JVM started: the head start)': t.engineStarted - t.workersCreated,
      'registered → job RUNNING': t.running - t.registered,
      'RUNNING → FINISHED': t.finished - t.running,
      'FINISHED → workers removed, process exited': t.exited - t.finished,
      'process exited → Job Complete': complete - t.exited,
      total: complete - t0,
    };
  } finally {
    await watch.stop();
  }
}

/**
 * The same job as an HA application: the masters' StatefulSet starts with the Job, the coordinator
 * (the Job's Pod) creates the workers, waits for every master ready and every worker registered,
 * submits through the ClusterIP Service and follows the job to the end.
 */
async function haRun(b: Bench, i: number): Promise<Phases> {
  // Zeta reads its checkpoint directory from its file, not through a mount: the shared directory.
  const engine = `seatunnel:\n  engine:\n    checkpoint:\n      storage:\n        plugin-config:\n          namespace: ${b.checkpoints}/\n`;
  const s: Submission = { appId: '', t0: 0, tSubmit: 0 };
  await submitDeployment(
    b,
    `deploy-ha-${i}`,
    [
      b.stack.deploymentLines,
      `application { name = bench-e2e-ha-${i}, worker-count = ${WORKERS}, worker.slots = 2, worker.memory-mb = 640, master.memory-mb = 640 }`,
      `application.ha { enabled = true, masters = ${HA_MASTERS}, backup-count = 1 }`,
      `kubernetes { namespace = ${b.namespace}, image = "apache/seatunnel:2.3.8", service-account = seatunnel-runtime, checkpoint-pvc = ${CHECKPOINT_CLAIM}, kubeconfig = "${b.cp.info.kubeconfig}" }`,
      `kubernetes.runtime-files.engine.content = ${JSON.stringify(engine)}`,
    ],
    s,
  );
  const { appId, t0, tSubmit } = s;
  // The masters are gone once the Job completes: note when each one's process started while they run.
  const masterStarts = new Map<string, number>();
  const masters = Array.from({ length: HA_MASTERS }, (_, m) => `${appId}-master-${m}`);
  let done = false;
  const noting = (async () => {
    while (!done && masterStarts.size < HA_MASTERS) {
      for (const m of masters) {
        const at = b.stack.kubelet.processStartedAt(m);
        if (at !== undefined && !masterStarts.has(m)) masterStarts.set(m, at);
      }
      await sleep(POLL_MS);
    }
  })();
  const complete = await waitJob(b, appId, t0).finally(() => (done = true));
  await noting;
  const coordinator = b.stack.kubelet
    .podNames()
    .find((n) => n.startsWith(`${appId}-`) && !n.includes('-worker-') && !n.includes('-master-'))!;
  const log = b.stack.kubelet.logOf(coordinator);
  if (process.env.BENCH_VERBOSE)
    process.stderr.write(
      `${appId}:\n${log
        .split('\n')
        .filter((l) => / runtime: /.test(l))
        .join('\n')}\n`,
    );
  const t = logTimes(log, {
    runtimeStarted: /runtime: settings loaded/,
    workersCreated: /runtime: created worker/,
    mastersReady: new RegExp(`runtime: masters ready=${HA_MASTERS} `),
    registered: /runtime: event AllWorkersRegistered/,
    running: /runtime: Zeta job status .*status=RUNNING/,
    finished: /runtime: ending state=SUCCEEDED/,
    exited: /runtime: exit code=0/,
  });
  const mastersStarted = masterStarts.size === HA_MASTERS ? Math.max(...masterStarts.values()) : undefined;
  return {
    'submit (CLI process work, in-process here)': tSubmit - t0,
    "submit → both masters' processes started": mastersStarted !== undefined ? mastersStarted - tSubmit : undefined,
    'Job unsuspended → coordinator process started': t.runtimeStarted - tSubmit,
    'coordinator started → first worker created': t.workersCreated - t.runtimeStarted,
    'masters started → all masters ready (readiness probes)':
      mastersStarted !== undefined ? t.mastersReady - mastersStarted : undefined,
    'all masters ready → workers registered': t.registered - t.mastersReady,
    'registered → job RUNNING': t.running - t.registered,
    'RUNNING → FINISHED': t.finished - t.running,
    'FINISHED → workers and masters removed, process exited': t.exited - t.finished,
    'process exited → Job Complete': complete - t.exited,
    total: complete - t0,
  };
}

/** The same job on bare Zeta processes (`zeta`'s files and command lines); every member started at once. */
async function bareRun(zeta: BareZeta, name: string): Promise<Phases> {
  const [master, ...workers] = ['127.0.1.1', '127.0.1.2', '127.0.1.3'];
  const t0 = now();
  zeta.start('master', master);
  for (const w of workers) zeta.start('worker', w);
  const watch = new ClusterWatch(() => master, zeta.spec.master.port);
  try {
    await watch.registration(300_000);
    const tSubmit = now();
    const id = (
      JSON.parse(await zeta.rest(master, 'POST', `/submit-job?jobName=${name}`, JOB_JSON, 60_000)) as { jobId: string }
    ).jobId;
    let running: number | undefined;
    for (;;) {
      const s = (JSON.parse(await zeta.rest(master, 'GET', `/job-info/${id}`)) as { jobStatus?: string }).jobStatus;
      if (s === 'RUNNING') running ??= now();
      if (s === 'FINISHED') {
        const finished = now();
        running ??= finished;
        return {
          'master JVM started → REST up': watch.up! - t0,
          'REST up → workers joined': watch.joined! - watch.up!,
          'joined → workers registered': watch.registered! - watch.joined!,
          'registered → job RUNNING': running - tSubmit,
          'RUNNING → FINISHED': finished - running,
          total: finished - t0,
        };
      }
      if (s && ['FAILED', 'CANCELED'].includes(s)) throw new Error(`bare job ${s}`);
      await sleep(POLL_MS);
    }
  } finally {
    await watch.stop();
    zeta.killAll();
  }
}

/** A JVM that starts and exits: `java -version`, the same java the members run. */
function jvmFloor(): Promise<number> {
  return new Promise((resolve, reject) => {
    const t0 = now();
    const p = spawn('java', ['-version'], { stdio: 'ignore' });
    p.on('error', reject);
    p.on('exit', (code) => (code === 0 ? resolve(now() - t0) : reject(new Error(`java -version exited ${code}`))));
  });
}

/** A Zeta master alone, on application mode's files: started → its REST answers. */
async function memberAloneFloor(spec: ApplicationSpec, dir: string): Promise<number> {
  const zeta = new BareZeta(spec, dir, ['127.0.1.1']);
  const t0 = now();
  zeta.start('master', '127.0.1.1');
  try {
    for (;;) {
      const r = await httpCall(
        '127.0.1.1',
        spec.master.port,
        'GET',
        '/hazelcast/rest/maps/overview',
        undefined,
        2000,
      ).catch(() => undefined);
      if (r?.status === 200) return now() - t0;
      if (now() - t0 > 120_000) throw new Error('a master alone did not answer in 120 s');
      await sleep(POLL_MS);
    }
  } finally {
    zeta.killAll();
  }
}

/**
 * A trivial Job on the same control plane and kubelet: created (not suspended) → its process
 * runs, and the process's exit → the Job's Complete condition, read the way the application's is.
 */
async function trivialJobFloor(b: Bench, i: number): Promise<{ start: number; complete: number }> {
  const name = `bench-e2e-floor-${i}`;
  const t0 = now();
  await b.cp.admin.call('POST', `/apis/batch/v1/namespaces/${b.namespace}/jobs`, {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name },
    spec: {
      backoffLimit: 0,
      template: {
        metadata: { annotations: LOCAL_POD_ANNOTATIONS },
        spec: {
          restartPolicy: 'Never',
          serviceAccountName: 'seatunnel-runtime',
          automountServiceAccountToken: false,
          containers: [{ name: 'main', image: 'floor', command: ['/bin/sh', '-c', 'date +%s%3N'] }],
        },
      },
    },
  });
  const complete = await waitJob(b, name, t0);
  const pod = b.stack.kubelet.podNames().find((n) => n.startsWith(`${name}-`))!;
  const stamp = Number(/(\d{13})/.exec(b.stack.kubelet.logOf(pod))?.[1]);
  if (!stamp) throw new Error(`no timestamp in the log of ${pod}`);
  await b.cp.admin.call('DELETE', `/apis/batch/v1/namespaces/${b.namespace}/jobs/${name}?propagationPolicy=Background`);
  return { start: stamp - t0, complete: complete - stamp };
}

function bareSpec(home: string, name: string, extra: Partial<SeaTunnelApplicationProps> = {}): ApplicationSpec {
  return resolveApplication({
    ...extra,
    name,
    image: 'apache/seatunnel:2.3.8',
    jobConfig: JOB,
    seatunnelHome: home,
    workerCount: WORKERS,
    workerSlots: 2,
    workerMemoryMb: 640,
    masterMemoryMb: 640,
  });
}

interface Round {
  app: Phases;
  appBefore: Phases;
  own: Phases;
  ownNoCds: Phases;
  ownJoinWait: Phases;
  stock: Phases;
  jvm: number;
  alone: number;
  job: { start: number; complete: number };
}

function med<R>(rounds: readonly R[], pick: (r: R) => number | undefined): number | undefined {
  const xs = rounds.map(pick).filter((x): x is number => x !== undefined);
  return xs.length ? median(xs) : undefined;
}

const cell = (x: number | undefined) => (x === undefined ? '' : Math.round(x));
const ratio = (a: number | undefined, b: number | undefined) =>
  a === undefined || b === undefined || b <= 0 ? '' : `${(a / b).toFixed(2)}x`;

function report(rounds: readonly Round[]): void {
  const floorOf: Record<string, [string, (r: Round) => number]> = {
    'Job unsuspended → master process started': ['trivial Job: created → process runs', (r) => r.job.start],
    'master JVM started → REST up': ['Zeta master alone (java -version: see below)', (r) => r.alone],
    'process exited → Job Complete': ['trivial Job: process exit → Complete', (r) => r.job.complete],
  };
  const phases = Object.keys(rounds[0].app);
  console.log(
    `One batch application (FakeSource 2 × 1000 rows → Console, ${WORKERS} workers × 2 slots), median of ${rounds.length} rounds, ms.`,
  );
  console.log(
    '"bare, own files": bare Zeta processes on application mode\'s engine files; "bare, defaults": on SeaTunnel 2.3.8\'s config/.',
  );
  console.log('');
  console.log(
    table(
      [
        'phase',
        'application',
        'bare, own files',
        'app / bare',
        'bare, defaults',
        'floor',
        'app / floor',
        'floor measured as',
      ],
      phases.map((p) => {
        const app = med(rounds, (r) => r.app[p]);
        const own = med(rounds, (r) => r.own[p]);
        const stock = med(rounds, (r) => r.stock[p]);
        const f = floorOf[p];
        const floor = f ? med(rounds, f[1]) : ZETA_PHASES.includes(p) ? own : undefined;
        return [
          p,
          cell(app),
          cell(own),
          ratio(app, own),
          cell(stock),
          cell(floor),
          ratio(app, floor),
          f ? f[0] : floor !== undefined ? 'bare, own files' : '',
        ];
      }),
    ),
  );
  console.log('');
  console.log(
    table(
      ['floor', 'median', 'min', 'max'],
      [
        ['java -version', ...stats(rounds.map((r) => r.jvm))],
        ['Zeta master alone → REST up', ...stats(rounds.map((r) => r.alone))],
      ],
    ),
  );
  const gain = (
    label: string,
    phase: string,
    pick: (r: Round) => Phases,
    without: (r: Round) => Phases,
  ): Array<string | number> => {
    const a = med(rounds, (r) => pick(r)[phase]);
    const w = med(rounds, (r) => without(r)[phase]);
    return [label, phase, cell(a), cell(w), a !== undefined && w !== undefined ? Math.round(w - a) : '', ratio(a, w)];
  };
  const bareOwn = (r: Round) => r.own;
  console.log('');
  console.log('Each setting against the same set-up without it (medians, ms; gain = without − with):');
  console.log(
    table(
      ['setting', 'phase', 'with', 'without', 'gain', 'with / without'],
      [
        {
          label: 'class-data sharing archive (bare, own files)',
          pick: bareOwn,
          without: (r: Round) => r.ownNoCds,
          phases: [MASTER_UP, 'total'],
        },
        {
          label: `${JOIN_WAIT_PROPERTY}: 0, not 5 (bare, own files)`,
          pick: bareOwn,
          without: (r: Round) => r.ownJoinWait,
          phases: [JOINED, 'total'],
        },
        {
          label: 'both (application mode)',
          pick: (r: Round) => r.app,
          without: (r: Round) => r.appBefore,
          phases: [MASTER_UP, JOINED, 'total'],
        },
      ].flatMap((c) => c.phases.map((phase) => gain(c.label, phase, c.pick, c.without))),
    ),
  );
  const total = med(rounds, (r) => r.app.total)!;
  const before = med(rounds, (r) => r.appBefore.total)!;
  const stock = med(rounds, (r) => r.stock.total)!;
  const own = med(rounds, (r) => r.own.total)!;
  console.log('');
  console.log(
    table(
      ['start → job FINISHED (application: submit → Job Complete)', 'ms', 'ratio'],
      [
        ['bare Zeta, SeaTunnel 2.3.8 defaults (the baseline)', stock, '1.00x'],
        ["bare Zeta, application mode's engine files", own, ratio(own, stock)],
        ["application mode, without this release's two settings", before, ratio(before, stock)],
        ['application mode', total, `${ratio(total, stock)} (target ≤ 0.90x)`],
      ],
    ),
  );
}

function reportHa(ha: readonly Phases[], rounds: readonly Round[]): void {
  const app = rounds.length ? med(rounds, (r) => r.app.total) : undefined;
  const stock = rounds.length ? med(rounds, (r) => r.stock.total) : undefined;
  console.log('');
  console.log(
    `The same job as an HA application (${HA_MASTERS} masters, backup-count 1), median of ${ha.length} rounds, ms:`,
  );
  console.log(
    table(
      ['phase (HA application)', 'median', 'min', 'max'],
      Object.keys(ha[0]).map((p) => {
        const xs = ha.map((r) => r[p]).filter((x): x is number => x !== undefined);
        return [p, ...(xs.length ? stats(xs).map(Math.round) : ['', '', ''])];
      }),
    ),
  );
  const total = med(ha, (r) => r.total)!;
  if (app !== undefined && stock !== undefined) {
    console.log(
      `HA application total ${Math.round(total)} ms: ${ratio(total, app)} the application without HA, ${ratio(total, stock)} bare Zeta on SeaTunnel's defaults.`,
    );
  }
}

function stats(xs: readonly number[]): number[] {
  return [median(xs), Math.min(...xs), Math.max(...xs)];
}

async function run(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-e2e-'));
  const cp = await ControlPlane.start({ nodes: 3 });
  const namespace = 'bench-e2e';
  await cp.admin.call('POST', '/api/v1/namespaces', {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name: namespace },
  });
  await cp.admin.call('POST', `/api/v1/namespaces/${namespace}/serviceaccounts`, {
    apiVersion: 'v1',
    kind: 'ServiceAccount',
    metadata: { name: 'seatunnel-runtime' },
  });
  const checkpoints = path.join(dir, 'checkpoints');
  fs.mkdirSync(checkpoints, { recursive: true });
  await createSharedClaim(cp.admin, namespace, CHECKPOINT_CLAIM, checkpoints);
  const stack = startLocalStack({
    admin: cp.admin,
    server: cp.info.server,
    caData: cp.info.caData,
    namespace,
    dir,
    persistentVolumes: { [CHECKPOINT_CLAIM]: checkpoints },
  });
  const b: Bench = { cp, stack, namespace, dir, checkpoints };
  try {
    const rounds: Round[] = [];
    const ha: Phases[] = [];
    for (let i = 0; i < RUNS; i++) {
      ha.push(await haRun(b, i));
      console.error(`round ${i + 1}/${RUNS}: HA application ${Math.round(ha[i].total!)} ms`);
      if (HA_ONLY) continue;
      const home = stack.seatunnelHome;
      const spec = bareSpec(home, `bare-${i}`);
      const bare = (name: string, s: ApplicationSpec) =>
        bareRun(new BareZeta(s, path.join(dir, `${name}-${i}`), ['127.0.1.1']), `${name}-${i}`);
      const round: Round = {
        jvm: await jvmFloor(),
        alone: await memberAloneFloor(spec, path.join(dir, `alone-${i}`)),
        job: await trivialJobFloor(b, i),
        app: await applicationRun(b, i, 'now'),
        own: await bare('own', spec),
        stock: await bareRun(
          new StockZeta(spec, path.join(dir, `stock-${i}`), '127.0.1.1', ['127.0.1.2', '127.0.1.3']),
          `stock-${i}`,
        ),
        appBefore: await applicationRun(b, i, 'before', BEFORE_LINES),
        ownNoCds: await bare('own-nocds', bareSpec(home, `bare-nocds-${i}`, NO_CDS)),
        ownJoinWait: await bare('own-joinwait', bareSpec(home, `bare-joinwait-${i}`, JOIN_WAIT)),
      };
      rounds.push(round);
      console.error(
        `round ${i + 1}/${RUNS}: application ${Math.round(round.app.total!)} ms, bare own ${Math.round(round.own.total!)}, bare defaults ${Math.round(round.stock.total!)}`,
      );
    }
    if (rounds.length) report(rounds);
    reportHa(ha, rounds);
  } finally {
    await stack.stop();
    await cp.stop();
  }
}

run().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
