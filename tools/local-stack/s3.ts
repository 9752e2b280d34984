// A real S3-compatible server for the data pipelines (the engine tier's tests and `npm run example -- --pipeline
// s3-…`): versitygw (built from its Go module by tools/testbin/build.sh) with its posix backend, on 127.0.0.1 and a
// free port, in a directory of its own. A bucket is a directory of it and an object a file, so what a job wrote is
// read back from the disk, not through the server under test. Stopped after use, its directory removed; a process
// that dies takes it along (the watchdog, as for PostgreSQL and Kafka).

import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { testbinComponents } from './binaries';
import { freePorts } from './ports';
import { ManagedProcess } from './process';
import { waitFor } from './wait';
import { failedStart, removeService } from './throwaway-service';
import { startWatchdog } from './watchdog';

export interface S3Server {
  /** `http://127.0.0.1:<port>`, what `fs.s3a.endpoint` names (path-style access). */
  readonly endpoint: string;
  /** Its files (the buckets under data/, versitygw.log), removed by stop(). */
  readonly dir: string;
  /**
   * What the pipelines read from the environment (apps/examples/pipelines/s3-*: S3_ENDPOINT, S3_ACCESS_KEY,
   * S3_SECRET_KEY for the S3File connector; AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY for S3A's environment
   * credentials provider, which the checkpoint storage and the runtime's listing use).
   */
  connectionEnv(): Record<string, string>;
  /** A bucket (a directory of the posix backend); returns its `s3a://` URI. */
  createBucket(name: string): string;
  /** The keys of the bucket's objects under `prefix` (files, not S3A's directory markers), sorted. */
  objects(bucket: string, prefix?: string): string[];
  /** An object's content. */
  read(bucket: string, key: string): string;
  stop(): Promise<void>;
}

/** The server binary; tools/testbin/build.sh builds it when it is missing (minutes, cold). */
export async function versitygwBinary(): Promise<string> {
  const { versitygw } = await testbinComponents(['versitygw']);
  return path.join(versitygw, 'bin', 'versitygw');
}

/** S3's bucket naming rules, the part a directory name must also satisfy. */
const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

export async function startS3(): Promise<S3Server> {
  const binary = await versitygwBinary();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'seatunnel-app-s3-'));
  const data = path.join(dir, 'data');
  fs.mkdirSync(data);
  const pidFile = path.join(dir, 'pids');
  const watchdog = startWatchdog({ pidFile, dir, keepDir: false });
  const [port] = await freePorts(1);
  const endpoint = `http://127.0.0.1:${port}`;
  // Throw-away credentials of the root user (a new pair for each server).
  const accessKey = `st${randomBytes(8).toString('hex')}`;
  const secretKey = randomBytes(24).toString('base64url');

  let server: ManagedProcess | undefined;
  try {
    const t0 = Date.now();
    server = await ManagedProcess.start({
      name: 'versitygw',
      command: binary,
      args: ['--port', `127.0.0.1:${port}`, '--health', '/health', '--quiet', 'posix', data],
      env: { ...process.env, ROOT_ACCESS_KEY_ID: accessKey, ROOT_SECRET_ACCESS_KEY: secretKey },
      logFile: path.join(dir, 'versitygw.log'),
      pidFile,
    });
    const gw = server;
    await waitFor(
      async () => {
        try {
          return (await fetch(`${endpoint}/health`)).ok;
        } catch {
          return false;
        }
      },
      {
        description: `versitygw on ${endpoint} to answer /health`,
        timeoutMs: 30_000,
        intervalMs: 100,
        guard: () => gw.assertRunning(),
      },
    );
    process.stderr.write(
      `[s3] versitygw on ${endpoint} ready in ${((Date.now() - t0) / 1000).toFixed(1)} s (${dir})\n`,
    );

    const bucketDir = (bucket: string) => {
      if (!BUCKET.test(bucket)) throw new Error(`bucket name "${bucket}": 3-63 of a-z, 0-9, '.', '-'`);
      return path.join(data, bucket);
    };
    return {
      endpoint,
      dir,
      connectionEnv: () => ({
        S3_ENDPOINT: endpoint,
        S3_ACCESS_KEY: accessKey,
        S3_SECRET_KEY: secretKey,
        AWS_ACCESS_KEY_ID: accessKey,
        AWS_SECRET_ACCESS_KEY: secretKey,
      }),
      createBucket(name) {
        fs.mkdirSync(bucketDir(name));
        return `s3a://${name}`;
      },
      objects(bucket, prefix = '') {
        const root = bucketDir(bucket);
        const out: string[] = [];
        const walk = (d: string) => {
          for (const e of fs.readdirSync(d, { withFileTypes: true })) {
            // the posix backend's uploads in progress, not objects
            if (d === root && e.name === '.sgwtmp') continue;
            const full = path.join(d, e.name);
            if (e.isDirectory()) walk(full);
            else if (e.isFile()) out.push(path.relative(root, full));
          }
        };
        const start = path.join(root, prefix);
        if (fs.existsSync(start)) walk(start);
        return out.sort();
      },
      read: (bucket, key) => fs.readFileSync(path.join(bucketDir(bucket), key), 'utf8'),
      stop: () => removeService(gw, watchdog, dir, 10_000),
    };
  } catch (e) {
    return failedStart(e, server, watchdog, dir);
  }
}
