// bench/failover's baseline: the same engine files (2 masters + 2 workers) started directly as
// processes on loopback addresses; the active master gets SIGTERM (what the kubelet sends a deleted
// Pod), the job is polled through the standby's REST, and the lost master is started again as soon
// as it has exited, as the StatefulSet and the kubelet do for the HA application.

import * as fs from 'node:fs';
import * as path from 'node:path';
import { resolveApplication } from '../lib/model/resolve';
import { seatunnelHome } from '../tools/local-stack/local-application';
import { BareZeta, httpCall } from './bare-zeta';
import { ACTIVE, checkpointFiles, CLAIM, counted, engineFile, JOB, READ_TIMEOUT_MS, SETTLE_MS } from './failover-trial';
import type { Masters, SetUp } from './failover-trial';
import { sleep, until } from './harness';

/**
 * BENCH_FAILOVER_BARE_RESTART=after-recovery starts bare Zeta's lost master only once the job is
 * RUNNING again, as this bench did before: its survivor then restores the job with the cores to
 * itself, while the HA application's replacement Pod starts at once.
 */
export const RESTART_AFTER_RECOVERY = process.env.BENCH_FAILOVER_BARE_RESTART === 'after-recovery';

/** How many members, which job, and the signal that loses a master. */
export interface BareShape {
  readonly masters: number;
  readonly workers: number;
  readonly job: Record<string, unknown>;
  /** SIGTERM: what the kubelet sends a deleted Pod (bench/failover); SIGKILL: a crash (bench/faults). */
  readonly signal: NodeJS.Signals;
  /** Cores per member (each a cgroup of its own, as a container's limit); absent: the whole machine. */
  readonly cpuCores?: number;
}

/** bench/failover's cluster: 2 masters, 2 workers, its JOB, SIGTERM. */
const FAILOVER_SHAPE: BareShape = { masters: 2, workers: 2, job: JOB, signal: 'SIGTERM' };

/** The bare cluster's processes, for what a SetUp does not cover (a worker lost, its logs). */
export interface BareMembers {
  readonly zeta: BareZeta;
  readonly masterIps: readonly string[];
  readonly workerIps: readonly string[];
  readonly checkpoints: string;
}

export async function startBareZeta(
  dir: string,
  shape: BareShape = FAILOVER_SHAPE,
): Promise<SetUp & { members: BareMembers }> {
  const home = seatunnelHome();
  const checkpoints = path.join(dir, 'bare-checkpoints');
  fs.mkdirSync(checkpoints, { recursive: true });
  const spec = resolveApplication({
    name: 'bare-failover',
    image: 'apache/seatunnel:2.3.8',
    // The spec's job only passes validation (an inline job is at most 120 KiB): shape.job is submitted.
    jobConfig: JSON.stringify(JOB),
    seatunnelHome: home,
    workerCount: shape.workers,
    workerSlots: 2,
    workerMemoryMb: 640,
    masterMemoryMb: 640,
    haEnabled: true,
    haMasters: shape.masters,
    haBackupCount: 1,
    checkpointPvc: CLAIM,
    runtimeFiles: { engine: { content: engineFile(checkpoints) } },
  });
  const masters = Array.from({ length: shape.masters }, (_, i) => `127.0.3.${i + 1}`);
  const workers = Array.from({ length: shape.workers }, (_, i) => `127.0.3.${shape.masters + i + 1}`);
  const zeta = new BareZeta(spec, path.join(dir, 'bare'), masters, shape.cpuCores);
  // Where each member's current log begins (a restarted master appends to its file).
  const since = new Map<string, number>();
  const start = (role: 'master' | 'worker', ip: string) => {
    since.set(ip, fs.existsSync(zeta.logFile(ip)) ? fs.statSync(zeta.logFile(ip)).size : 0);
    zeta.start(role, ip);
  };
  const restartedAt = new Map<string, number>();
  const restart = (ip: string) => {
    start('master', ip);
    restartedAt.set(ip, Date.now());
  };
  const currentLog = (ip: string) =>
    fs.existsSync(zeta.logFile(ip)) ? fs.readFileSync(zeta.logFile(ip), 'utf8').slice(since.get(ip) ?? 0) : '';
  const ready = (ip: string) =>
    httpCall(ip, spec.master.port, 'GET', '/hazelcast/health/ready', undefined, 1000).then(
      (r) => r.status === 200,
      () => false,
    );
  try {
    for (const ip of masters) start('master', ip);
    for (const ip of workers) start('worker', ip);
    await zeta.waitWorkers(masters[0], shape.workers);
    const jobId = (
      JSON.parse(
        await zeta.rest(masters[0], 'POST', '/submit-job?jobName=bare-failover', JSON.stringify(shape.job), 120_000),
      ) as { jobId: string }
    ).jobId;
    let standby = masters[1];
    const status = async (ip: string) => {
      try {
        return (
          JSON.parse(await zeta.rest(ip, 'GET', `/job-info/${jobId}`, undefined, READ_TIMEOUT_MS)) as {
            jobStatus?: string;
          }
        ).jobStatus;
      } catch {
        return undefined;
      }
    };
    await until('the bare job RUNNING', 240_000, async () => (await status(masters[0])) === 'RUNNING');
    await until('a first bare checkpoint', 60_000, () => checkpointFiles(checkpoints, jobId) > 0);
    const m: Masters = {
      active: () => until('an active bare master', 60_000, () => masters.find((ip) => ACTIVE.test(currentLog(ip)))),
      lose: async (ip) => {
        standby = masters.find((x) => x !== ip)!;
        restartedAt.delete(ip);
        // A supervisor's restart: the replacement starts while the survivor restores the job.
        void zeta.stopMember(ip, shape.signal).then(() => {
          if (!RESTART_AFTER_RECOVERY) restart(ip);
        });
      },
      jobStatus: () => status(standby),
      survivorLogs: (ip) => masters.filter((x) => x !== ip).map(currentLog),
      replaced: async (ip) => {
        if (RESTART_AFTER_RECOVERY) {
          await until(`bare master ${ip} gone`, 60_000, () => !zeta.running(ip));
          restart(ip);
        }
        await until(`bare master ${ip} restarted`, 60_000, () => restartedAt.get(ip));
        await until(`bare master ${ip} ready again`, 180_000, () => ready(ip));
        return restartedAt.get(ip);
      },
    };
    return {
      name: 'bare Zeta',
      masters: m,
      members: { zeta, masterIps: masters, workerIps: workers, checkpoints },
      jobId,
      settle: async () => {
        await until(
          'the bare job RUNNING',
          120_000,
          async () => (await status(masters[0])) === 'RUNNING' && (await status(masters[1])) === 'RUNNING',
        );
        await sleep(SETTLE_MS);
      },
      finish: async () => {
        const rows = counted(workers.map((ip) => fs.readFileSync(zeta.logFile(ip), 'utf8')));
        await zeta.stopAll();
        return rows;
      },
    };
  } catch (e) {
    zeta.killAll();
    throw e;
  }
}
