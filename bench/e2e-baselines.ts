// bench/e2e's set-ups without Kubernetes: the same job on bare Zeta processes (application mode's
// engine files, or SeaTunnel's defaults through StockZeta), and the floors — a JVM that starts and
// exits, a Zeta master starting alone.

import { spawn } from 'node:child_process';
import type { SeaTunnelApplicationProps } from '../lib/model/props';
import { resolveApplication } from '../lib/model/resolve';
import type { ApplicationSpec } from '../lib/model/spec';
import { BareZeta, httpCall } from './bare-zeta';
import { ClusterWatch, JOB, JOB_JSON, JOINED, MASTER_UP, now, POLL_MS, WORKERS, type Phases } from './e2e-measure';
import { sleep } from './harness';

/** The same job on bare Zeta processes (`zeta`'s files and command lines); every member started at once. */
export async function bareRun(zeta: BareZeta, name: string): Promise<Phases> {
  const [master, ...workers] = ['127.0.1.1', '127.0.1.2', '127.0.1.3'];
  const t0 = now();
  zeta.start('master', master);
  for (const w of workers) zeta.start('worker', w);
  try {
    return await watchAndRun(master, zeta.spec.master.port, name, t0);
  } finally {
    zeta.killAll();
  }
}

/**
 * Bare Zeta's part from its members' start at `t0`: the master at `host`:`port` watched until the
 * workers are registered, the job submitted through REST and followed to FINISHED. The same reads
 * whether the members are processes here or containers on a real node (bench/e2e-node-probe).
 */
export async function watchAndRun(host: string, port: number, name: string, t0: number): Promise<Phases> {
  const watch = new ClusterWatch(() => host, port);
  try {
    await watch.registration(300_000);
    const rest = async (method: string, p: string, body?: string, timeoutMs = 5000) => {
      const r = await httpCall(host, port, method, `/hazelcast/rest/maps${p}`, body, timeoutMs);
      if (r.status !== 200) throw new Error(`${method} ${p}: ${r.status} ${r.body}`);
      return r.body;
    };
    const tSubmit = now();
    const id = (JSON.parse(await rest('POST', `/submit-job?jobName=${name}`, JOB_JSON, 60_000)) as { jobId: string })
      .jobId;
    let running: number | undefined;
    for (;;) {
      const s = (JSON.parse(await rest('GET', `/job-info/${id}`)) as { jobStatus?: string }).jobStatus;
      if (s === 'RUNNING') running ??= now();
      if (s === 'FINISHED') {
        const finished = now();
        running ??= finished;
        return {
          [MASTER_UP]: watch.up! - t0,
          [JOINED]: watch.joined! - watch.up!,
          'joined → workers registered': watch.registered! - watch.joined!,
          'registered → job RUNNING': running - tSubmit,
          'RUNNING → FINISHED': finished - running,
          total: finished - t0,
        };
      }
      if (s && ['FAILED', 'CANCELED'].includes(s)) throw new Error(`bare job ${s}`);
      await sleep(POLL_MS);
    }
  } finally {
    await watch.stop();
  }
}

/** A JVM that starts and exits: `java -version`, the same java the members run. */
export function jvmFloor(): Promise<number> {
  return new Promise((resolve, reject) => {
    const t0 = now();
    const p = spawn('java', ['-version'], { stdio: 'ignore' });
    p.on('error', reject);
    p.on('exit', (code) => (code === 0 ? resolve(now() - t0) : reject(new Error(`java -version exited ${code}`))));
  });
}

/** A Zeta master alone, on application mode's files: started → its REST answers. */
export async function memberAloneFloor(spec: ApplicationSpec, dir: string): Promise<number> {
  const zeta = new BareZeta(spec, dir, ['127.0.1.1']);
  const t0 = now();
  zeta.start('master', '127.0.1.1');
  try {
    for (;;) {
      const r = await httpCall(
        '127.0.1.1',
        spec.master.port,
        'GET',
        '/hazelcast/rest/maps/overview',
        undefined,
        2000,
      ).catch(() => undefined);
      if (r?.status === 200) return now() - t0;
      if (now() - t0 > 120_000) throw new Error('a master alone did not answer in 120 s');
      await sleep(POLL_MS);
    }
  } finally {
    zeta.killAll();
  }
}

export function bareSpec(home: string, name: string, extra: Partial<SeaTunnelApplicationProps> = {}): ApplicationSpec {
  return resolveApplication({
    ...extra,
    name,
    image: 'apache/seatunnel:2.3.8',
    jobConfig: JOB,
    seatunnelHome: home,
    workerCount: WORKERS,
    workerSlots: 2,
    workerMemoryMb: 640,
    masterMemoryMb: 640,
  });
}
