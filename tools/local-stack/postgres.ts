// A real PostgreSQL for the data pipelines (the engine tier's tests and `npm run example -- --pipeline`):
// a throw-away cluster of its own (initdb into a new directory, 127.0.0.1, a free port, password
// authentication), from the server programs that tools/postgres/install.sh provides. Stopped after
// use, its directory removed; a process that dies takes it along (the watchdog, as for the control
// plane's processes).

import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client, type QueryResult } from 'pg';
import { packageRoot } from '../../lib/cli/io';
import { freePorts } from './ports';
import { ManagedProcess } from './process';
import { startWatchdog } from './watchdog';

export interface Postgres {
  readonly host: string;
  readonly port: number;
  readonly user: string;
  /** Not secret (a throw-away cluster): the jobs read it from the environment, as a user's would. */
  readonly password: string;
  /** Its files (data directory, postgres.log), removed by stop(). */
  readonly dir: string;
  jdbcUrl(database: string): string;
  /**
   * What the pipelines' job configs read from the environment (apps/examples/pipelines/*: PG_URL,
   * PG_DATABASE, PG_USER, PG_PASSWORD), for the Secret their deploy.conf takes with env-from.
   */
  connectionEnv(database: string): Record<string, string>;
  createDatabase(name: string): Promise<void>;
  /** The rows of the statement (of the last one, for several), on a connection of its own. */
  query<R extends Record<string, unknown>>(database: string, sql: string, params?: unknown[]): Promise<R[]>;
  stop(): Promise<void>;
}

export interface PostgresOptions {
  /** XA (the JDBC sink's exactly-once mode) needs prepared transactions; 0 disables them, as PostgreSQL's default. */
  maxPreparedTransactions?: number;
}

const USER = 'seatunnel';
const PASSWORD = 'pipelines-test';

/** The server programs' directory; tools/postgres/install.sh installs them when they are missing. */
function serverBin(): string {
  const out = execFileSync('bash', [path.join(packageRoot(), 'tools/postgres/install.sh')], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return out.trim().split('\n').pop() ?? '';
}

/** initdb refuses root: as root the cluster belongs to the `postgres` user that Debian's package creates. */
function runAs(): string[] {
  if (process.getuid?.() !== 0) return [];
  return ['setpriv', '--reuid=postgres', '--regid=postgres', '--init-groups', '--'];
}

export async function startPostgres(opts: PostgresOptions = {}): Promise<Postgres> {
  const bin = serverBin();
  // A directory of its own under /tmp (sticky, world-traversable): as root the server runs as `postgres`.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'seatunnel-app-postgres-'));
  const data = path.join(dir, 'data');
  const pwFile = path.join(dir, 'password');
  fs.writeFileSync(pwFile, `${PASSWORD}\n`);
  const prefix = runAs();
  if (prefix.length) execFileSync('chown', ['-R', 'postgres:postgres', dir]);
  const [command, ...head] = [...prefix, path.join(bin, 'initdb')];
  try {
    execFileSync(
      command,
      [...head, '-D', data, '-U', USER, `--pwfile=${pwFile}`, '--auth=scram-sha-256', '-E', 'UTF8', '--no-sync'],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
  } catch (e) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw new Error(`initdb failed: ${String((e as { stderr?: Buffer }).stderr ?? (e as Error).message).trim()}`, {
      cause: e,
    });
  }
  const [port] = await freePorts(1);
  const pidFile = path.join(dir, 'pids');
  const watchdog = startWatchdog({ pidFile, dir, keepDir: false });
  const [cmd, ...args] = [...prefix, path.join(bin, 'postgres')];
  const server = await ManagedProcess.start({
    name: 'postgres',
    command: cmd,
    args: [
      ...args,
      '-D',
      data,
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      `port=${port}`,
      '-c',
      `unix_socket_directories=${dir}`,
      // A test database: durability is not what is measured, the pipeline's rows are.
      '-c',
      'fsync=off',
      '-c',
      'synchronous_commit=off',
      '-c',
      'full_page_writes=off',
      '-c',
      `max_prepared_transactions=${opts.maxPreparedTransactions ?? 0}`,
      '-c',
      'max_connections=200',
    ],
    logFile: path.join(dir, 'postgres.log'),
    pidFile,
  });

  const connect = async (database: string): Promise<Client> => {
    const c = new Client({ host: '127.0.0.1', port, user: USER, password: PASSWORD, database });
    await c.connect();
    return c;
  };
  const query = async <R extends Record<string, unknown>>(database: string, sql: string, params?: unknown[]) => {
    const c = await connect(database);
    try {
      // Several statements (a .sql file, no parameters) give one result each.
      const result = (await c.query<R>(sql, params)) as QueryResult<R> | Array<QueryResult<R>>;
      return (Array.isArray(result) ? result.at(-1)?.rows : result.rows) ?? [];
    } finally {
      await c.end();
    }
  };

  try {
    const deadline = Date.now() + 60_000;
    for (;;) {
      server.assertRunning();
      try {
        await query('postgres', 'select 1');
        break;
      } catch (e) {
        if (Date.now() > deadline)
          throw new Error(
            `PostgreSQL on 127.0.0.1:${port} did not accept connections in 60 s: ${(e as Error).message}`,
            { cause: e },
          );
        await new Promise((r) => setTimeout(r, 200));
      }
    }
  } catch (e) {
    await server.stop(5_000);
    watchdog.stop();
    throw new Error(`${(e as Error).message}\nlast lines of ${server.logFile}:\n${server.tail(20)}`, { cause: e });
  }

  const jdbcUrl = (database: string) => `jdbc:postgresql://127.0.0.1:${port}/${database}`;
  return {
    host: '127.0.0.1',
    port,
    user: USER,
    password: PASSWORD,
    dir,
    jdbcUrl,
    connectionEnv: (database) => ({
      PG_URL: jdbcUrl(database),
      PG_DATABASE: database,
      PG_USER: USER,
      PG_PASSWORD: PASSWORD,
    }),
    async createDatabase(name) {
      if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`database name "${name}": lower-case letters, digits, _`);
      await query('postgres', `create database ${name}`);
    },
    query,
    async stop() {
      // SIGTERM is PostgreSQL's "smart" shutdown; every client of the tests has gone by now.
      await server.stop(15_000);
      watchdog.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
