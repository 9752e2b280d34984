// A stand-in for the Zeta master in the cluster tier (the real engine is the engine tier's). The
// runtime starts it in place of `java … -r master` (runtime.json master.command). It serves the
// REST paths the runtime uses on 127.0.0.1:<restPort><restPath>, and:
//   * reports a worker as registered once its Pod is Running in the API (and not terminating) —
//     it polls the API server with the kubeconfig in STANDIN_KUBECONFIG;
//   * runs one job: STANDIN_JOB = finish (FINISHED after STANDIN_JOB_MS), fail (FAILED), hang
//     (RUNNING until stop-job or POST /_standin/finish); a registered worker that disappears
//     while the job runs fails it like Zeta does ("deployed node offline"), unless
//     STANDIN_FAIL_ON_LOSS=false;
//   * STANDIN_REGISTER=never registers nobody (startup timeout scenario);
//   * appends every call, with the registered count at that moment, to STANDIN_LOG (JSON lines);
//   * records what it found in the runtime's completed engine files (the master host), and the
//     SHA-256 of each variable named in STANDIN_REPORT_ENV (comma-separated) as its process got it
//     (the user's environment as the runtime hands it to Zeta; digests, so no value is logged);
//   * exits on SIGTERM (143) and when its parent (the runtime) is gone.
// Bundled by the test harness with esbuild; plain Node, no dependencies.

import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as https from 'node:https';
import * as path from 'node:path';

const env = process.env;
const logFile = env.STANDIN_LOG ?? '';
const mode = env.STANDIN_JOB ?? 'finish';
const jobMs = Number(env.STANDIN_JOB_MS ?? '500');
const failOnLoss = env.STANDIN_FAIL_ON_LOSS !== 'false';
const registerNever = env.STANDIN_REGISTER === 'never';
const settings = JSON.parse(
  fs.readFileSync(path.join(env.SEATUNNEL_APP_ENGINE_CONFIG ?? '', 'runtime.json'), 'utf8'),
) as {
  appId: string;
  namespace: string;
  workerSlots: number;
  master: { restPort: number; restPath?: string };
};
const base = settings.master.restPath ?? '';
const selector = `seatunnel.apache.org/application-id=${settings.appId},seatunnel.apache.org/role=worker`;

function log(entry: Record<string, unknown>): void {
  if (logFile) fs.appendFileSync(logFile, `${JSON.stringify({ at: Date.now(), ...entry })}\n`);
}

// ---- registration: Running worker Pods, from the API ----------------------------------------

interface Kubeconfig {
  clusters: Array<{ cluster: { server: string; 'certificate-authority-data'?: string } }>;
  users: Array<{ user: { token?: string } }>;
}
const kc = JSON.parse(fs.readFileSync(env.STANDIN_KUBECONFIG ?? '', 'utf8')) as Kubeconfig;
const server = new URL(kc.clusters[0].cluster.server);
const ca = kc.clusters[0].cluster['certificate-authority-data'];
const agent = new https.Agent({ keepAlive: true, ca: ca ? Buffer.from(ca, 'base64') : undefined });
let registered = new Set<string>();
const everRegistered = new Set<string>();

function listWorkers(): Promise<
  Array<{ metadata: { name: string; deletionTimestamp?: string }; status?: { phase?: string } }>
> {
  return new Promise((resolve, reject) => {
    const req = https.request(
      new URL(`/api/v1/namespaces/${settings.namespace}/pods?labelSelector=${encodeURIComponent(selector)}`, server),
      { agent, headers: { authorization: `Bearer ${kc.users[0].user.token}` }, timeout: 5000 },
      (res) => {
        let body = '';
        res.on('data', (c) => (body += c));
        res.on('end', () =>
          res.statusCode === 200 ? resolve(JSON.parse(body).items) : reject(new Error(`HTTP ${res.statusCode}`)),
        );
      },
    );
    req.on('error', reject);
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.end();
  });
}

async function pollWorkers(): Promise<void> {
  for (;;) {
    try {
      const pods = await listWorkers();
      const now = new Set(
        pods.filter((p) => p.status?.phase === 'Running' && !p.metadata.deletionTimestamp).map((p) => p.metadata.name),
      );
      if (!registerNever) {
        const lost = [...registered].filter((n) => !now.has(n));
        registered = now;
        for (const n of now) everRegistered.add(n);
        if (lost.length && job.status === 'RUNNING' && failOnLoss) {
          setTimeout(() => {
            if (job.status === 'RUNNING')
              finishJob(
                'FAILED',
                `org.apache.seatunnel.engine.common.exception.JobException: deployed node(${lost[0]}) offline`,
              );
          }, 1000);
        }
      }
    } catch {
      // the API server may be restarting; keep the last view
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}

// ---- the job -------------------------------------------------------------------------------

const job: { id?: string; status?: string; errorMsg?: string; timer?: NodeJS.Timeout } = {};

function finishJob(status: string, errorMsg?: string): void {
  if (!job.id || job.status !== 'RUNNING') return;
  clearTimeout(job.timer);
  job.status = status;
  job.errorMsg = errorMsg;
  log({ call: 'job-ended', jobId: job.id, status });
}

function send(res: http.ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

const rest = http.createServer((req, res) => {
  let body = '';
  req.on('data', (c) => (body += c));
  req.on('end', () => {
    const url = new URL(req.url ?? '/', 'http://x');
    const p = url.pathname.startsWith(base) ? url.pathname.slice(base.length) : url.pathname;
    const n = registered.size;
    if (p === '/overview') {
      log({ call: 'overview', registered: n });
      return send(res, 200, {
        projectVersion: 'stand-in',
        totalSlot: String(n * settings.workerSlots),
        unassignedSlot: '0',
        workers: String(n),
      });
    }
    if (p === '/running-jobs') {
      log({ call: 'running-jobs' });
      return send(res, 200, job.id && job.status === 'RUNNING' ? [{ jobId: job.id, jobStatus: job.status }] : []);
    }
    if (p === '/submit-job' && req.method === 'POST') {
      const query = Object.fromEntries(url.searchParams);
      let config: unknown;
      try {
        config = JSON.parse(body);
      } catch {
        return send(res, 400, { status: 'fail', message: 'Invalid JSON format in request body.' });
      }
      log({ call: 'submit', registered: n, query, body, config });
      if (job.id) return send(res, 500, { status: 'fail', message: `The job id ${job.id} has already been submitted` });
      job.id = query.jobId;
      job.status = 'RUNNING';
      if (mode === 'finish') job.timer = setTimeout(() => finishJob('FINISHED'), jobMs);
      if (mode === 'fail')
        job.timer = setTimeout(
          () => finishJob('FAILED', 'java.lang.RuntimeException: stand-in job failed on request\n\tat x'),
          jobMs,
        );
      return send(res, 200, { jobId: job.id, jobName: query.jobName });
    }
    const info = p.match(/^\/job-info\/(\d+)$/);
    if (info) {
      if (info[1] !== job.id) return send(res, 200, { jobId: info[1] });
      return send(res, 200, {
        jobId: job.id,
        jobStatus: job.status,
        ...(job.errorMsg ? { errorMsg: job.errorMsg } : {}),
      });
    }
    if (p === '/stop-job' && req.method === 'POST') {
      const id = /"jobId"\s*:\s*"?(\d+)/.exec(body)?.[1];
      log({ call: 'stop', jobId: id, body });
      if (id && id === job.id) finishJob('CANCELED');
      return send(res, 200, { jobId: id });
    }
    if (p === '/_standin/finish' && req.method === 'POST') {
      finishJob((url.searchParams.get('status') ?? 'FINISHED').toUpperCase());
      return send(res, 200, { ok: true });
    }
    if (p === '/_standin/state')
      return send(res, 200, { registered: [...registered], everRegistered: [...everRegistered], job });
    res.writeHead(404).end();
  });
});

/** SHA-256 (hex) of each named variable's value, null when it is not set. */
function envDigests(names: readonly string[]): Record<string, string | null> {
  return Object.fromEntries(
    names.map((n) => [n, env[n] === undefined ? null : createHash('sha256').update(env[n], 'utf8').digest('hex')]),
  );
}

rest.listen(settings.master.restPort, '127.0.0.1', () => {
  let masterHost: string | undefined;
  try {
    const hz = fs.readFileSync(path.join(env.SEATUNNEL_APP_WORK_DIR ?? '', 'engine', 'hazelcast-master.yaml'), 'utf8');
    masterHost = /public-address:\s*"?([^"\s]+)"?/.exec(hz)?.[1];
  } catch {
    masterHost = undefined;
  }
  log({
    call: 'started',
    pid: process.pid,
    argv: process.argv.slice(2),
    masterHost,
    env: {
      HZ_PHONE_HOME_ENABLED: env.HZ_PHONE_HOME_ENABLED,
      jobConfigVisible: env.SEATUNNEL_APPLICATION_JOB_CONFIG !== undefined,
    },
    ...(env.STANDIN_REPORT_ENV ? { envDigests: envDigests(env.STANDIN_REPORT_ENV.split(',')) } : {}),
  });
  void pollWorkers();
});

process.on('SIGTERM', () => {
  log({ call: 'sigterm' });
  process.exit(143);
});
const parent = process.ppid;
setInterval(() => {
  try {
    process.kill(parent, 0);
  } catch {
    process.exit(1);
  }
}, 500).unref();
