// bench/failover on the local control plane: the HA application (its active master's Pod deleted
// through the API, as `kubectl delete pod`; the job polled through the ClusterIP Service every
// 100 ms), and the non-HA recovery (`cancel --savepoint`, then a new application with
// `--restore-job-id`, until its job is RUNNING again on the new master's REST).

import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Service } from 'kubernetes-types/core/v1';
import { httpCall } from './bare-zeta';
import { ACTIVE, checkpointFiles, CLAIM, counted, engineFile, JOB, READ_TIMEOUT_MS, SETTLE_MS } from './failover-trial';
import type { Counted, Masters, SetUp } from './failover-trial';
import { sleep, until } from './harness';
import { type LocalPlane, runCli as cli, SERVICE_ACCOUNT } from './local-plane';

export const RESTORE_TRIALS = Number(process.env.BENCH_RESTORE_TRIALS ?? 3);

/** The deployment file `name`.conf (and the job) for an application on the plane; the CLI's -a and -c. */
function deployFile(p: LocalPlane, name: string, ha: boolean): string[] {
  const file = path.join(p.dir, `${name}.conf`);
  const job = path.join(p.dir, 'job.conf');
  fs.writeFileSync(
    file,
    [
      p.stack.deploymentLines,
      `application { name = ${name}, worker-count = 2, worker.slots = 2, worker.memory-mb = 640, master.memory-mb = 640, startup-timeout-millis = 300000 }`,
      ha ? `application.ha { enabled = true, masters = 2, backup-count = 1 }` : '',
      `kubernetes { namespace = ${p.namespace}, image = "apache/seatunnel:2.3.8", service-account = ${SERVICE_ACCOUNT}, kubeconfig = "${p.cp.info.kubeconfig}" }`,
      ha ? `kubernetes.checkpoint-pvc = ${CLAIM}` : '',
      `kubernetes.runtime-files.engine.content = ${JSON.stringify(engineFile(p.checkpoints))}`,
    ].join('\n'),
  );
  fs.writeFileSync(job, JSON.stringify(JOB));
  return ['-a', file, '-c', job];
}

interface PodLike {
  metadata: { name: string; uid: string; deletionTimestamp?: string };
  status?: { conditions?: Array<{ type: string; status: string }> };
}

async function pods(p: LocalPlane, appId: string, role: string): Promise<PodLike[]> {
  const sel = encodeURIComponent(`seatunnel.apache.org/application-id=${appId},seatunnel.apache.org/role=${role}`);
  const list = await p.cp.admin.call<{ items: PodLike[] }>(
    'GET',
    `/api/v1/namespaces/${p.namespace}/pods?labelSelector=${sel}`,
  );
  return list.items.filter((x) => !x.metadata.deletionTimestamp);
}

const isReady = (x: PodLike) => x.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;

async function jobInfo(host: string | undefined, jobId: string): Promise<string | undefined> {
  if (!host) return undefined;
  try {
    const r = await httpCall(host, 5801, 'GET', `/hazelcast/rest/maps/job-info/${jobId}`, undefined, READ_TIMEOUT_MS);
    return r.status === 200 ? (JSON.parse(r.body) as { jobStatus?: string }).jobStatus : undefined;
  } catch {
    return undefined;
  }
}

function workerLogs(p: LocalPlane, appIds: readonly string[]): string[] {
  return p.stack.kubelet
    .podNames()
    .filter((n) => appIds.some((a) => n.startsWith(`${a}-worker-`)))
    .filter((n, i, all) => all.indexOf(n) === i)
    .map((n) => p.stack.kubelet.logOf(n));
}

export async function startHaApplication(p: LocalPlane): Promise<SetUp & { startMs: number }> {
  const t0 = Date.now();
  const sub = await cli(['submit', ...deployFile(p, 'failover-ha', true)]);
  const appId = String(sub.applicationId);
  const jobId = String(sub.jobId);
  const svc = async () =>
    p.stack.network.proxyAddress(
      await p.cp.admin.call<Service>('GET', `/api/v1/namespaces/${p.namespace}/services/${appId}-rest`),
    );
  let proxy: string | undefined;
  const status = async () => {
    proxy ??= await svc().catch(() => undefined);
    return jobInfo(proxy, jobId);
  };
  await until('the HA job RUNNING', 300_000, async () => (await status()) === 'RUNNING');
  const startMs = Date.now() - t0;
  await until('a first checkpoint', 60_000, () => checkpointFiles(p.checkpoints, jobId) > 0);
  const masterLog = (name: string) => p.stack.kubelet.logOf(name);
  let lostUid = '';
  const m: Masters = {
    active: () =>
      until('an active master Pod', 60_000, async () =>
        (await pods(p, appId, 'master')).map((x) => x.metadata.name).find((n) => ACTIVE.test(masterLog(n))),
      ),
    lose: async (name) => {
      lostUid = (await pods(p, appId, 'master')).find((x) => x.metadata.name === name)!.metadata.uid;
      await p.cp.admin.call('DELETE', `/api/v1/namespaces/${p.namespace}/pods/${name}`);
    },
    jobStatus: status,
    survivorLogs: (lost) =>
      [0, 1]
        .map((i) => `${appId}-master-${i}`)
        .filter((n) => n !== lost)
        .map(masterLog),
    replaced: async (lost) => {
      await until(`${lost} replaced and ready`, 180_000, async () =>
        (await pods(p, appId, 'master')).some(
          (x) => x.metadata.name === lost && x.metadata.uid !== lostUid && isReady(x),
        ),
      );
      return p.stack.kubelet.processStartedAt(lost);
    },
  };
  return {
    name: 'HA application',
    masters: m,
    jobId,
    startMs,
    settle: async () => {
      await until(
        'both masters ready and the job RUNNING',
        180_000,
        async () => (await pods(p, appId, 'master')).filter(isReady).length === 2 && (await status()) === 'RUNNING',
      );
      await sleep(SETTLE_MS);
    },
    finish: async () => {
      const rows = counted(workerLogs(p, [appId]));
      await cli(['cancel', '-a', path.join(p.dir, 'failover-ha.conf'), '--id', appId]);
      return rows;
    },
  };
}

export interface Restore {
  cancelMs: number;
  submitMs: number;
  runningMs: number;
  totalMs: number;
}

/** Non-HA: cancel --savepoint, then a new application restoring the job, until RUNNING. */
export async function nonHaRecovery(p: LocalPlane): Promise<Counted & { restores: Restore[]; starts: number[] }> {
  const masterRest = async (appId: string) => {
    const [master] = await pods(p, appId, 'master');
    return master ? p.stack.kubelet.localAddressOf(master.metadata.name) : undefined;
  };
  const waitRunning = async (appId: string, jobId: string) => {
    await until(
      `${appId}: job RUNNING`,
      300_000,
      async () => (await jobInfo(await masterRest(appId), jobId)) === 'RUNNING',
    );
  };
  let args = deployFile(p, 'failover-plain-0', false);
  const first = await cli(['submit', ...args]);
  let appId = String(first.applicationId);
  const jobId = String(first.jobId);
  const appIds = [appId];
  await waitRunning(appId, jobId);
  const restores: Restore[] = [];
  const starts: number[] = [];
  for (let i = 1; i <= RESTORE_TRIALS; i++) {
    const before = checkpointFiles(p.checkpoints, jobId);
    await until('a checkpoint of the running job', 60_000, () => checkpointFiles(p.checkpoints, jobId) > before);
    await sleep(SETTLE_MS);
    const t0 = Date.now();
    starts.push(t0);
    await cli(['cancel', '-a', args[1], '--id', appId, '--savepoint', '--wait-timeout', '120000']);
    // The old application's processes are gone: its master no longer holds the job.
    const old = appId;
    await until(`${old} gone`, 120_000, () => p.stack.kubelet.running().every((n) => !n.startsWith(old)));
    const t1 = Date.now();
    args = deployFile(p, `failover-plain-${i}`, false);
    appId = String((await cli(['submit', ...args, '--restore-job-id', jobId])).applicationId);
    appIds.push(appId);
    const t2 = Date.now();
    await waitRunning(appId, jobId);
    const t3 = Date.now();
    restores.push({ cancelMs: t1 - t0, submitMs: t2 - t1, runningMs: t3 - t2, totalMs: t3 - t0 });
    console.error(`[failover] non-HA recovery ${i}: RUNNING again after ${t3 - t0} ms`);
  }
  await sleep(SETTLE_MS);
  const rows = counted(workerLogs(p, appIds));
  await cli(['cancel', '-a', args[1], '--id', appId]);
  return { restores, ...rows, starts };
}
