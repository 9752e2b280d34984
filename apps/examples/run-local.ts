// `npm run example`: runs the bundled example end to end on this machine, with nothing faked
// that matters — a real Kubernetes control plane (built from Go modules on first use), the
// seatunnel-app CLI submitting apps/examples/deploy.conf + job.conf, the runtime in the master
// Pod, and a real SeaTunnel Zeta master and workers (from Maven Central) run as local processes
// by a local stand-in for the kubelet. Prints the CLI's output and the application's story, and
// exits with the CLI's `--wait` exit code (0 = SUCCEEDED).
//
//   npm run example               the bundled example
//   npm run example -- --keep     keep the control plane's and the Pods' files for a look afterwards
//   npm run example -- --node     on a real node instead (containerd, kubelet, CNI, kube-proxy, kube-router,
//                                 CoreDNS; needs root): real containers from locally built images
//   npm run example -- --pipeline postgres-batch
//                                 a data pipeline of apps/examples/pipelines/ against a throw-away PostgreSQL
//                                 started here (setup.sql before, check.sql after: exit 1 unless the tables match)
//   npm run example -- --pipeline kafka-sink | kafka-batch-source
//                                 the same against a throw-away Kafka broker (and PostgreSQL): the topic made
//                                 (and filled) before, exit 1 unless every row is in the topic or table once
//   npm run example -- --pipeline s3-file-sink
//                                 the same against a throw-away S3-compatible server (versitygw): exit 1 unless
//                                 the bucket holds every row once

import * as fs from 'node:fs';
import * as path from 'node:path';
import { packageRoot } from '../../lib/cli/io';
import { main } from '../../lib/cli/main';
import { consoleOutput } from '../../lib/cli/output';
import { ControlPlane } from '../../tools/local-stack/control-plane';
import { startLocalStack } from '../../tools/local-stack/local-application';
import { KWOK_LIFECYCLE_ANNOTATION } from '../../tools/local-stack/kwok-stages';
import { startPostgres, type Postgres } from '../../tools/local-stack/postgres';
import { startKafka, type Kafka } from '../../tools/local-stack/kafka';
import { startS3, type S3Server } from '../../tools/local-stack/s3';
import { KAFKA_BATCH_SOURCE, KAFKA_SECRET, KAFKA_SINK, batchSourceMessages, countIds } from './kafka-pipelines';
import { S3_FILE_SINK, S3_SECRET, countLines } from './s3-pipelines';

const examples = path.join(packageRoot(), 'apps', 'examples');

/** Where the example runs: the control plane plus either the local kubelet stand-in or a real node. */
interface Cluster {
  cp: ControlPlane;
  /** What the submission needs on top of the example's own files. */
  overrides: string[];
  stop(): Promise<void>;
  kept: string;
}

const say = (l: string) => process.stderr.write(`[example] ${l}\n`);

async function localCluster(keep: boolean): Promise<Cluster> {
  say('starting a local Kubernetes control plane (the first run builds it from Go modules: a few minutes)');
  const cp = await ControlPlane.start({ keepDir: keep });
  say('assembling the SeaTunnel engine (Maven Central, cached) and the runtime bundle');
  const stack = startLocalStack({
    admin: cp.admin,
    server: cp.info.server,
    caData: cp.info.caData,
    namespace: NAMESPACE,
  });
  const local = `${KWOK_LIFECYCLE_ANNOTATION}:local`;
  return {
    cp,
    // Only what running on this machine needs: where the engine lives, and that the local kubelet runs the Pods.
    overrides: [
      `-Dkubernetes.seatunnel-home=${stack.seatunnelHome}`,
      `-Dkubernetes.master.annotations=${local}`,
      `-Dkubernetes.worker.annotations=${local}`,
    ],
    stop: async () => {
      await stack.stop();
      await cp.stop();
    },
    kept: `Pod files and logs kept in ${stack.dir}; control plane files in ${cp.info.dir}`,
  };
}

async function realNodeCluster(keep: boolean): Promise<Cluster> {
  say(
    'starting a local control plane and a real node: containerd, kubelet, kube-proxy, kube-router, CoreDNS (root; the first run builds them: several minutes)',
  );
  const { NodeCluster } = await import('../../tools/local-stack/real-node/node-cluster.js');
  const nc = await NodeCluster.start({ keepDir: keep });
  return {
    cp: nc.controlPlane,
    // The images are imported, never pulled; the node has 2 cores, and the example asks 1 per Pod.
    overrides: [
      '-Dkubernetes.image-pull-policy=Never',
      '-Dkubernetes.runtime.image-pull-policy=Never',
      '-Dapplication.master.cpu-cores=0.5',
      '-Dapplication.worker.cpu-cores=0.5',
    ],
    stop: () => nc.stop(),
    kept: `control plane and node files in ${nc.controlPlane.info.dir}`,
  };
}

const NAMESPACE = 'seatunnel';

/** The pipelines of apps/examples/pipelines/ that run against services started here. */
const PIPELINES = ['postgres-batch', 'kafka-sink', 'kafka-batch-source', 's3-file-sink'] as const;
type Pipeline = (typeof PIPELINES)[number];
/** What each pipeline needs started: a PostgreSQL, a Kafka broker, an S3-compatible server. */
const SERVICES: Record<Pipeline, { postgres: boolean; kafka: boolean; s3: boolean }> = {
  'postgres-batch': { postgres: true, kafka: false, s3: false },
  'kafka-sink': { postgres: false, kafka: true, s3: false },
  'kafka-batch-source': { postgres: true, kafka: true, s3: false },
  's3-file-sink': { postgres: false, kafka: false, s3: true },
};
const PIPELINE_DATABASE = 'pipelines';
/** The Secret the pipelines' deploy.conf reads its PG_* variables from (env-from). */
const PIPELINE_SECRET = 'pipelines-postgres';

interface Arguments {
  keep: boolean;
  onNode: boolean;
  pipeline?: Pipeline;
}

const USAGE = 'usage: npm run example [-- --keep] [-- --node] [-- --pipeline <name>]';

function parseArguments(argv: readonly string[]): Arguments {
  const out: Arguments = { keep: false, onNode: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--keep') out.keep = true;
    else if (a === '--node') out.onNode = true;
    else if (a === '--pipeline') {
      const name = argv[++i];
      if (!PIPELINES.includes(name as Pipeline))
        throw new Error(`--pipeline ${JSON.stringify(name ?? '')}: one of ${PIPELINES.join(', ')} (${USAGE})`);
      out.pipeline = name as Pipeline;
    } else throw new Error(`unknown argument ${JSON.stringify(a)} (${USAGE})`);
  }
  // The throw-away services listen on this machine's loopback, which containers on a node cannot reach.
  if (out.pipeline && out.onNode)
    throw new Error(`--pipeline runs on the local stack only, not with --node (${USAGE})`);
  return out;
}

/** The Secret a pipeline's deploy.conf reads with env-from, as a user would create it. */
async function createSecret(cluster: Cluster, name: string, stringData: Record<string, string>): Promise<void> {
  await cluster.cp.admin.call('POST', `/api/v1/namespaces/${NAMESPACE}/secrets`, {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name },
    stringData,
  });
}

/** A throw-away PostgreSQL with the pipeline's tables, and the Secret its deploy.conf reads. */
async function pipelineDatabase(cluster: Cluster, pipeline: Pipeline): Promise<Postgres> {
  say('starting a throw-away PostgreSQL (tools/postgres/install.sh provides the server programs)');
  const pg = await startPostgres({ maxPreparedTransactions: 20 });
  await pg.createDatabase(PIPELINE_DATABASE);
  say(`PostgreSQL on 127.0.0.1:${pg.port}: applying ${pipeline}/setup.sql`);
  await sqlFile(pg, pipeline, 'setup.sql');
  await createSecret(cluster, PIPELINE_SECRET, pg.connectionEnv(PIPELINE_DATABASE));
  return pg;
}

/** A throw-away Kafka broker with the pipeline's topic (filled, for the batch source), and the Secret it reads. */
async function pipelineBroker(cluster: Cluster, pipeline: Pipeline): Promise<Kafka> {
  say('starting a throw-away Kafka broker (tools/kafka/install.sh assembles it from Maven Central, cached)');
  const kafka = await startKafka();
  const { topic, partitions } = pipeline === 'kafka-sink' ? KAFKA_SINK : KAFKA_BATCH_SOURCE;
  say(`Kafka on ${kafka.bootstrap}: creating the topic ${topic} (${partitions} partitions)`);
  await kafka.createTopic(topic, partitions);
  if (pipeline === 'kafka-batch-source') {
    const n = await kafka.produce(topic, batchSourceMessages());
    say(`produced ${n} messages of ${pipeline}/messages.sh into ${topic}`);
  }
  await createSecret(cluster, KAFKA_SECRET, kafka.connectionEnv());
  return kafka;
}

/** check.sql's result: one line per table. */
interface TableLine extends Record<string, unknown> {
  table: string;
  rows: string;
  ids: string;
  checksum: string;
}

function sqlFile<R extends Record<string, unknown>>(pg: Postgres, pipeline: Pipeline, file: string): Promise<R[]> {
  return pg.query<R>(PIPELINE_DATABASE, fs.readFileSync(path.join(examples, 'pipelines', pipeline, file), 'utf8'));
}

/** check.sql's lines, printed; true when the two tables have the same rows, ids and checksum, each id once. */
async function pipelineTablesMatch(pg: Postgres, pipeline: Pipeline): Promise<boolean> {
  const rows = await sqlFile<TableLine>(pg, pipeline, 'check.sql');
  process.stdout.write(`\n${pipeline}/check.sql:\n`);
  for (const r of rows)
    process.stdout.write(`  ${String(r.table).padEnd(12)} ${r.rows} rows, ${r.ids} ids, md5 ${r.checksum}\n`);
  const [a, b] = rows;
  return rows.length === 2 && a.rows === b.rows && a.ids === a.rows && b.ids === b.rows && a.checksum === b.checksum;
}

/** A throw-away S3-compatible server with the pipeline's bucket, and the Secret its deploy.conf reads. */
async function pipelineBucket(cluster: Cluster): Promise<S3Server> {
  say('starting a throw-away S3-compatible server (versitygw, built from its Go module by tools/testbin/build.sh)');
  const s3 = await startS3();
  s3.createBucket(S3_FILE_SINK.bucket);
  say(`S3 on ${s3.endpoint}: bucket ${S3_FILE_SINK.bucket} created`);
  await createSecret(cluster, S3_SECRET, s3.connectionEnv());
  return s3;
}

/** s3-file-sink's objects, printed; true when they hold exactly the job's rows, each id once. */
function pipelineBucketMatches(s3: S3Server): boolean {
  const { bucket, prefix, rows } = S3_FILE_SINK;
  const keys = s3.objects(bucket, prefix);
  const c = countLines(keys.map((k) => s3.read(bucket, k)));
  process.stdout.write(
    `\ns3-file-sink, s3://${bucket}/${prefix}: ${keys.length} objects, ${c.messages} rows, ${c.ids} ids, ${c.unreadable} unreadable (expected ${rows} and ${rows}, 0)\n`,
  );
  return c.messages === rows && c.ids === rows && c.unreadable === 0;
}

/** kafka-sink's topic, printed; true when it holds exactly the job's rows, each id once. */
async function pipelineTopicMatches(kafka: Kafka): Promise<boolean> {
  const c = countIds(await kafka.messages(KAFKA_SINK.topic));
  process.stdout.write(
    `\nkafka-sink, topic ${KAFKA_SINK.topic}: ${c.messages} messages, ${c.ids} ids, ${c.unreadable} unreadable (expected ${KAFKA_SINK.rows} and ${KAFKA_SINK.rows}, 0)\n`,
  );
  return c.messages === KAFKA_SINK.rows && c.ids === KAFKA_SINK.rows && c.unreadable === 0;
}

async function run(): Promise<number> {
  const { keep, onNode, pipeline } = parseArguments(process.argv.slice(2));
  const cluster = await (onNode ? realNodeCluster(keep) : localCluster(keep));
  const { cp } = cluster;
  let pg: Postgres | undefined;
  let kafka: Kafka | undefined;
  let s3: S3Server | undefined;
  try {
    const namespace = NAMESPACE;
    const admin = cp.admin;
    await admin.call(
      'POST',
      '/api/v1/namespaces',
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } },
      { accept: [409] },
    );
    await admin.call(
      'POST',
      `/api/v1/namespaces/${namespace}/serviceaccounts`,
      { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'seatunnel-runtime' } },
      { accept: [409] },
    );
    if (pipeline && SERVICES[pipeline].postgres) pg = await pipelineDatabase(cluster, pipeline);
    if (pipeline && SERVICES[pipeline].kafka) kafka = await pipelineBroker(cluster, pipeline);
    if (pipeline && SERVICES[pipeline].s3) s3 = await pipelineBucket(cluster);
    const files = pipeline ? path.join(examples, 'pipelines', pipeline) : examples;
    process.env.KUBECONFIG = cp.info.kubeconfig;
    const argv = [
      'submit',
      '-a',
      path.join(files, 'deploy.conf'),
      '-c',
      path.join(files, 'job.conf'),
      ...cluster.overrides,
      '--wait',
      '--wait-timeout',
      '600000',
    ];
    say(`seatunnel-app ${argv.join(' ')}`);
    let code = await main(argv, consoleOutput(false));
    const jobs = await admin.call<{ items: Array<{ metadata: { name: string } }> }>(
      'GET',
      `/apis/batch/v1/namespaces/${namespace}/jobs`,
    );
    for (const j of jobs.items) {
      const events = await admin.call<{ items: Array<{ reason: string; message: string; type: string }> }>(
        'GET',
        `/api/v1/namespaces/${namespace}/events?fieldSelector=${encodeURIComponent(`involvedObject.kind=Job,involvedObject.name=${j.metadata.name}`)}`,
      );
      process.stdout.write(`\nEvents of Job ${j.metadata.name} (kubectl describe job shows the same):\n`);
      for (const e of events.items) process.stdout.write(`  ${e.type.padEnd(7)} ${e.reason.padEnd(22)} ${e.message}\n`);
    }
    if (pg && pipeline && !(await pipelineTablesMatch(pg, pipeline))) {
      say('the target table does not hold exactly the source rows');
      code = code || 1;
    }
    if (kafka && pipeline === 'kafka-sink' && !(await pipelineTopicMatches(kafka))) {
      say('the topic does not hold exactly the rows of the job, each once');
      code = code || 1;
    }
    if (s3 && !pipelineBucketMatches(s3)) {
      say('the bucket does not hold exactly the rows of the job, each once');
      code = code || 1;
    }
    if (keep) say(cluster.kept);
    return code;
  } finally {
    await Promise.all([pg?.stop(), kafka?.stop(), s3?.stop()]);
    await cluster.stop();
  }
}

run().then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    process.stderr.write(`[example] failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exitCode = 1;
  },
);
