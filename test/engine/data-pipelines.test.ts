// Real data (issue 26): application mode runs a user's pipelines against a real PostgreSQL and a
// real Kafka broker with the connectors and driver the engine home carries (tools/seatunnel/install.sh),
// and every row arrives once: counted (and checksummed) in the database or the topic, not in Zeta's
// metrics — a JDBC batch, Kafka as a sink and as a batch source, and a stream with the JDBC sink's
// exactly-once mode (XA) through a killed worker, standby, active master and coordinator.

import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ANNOTATIONS, parseRowsAnnotation } from '../../lib/contract';
import { packageRoot } from '../../lib/cli/io';
import { adminHttp, clusterInfo, useTestNamespace, waitFor } from '../support/cluster';
import type { LocalStack } from '../../tools/local-stack/local-application';
import { startEngineStack } from '../support/engine-stack';
import { startPostgres, type Postgres } from '../../tools/local-stack/postgres';
import { startKafka, type Kafka } from '../../tools/local-stack/kafka';
import {
  KAFKA_BATCH_SOURCE,
  KAFKA_SECRET,
  KAFKA_SINK,
  batchSourceMessages,
  countIds,
} from '../../apps/examples/kafka-pipelines';
import { createSharedClaim } from '../../tools/local-stack/shared-claim';
import { run } from '../cluster/cli-support';

jest.setTimeout(10 * 60_000);

const SERVICE_ACCOUNT = 'seatunnel-runtime';
const DATABASE = 'pipelines';
const EXAMPLES = path.join(packageRoot(), 'apps', 'examples', 'pipelines');
/** apps/examples/pipelines/postgres-batch/setup.sql makes this many source rows. */
const BATCH_ROWS = 1_000_000;
/** apps/examples/pipelines/postgres-stream-xa/job.conf's rows, each once (random ids from a range too wide to repeat). */
const STREAM_ROWS = 600;
/** The stream's checkpoint volume (its deploy.conf names this claim). */
const CLAIM = 'pipelines-checkpoints';

interface StreamCheck extends Record<string, unknown> {
  rows: string;
  ids: string;
  duplicated: string;
}

interface TableLine extends Record<string, unknown> {
  table: string;
  rows: string;
  ids: string;
  checksum: string;
}

describe('data pipelines: the examples of apps/examples/pipelines against a real PostgreSQL and Kafka, as applications', () => {
  const ns = useTestNamespace('data');
  let stack: LocalStack | undefined;
  let pg: Postgres | undefined;
  let kafka: Kafka | undefined;
  let workDir: string;
  let checkpoints: string;

  beforeAll(async () => {
    workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'seatunnel-app-data-'));
    // XA: a prepared transaction per writer (one per source table) until its checkpoint commits.
    const database = startPostgres({ maxPreparedTransactions: 100 }).then((p) => (pg = p));
    const broker = startKafka().then((k) => (kafka = k));
    // The stream's checkpoints on a volume every master reads (tools/local-stack/shared-claim.ts).
    checkpoints = path.join(workDir, 'checkpoints');
    fs.mkdirSync(checkpoints);
    await createSharedClaim(adminHttp(), ns.name, CLAIM, checkpoints);
    stack = await startEngineStack(ns.name, SERVICE_ACCOUNT, {
      dir: path.join(workDir, 'pods'),
      persistentVolumes: { [CLAIM]: checkpoints },
    });
    await Promise.all([database, broker]);
    await pg!.createDatabase(DATABASE);
    // The Secrets the examples' deploy.conf reads (env-from), as a user would create them.
    for (const [name, stringData] of [
      ['pipelines-postgres', pg!.connectionEnv(DATABASE)],
      [KAFKA_SECRET, kafka!.connectionEnv()],
    ] as const)
      await adminHttp().call('POST', `/api/v1/namespaces/${ns.name}/secrets`, {
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name },
        stringData,
      });
  });

  afterAll(async () => {
    await Promise.all([stack?.stop(), pg?.stop(), kafka?.stop()]);
    await adminHttp()
      .request('DELETE', `/api/v1/persistentvolumes/${ns.name}-${CLAIM}`)
      .catch(() => undefined);
    fs.rmSync(workDir, { recursive: true, force: true });
  });

  const exampleFile = (pipeline: string, file: string) => fs.readFileSync(path.join(EXAMPLES, pipeline, file), 'utf8');

  /** The example's deploy.conf as a user has it, then only what this cluster needs: namespace, kubeconfig, local Pods. */
  function exampleArgs(pipeline: string, extra: string[] = []): string[] {
    const deploy = path.join(workDir, `${pipeline}.deploy.conf`);
    fs.writeFileSync(
      deploy,
      [
        exampleFile(pipeline, 'deploy.conf'),
        `kubernetes.namespace = ${ns.name}`,
        `kubernetes.kubeconfig = ${JSON.stringify(clusterInfo().kubeconfig)}`,
        stack!.deploymentLines,
        ...extra,
      ].join('\n'),
    );
    return ['-a', deploy, '-c', path.join(EXAMPLES, pipeline, 'job.conf')];
  }

  /** `status` / `cancel` of an application with its example's deployment file (as written by exampleArgs). */
  const appCommand = (command: 'status' | 'cancel', pipeline: string, appId: string, ...flags: string[]) =>
    run([command, '-a', path.join(workDir, `${pipeline}.deploy.conf`), '--id', appId, ...flags]);

  const noProcessLeft = (appId: string) =>
    waitFor(() => stack!.kubelet.running().filter((n) => n.startsWith(appId)).length === 0, {
      description: `no process of ${appId} left`,
      timeoutMs: 120_000,
    });

  async function waitSucceeded(pipeline: string, appId: string): Promise<void> {
    const status = await appCommand(
      'status',
      pipeline,
      appId,
      '--wait',
      '--wait-timeout',
      '480000',
      '--wait-interval',
      '1000',
    );
    // The whole status on a failure: its reason and message say what went wrong.
    if (status.value('Status') === 'SUCCEEDED') return;
    const master = stack!.kubelet.podNames().find((n) => n.startsWith(appId) && !n.includes('-worker-'));
    const causes = (master ? stack!.kubelet.logOf(master) : '')
      .split('\n')
      .filter((l) => /ERROR|Caused by|Exception:/.test(l))
      .slice(-30);
    throw new Error(`${appId} did not succeed:\n${status.out.join('\n')}\nits master's errors:\n${causes.join('\n')}`);
  }

  /** Zeta's own row counts, as status prints them from the Job's annotation. */
  async function zetaRows(appId: string) {
    const j = await adminHttp().call<{ metadata: { annotations?: Record<string, string> } }>(
      'GET',
      `/apis/batch/v1/namespaces/${ns.name}/jobs/${appId}`,
    );
    return parseRowsAnnotation(j.metadata.annotations?.[ANNOTATIONS.rows]);
  }

  /** Submits the example as it is and waits for SUCCEEDED; its application ID and seconds from submit. */
  async function runToSuccess(pipeline: string): Promise<{ appId: string; seconds: number }> {
    const t0 = Date.now();
    const submitted = await run(['submit', ...exampleArgs(pipeline)]);
    expect(submitted.err).toEqual([]);
    expect(submitted.code).toBe(0);
    const appId = submitted.value('Application ID')!;
    await waitSucceeded(pipeline, appId);
    return { appId, seconds: (Date.now() - t0) / 1000 };
  }

  test(`batch PostgreSQL → PostgreSQL (postgres-batch), ${BATCH_ROWS.toLocaleString('en')} rows: the target equals the source by count, ids and checksum`, async () => {
    await pg!.query(DATABASE, exampleFile('postgres-batch', 'setup.sql'));
    const { appId, seconds } = await runToSuccess('postgres-batch');
    process.stderr.write(
      `[data] postgres-batch, ${BATCH_ROWS} rows, as an application: ${seconds.toFixed(1)} s from submit to SUCCEEDED\n`,
    );

    const [source, target] = await pg!.query<TableLine>(DATABASE, exampleFile('postgres-batch', 'check.sql'));
    expect(source.table).toBe('source_rows');
    expect(Number(source.rows)).toBe(BATCH_ROWS);
    expect(target).toEqual({ ...source, table: 'target_rows' });
    // Zeta's own count agrees (status prints it).
    expect(await zetaRows(appId)).toMatchObject({ read: BATCH_ROWS, written: BATCH_ROWS });
    await noProcessLeft(appId);
  });

  test(`Kafka as a sink (kafka-sink): ${KAFKA_SINK.rows.toLocaleString('en')} FakeSource rows into a topic, exactly that many messages with as many ids`, async () => {
    await kafka!.createTopic(KAFKA_SINK.topic, KAFKA_SINK.partitions);
    const { appId, seconds } = await runToSuccess('kafka-sink');
    const messages = await kafka!.messages(KAFKA_SINK.topic);
    const count = countIds(messages);
    process.stderr.write(
      `[data] kafka-sink, ${KAFKA_SINK.rows} rows, as an application: ${seconds.toFixed(1)} s from submit to SUCCEEDED; the topic holds ${count.messages} messages, ${count.ids} ids\n`,
    );
    expect(count).toEqual({ messages: KAFKA_SINK.rows, ids: KAFKA_SINK.rows, unreadable: 0 });
    // Every message is a row of the job's schema, as JSON.
    expect(Object.keys(JSON.parse(messages[0]!) as object).sort()).toEqual(['id', 'name', 'score']);
    expect(await zetaRows(appId)).toMatchObject({ read: KAFKA_SINK.rows, written: KAFKA_SINK.rows });
    await noProcessLeft(appId);
  });

  test(`Kafka as a batch source (kafka-batch-source): ${KAFKA_BATCH_SOURCE.messages.toLocaleString('en')} messages of a topic into PostgreSQL, each once with its values`, async () => {
    await pg!.query(DATABASE, exampleFile('kafka-batch-source', 'setup.sql'));
    await kafka!.createTopic(KAFKA_BATCH_SOURCE.topic, KAFKA_BATCH_SOURCE.partitions);
    expect(await kafka!.produce(KAFKA_BATCH_SOURCE.topic, batchSourceMessages())).toBe(KAFKA_BATCH_SOURCE.messages);
    const { appId, seconds } = await runToSuccess('kafka-batch-source');
    const [expected, table] = await pg!.query<TableLine>(DATABASE, exampleFile('kafka-batch-source', 'check.sql'));
    process.stderr.write(
      `[data] kafka-batch-source, ${KAFKA_BATCH_SOURCE.messages} messages, as an application: ${seconds.toFixed(1)} s from submit to SUCCEEDED; the table holds ${table?.rows} rows, ${table?.ids} ids\n`,
    );
    expect(expected).toMatchObject({ table: 'expected', rows: String(KAFKA_BATCH_SOURCE.messages) });
    expect(table).toEqual({ ...expected, table: 'kafka_events' });
    expect(await zetaRows(appId)).toMatchObject({
      read: KAFKA_BATCH_SOURCE.messages,
      written: KAFKA_BATCH_SOURCE.messages,
    });
    await noProcessLeft(appId);
  });

  describe('stream into PostgreSQL exactly once (postgres-stream-xa, HA, replace): a fault at a time, every row once', () => {
    let appId: string;
    let jobId: string;
    const check = async () =>
      (await pg!.query<StreamCheck>(DATABASE, exampleFile('postgres-stream-xa', 'check.sql')))[0];
    const committed = async () => Number((await check()).rows);

    /** The table after a fault: rows committed past `from` (the job goes on), and no id twice so far. */
    async function rowsGoOn(from: number, what: string): Promise<void> {
      const t0 = Date.now();
      const target = Math.min(from + 40, STREAM_ROWS);
      await waitFor(async () => (await committed()) >= target, {
        description: `rows committed past ${from} after ${what} (${target} of ${STREAM_ROWS})`,
        timeoutMs: 240_000,
        intervalMs: 1000,
      }).catch(async (e: Error) => {
        throw new Error(`${e.message}\n${await appState()}`);
      });
      const c = await check();
      process.stderr.write(
        `[data] ${what}: rows committed again ${((Date.now() - t0) / 1000).toFixed(1)} s later; ${c.rows} rows, ${c.duplicated} duplicated\n`,
      );
      expect(c.duplicated).toBe('0');
    }

    async function appState(): Promise<string> {
      const j = await adminHttp()
        .call<{ metadata: { annotations?: Record<string, string> } }>(
          'GET',
          `/apis/batch/v1/namespaces/${ns.name}/jobs/${appId}`,
        )
        .catch(() => undefined);
      const a = Object.entries(j?.metadata.annotations ?? {})
        .filter(([k]) => k.startsWith('seatunnel.apache.org/'))
        .map(([k, v]) => `${k.slice('seatunnel.apache.org/'.length)}=${v.slice(0, 200)}`)
        .join(', ');
      const errors = stack!.kubelet
        .podNames()
        .filter((n) => n.startsWith(appId))
        .flatMap((n) =>
          stack!.kubelet
            .logOf(n)
            .split('\n')
            .filter((l) => /ERROR|Caused by/.test(l))
            .slice(-5)
            .map((l) => `${n}: ${l}`),
        );
      const [prepared] = await pg!.query<{ n: string }>(DATABASE, 'select count(*) as n from pg_prepared_xacts');
      return `application ${appId}: ${a}\nprepared transactions in PostgreSQL: ${prepared.n}\nerrors in its Pods' logs:\n${errors.join('\n')}`;
    }

    const jobAnnotation = async (app: string, key: string) =>
      (
        await adminHttp().call<{ metadata: { annotations?: Record<string, string> } }>(
          'GET',
          `/apis/batch/v1/namespaces/${ns.name}/jobs/${app}`,
        )
      ).metadata.annotations?.[key];

    /** JobSubmitted Events of an application: 1 unless a coordinator sent the job again. */
    async function submissions(app: string): Promise<number> {
      const events = await adminHttp().call<{ items: Array<{ reason: string }> }>(
        'GET',
        `/api/v1/namespaces/${ns.name}/events?fieldSelector=${encodeURIComponent(`involvedObject.kind=Job,involvedObject.name=${app}`)}`,
      );
      return events.items.filter((e) => e.reason === 'JobSubmitted').length;
    }

    /** The engine reads its checkpoint directory from its file, not through a mount: the shared directory. */
    const engineCheckpoints = () =>
      `kubernetes.runtime-files.engine.content = """seatunnel:\n  engine:\n    checkpoint:\n      interval: 3000\n      storage:\n        plugin-config:\n          namespace: ${checkpoints}/\n"""`;

    /** The Pods of a role whose process runs now (the newest of each name). */
    const processes = (role: 'worker' | 'master' | 'coordinator') =>
      stack!.kubelet.running().filter((n) => {
        if (!n.startsWith(`${appId}-`)) return false;
        if (role === 'worker') return n.includes('-worker-');
        if (role === 'master') return n.includes('-master-');
        return !n.includes('-worker-') && !n.includes('-master-');
      });

    /** The master whose Zeta took the active role last (it logs it; the oldest member wins). */
    async function activeMaster(): Promise<string> {
      let active: string | undefined;
      await waitFor(
        () => {
          active = processes('master').find((n) => /become a new active master/i.test(stack!.kubelet.logOf(n)));
          return active !== undefined;
        },
        { description: 'a master that says it is the active one', timeoutMs: 60_000 },
      );
      return active!;
    }

    async function kill(pod: string, what: string): Promise<void> {
      const before = await committed();
      process.stderr.write(`[data] killing ${what} (${pod}) at ${before} committed rows\n`);
      expect(stack!.kubelet.signal(pod, 'SIGKILL')).toBe(true);
      await rowsGoOn(before, what);
    }

    test('the stream runs and commits its first rows', async () => {
      await pg!.query(DATABASE, exampleFile('postgres-stream-xa', 'setup.sql'));
      const submitted = await run(['submit', ...exampleArgs('postgres-stream-xa', [engineCheckpoints()])]);
      expect(submitted.err).toEqual([]);
      expect(submitted.code).toBe(0);
      appId = submitted.value('Application ID')!;
      jobId = submitted.value('Job ID')!;
      await rowsGoOn(0, 'the start');
    });

    test('a worker killed: replaced, the pipeline restored, no row twice', async () => {
      await kill(processes('worker')[0], 'a worker');
    });

    test('the standby master killed: no row twice', async () => {
      const active = await activeMaster();
      await kill(
        processes('master').find((n) => n !== active)!,
        'the standby master',
      );
    });

    test('the active master killed: the standby takes over the job, no row twice', async () => {
      await kill(await activeMaster(), 'the active master');
    });

    test('the coordinator killed: the Job replaces it, it re-attaches without a second submission, no row twice', async () => {
      await kill(processes('coordinator')[0], 'the coordinator');
    });

    test('cancel --savepoint, then --restore-job-id into a new application: the same Zeta job goes on from the savepoint, no row twice', async () => {
      // The first application: one Zeta job and one submission through every fault above.
      expect(await jobAnnotation(appId, ANNOTATIONS.zetaJobId)).toBe(jobId);
      expect(await submissions(appId)).toBe(1);
      const cancelled = await appCommand(
        'cancel',
        'postgres-stream-xa',
        appId,
        '--savepoint',
        '--wait-timeout',
        '120000',
      );
      expect(cancelled.code).toBe(0);
      await noProcessLeft(appId);
      const atSavepoint = await check();
      process.stderr.write(
        `[data] savepoint: ${atSavepoint.rows} rows committed, ${atSavepoint.duplicated} duplicated\n`,
      );
      expect(atSavepoint.duplicated).toBe('0');
      expect(Number(atSavepoint.rows)).toBeLessThan(STREAM_ROWS);

      const restored = await run([
        'submit',
        ...exampleArgs('postgres-stream-xa', [engineCheckpoints()]),
        '--restore-job-id',
        jobId,
      ]);
      expect(restored.err).toEqual([]);
      expect(restored.code).toBe(0);
      appId = restored.value('Application ID')!;
      expect(restored.value('Job ID')).toBe(jobId);
      await rowsGoOn(Number(atSavepoint.rows), 'the restore from the savepoint');
    });

    test(`exactly ${STREAM_ROWS} rows committed, each once, under the one Zeta job; cancel removes everything`, async () => {
      await waitFor(async () => (await committed()) >= STREAM_ROWS, {
        description: `all ${STREAM_ROWS} rows committed (fewer for good: a checkpoint's rows lost)`,
        timeoutMs: 240_000,
        intervalMs: 2000,
      }).catch(async (e: Error) => {
        throw new Error(`${e.message} (${await committed()} are)\n${await appState()}`);
      });
      // Three more checkpoints: a late or second commit would show now.
      await new Promise((r) => setTimeout(r, 10_000));
      expect(await check()).toEqual({ rows: String(STREAM_ROWS), ids: String(STREAM_ROWS), duplicated: '0' });
      expect(await jobAnnotation(appId, ANNOTATIONS.zetaJobId)).toBe(jobId);
      expect(await submissions(appId)).toBe(1);
      expect((await appCommand('cancel', 'postgres-stream-xa', appId)).code).toBe(0);
      await noProcessLeft(appId);
    });
  });
});
