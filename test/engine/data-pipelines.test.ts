// Real data (issue 26): application mode runs a user's JDBC pipeline against a real PostgreSQL
// with the connector and driver the engine home carries (tools/seatunnel/install.sh), and every
// row arrives once: counted and checksummed in the database, not in Zeta's metrics.

import * as fs from 'node:fs';
import * as path from 'node:path';
import { ANNOTATIONS, parseRowsAnnotation } from '../../lib/contract';
import { packageRoot } from '../../lib/cli/io';
import { adminHttp, clusterInfo, useTestNamespace, waitFor } from '../support/cluster';
import type { LocalStack } from '../../tools/local-stack/local-application';
import { startEngineStack } from '../support/engine-stack';
import { startPostgres, type Postgres } from '../../tools/local-stack/postgres';
import { run } from '../cluster/cli-support';

jest.setTimeout(10 * 60_000);

const SERVICE_ACCOUNT = 'seatunnel-runtime';
const DATABASE = 'pipelines';
const EXAMPLES = path.join(packageRoot(), 'apps', 'examples', 'pipelines');
/** apps/examples/pipelines/postgres-batch/setup.sql makes this many source rows. */
const BATCH_ROWS = 1_000_000;

interface TableLine extends Record<string, unknown> {
  table: string;
  rows: string;
  ids: string;
  checksum: string;
}

describe('data pipelines: the examples of apps/examples/pipelines against a real PostgreSQL, as applications', () => {
  const ns = useTestNamespace('data');
  let stack: LocalStack | undefined;
  let pg: Postgres | undefined;
  let workDir: string;

  beforeAll(async () => {
    workDir = fs.mkdtempSync('/tmp/seatunnel-app-data-');
    const database = startPostgres({ maxPreparedTransactions: 20 }).then((p) => (pg = p));
    stack = await startEngineStack(ns.name, SERVICE_ACCOUNT);
    await database;
    await pg!.createDatabase(DATABASE);
    // The Secret the examples' deploy.conf reads (env-from), as a user would create it.
    await adminHttp().call('POST', `/api/v1/namespaces/${ns.name}/secrets`, {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'pipelines-postgres' },
      stringData: {
        PG_URL: pg!.jdbcUrl(DATABASE),
        PG_DATABASE: DATABASE,
        PG_USER: pg!.user,
        PG_PASSWORD: pg!.password,
      },
    });
  });

  afterAll(async () => {
    await Promise.all([stack?.stop(), pg?.stop()]);
    fs.rmSync(workDir, { recursive: true, force: true });
  });

  const exampleFile = (pipeline: string, file: string) => fs.readFileSync(path.join(EXAMPLES, pipeline, file), 'utf8');

  /** The example's deploy.conf as a user has it, then only what this cluster needs: namespace, kubeconfig, local Pods. */
  function exampleArgs(pipeline: string): string[] {
    const deploy = path.join(workDir, `${pipeline}.deploy.conf`);
    fs.writeFileSync(
      deploy,
      [
        exampleFile(pipeline, 'deploy.conf'),
        `kubernetes.namespace = ${ns.name}`,
        `kubernetes.kubeconfig = ${JSON.stringify(clusterInfo().kubeconfig)}`,
        stack!.deploymentLines,
      ].join('\n'),
    );
    return ['-a', deploy, '-c', path.join(EXAMPLES, pipeline, 'job.conf')];
  }

  async function waitSucceeded(appId: string): Promise<void> {
    const status = await run([
      'status',
      '-a',
      path.join(workDir, 'postgres-batch.deploy.conf'),
      '--id',
      appId,
      '--wait',
      '--wait-timeout',
      '480000',
      '--wait-interval',
      '1000',
    ]);
    // The whole status on a failure: its reason and message say what went wrong.
    if (status.value('Status') === 'SUCCEEDED') return;
    const master = stack!.kubelet.podNames().find((n) => n.startsWith(appId) && !n.includes('-worker-'));
    const causes = (master ? stack!.kubelet.logOf(master) : '')
      .split('\n')
      .filter((l) => /ERROR|Caused by|Exception:/.test(l))
      .slice(-30);
    throw new Error(`${appId} did not succeed:\n${status.out.join('\n')}\nits master's errors:\n${causes.join('\n')}`);
  }

  test(`batch PostgreSQL → PostgreSQL (postgres-batch), ${BATCH_ROWS.toLocaleString('en')} rows: the target equals the source by count, ids and checksum`, async () => {
    await pg!.query(DATABASE, exampleFile('postgres-batch', 'setup.sql'));
    const t0 = Date.now();
    const submitted = await run(['submit', ...exampleArgs('postgres-batch')]);
    expect(submitted.err).toEqual([]);
    expect(submitted.code).toBe(0);
    const appId = submitted.value('Application ID')!;
    await waitSucceeded(appId);
    process.stderr.write(
      `[data] postgres-batch, ${BATCH_ROWS} rows, as an application: ${((Date.now() - t0) / 1000).toFixed(1)} s from submit to SUCCEEDED\n`,
    );

    const [source, target] = await pg!.query<TableLine>(DATABASE, exampleFile('postgres-batch', 'check.sql'));
    expect(source.table).toBe('source_rows');
    expect(Number(source.rows)).toBe(BATCH_ROWS);
    expect(target).toEqual({ ...source, table: 'target_rows' });
    // Zeta's own count agrees (status prints it).
    const j = await adminHttp().call<{ metadata: { annotations?: Record<string, string> } }>(
      'GET',
      `/apis/batch/v1/namespaces/${ns.name}/jobs/${appId}`,
    );
    expect(parseRowsAnnotation(j.metadata.annotations?.[ANNOTATIONS.rows])).toMatchObject({
      read: BATCH_ROWS,
      written: BATCH_ROWS,
    });
    await waitFor(() => stack!.kubelet.running().filter((n) => n.startsWith(appId)).length === 0, {
      description: `no process of ${appId} left`,
      timeoutMs: 90_000,
    });
  });
});
