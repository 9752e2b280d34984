// bench/failover (issue #10): how long a streaming job takes to be RUNNING again after its active
// master is lost, and how many rows that costs, in three set-ups on the same machine:
//   - HA application: the active master's Pod is deleted through the API (as `kubectl delete pod`);
//     the StatefulSet replaces it, the standby Zeta master takes over. The job is polled through
//     the ClusterIP Service (the local stack's proxy) every 100 ms.
//   - bare Zeta: the same engine files (2 masters + 2 workers) started directly on loopback
//     addresses; the active master's process gets SIGTERM (what the kubelet sends a deleted Pod),
//     the job is polled through the standby's REST, and the killed master is started again as soon
//     as it has exited, as the StatefulSet and the kubelet do for the HA application.
//   - non-HA recovery: `cancel --savepoint`, then a new application with `--restore-job-id`,
//     until its job is RUNNING again (polled on the new master's REST).
// One HA application and one bare cluster serve all their trials: kill the active master, time,
// wait until the replacement is ready again, let a few checkpoints pass, repeat. Both run side by
// side and take turns, so that both see the same background load.
//
//   npm run bench:failover   (BENCH_FAILOVER_TRIALS=5, BENCH_RESTORE_TRIALS=3, BENCH_FAILOVER_TABLES=300)

import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Service } from 'kubernetes-types/core/v1';
import { main } from '../lib/cli/main';
import type { Output } from '../lib/cli/output';
import { resolveApplication } from '../lib/model/resolve';
import { ControlPlane } from '../tools/local-stack/control-plane';
import { createSharedClaim } from '../tools/local-stack/shared-claim';
import { startLocalStack, seatunnelHome, type LocalStack } from '../tools/local-stack/local-application';
import { BareZeta, httpCall } from './bare-zeta';
import {
  countAll,
  countedJob,
  countPerWindow,
  emittedTables,
  ROWS_PER_TABLE,
  sinkRows,
  zetaLogTime,
  type Emitted,
  type RowCount,
  type SinkRow,
} from './failover-rows';
import { median, table } from './harness';

const TRIALS = Number(process.env.BENCH_FAILOVER_TRIALS ?? 5);
const RESTORE_TRIALS = Number(process.env.BENCH_RESTORE_TRIALS ?? 3);
const TABLES = Number(process.env.BENCH_FAILOVER_TABLES ?? 300);
/**
 * BENCH_FAILOVER_BARE_RESTART=after-recovery starts bare Zeta's lost master only once the job is
 * RUNNING again, as this bench did before: its survivor then restores the job with the cores to
 * itself, while the HA application's replacement Pod starts at once.
 */
const RESTART_AFTER_RECOVERY = process.env.BENCH_FAILOVER_BARE_RESTART === 'after-recovery';
const CHECKPOINT_MS = 2000;
/** After a replacement is ready: let a few checkpoints complete before the next loss. */
const SETTLE_MS = 3 * CHECKPOINT_MS;
const POLL_MS = 100;
/** A job-info read may take seconds on a loaded master (it rebuilds the job's DAG): a client waits. */
const READ_TIMEOUT_MS = 5000;
const TARGET_MS = 15_000;
const NAMESPACE = 'bench-failover';
const CLAIM = 'failover-checkpoints';
const SERVICE_ACCOUNT = 'seatunnel-runtime';
const JOB = countedJob(TABLES, CHECKPOINT_MS);

const ACTIVE = /This node become a new active master node/;
const RESTORE_BEGIN = (jobId: string) => new RegExp(`begin restore job \\(${jobId}\\) from master active switch`);
const RESTORE_DONE = (jobId: string) => new RegExp(`restore job \\(${jobId}\\) from master active switch finished`);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until<T>(
  what: string,
  timeoutMs: number,
  probe: () => Promise<T | undefined> | T | undefined,
): Promise<T> {
  const t0 = Date.now();
  for (;;) {
    const v = await probe();
    if (v !== undefined && v !== false) return v;
    if (Date.now() - t0 > timeoutMs) throw new Error(`timed out after ${timeoutMs} ms: ${what}`);
    await sleep(POLL_MS);
  }
}

function engineFile(checkpoints: string): string {
  return `seatunnel:\n  engine:\n    checkpoint:\n      interval: ${CHECKPOINT_MS}\n      storage:\n        plugin-config:\n          namespace: ${checkpoints}/\n`;
}

function checkpointFiles(checkpoints: string, jobId: string): number {
  const dir = path.join(checkpoints, jobId);
  if (!fs.existsSync(dir)) return 0;
  return fs.readdirSync(dir, { recursive: true }).length;
}

/** What the workers' logs say: rows the Console sink wrote, splits the source emitted. */
interface Counted {
  rows: SinkRow[];
  emitted: Emitted[];
}

const counted = (logs: readonly string[]): Counted => ({ rows: sinkRows(logs), emitted: emittedTables(logs) });

// ---- one failover, whatever runs the masters ----

interface Masters {
  /** The active master's name (Pod name or address). */
  active(): Promise<string>;
  /** Loses it: deletes the Pod, or signals the process. */
  lose(master: string): Promise<void>;
  /** The job's status as a client reads it through the stable endpoint; undefined if unreadable. */
  jobStatus(): Promise<string | undefined>;
  /** Logs of the masters other than `lost`. */
  survivorLogs(lost: string): string[];
  /** Resolves once `lost` is replaced and ready, with the time its replacement's process started. */
  replaced(lost: string): Promise<number | undefined>;
}

interface Trial {
  lostAt: number;
  /** When the client first could not read RUNNING, if it ever did not. */
  downAt?: number;
  /** When the client read RUNNING again after that (the response's arrival). */
  upAt?: number;
  /** How long that read took. */
  upReadMs?: number;
  newActiveAt?: number;
  restoreBeginAt?: number;
  restoreDoneAt?: number;
  /** The event timed: upAt, or restoreDoneAt when the job never stopped being RUNNING for the client. */
  recoveredAt: number;
  event: 'client' | 'log';
  /** When the replacement's process started: it competes with the survivor's restore for the cores. */
  replacementStartedAt?: number;
  replacedAt: number;
}

async function failover(m: Masters, jobId: string): Promise<Trial> {
  const lost = await m.active();
  const lostAt = Date.now();
  await m.lose(lost);
  let downAt: number | undefined;
  let upAt: number | undefined;
  let upReadMs: number | undefined;
  let doneAt: number | undefined;
  for (;;) {
    const t = Date.now();
    const s = await m.jobStatus();
    const now = Date.now();
    if (s !== 'RUNNING') downAt ??= now;
    else if (downAt !== undefined) {
      upAt = now;
      upReadMs = now - t;
      break;
    }
    doneAt = zetaLogTime(m.survivorLogs(lost), RESTORE_DONE(jobId), lostAt);
    if (s === 'RUNNING' && doneAt !== undefined) break;
    if (now - lostAt > 180_000) throw new Error(`job ${jobId} not RUNNING again 180 s after losing ${lost}`);
    await sleep(Math.max(0, POLL_MS - (now - t)));
  }
  const replacementStartedAt = await m.replaced(lost);
  const replacedAt = Date.now();
  const logs = m.survivorLogs(lost);
  const restoreDoneAt = zetaLogTime(logs, RESTORE_DONE(jobId), lostAt);
  return {
    lostAt,
    downAt,
    upAt,
    upReadMs,
    newActiveAt: zetaLogTime(logs, ACTIVE, lostAt),
    restoreBeginAt: zetaLogTime(logs, RESTORE_BEGIN(jobId), lostAt),
    restoreDoneAt,
    recoveredAt: upAt ?? doneAt!,
    event: upAt !== undefined ? 'client' : 'log',
    replacementStartedAt,
    replacedAt,
  };
}

/** A running cluster with its job, ready for trials; `finish` stops it and counts the rows. */
interface SetUp {
  readonly name: string;
  readonly masters: Masters;
  readonly jobId: string;
  /** Until the job and both masters are back, then a few checkpoints. */
  settle(): Promise<void>;
  finish(): Promise<Counted>;
}

/**
 * Both clusters run side by side and take turns (bare, HA, HA, bare, bare, HA…): each trial of one
 * runs under the other's background load, and neither gets the quieter half of the run. Run one
 * after the other, the two saw different load from the rest of the machine (docs/performance.md).
 */
async function interleavedTrials(setUps: readonly SetUp[]): Promise<Map<string, Trial[]>> {
  const out = new Map<string, Trial[]>(setUps.map((u) => [u.name, []]));
  for (let i = 0; i < TRIALS; i++) {
    for (const u of i % 2 === 0 ? setUps : [...setUps].reverse()) {
      await u.settle();
      const t = await failover(u.masters, u.jobId);
      out.get(u.name)!.push(t);
      console.error(
        `[failover] ${u.name} trial ${i + 1}: RUNNING again after ${t.recoveredAt - t.lostAt} ms (${t.event}), replacement ready after ${t.replacedAt - t.lostAt} ms`,
      );
    }
  }
  return out;
}

// ---- bare Zeta: 2 masters + 2 workers as processes ----

async function startBareZeta(dir: string): Promise<SetUp> {
  const home = seatunnelHome();
  const checkpoints = path.join(dir, 'bare-checkpoints');
  fs.mkdirSync(checkpoints, { recursive: true });
  const spec = resolveApplication({
    name: 'bare-failover',
    image: 'apache/seatunnel:2.3.8',
    jobConfig: JSON.stringify(JOB),
    seatunnelHome: home,
    workerCount: 2,
    workerSlots: 2,
    workerMemoryMb: 640,
    masterMemoryMb: 640,
    haEnabled: true,
    haMasters: 2,
    haBackupCount: 1,
    checkpointPvc: CLAIM,
    runtimeFiles: { engine: { content: engineFile(checkpoints) } },
  });
  const masters = ['127.0.3.1', '127.0.3.2'];
  const workers = ['127.0.3.3', '127.0.3.4'];
  const zeta = new BareZeta(spec, path.join(dir, 'bare'), masters);
  // Where each member's current log begins (a restarted master appends to its file).
  const since = new Map<string, number>();
  const start = (role: 'master' | 'worker', ip: string) => {
    since.set(ip, fs.existsSync(zeta.logFile(ip)) ? fs.statSync(zeta.logFile(ip)).size : 0);
    zeta.start(role, ip);
  };
  const restartedAt = new Map<string, number>();
  const restart = (ip: string) => {
    start('master', ip);
    restartedAt.set(ip, Date.now());
  };
  const currentLog = (ip: string) =>
    fs.existsSync(zeta.logFile(ip)) ? fs.readFileSync(zeta.logFile(ip), 'utf8').slice(since.get(ip) ?? 0) : '';
  const ready = (ip: string) =>
    httpCall(ip, spec.master.port, 'GET', '/hazelcast/health/ready', undefined, 1000).then(
      (r) => r.status === 200,
      () => false,
    );
  try {
    for (const ip of masters) start('master', ip);
    for (const ip of workers) start('worker', ip);
    await zeta.waitWorkers(masters[0], 2);
    const jobId = (
      JSON.parse(
        await zeta.rest(masters[0], 'POST', '/submit-job?jobName=bare-failover', JSON.stringify(JOB), 120_000),
      ) as { jobId: string }
    ).jobId;
    let standby = masters[1];
    const status = async (ip: string) => {
      try {
        return (
          JSON.parse(await zeta.rest(ip, 'GET', `/job-info/${jobId}`, undefined, READ_TIMEOUT_MS)) as {
            jobStatus?: string;
          }
        ).jobStatus;
      } catch {
        return undefined;
      }
    };
    await until('the bare job RUNNING', 240_000, async () => (await status(masters[0])) === 'RUNNING');
    await until('a first bare checkpoint', 60_000, () => checkpointFiles(checkpoints, jobId) > 0);
    const m: Masters = {
      active: () => until('an active bare master', 60_000, () => masters.find((ip) => ACTIVE.test(currentLog(ip)))),
      lose: async (ip) => {
        standby = masters.find((x) => x !== ip)!;
        restartedAt.delete(ip);
        // A supervisor's restart: the replacement starts while the survivor restores the job.
        void zeta.stopMember(ip, 'SIGTERM').then(() => {
          if (!RESTART_AFTER_RECOVERY) restart(ip);
        });
      },
      jobStatus: () => status(standby),
      survivorLogs: (ip) => masters.filter((x) => x !== ip).map(currentLog),
      replaced: async (ip) => {
        if (RESTART_AFTER_RECOVERY) {
          await until(`bare master ${ip} gone`, 60_000, () => !zeta.running(ip));
          restart(ip);
        }
        await until(`bare master ${ip} restarted`, 60_000, () => restartedAt.get(ip));
        await until(`bare master ${ip} ready again`, 180_000, () => ready(ip));
        return restartedAt.get(ip);
      },
    };
    return {
      name: 'bare Zeta',
      masters: m,
      jobId,
      settle: async () => {
        await until(
          'the bare job RUNNING',
          120_000,
          async () => (await status(masters[0])) === 'RUNNING' && (await status(masters[1])) === 'RUNNING',
        );
        await sleep(SETTLE_MS);
      },
      finish: async () => {
        const rows = counted(workers.map((ip) => fs.readFileSync(zeta.logFile(ip), 'utf8')));
        zeta.killAll();
        return rows;
      },
    };
  } catch (e) {
    zeta.killAll();
    throw e;
  }
}

// ---- on the local control plane ----

interface Plane {
  cp: ControlPlane;
  stack: LocalStack;
  dir: string;
  checkpoints: string;
}

function quiet(onResult?: (d: Record<string, unknown>) => void): Output {
  const nop = () => undefined;
  return {
    json: false,
    result: (d) => {
      if (!Array.isArray(d)) onResult?.(d);
    },
    line: nop,
    warn: nop,
    error: (t) => process.stderr.write(`${t}\n`),
  };
}

async function cli(argv: string[]): Promise<Record<string, unknown>> {
  let out: Record<string, unknown> = {};
  const code = await main(
    [...argv, '--output', 'json'],
    quiet((d) => (out = d)),
  );
  if (code !== 0) throw new Error(`seatunnel-app ${argv[0]} exited ${code}`);
  return out;
}

function deployFile(p: Plane, name: string, ha: boolean): string[] {
  const file = path.join(p.dir, `${name}.conf`);
  const job = path.join(p.dir, 'job.conf');
  fs.writeFileSync(
    file,
    [
      p.stack.deploymentLines,
      `application { name = ${name}, worker-count = 2, worker.slots = 2, worker.memory-mb = 640, master.memory-mb = 640, startup-timeout-millis = 300000 }`,
      ha ? `application.ha { enabled = true, masters = 2, backup-count = 1 }` : '',
      `kubernetes { namespace = ${NAMESPACE}, image = "apache/seatunnel:2.3.8", service-account = ${SERVICE_ACCOUNT}, kubeconfig = "${p.cp.info.kubeconfig}" }`,
      ha ? `kubernetes.checkpoint-pvc = ${CLAIM}` : '',
      `kubernetes.runtime-files.engine.content = ${JSON.stringify(engineFile(p.checkpoints))}`,
    ].join('\n'),
  );
  fs.writeFileSync(job, JSON.stringify(JOB));
  return ['-a', file, '-c', job];
}

interface PodLike {
  metadata: { name: string; uid: string; deletionTimestamp?: string };
  status?: { conditions?: Array<{ type: string; status: string }> };
}

async function pods(p: Plane, appId: string, role: string): Promise<PodLike[]> {
  const sel = encodeURIComponent(`seatunnel.apache.org/application-id=${appId},seatunnel.apache.org/role=${role}`);
  const list = await p.cp.admin.call<{ items: PodLike[] }>(
    'GET',
    `/api/v1/namespaces/${NAMESPACE}/pods?labelSelector=${sel}`,
  );
  return list.items.filter((x) => !x.metadata.deletionTimestamp);
}

const isReady = (x: PodLike) => x.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;

async function jobInfo(host: string | undefined, jobId: string): Promise<string | undefined> {
  if (!host) return undefined;
  try {
    const r = await httpCall(host, 5801, 'GET', `/hazelcast/rest/maps/job-info/${jobId}`, undefined, READ_TIMEOUT_MS);
    return r.status === 200 ? (JSON.parse(r.body) as { jobStatus?: string }).jobStatus : undefined;
  } catch {
    return undefined;
  }
}

function workerLogs(p: Plane, appIds: readonly string[]): string[] {
  return p.stack.kubelet
    .podNames()
    .filter((n) => appIds.some((a) => n.startsWith(`${a}-worker-`)))
    .filter((n, i, all) => all.indexOf(n) === i)
    .map((n) => p.stack.kubelet.logOf(n));
}

async function startHaApplication(p: Plane): Promise<SetUp & { startMs: number }> {
  const t0 = Date.now();
  const sub = await cli(['submit', ...deployFile(p, 'failover-ha', true)]);
  const appId = String(sub.applicationId);
  const jobId = String(sub.jobId);
  const svc = async () =>
    p.stack.network.proxyAddress(
      await p.cp.admin.call<Service>('GET', `/api/v1/namespaces/${NAMESPACE}/services/${appId}-rest`),
    );
  let proxy: string | undefined;
  const status = async () => {
    proxy ??= await svc().catch(() => undefined);
    return jobInfo(proxy, jobId);
  };
  await until('the HA job RUNNING', 300_000, async () => (await status()) === 'RUNNING');
  const startMs = Date.now() - t0;
  await until('a first checkpoint', 60_000, () => checkpointFiles(p.checkpoints, jobId) > 0);
  const masterLog = (name: string) => p.stack.kubelet.logOf(name);
  let lostUid = '';
  const m: Masters = {
    active: () =>
      until('an active master Pod', 60_000, async () =>
        (await pods(p, appId, 'master')).map((x) => x.metadata.name).find((n) => ACTIVE.test(masterLog(n))),
      ),
    lose: async (name) => {
      lostUid = (await pods(p, appId, 'master')).find((x) => x.metadata.name === name)!.metadata.uid;
      await p.cp.admin.call('DELETE', `/api/v1/namespaces/${NAMESPACE}/pods/${name}`);
    },
    jobStatus: status,
    survivorLogs: (lost) =>
      [0, 1]
        .map((i) => `${appId}-master-${i}`)
        .filter((n) => n !== lost)
        .map(masterLog),
    replaced: async (lost) => {
      await until(`${lost} replaced and ready`, 180_000, async () =>
        (await pods(p, appId, 'master')).some(
          (x) => x.metadata.name === lost && x.metadata.uid !== lostUid && isReady(x),
        ),
      );
      return p.stack.kubelet.processStartedAt(lost);
    },
  };
  return {
    name: 'HA application',
    masters: m,
    jobId,
    startMs,
    settle: async () => {
      await until(
        'both masters ready and the job RUNNING',
        180_000,
        async () => (await pods(p, appId, 'master')).filter(isReady).length === 2 && (await status()) === 'RUNNING',
      );
      await sleep(SETTLE_MS);
    },
    finish: async () => {
      const rows = counted(workerLogs(p, [appId]));
      await cli(['cancel', '-a', path.join(p.dir, 'failover-ha.conf'), '--id', appId]);
      return rows;
    },
  };
}

interface Restore {
  cancelMs: number;
  submitMs: number;
  runningMs: number;
  totalMs: number;
}

/** Non-HA: cancel --savepoint, then a new application restoring the job, until RUNNING. */
async function nonHaRecovery(p: Plane): Promise<Counted & { restores: Restore[]; starts: number[] }> {
  const masterRest = async (appId: string) => {
    const [master] = await pods(p, appId, 'master');
    return master ? p.stack.kubelet.localAddressOf(master.metadata.name) : undefined;
  };
  const waitRunning = async (appId: string, jobId: string) => {
    await until(
      `${appId}: job RUNNING`,
      300_000,
      async () => (await jobInfo(await masterRest(appId), jobId)) === 'RUNNING',
    );
  };
  let args = deployFile(p, 'failover-plain-0', false);
  const first = await cli(['submit', ...args]);
  let appId = String(first.applicationId);
  const jobId = String(first.jobId);
  const appIds = [appId];
  await waitRunning(appId, jobId);
  const restores: Restore[] = [];
  const starts: number[] = [];
  for (let i = 1; i <= RESTORE_TRIALS; i++) {
    const before = checkpointFiles(p.checkpoints, jobId);
    await until('a checkpoint of the running job', 60_000, () => checkpointFiles(p.checkpoints, jobId) > before);
    await sleep(SETTLE_MS);
    const t0 = Date.now();
    starts.push(t0);
    await cli(['cancel', '-a', args[1], '--id', appId, '--savepoint', '--wait-timeout', '120000']);
    // The old application's processes are gone: its master no longer holds the job.
    const old = appId;
    await until(`${old} gone`, 120_000, () => p.stack.kubelet.running().every((n) => !n.startsWith(old)));
    const t1 = Date.now();
    args = deployFile(p, `failover-plain-${i}`, false);
    appId = String((await cli(['submit', ...args, '--restore-job-id', jobId])).applicationId);
    appIds.push(appId);
    const t2 = Date.now();
    await waitRunning(appId, jobId);
    const t3 = Date.now();
    restores.push({ cancelMs: t1 - t0, submitMs: t2 - t1, runningMs: t3 - t2, totalMs: t3 - t0 });
    console.error(`[failover] non-HA recovery ${i}: RUNNING again after ${t3 - t0} ms`);
  }
  await sleep(SETTLE_MS);
  const rows = counted(workerLogs(p, appIds));
  await cli(['cancel', '-a', args[1], '--id', appId]);
  return { restores, ...rows, starts };
}

async function startPlane(dir: string): Promise<Plane> {
  const cp = await ControlPlane.start({ nodes: 3 });
  const admin = cp.admin;
  await admin.call('POST', '/api/v1/namespaces', {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name: NAMESPACE },
  });
  await admin.call('POST', `/api/v1/namespaces/${NAMESPACE}/serviceaccounts`, {
    apiVersion: 'v1',
    kind: 'ServiceAccount',
    metadata: { name: SERVICE_ACCOUNT },
  });
  // A ReadWriteMany claim bound to a local directory that every local "Pod" sees (as in the engine tier).
  const checkpoints = path.join(dir, 'checkpoints');
  fs.mkdirSync(checkpoints, { recursive: true });
  await createSharedClaim(admin, NAMESPACE, CLAIM, checkpoints);
  const stack = startLocalStack({
    admin,
    server: cp.info.server,
    caData: cp.info.caData,
    namespace: NAMESPACE,
    dir,
    persistentVolumes: { [CLAIM]: checkpoints },
  });
  return { cp, stack, dir, checkpoints };
}

// ---- report ----

const stats = (xs: readonly number[]) => [median(xs), Math.min(...xs), Math.max(...xs)] as const;
const ms = (t: Trial, at: number | undefined) => (at === undefined ? '–' : at - t.lostAt);
const rowCells = (c: RowCount & { drained: boolean }) =>
  c.drained ? [String(c.seen), 'drained', 'drained'] : [c.seen, c.lost, c.duplicated].map(String);

function trialTable(name: string, ts: readonly Trial[], c: Counted): string {
  const counts = countPerWindow(
    c.rows,
    c.emitted,
    ts.map((t) => t.lostAt),
  );
  const head = [
    name,
    'new active',
    'restore begin',
    'restore done',
    'client down',
    'RUNNING again',
    '(last read took)',
    'timed event',
    'replacement started',
    'replacement ready',
  ];
  return table(
    [...head, 'rows seen', 'lost', 'duplicated'],
    ts.map((t, i) => [
      `trial ${i + 1}`,
      ms(t, t.newActiveAt),
      ms(t, t.restoreBeginAt),
      ms(t, t.restoreDoneAt),
      ms(t, t.downAt),
      t.recoveredAt - t.lostAt,
      t.upReadMs ?? '–',
      t.event === 'client' ? 'client read RUNNING' : 'restore done (log)',
      ms(t, t.replacementStartedAt),
      t.replacedAt - t.lostAt,
      ...rowCells(counts[i]),
    ]),
  );
}

async function run(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-failover-'));
  console.error(`[failover] work directory ${dir}`);
  const plane = await startPlane(dir);
  let bare: Counted & { trials: Trial[] };
  let ha: Counted & { trials: Trial[]; startMs: number };
  let plain: Awaited<ReturnType<typeof nonHaRecovery>>;
  try {
    const bareUp = await startBareZeta(dir);
    let bareFinished = false;
    try {
      const haUp = await startHaApplication(plane);
      const trials = await interleavedTrials([bareUp, haUp]);
      bareFinished = true;
      bare = { trials: trials.get(bareUp.name)!, ...(await bareUp.finish()) };
      ha = { trials: trials.get(haUp.name)!, startMs: haUp.startMs, ...(await haUp.finish()) };
    } finally {
      // The HA application goes with the control plane; the bare processes need their own stop.
      if (!bareFinished) await bareUp.finish().catch(() => undefined);
    }
    plain = await nonHaRecovery(plane);
  } finally {
    await plane.stack.stop();
    await plane.cp.stop();
  }
  const haMs = ha.trials.map((t) => t.recoveredAt - t.lostAt);
  const bareMs = bare.trials.map((t) => t.recoveredAt - t.lostAt);
  const plainMs = plain.restores.map((r) => r.totalMs);
  const [haP50] = stats(haMs);
  const [bareP50] = stats(bareMs);
  const [plainP50] = stats(plainMs);

  console.log(
    `Failover of a streaming job (FakeSource, ${TABLES} tables × ${ROWS_PER_TABLE} rows, about one table a second → Console; checkpoint every ${CHECKPOINT_MS} ms; 2 masters, 2 workers × 2 slots).`,
  );
  console.log(
    `HA: one application serves all ${TRIALS} trials (delete the active master's Pod, wait until its replacement is ready, ${SETTLE_MS} ms, repeat). Both clusters run side by side and take turns (bare, HA, HA, bare…), so each sees the other's load.`,
  );
  console.log(
    `bare Zeta: one cluster serves all ${TRIALS} trials (SIGTERM the active master, start it again ${RESTART_AFTER_RECOVERY ? 'once the job is RUNNING again' : 'as soon as it has exited'}, wait until it is ready, ${SETTLE_MS} ms, repeat).`,
  );
  console.log(
    `Times in ms from the loss. "RUNNING again": the arrival of the first job-info reading RUNNING (polled every ${POLL_MS} ms through the stable endpoint) after one that did not; if the job never read otherwise, the survivor's "restore job … from master active switch finished" log line.`,
  );
  console.log('');
  console.log(trialTable('HA application', ha.trials, ha));
  console.log('');
  console.log(trialTable('bare Zeta', bare.trials, bare));
  console.log('');
  const plainCounts = countPerWindow(plain.rows, plain.emitted, plain.starts);
  console.log(
    table(
      [
        'non-HA recovery',
        'cancel --savepoint',
        'submit --restore-job-id',
        'job RUNNING',
        'total',
        'rows seen',
        'lost',
        'duplicated',
      ],
      plain.restores.map((r, i) => [
        `trial ${i + 1}`,
        r.cancelMs,
        r.submitMs,
        r.runningMs,
        r.totalMs,
        ...rowCells(plainCounts[i]),
      ]),
    ),
  );
  console.log('');
  const [haT, bareT, plainT] = [ha, bare, plain].map((c) => countAll(c.rows, c.emitted));
  const totals = (xs: readonly number[], c: ReturnType<typeof countAll>) =>
    [xs.length, c.seen, c.lost, c.duplicated].map(String);
  console.log(
    table(
      ['RUNNING again after the loss (ms)', 'p50', 'min', 'max', 'trials', 'rows seen', 'lost', 'duplicated', 'ratio'],
      [
        ['bare Zeta failover', ...stats(bareMs), ...totals(bareMs, bareT), '1.00x'],
        ['HA application failover', ...stats(haMs), ...totals(haMs, haT), `${(haP50 / bareP50).toFixed(2)}x bare`],
        [
          'non-HA: cancel --savepoint + restore',
          ...stats(plainMs),
          ...totals(plainMs, plainT),
          `${(plainP50 / haP50).toFixed(2)}x HA`,
        ],
      ],
    ),
  );
  console.log(`HA application start (submit → job RUNNING): ${ha.startMs} ms`);
  const under = haP50 < TARGET_MS;
  const close = haP50 <= bareP50 * 1.2;
  console.log(
    `Target: HA failover p50 under ${TARGET_MS / 1000} s (${(haP50 / 1000).toFixed(1)} s: ${under ? 'met' : 'MISSED'}) and at most 20 % slower than bare Zeta (${((haP50 / bareP50 - 1) * 100).toFixed(0)} % slower: ${close ? 'met' : 'MISSED'}).`,
  );
}

run().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 1;
});
