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
//   npm run bench:e2e -- --node   (or BENCH_E2E_NODE=1; root) the same job on a real node, against bare Zeta
//                                 in Pods there (bench/e2e-node.ts)

import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { JOIN_WAIT_PROPERTY } from '../lib/engine/files';
import type { ApplicationSpec } from '../lib/model/spec';
import { LOCAL_POD_ANNOTATIONS } from '../tools/local-stack/local-application';
import { BareZeta, StockZeta } from './bare-zeta';
import { bareRun, bareSpec, jvmFloor, memberAloneFloor } from './e2e-baselines';
import {
  ClusterWatch,
  finishingPhases,
  HA_MASTERS,
  JOB,
  logTimes,
  now,
  POLL_MS,
  RUNTIME_LINES,
  showRuntimeLog,
  trivialJob,
  waitJob,
  WORKERS,
  type Phases,
} from './e2e-measure';
import { nodeRounds } from './e2e-node';
import { report, reportHa, reportNode, type Round } from './e2e-report';
import { sleep } from './harness';
import { type LocalPlane, runCli, SERVICE_ACCOUNT, startLocalPlane } from './local-plane';

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const HA_ONLY = process.env.BENCH_E2E_HA_ONLY === '1';
const ON_NODE = process.argv.includes('--node') || process.env.BENCH_E2E_NODE === '1';
const CHECKPOINT_CLAIM = 'e2e-checkpoints';

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

/** One application's submit, in process: its ID, and the times around it. */
interface Submission {
  appId: string;
  t0: number;
  tSubmit: number;
}

/**
 * Writes the deployment file `name`.conf (the application `app`, with `extra` lines) and the job,
 * and submits them through the CLI's main. `s.appId` is set as soon as the CLI has submitted.
 */
async function submitDeployment(
  b: LocalPlane,
  name: string,
  app: string,
  extra: readonly string[],
  s: Submission,
): Promise<void> {
  const deploy = path.join(b.dir, `${name}.conf`);
  const job = path.join(b.dir, 'job.conf');
  const lines = [
    b.stack.deploymentLines,
    `application { name = ${app}, worker-count = ${WORKERS}, worker.slots = 2, worker.memory-mb = 640, master.memory-mb = 640 }`,
    `kubernetes { namespace = ${b.namespace}, image = "apache/seatunnel:2.3.8", service-account = ${SERVICE_ACCOUNT}, kubeconfig = "${b.cp.info.kubeconfig}" }`,
    ...extra,
  ];
  fs.writeFileSync(deploy, lines.join('\n'));
  fs.writeFileSync(job, JOB);
  s.t0 = now();
  s.appId = String((await runCli(['submit', '-a', deploy, '-c', job])).applicationId);
  s.tSubmit = now();
}

async function applicationRun(
  b: LocalPlane,
  i: number,
  variant: string,
  extraLines: readonly string[] = [],
): Promise<Phases> {
  const s: Submission = { appId: '', t0: 0, tSubmit: 0 };
  const isMaster = (n: string) => n.startsWith(`${s.appId}-`) && !n.includes('-worker-');
  const watch = new ClusterWatch(() => {
    const master = s.appId ? b.stack.kubelet.podNames().find(isMaster) : undefined;
    return master ? b.stack.kubelet.localAddressOf(master) : undefined;
  }, 5801);
  try {
    await submitDeployment(b, `deploy-${variant}-${i}`, `bench-e2e-${variant}-${i}`, extraLines, s);
    const { appId, t0, tSubmit } = s;
    const complete = await waitJob(b.cp.admin, b.namespace, appId, t0);
    const master = b.stack.kubelet.podNames().find(isMaster)!;
    const log = b.stack.kubelet.logOf(master);
    const t = logTimes(log, {
      ...RUNTIME_LINES,
      engineStarted: /runtime: engine process started/,
      masterReady: /runtime: engine ready/,
    });
    const w = watch;
    showRuntimeLog(appId, log);
    return {
      'submit (CLI process work, in-process here)': tSubmit - t0,
      'Job unsuspended → master process started': t.runtimeStarted - tSubmit,
      'master JVM started → REST up': (w.up ?? t.masterReady) - t.runtimeStarted,
      'REST up → workers joined': w.joined !== undefined && w.up !== undefined ? w.joined - w.up : undefined,
      'joined → workers registered':
        w.registered !== undefined && w.joined !== undefined ? w.registered - w.joined : undefined,
      '(runtime: REST up → all registered, its own reads)': t.registered - t.masterReady,
      '(first worker Pod created → master JVM started: the head start)': t.engineStarted - t.workersCreated,
      ...finishingPhases(t, complete, 'workers'),
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
async function haRun(b: LocalPlane, i: number): Promise<Phases> {
  // Zeta reads its checkpoint directory from its file, not through a mount: the shared directory.
  const engine = `seatunnel:\n  engine:\n    checkpoint:\n      storage:\n        plugin-config:\n          namespace: ${b.checkpoints}/\n`;
  const s: Submission = { appId: '', t0: 0, tSubmit: 0 };
  const ha = [
    `application.ha { enabled = true, masters = ${HA_MASTERS}, backup-count = 1 }`,
    `kubernetes.checkpoint-pvc = ${CHECKPOINT_CLAIM}`,
    `kubernetes.runtime-files.engine.content = ${JSON.stringify(engine)}`,
  ];
  await submitDeployment(b, `deploy-ha-${i}`, `bench-e2e-ha-${i}`, ha, s);
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
  const complete = await waitJob(b.cp.admin, b.namespace, appId, t0).finally(() => (done = true));
  await noting;
  const coordinator = b.stack.kubelet
    .podNames()
    .find((n) => n.startsWith(`${appId}-`) && !n.includes('-worker-') && !n.includes('-master-'))!;
  const log = b.stack.kubelet.logOf(coordinator);
  showRuntimeLog(appId, log);
  const t = logTimes(log, { ...RUNTIME_LINES, mastersReady: new RegExp(`runtime: masters ready=${HA_MASTERS} `) });
  const mastersStarted = masterStarts.size === HA_MASTERS ? Math.max(...masterStarts.values()) : undefined;
  return {
    'submit (CLI process work, in-process here)': tSubmit - t0,
    "submit → both masters' processes started": mastersStarted !== undefined ? mastersStarted - tSubmit : undefined,
    'Job unsuspended → coordinator process started': t.runtimeStarted - tSubmit,
    'coordinator started → first worker created': t.workersCreated - t.runtimeStarted,
    'masters started → all masters ready (readiness probes)':
      mastersStarted !== undefined ? t.mastersReady - mastersStarted : undefined,
    'all masters ready → workers registered': t.registered - t.mastersReady,
    ...finishingPhases(t, complete, 'workers and masters'),
    total: complete - t0,
  };
}

/**
 * A trivial Job on the same control plane and kubelet: created (not suspended) → its process
 * runs, and the process's exit → the Job's Complete condition, read the way the application's is.
 */
async function trivialJobFloor(b: LocalPlane, i: number): Promise<{ start: number; complete: number }> {
  const name = `bench-e2e-floor-${i}`;
  const t0 = now();
  await b.cp.admin.call(
    'POST',
    `/apis/batch/v1/namespaces/${b.namespace}/jobs`,
    trivialJob(
      name,
      {
        serviceAccountName: SERVICE_ACCOUNT,
        containers: [{ name: 'main', image: 'floor', command: ['/bin/sh', '-c', 'date +%s%3N'] }],
      },
      { annotations: LOCAL_POD_ANNOTATIONS },
    ),
  );
  const complete = await waitJob(b.cp.admin, b.namespace, name, t0);
  const pod = b.stack.kubelet.podNames().find((n) => n.startsWith(`${name}-`))!;
  const stamp = Number(/(\d{13})/.exec(b.stack.kubelet.logOf(pod))?.[1]);
  if (!stamp) throw new Error(`no timestamp in the log of ${pod}`);
  await b.cp.admin.call('DELETE', `/apis/batch/v1/namespaces/${b.namespace}/jobs/${name}?propagationPolicy=Background`);
  return { start: stamp - t0, complete: complete - stamp };
}

async function run(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-e2e-'));
  const b = await startLocalPlane(dir, 'bench-e2e', CHECKPOINT_CLAIM);
  try {
    const rounds: Round[] = [];
    const ha: Phases[] = [];
    for (let i = 0; i < RUNS; i++) {
      ha.push(await haRun(b, i));
      console.error(`round ${i + 1}/${RUNS}: HA application ${Math.round(ha[i].total!)} ms`);
      if (HA_ONLY) continue;
      const home = b.stack.seatunnelHome;
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
    await b.stop();
  }
}

(ON_NODE ? nodeRounds(RUNS).then(reportNode) : run()).catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
