// bench/data (issue 26): what application mode costs the data path — the pipelines of
// apps/examples/pipelines against a real PostgreSQL, as applications (the local control plane
// with real Zeta processes, the engine tier's set-up) and on bare Zeta processes started from the
// same deployment file's engine files (same engine home, parallelism, workers, slots, memory):
//
//   - postgres-batch: 1 000 000 rows JDBC → JDBC. Timed from the job's RUNNING to FINISHED, read
//     the same way in both (the master's REST, every POLL_MS); rows/s = rows / that time. The
//     application's whole run (submit → SUCCEEDED) is printed beside it.
//   - postgres-stream-xa: 600 rows into PostgreSQL with XA (HA: 2 masters). Its rate is set by its
//     FakeSource (a split every 4 s); timed from the first committed rows to the last, counted in
//     the table every 250 ms in both. It shows that exactly-once through the orchestration commits
//     as fast as without it.
//
// Rounds alternate the two kinds, so each sees the same machine; medians of BENCH_RUNS (3) rounds.
//
//   npm run bench:data

import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { packageRoot } from '../lib/cli/io';
import { loadApplication } from '../lib/model/load';
import type { ApplicationSpec } from '../lib/model/spec';
import { runtimeSettings } from '../lib/plan/runtime-settings';
import { resolveJobConfig } from '../runtime/src/settings';
import { startPostgres, type Postgres } from '../tools/local-stack/postgres';
import { BareZeta } from './bare-zeta';
import { now, POLL_MS } from './e2e-measure';
import { median, sleep, table } from './harness';
import { type LocalPlane, runCli, startLocalPlane } from './local-plane';

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const EXAMPLES = path.join(packageRoot(), 'apps', 'examples', 'pipelines');
const DATABASE = 'pipelines';
/** The stream's deploy.conf names this claim; bare Zeta writes to the same directory. */
const CLAIM = 'pipelines-checkpoints';
const BATCH_ROWS = 1_000_000;
const STREAM_ROWS = 600;
const TIMEOUT_MS = 600_000;

const fmt = (x: number) => (x < 100 ? x.toFixed(2) : Math.round(x).toLocaleString('en'));
const example = (pipeline: string, file: string) => fs.readFileSync(path.join(EXAMPLES, pipeline, file), 'utf8');

interface Setting {
  readonly b: LocalPlane;
  readonly pg: Postgres;
}

/** The example's deploy.conf with what this cluster needs, and the same engine checkpoint directory for both kinds. */
function deploymentText(s: Setting, pipeline: string): string {
  return [
    example(pipeline, 'deploy.conf'),
    `kubernetes.namespace = ${s.b.namespace}`,
    `kubernetes.kubeconfig = ${JSON.stringify(s.b.cp.info.kubeconfig)}`,
    s.b.stack.deploymentLines,
    // The engine reads its checkpoint directory from its file: the claim's local directory.
    `kubernetes.runtime-files.engine.content = """seatunnel:\n  engine:\n    checkpoint:\n      interval: 3000\n      storage:\n        plugin-config:\n          namespace: ${s.b.checkpoints}/\n"""`,
  ].join('\n');
}

/** What a job's REST says of it on the master at `host`, or undefined while it does not answer. */
async function jobStatus(zeta: BareZeta, host: string, jobId: string): Promise<string | undefined> {
  const text = await zeta.rest(host, 'GET', `/job-info/${jobId}`, undefined, 2000).catch(() => undefined);
  return text ? (JSON.parse(text) as { jobStatus?: string }).jobStatus : undefined;
}

/** RUNNING → FINISHED of `jobId` as the master at `host()` reports it, polled every POLL_MS. */
async function runningToFinished(zeta: BareZeta, host: () => string | undefined, jobId: string): Promise<number> {
  const t0 = now();
  let running: number | undefined;
  for (;;) {
    const h = host();
    const status = h ? await jobStatus(zeta, h, jobId) : undefined;
    if (status === 'RUNNING') running ??= now();
    if (status === 'FINISHED') return now() - (running ?? now());
    if (status && ['FAILED', 'CANCELED'].includes(status)) throw new Error(`job ${jobId} ended ${status}`);
    if (now() - t0 > TIMEOUT_MS) throw new Error(`job ${jobId} did not finish in ${TIMEOUT_MS} ms`);
    await sleep(POLL_MS);
  }
}

/** First committed rows → all `rows` committed in `table`, counted every 250 ms. */
async function commitWindow(pg: Postgres, tableName: string, rows: number): Promise<number> {
  const t0 = now();
  let first: number | undefined;
  for (;;) {
    const [r] = await pg.query<{ n: string }>(DATABASE, `select count(*) as n from ${tableName}`);
    const n = Number(r?.n ?? 0);
    if (n > 0) first ??= now();
    if (n > rows) throw new Error(`${n} rows in ${tableName}, more than the ${rows} produced`);
    if (n === rows) return now() - first!;
    if (now() - t0 > TIMEOUT_MS) throw new Error(`${n} of ${rows} rows in ${tableName} after ${TIMEOUT_MS} ms`);
    await sleep(250);
  }
}

/** The spec both kinds run: the example's deployment file as the CLI reads it. */
function specOf(s: Setting, pipeline: string): ApplicationSpec {
  return loadApplication(
    { deploymentText: deploymentText(s, pipeline), jobConfig: example(pipeline, 'job.conf'), env: {} },
    { ids: 'random' },
  );
}

/** A throw-away REST client: BareZeta's, for a master it did not start (the application's). */
function restClient(spec: ApplicationSpec, dir: string): BareZeta {
  return new BareZeta(spec, fs.mkdtempSync(path.join(dir, 'rest-')), ['127.0.0.1']);
}

interface AppResult {
  readonly windowMs: number;
  readonly wholeMs: number;
}

async function asApplication(s: Setting, pipeline: string, i: number): Promise<AppResult> {
  const deploy = path.join(s.b.dir, `${pipeline}-${i}.conf`);
  fs.writeFileSync(deploy, deploymentText(s, pipeline));
  const job = path.join(EXAMPLES, pipeline, 'job.conf');
  const t0 = now();
  const submitted = await runCli(['submit', '-a', deploy, '-c', job]);
  const appId = String(submitted.applicationId);
  const jobId = String(submitted.jobId);
  const kubelet = s.b.stack.kubelet;
  try {
    if (pipeline === 'postgres-batch') {
      const master = () => {
        const pod = kubelet.podNames().find((n) => n.startsWith(`${appId}-`) && !n.includes('-worker-'));
        return pod ? kubelet.localAddressOf(pod) : undefined;
      };
      const windowMs = await runningToFinished(restClient(specOf(s, pipeline), s.b.dir), master, jobId);
      await runCli(['status', '-a', deploy, '--id', appId, '--wait', '--wait-timeout', String(TIMEOUT_MS)]);
      return { windowMs, wholeMs: now() - t0 };
    }
    const windowMs = await commitWindow(s.pg, 'events', STREAM_ROWS);
    return { windowMs, wholeMs: now() - t0 };
  } finally {
    if (pipeline !== 'postgres-batch') await runCli(['cancel', '-a', deploy, '--id', appId]).catch(() => undefined);
    // Nothing of it may load the next round.
    for (const t0w = now(); kubelet.running().some((n) => n.startsWith(appId)) && now() - t0w < 120_000;)
      await sleep(500);
  }
}

async function onBareZeta(s: Setting, pipeline: string, i: number): Promise<number> {
  const spec = specOf(s, pipeline);
  const dir = fs.mkdtempSync(path.join(s.b.dir, `bare-${pipeline}-${i}-`));
  const masters = spec.ha ? Array.from({ length: spec.ha.masters }, (_, k) => `127.0.3.${k + 1}`) : ['127.0.3.1'];
  const workers = Array.from({ length: spec.worker.count }, (_, k) => `127.0.3.${k + 11}`);
  const zeta = new BareZeta(spec, dir, masters);
  // The job as the runtime submits it: HOCON resolved with the same variables, as Zeta's REST body.
  const settings = { ...runtimeSettings(spec), jobConfig: { kind: 'inline' as const, env: 'BENCH_JOB' } };
  const body = resolveJobConfig(
    settings,
    { ...s.pg.connectionEnv(DATABASE), BENCH_JOB: example(pipeline, 'job.conf') },
    { readFile: () => '' },
  ).json;
  for (const m of masters) zeta.start('master', m);
  for (const w of workers) zeta.start('worker', w);
  try {
    await zeta.waitWorkers(masters[0], workers.length);
    const jobId = String(
      (
        JSON.parse(await zeta.rest(masters[0], 'POST', `/submit-job?jobName=bench-${pipeline}`, body, 60_000)) as {
          jobId: string;
        }
      ).jobId,
    );
    if (pipeline === 'postgres-batch') return await runningToFinished(zeta, () => masters[0], jobId);
    return await commitWindow(s.pg, 'events', STREAM_ROWS);
  } finally {
    zeta.killAll();
    await sleep(2000);
  }
}

async function main(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'seatunnel-app-bench-data-'));
  const [b, pg] = await Promise.all([
    startLocalPlane(dir, 'bench-data', CLAIM),
    // XA: prepared transactions until their checkpoint commits.
    startPostgres({ maxPreparedTransactions: 100 }),
  ]);
  const s: Setting = { b, pg };
  try {
    await pg.createDatabase(DATABASE);
    await b.cp.admin.call('POST', `/api/v1/namespaces/${b.namespace}/secrets`, {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'pipelines-postgres' },
      stringData: pg.connectionEnv(DATABASE),
    });
    const rows: Record<string, { app: number[]; whole: number[]; bare: number[] }> = {
      'postgres-batch': { app: [], whole: [], bare: [] },
      'postgres-stream-xa': { app: [], whole: [], bare: [] },
    };
    for (let i = 1; i <= RUNS; i++) {
      for (const pipeline of Object.keys(rows)) {
        const count = pipeline === 'postgres-batch' ? BATCH_ROWS : STREAM_ROWS;
        const reset = () => pg.query(DATABASE, example(pipeline, 'setup.sql'));
        // Alternate which kind goes first, so neither always runs on a warmer machine.
        const kinds = i % 2 === 1 ? (['app', 'bare'] as const) : (['bare', 'app'] as const);
        for (const kind of kinds) {
          await reset();
          if (kind === 'app') {
            const r = await asApplication(s, pipeline, i);
            rows[pipeline].app.push(count / (r.windowMs / 1000));
            rows[pipeline].whole.push(r.wholeMs / 1000);
          } else {
            rows[pipeline].bare.push(count / ((await onBareZeta(s, pipeline, i)) / 1000));
          }
          process.stderr.write(
            `[bench:data] round ${i} ${pipeline} ${kind}: ${fmt(rows[pipeline][kind].at(-1)!)} rows/s\n`,
          );
        }
      }
    }
    console.log(
      `\nbench:data — rows/s, medians of ${RUNS} rounds; application mode against bare Zeta on the same engine files (target ≥ 0.95×)\n`,
    );
    console.log(
      table(
        [
          'pipeline',
          'rows',
          'bare Zeta (min–max)',
          'application (min–max)',
          'ratio',
          'application submit → SUCCEEDED / 600 rows (s)',
        ],
        Object.entries(rows).map(([pipeline, r]) => [
          pipeline,
          pipeline === 'postgres-batch' ? fmt(BATCH_ROWS) : fmt(STREAM_ROWS),
          `${fmt(median(r.bare))} (${fmt(Math.min(...r.bare))}–${fmt(Math.max(...r.bare))})`,
          `${fmt(median(r.app))} (${fmt(Math.min(...r.app))}–${fmt(Math.max(...r.app))})`,
          `${(median(r.app) / median(r.bare)).toFixed(2)}×`,
          median(r.whole).toFixed(1),
        ]),
      ),
    );
  } finally {
    await Promise.all([b.stop(), pg.stop()]);
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
