// Real data on real nodes (#26): the bundled exactly-once stream (apps/examples/pipelines/postgres-stream-xa,
// the JDBC sink with XA) into a PostgreSQL that runs in the cluster as a Pod (the postgres image of
// tools/images/build.sh), submitted as a user would — the example's own files, only the cluster's names
// changed — while the kernel OOM-kills a worker: the worker is replaced, Zeta restores from the checkpoint,
// and the table ends with every row once, counted by the database. Then Kafka as a Pod too (the kafka image):
// the bundled kafka-sink and kafka-batch-source pipelines, each row and each message counted where it landed.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ANNOTATIONS } from '../../lib/contract';
import { run } from '../cluster/cli-support';
import { adminHttp, clusterInfo, createTestNamespace, deleteNamespace, waitFor } from '../support/cluster';
import { clusterNodes, oomKillContainer } from '../support/node-faults';
import { applicationPods, podReady, prepareNamespace, RUNTIME_SERVICE_ACCOUNT } from '../support/node-ha-app';
import { startPostgresInCluster, type PostgresInCluster } from '../support/node-postgres';
import { startKafkaInCluster, type KafkaInCluster } from '../support/node-kafka';
import {
  batchSourceMessages,
  countIds,
  KAFKA_BATCH_SOURCE,
  KAFKA_SECRET,
  KAFKA_SINK,
} from '../../apps/examples/kafka-pipelines';

jest.setTimeout(15 * 60_000);

const PIPELINES = path.join(__dirname, '..', '..', 'apps', 'examples', 'pipelines');
const PIPELINE = path.join(PIPELINES, 'postgres-stream-xa');
const CLAIM = 'pipelines-checkpoints';
/** FakeSource's row.num in the example's job.conf. */
const ROWS = 600;

/** An example's deploy.conf with this cluster's names, as a user's -D options would give them. */
const clusterOverrides = (ns: string) => [
  `-Dkubernetes.namespace=${ns}`,
  `-Dkubernetes.kubeconfig=${clusterInfo().kubeconfig}`,
  `-Dkubernetes.service-account=${RUNTIME_SERVICE_ACCOUNT}`,
  '-Dkubernetes.image-pull-policy=Never',
  '-Dkubernetes.runtime.image-pull-policy=Never',
  // Three "nodes" share two cores: the Pods ask for a quarter core each.
  '-Dapplication.master.cpu-cores=0.25',
  '-Dapplication.worker.cpu-cores=0.25',
];

describe('an exactly-once stream into a PostgreSQL Pod, through a worker the kernel OOM-kills', () => {
  let ns: string;
  let dir: string;
  let volume: string | undefined;
  let pg: PostgresInCluster;
  let appId: string;
  let jobId: string;

  const overrides = () => [...clusterOverrides(ns), `-Dkubernetes.checkpoint-pvc=${CLAIM}`];
  const deployFile = path.join(PIPELINE, 'deploy.conf');
  const account = async () => {
    const [line] = await pg.query('select count(*), count(distinct id) from events');
    const [rows, ids] = line.split('|').map(Number);
    return { rows, ids, duplicated: rows - ids };
  };
  const annotations = async () =>
    (
      await adminHttp().call<{ metadata: { annotations?: Record<string, string> } }>(
        'GET',
        `/apis/batch/v1/namespaces/${ns}/jobs/${appId}`,
      )
    ).metadata.annotations ?? {};
  const events = async () =>
    (
      await adminHttp().call<{ items: Array<{ reason: string; message?: string; involvedObject: { name: string } }> }>(
        'GET',
        `/api/v1/namespaces/${ns}/events`,
      )
    ).items.filter((e) => e.involvedObject.name === appId);
  /** Waits until more than `n` rows are committed; the account then. */
  const rowsBeyond = (n: number, description: string, timeoutMs = 240_000) =>
    waitFor(async () => ((await account()).rows > n ? account() : undefined), {
      description,
      timeoutMs,
      intervalMs: 1000,
    });

  beforeAll(async () => {
    const nodes = clusterNodes();
    ns = await createTestNamespace('node-data', { 'pod-security.kubernetes.io/enforce': 'baseline' });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'seatunnel-app-node-data-'));
    volume = await prepareNamespace(ns, CLAIM, dir);
    // The database on the last node: the application's Pods reach it through its Service, from any node.
    pg = await startPostgresInCluster(ns, nodes[nodes.length - 1], {
      database: 'pipelines',
      secret: 'pipelines-postgres',
      // XA: each open checkpoint of each writer holds a prepared transaction.
      maxPreparedTransactions: 10,
      initSql: fs.readFileSync(path.join(PIPELINE, 'setup.sql'), 'utf8'),
    });
  });

  afterAll(async () => {
    if (ns) await deleteNamespace(ns, { wait: true });
    if (volume) await adminHttp().request('DELETE', `/api/v1/persistentvolumes/${volume}`);
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  test('submitted with the example files: it runs and commits rows into the database in the cluster', async () => {
    const r = await run(['submit', '-a', deployFile, '-c', path.join(PIPELINE, 'job.conf'), ...overrides()]);
    expect({ code: r.code, err: r.err }).toEqual({ code: 0, err: [] });
    appId = r.value('Application ID')!;
    jobId = r.value('Job ID')!;
    const first = await rowsBeyond(0, 'the first rows committed', 360_000);
    process.stdout.write(`[node-data] first rows committed: ${first.rows}\n`);
    expect(first.duplicated).toBe(0);
  });

  test('a worker OOM-killed by the kernel: replaced (the Event says OOMKilled), rows committed again, none twice', async () => {
    const before = await rowsBeyond(40, 'a few checkpoints committed');
    const [worker] = (await applicationPods(ns, appId, 'worker')).filter(podReady);
    expect(worker).toBeDefined();
    const t0 = Date.now();
    await oomKillContainer(ns, worker);
    const replaced = await waitFor(
      async () =>
        (await events()).find((e) => e.reason === 'WorkerReplaced' && e.message?.includes(worker.metadata.name)),
      { description: `the WorkerReplaced Event for ${worker.metadata.name}`, timeoutMs: 120_000, intervalMs: 1000 },
    );
    expect(replaced.message).toMatch(/OOMKilled/);
    expect(replaced.message).toMatch(/137/);
    const after = await rowsBeyond((await account()).rows, 'rows committed after the OOM kill');
    process.stdout.write(
      `[node-data] OOM kill at ${before.rows} committed rows; rows committed again ${((Date.now() - t0) / 1000).toFixed(1)} s later; ${after.rows} rows, ${after.duplicated} duplicated\n`,
    );
    expect(after.duplicated).toBe(0);
    expect((await annotations())[ANNOTATIONS.zetaJobId]).toBe(jobId);
  });

  test('every row once: 600 rows, 600 ids, one Zeta job, one submission; cancel leaves nothing', async () => {
    let last = await account();
    await waitFor(
      async () => {
        last = await account();
        return last.rows >= ROWS;
      },
      { description: `${ROWS} rows committed`, timeoutMs: 480_000, intervalMs: 2000 },
    ).catch((e: Error) => {
      throw new Error(`${e.message}; committed: ${JSON.stringify(last)}`);
    });
    process.stdout.write(
      `[node-data] rows expected / committed / duplicated: ${ROWS} / ${last.rows} / ${last.duplicated}\n`,
    );
    expect(last).toEqual({ rows: ROWS, ids: ROWS, duplicated: 0 });
    expect((await annotations())[ANNOTATIONS.zetaJobId]).toBe(jobId);
    expect((await events()).filter((e) => e.reason === 'JobSubmitted')).toHaveLength(1);
    const c = await run(['cancel', '-a', deployFile, ...overrides(), '--id', appId]);
    expect(c.code).toBe(0);
    await waitFor(async () => (await applicationPods(ns, appId)).length === 0, {
      description: 'every Pod of the application gone after cancel',
      timeoutMs: 180_000,
      intervalMs: 2000,
    });
  });
});

describe('Kafka in the cluster: the bundled kafka-sink and kafka-batch-source pipelines, every row and message once', () => {
  let ns: string;
  let pg: PostgresInCluster;
  let kafka: KafkaInCluster;

  /** Submits a pipeline with the example's files and waits for its end: the status' lines and the seconds it took. */
  async function runToEnd(pipeline: string) {
    const t0 = Date.now();
    const deploy = ['-a', path.join(PIPELINES, pipeline, 'deploy.conf'), ...clusterOverrides(ns)];
    const submitted = await run(['submit', ...deploy, '-c', path.join(PIPELINES, pipeline, 'job.conf')]);
    expect({ code: submitted.code, err: submitted.err }).toEqual({ code: 0, err: [] });
    const appId = submitted.value('Application ID')!;
    const end = await run(['status', ...deploy, '--id', appId, '--wait', '--wait-timeout', '480000']);
    return { end, seconds: (Date.now() - t0) / 1000 };
  }

  beforeAll(async () => {
    const nodes = clusterNodes();
    ns = await createTestNamespace('node-kafka', { 'pod-security.kubernetes.io/enforce': 'baseline' });
    await adminHttp().call('POST', `/api/v1/namespaces/${ns}/serviceaccounts`, {
      metadata: { name: RUNTIME_SERVICE_ACCOUNT },
    });
    // The broker and the database on two nodes; the applications' Pods reach both through their Services.
    [kafka, pg] = await Promise.all([
      startKafkaInCluster(ns, nodes[1 % nodes.length], { secret: KAFKA_SECRET }),
      startPostgresInCluster(ns, nodes[nodes.length - 1], {
        database: 'pipelines',
        secret: 'pipelines-postgres',
        initSql: fs.readFileSync(path.join(PIPELINES, 'kafka-batch-source', 'setup.sql'), 'utf8'),
      }),
    ]);
  });

  afterAll(async () => {
    if (ns) await deleteNamespace(ns, { wait: true });
  });

  test(`kafka-sink: ${KAFKA_SINK.rows} FakeSource rows into a topic of the broker in the cluster, as many messages with as many ids`, async () => {
    await kafka.createTopic(KAFKA_SINK.topic, KAFKA_SINK.partitions);
    const { end, seconds } = await runToEnd('kafka-sink');
    expect(end.value('Status')).toBe('SUCCEEDED');
    const count = countIds(await kafka.messages(KAFKA_SINK.topic));
    process.stdout.write(
      `[node-kafka] kafka-sink: ${seconds.toFixed(1)} s from submit to SUCCEEDED; the topic holds ${count.messages} messages, ${count.ids} ids\n`,
    );
    expect(count).toEqual({ messages: KAFKA_SINK.rows, ids: KAFKA_SINK.rows, unreadable: 0 });
  });

  test(`kafka-batch-source: ${KAFKA_BATCH_SOURCE.messages} messages of a topic into the PostgreSQL Pod, equal to what was produced by count, ids and checksum`, async () => {
    await kafka.createTopic(KAFKA_BATCH_SOURCE.topic, KAFKA_BATCH_SOURCE.partitions);
    expect(await kafka.produce(KAFKA_BATCH_SOURCE.topic, batchSourceMessages())).toBe(KAFKA_BATCH_SOURCE.messages);
    const { end, seconds } = await runToEnd('kafka-batch-source');
    expect(end.value('Status')).toBe('SUCCEEDED');
    // check.sql: one line for what messages.sh made and one for the table — rows, distinct ids, checksum.
    const lines = await pg.query(fs.readFileSync(path.join(PIPELINES, 'kafka-batch-source', 'check.sql'), 'utf8'));
    process.stdout.write(
      `[node-kafka] kafka-batch-source: ${seconds.toFixed(1)} s from submit to SUCCEEDED; ${lines.join(' / ')}\n`,
    );
    const [expected, table] = lines.map((l) => l.split('|'));
    expect(expected).toEqual([
      'expected',
      String(KAFKA_BATCH_SOURCE.messages),
      String(KAFKA_BATCH_SOURCE.messages),
      expect.any(String),
    ]);
    expect(table).toEqual(['kafka_events', ...expected.slice(1)]);
  });
});
