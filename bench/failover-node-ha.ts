// bench/failover --node's HA application: bench/failover's (2 masters, 2 workers × 2 slots,
// backup-count 1, checkpoints every 2 s on the shared claim), submitted by the CLI to the real node.
// The active master's Pod is deleted through the API (as `kubectl delete pod`); the StatefulSet
// replaces it. The job is read through the application's ClusterIP REST Service from a client Pod
// labelled as one of the application's own: its NetworkPolicy admits only those on the member port.

import * as fs from 'node:fs';
import * as path from 'node:path';
import { haMasterPodName } from '../lib/model/ids';
import { PATHS } from '../lib/model/spec';
import { adminHttp } from '../test/support/cluster';
import {
  applicationPods,
  containerRestarts,
  deploymentHeader,
  podReady,
  type AppPod,
} from '../test/support/node-ha-app';
import { WorkerLogKeeper } from '../test/support/node-rows';
import { containerIdOf, containerPid, processStartedAt, type NodeBench } from './failover-node-net';
import { countedJob } from './failover-rows';
import {
  ACTIVE,
  CHECKPOINT_MS,
  checkpointFiles,
  CLAIM,
  counted,
  engineFile,
  READ_TIMEOUT_MS,
  SETTLE_MS,
  TABLES,
} from './failover-trial';
import type { Masters, SetUp } from './failover-trial';
import { sleep, until } from './harness';
import { runCli } from './local-plane';

export const IMAGE = 'apache/seatunnel:2.3.8';
/**
 * The node has 2 cores and every Pod's request is its limit: the HA application (coordinator 250m,
 * 2 masters, 2 workers) and bare Zeta (2 masters, 2 workers) side by side, 8 JVMs, fit at 0.2 each
 * (1.85 cores with CoreDNS and the client Pod). BENCH_FAILOVER_NODE_CPU overrides it.
 */
export const CPU_CORES = Number(process.env.BENCH_FAILOVER_NODE_CPU ?? 0.2);
export const MEMORY_MB = 640;
/** A JVM start on a fifth of a core takes a while: the masters' startup probe budget. */
export const STARTUP_MS = 600_000;
const MEMBER_PORT = 5801;
/**
 * A table every 6 s, not every second: with the waits for the kubelet's back-off (failover-node-bare.ts)
 * five trials take about 25 minutes, and the stream must outlast them (BENCH_FAILOVER_NODE_SPLIT_MS).
 */
export const SPLIT_READ_INTERVAL_MS = Number(process.env.BENCH_FAILOVER_NODE_SPLIT_MS ?? 6000);
/** bench/failover's counted stream, slower. */
export const NODE_JOB = countedJob(TABLES, CHECKPOINT_MS, SPLIT_READ_INTERVAL_MS);

/** The deployment file: bench/failover's application, sized for the node. */
function deploymentFile(b: Pick<NodeBench, 'namespace' | 'dir'>): string {
  const file = path.join(b.dir, 'failover-ha.conf');
  fs.writeFileSync(
    file,
    [
      deploymentHeader(b.namespace),
      `application { name = failover-ha, worker-count = 2, startup-timeout-millis = ${STARTUP_MS},`,
      `  worker { slots = 2, memory-mb = ${MEMORY_MB}, cpu-cores = ${CPU_CORES} }, master { memory-mb = ${MEMORY_MB}, cpu-cores = ${CPU_CORES} },`,
      '  ha { enabled = true, masters = 2, backup-count = 1 } }',
      `kubernetes.checkpoint-pvc = ${CLAIM}`,
      `kubernetes.runtime-files.engine.content = ${JSON.stringify(engineFile(PATHS.checkpoints))}`,
    ].join('\n'),
  );
  return file;
}

export interface HaOnNode extends SetUp {
  readonly appId: string;
  /** Submit → the job RUNNING through the Service. */
  readonly startMs: number;
  /** Containers of the application restarted in place (a liveness kill, an OOM), for the report. */
  restarts(): Promise<string[]>;
}

/**
 * Submits the application; resolves with its id once its objects exist (`ready` then waits for the
 * job), so that the client Pod, which carries its id, can be made meanwhile.
 */
export async function submitHa(
  b: Pick<NodeBench, 'namespace' | 'dir'>,
): Promise<{ appId: string; jobId: string; deploy: string; t0: number }> {
  const deploy = deploymentFile(b);
  const job = path.join(b.dir, 'job.conf');
  fs.writeFileSync(job, JSON.stringify(NODE_JOB));
  const t0 = Date.now();
  const sub = await runCli(['submit', '-a', deploy, '-c', job]);
  return { appId: String(sub.applicationId), jobId: String(sub.jobId), deploy, t0 };
}

export async function haOnNode(b: NodeBench, s: Awaited<ReturnType<typeof submitHa>>): Promise<HaOnNode> {
  const { appId, jobId, deploy } = s;
  const ns = b.namespace;
  const keeper = new WorkerLogKeeper(ns, appId);
  const service = await until('the REST Service', 60_000, async () =>
    adminHttp()
      // names.restService: the stable REST endpoint
      .call<{ spec: { clusterIP: string } }>('GET', `/api/v1/namespaces/${ns}/services/${appId}-rest`)
      .then((x) => x.spec.clusterIP)
      .catch(() => undefined),
  );
  const status = async () =>
    (
      await b.http.json<{ jobStatus?: string }>(
        service,
        MEMBER_PORT,
        `/hazelcast/rest/maps/job-info/${jobId}`,
        READ_TIMEOUT_MS,
      )
    )?.jobStatus;
  try {
    await until('the HA job RUNNING', 900_000, async () => (await status()) === 'RUNNING', 250);
  } catch (e) {
    keeper.stop();
    throw e;
  }
  const startMs = Date.now() - s.t0;
  await until('a first checkpoint', 120_000, () => checkpointFiles(path.join(b.dir, 'checkpoints'), jobId) > 0);
  const live = async () => (await applicationPods(ns, appId, 'master')).filter((x) => !x.metadata.deletionTimestamp);
  const masterNames = [0, 1].map((i) => haMasterPodName(appId, i));
  let lostUid = '';
  const m: Masters = {
    active: () =>
      until('an active master Pod', 120_000, async () =>
        (await live()).map((x) => x.metadata.name).find((n) => ACTIVE.test(b.logs.current(n))),
      ),
    lose: async (name) => {
      lostUid = (await live()).find((x) => x.metadata.name === name)!.metadata.uid;
      await adminHttp().call('DELETE', `/api/v1/namespaces/${ns}/pods/${name}`);
    },
    jobStatus: status,
    survivorLogs: (lost) => masterNames.filter((n) => n !== lost).map((n) => b.logs.current(n)),
    replaced: async (lost) => {
      const p: AppPod = await until(
        `${lost} replaced and ready`,
        600_000,
        async () => (await live()).find((x) => x.metadata.name === lost && x.metadata.uid !== lostUid && podReady(x)),
        100,
      );
      const pid = await containerPid(b.node, containerIdOf(p)!);
      return pid ? processStartedAt(pid) : undefined;
    },
  };
  return {
    name: 'HA application',
    appId,
    masters: m,
    jobId,
    startMs,
    restarts: () => containerRestarts(ns, appId),
    settle: async () => {
      await until(
        'both masters ready and the job RUNNING',
        300_000,
        async () => (await live()).filter(podReady).length === 2 && (await status()) === 'RUNNING',
        250,
      );
      await sleep(SETTLE_MS);
    },
    finish: async () => {
      const rows = counted(keeper.logs());
      keeper.stop();
      await runCli(['cancel', '-a', deploy, '--id', appId]).catch((e: Error) =>
        console.error(`[failover] cancel of ${appId}: ${e.message}`),
      );
      return rows;
    },
  };
}
