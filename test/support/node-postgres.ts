// A PostgreSQL in the cluster, as many users run one (the postgres image of tools/images/build.sh): a Pod
// pinned to a node, a Service in front of it, its superuser's credentials in a Secret that applications read
// through `kubernetes.env-from` (the PG_* variables of apps/examples/pipelines). The database itself counts
// what a job wrote: queries run in its container, on the node that runs it (containerd's exec).
import { randomBytes } from 'node:crypto';
import { adminHttp } from './cluster';
import { execInContainer, type NodeHandle } from './node-faults';
import { startServicePod } from './node-pods';

const PORT = 5432;
const USER = 'seatunnel';
const NAME = 'postgres' as const;

export interface PostgresInCluster {
  /** The Secret with PG_URL, PG_DATABASE, PG_USER, PG_PASSWORD. */
  readonly secret: string;
  /** Rows of a query as psql prints them unaligned (`-tA`), one line per row, columns split by `|`. */
  query(sql: string): Promise<string[]>;
}

export interface PostgresInClusterOptions {
  database: string;
  /** The Secret's name (the pipelines' deploy.conf names `pipelines-postgres`). */
  secret: string;
  /** XA needs prepared transactions (PostgreSQL's default is 0: none). */
  maxPreparedTransactions?: number;
  /** SQL run once, when the cluster is made (the image's /docker-entrypoint-initdb.d). */
  initSql?: string;
}

/** Starts PostgreSQL in `ns` on `node` and resolves once it is Ready (pg_isready on its own address); the Service is in front of it by then. */
export async function startPostgresInCluster(
  ns: string,
  node: NodeHandle,
  o: PostgresInClusterOptions,
): Promise<PostgresInCluster> {
  const api = adminHttp();
  const create = (p: string, body: unknown) => api.call('POST', `/api/v1/namespaces/${ns}/${p}`, body);
  const password = randomBytes(18).toString('base64url');
  const host = `${NAME}.${ns}.svc.cluster.local`;
  await create('secrets', {
    metadata: { name: o.secret },
    stringData: {
      PG_URL: `jdbc:postgresql://${host}:${PORT}/${o.database}`,
      PG_DATABASE: o.database,
      PG_USER: USER,
      PG_PASSWORD: password,
    },
  });
  await create('configmaps', { metadata: { name: `${NAME}-init` }, data: { 'init.sql': o.initSql ?? '' } });
  const { containerId } = await startServicePod(
    ns,
    node,
    NAME,
    PORT,
    {
      args: ['-c', `max_prepared_transactions=${o.maxPreparedTransactions ?? 0}`],
      env: [
        { name: 'POSTGRES_USER', value: USER },
        { name: 'POSTGRES_DB', value: o.database },
        { name: 'POSTGRES_PASSWORD', valueFrom: { secretKeyRef: { name: o.secret, key: 'PG_PASSWORD' } } },
      ],
      readinessProbe: {
        exec: { command: ['pg_isready', '-q', '-h', '127.0.0.1', '-p', String(PORT)] },
        periodSeconds: 1,
      },
      resources: { requests: { cpu: '250m', memory: '256Mi' }, limits: { cpu: '1', memory: '512Mi' } },
      volumeMounts: [
        { name: 'data', mountPath: '/var/lib/postgresql/data' },
        { name: 'init', mountPath: '/docker-entrypoint-initdb.d' },
      ],
    },
    [
      { name: 'data', emptyDir: {} },
      { name: 'init', configMap: { name: `${NAME}-init` } },
    ],
  );
  return {
    secret: o.secret,
    async query(sql) {
      // The local socket, as the superuser the cluster was made with (trusted there, as initdb's --auth-local).
      const stdout = await execInContainer(node, containerId, [
        ...['psql', '-X', '-q', '-tA', '-v', 'ON_ERROR_STOP=1'],
        ...['-h', '/tmp', '-U', USER, '-d', o.database, '-c', sql],
      ]);
      return stdout.split('\n').filter((l) => l !== '');
    },
  };
}
