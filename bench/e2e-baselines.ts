// bench/e2e's set-ups without Kubernetes: the same job on bare Zeta processes (application mode's
// engine files, or SeaTunnel's defaults through StockZeta), and the floors — a JVM that starts and
// exits, a Zeta master starting alone.

import { spawn } from 'node:child_process';
import type { SeaTunnelApplicationProps } from '../lib/model/props';
import { resolveApplication } from '../lib/model/resolve';
import type { ApplicationSpec } from '../lib/model/spec';
import { BareZeta, httpCall } from './bare-zeta';
import { ClusterWatch, JOB, JOB_JSON, now, POLL_MS, WORKERS, type Phases } from './e2e-measure';
import { sleep } from './harness';

/** The same job on bare Zeta processes (`zeta`'s files and command lines); every member started at once. */
export async function bareRun(zeta: BareZeta, name: string): Promise<Phases> {
  const [master, ...workers] = ['127.0.1.1', '127.0.1.2', '127.0.1.3'];
  const t0 = now();
  zeta.start('master', master);
  for (const w of workers) zeta.start('worker', w);
  const watch = new ClusterWatch(() => master, zeta.spec.master.port);
  try {
    await watch.registration(300_000);
    const tSubmit = now();
    const id = (
      JSON.parse(await zeta.rest(master, 'POST', `/submit-job?jobName=${name}`, JOB_JSON, 60_000)) as { jobId: string }
    ).jobId;
    let running: number | undefined;
    for (;;) {
      const s = (JSON.parse(await zeta.rest(master, 'GET', `/job-info/${id}`)) as { jobStatus?: string }).jobStatus;
      if (s === 'RUNNING') running ??= now();
      if (s === 'FINISHED') {
        const finished = now();
        running ??= finished;
        return {
          'master JVM started → REST up': watch.up! - t0,
          'REST up → workers joined': watch.joined! - watch.up!,
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
    zeta.killAll();
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
