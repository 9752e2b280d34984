// bench/failover --node's baseline: bare Zeta in containers, as a user deploys it with a plain
// manifest — no StatefulSet, no coordinator, no NetworkPolicy: a ConfigMap with the engine files of
// the same HA settings as the application (2 masters, backup-count 1, checkpoints on the shared
// claim), a headless Service under which the masters' DNS names resolve, 2 master Pods and 2 worker
// Pods with `restartPolicy: Always`. The kubelet is the supervisor: the active master's JVM gets
// SIGTERM (as the kubelet sends a deleted Pod) and the kubelet starts the container again in
// place, as soon as it has exited — unless its restart back-off holds it (see BACKOFF below).

import { haMasterAddresses, renderEngineFiles } from '../lib/engine/files';
import { haMasterPodName } from '../lib/model/ids';
import { resolveApplication } from '../lib/model/resolve';
import { PATHS, type ApplicationSpec } from '../lib/model/spec';
import { buildPlan } from '../lib/plan/build-plan';
import { names } from '../lib/plan/pod';
import { adminHttp } from '../test/support/cluster';
import { podReady, type AppPod } from '../test/support/node-ha-app';
import { WorkerLogKeeper } from '../test/support/node-rows';
import { containerIdOf, containerPid, processStartedAt, type NodeBench } from './failover-node-net';
import { CPU_CORES, IMAGE, MEMORY_MB, NODE_JOB, STARTUP_MS } from './failover-node-ha';
import { ACTIVE, checkpointFiles, CLAIM, counted, engineFile, READ_TIMEOUT_MS, SETTLE_MS } from './failover-trial';
import type { Masters, SetUp } from './failover-trial';
import { sleep, until } from './harness';
import {
  createManifest,
  engineFilesAndService,
  memberPod,
  planContainer,
  removeManifest,
  type Role,
} from './bare-pods';
import * as path from 'node:path';

/**
 * The kubelet holds a container's second restart until 10 s after its exit (then 20 s, 40 s …), and
 * forgets that only once the container ran 10 minutes (twice the 5-minute maximum) before it exits
 * again. BENCH_FAILOVER_NODE_BACKOFF=wait (default): before a trial whose master would be held, wait
 * until its container has run that long, so that every restart is immediate — bench/failover's fair
 * restart; `ignore`: lose it anyway, and the trial's restart delay shows the back-off.
 */
export const BACKOFF: 'wait' | 'ignore' = ((v) => {
  if (v === undefined || v === '' || v === 'wait') return 'wait';
  if (v === 'ignore') return 'ignore';
  throw new Error(`BENCH_FAILOVER_NODE_BACKOFF: expected wait or ignore, got ${JSON.stringify(v)}`);
})(process.env.BENCH_FAILOVER_NODE_BACKOFF);
/** Twice the kubelet's maximum back-off (300 s), and a margin for its clock and ours. */
const BACKOFF_RESET_MS = 600_000 + 10_000;

/** The same settings as the HA application's deployment file (failover-node-ha.ts), so the same files and sizes. */
export function bareSpec(namespace: string): ApplicationSpec {
  return resolveApplication({
    name: 'failover-bare',
    namespace,
    image: IMAGE,
    imagePullPolicy: 'Never',
    // Only for validation: NODE_JOB is submitted through REST.
    jobConfig: JSON.stringify(NODE_JOB),
    workerCount: 2,
    workerSlots: 2,
    workerMemoryMb: MEMORY_MB,
    masterMemoryMb: MEMORY_MB,
    workerCpuCores: CPU_CORES,
    masterCpuCores: CPU_CORES,
    startupTimeoutMillis: STARTUP_MS,
    haEnabled: true,
    haMasters: 2,
    haBackupCount: 1,
    checkpointPvc: CLAIM,
    runtimeFiles: { engine: { content: engineFile(PATHS.checkpoints) } },
  });
}

/**
 * The plain manifest. The Service is named after the spec's application ID and the masters after
 * its StatefulSet's Pods, so the engine files are the application's byte for byte (its masters'
 * DNS names resolve here too). From the plan: each role's resources, and the masters' probes —
 * the readiness probe makes "ready" mean the same on both sides, the liveness probe is the
 * application's supervision of a frozen master. The kubelet restarts a member in place.
 */
export function bareManifest(spec: ApplicationSpec): Array<Record<string, unknown>> {
  const plan = buildPlan(spec);
  if (!spec.ha || !plan.masters) throw new Error('bare Zeta on the node takes an HA spec');
  const masterPod = plan.masters.spec!.template.spec;
  const group = spec.appId;
  // As the runtime stamps an HA application's workers: every master by its DNS name.
  const workerEnv = { ST_DOCKER_MEMBER_LIST: haMasterAddresses(spec, spec.ha.masters).join(',') };
  const pod = (name: string, role: Role) => {
    const p = memberPod(spec, plan, group, role, name, role === 'worker' ? workerEnv : {});
    const from = planContainer(plan, role);
    const c = p.spec.containers[0];
    Object.assign(c, { workingDir: from.workingDir, securityContext: from.securityContext });
    p.spec = {
      ...p.spec,
      restartPolicy: 'Always',
      terminationGracePeriodSeconds: masterPod?.terminationGracePeriodSeconds,
      securityContext: masterPod?.securityContext,
    };
    if (role === 'master') {
      Object.assign(c, {
        ports: from.ports,
        startupProbe: from.startupProbe,
        readinessProbe: from.readinessProbe,
        livenessProbe: from.livenessProbe,
      });
      c.volumeMounts!.push({ name: 'checkpoints', mountPath: PATHS.checkpoints });
      p.spec.volumes!.push({ name: 'checkpoints', persistentVolumeClaim: { claimName: spec.checkpointPvc! } });
      Object.assign(p.spec, { hostname: name, subdomain: group });
    }
    return p as unknown as Record<string, unknown>;
  };
  return [
    ...engineFilesAndService(group, renderEngineFiles(spec).files, spec.master.port),
    ...Array.from({ length: spec.ha.masters }, (_, i) => pod(haMasterPodName(spec.appId, i), 'master')),
    ...Array.from({ length: spec.worker.count }, (_, w) => pod(names.worker(spec.appId, w), 'worker')),
  ];
}

type BarePod = AppPod & {
  status?: { podIP?: string; containerStatuses?: Array<{ state?: { running?: { startedAt?: string } } }> };
};

/** One restart of a lost bare master by the kubelet. */
export interface Restart {
  readonly pod: string;
  /** The container's restart count after it. */
  readonly count: number;
  /** The old JVM's last log line → the new container's process start (ms): the kubelet's delay, and the JVM's exit after its last line. */
  readonly delayMs?: number;
  /** How long the bench waited before the trial for the kubelet's back-off to reset (BACKOFF=wait). */
  readonly waitedMs: number;
}

export async function startBareOnNode(b: NodeBench): Promise<SetUp & { restarts: Restart[] }> {
  const ns = b.namespace;
  const spec = bareSpec(ns);
  const objects = bareManifest(spec);
  const masters = Array.from({ length: 2 }, (_, i) => haMasterPodName(spec.appId, i));
  const port = spec.master.port;
  const keeper = new WorkerLogKeeper(ns, spec.appId);
  const get = (name: string) => adminHttp().call<BarePod>('GET', `/api/v1/namespaces/${ns}/pods/${name}`);
  let jobId = '';
  const ips = new Map<string, string>();
  /** A master's Pod IP: the same for all its restarts in place. */
  const ipOf = (name: string) => ips.get(name)!;
  const status = async (name: string) =>
    (
      await b.http.json<{ jobStatus?: string }>(
        ipOf(name),
        port,
        `/hazelcast/rest/maps/job-info/${jobId}`,
        READ_TIMEOUT_MS,
      )
    )?.jobStatus;
  await createManifest(ns, objects);
  const remove = () => removeManifest(ns, objects);
  try {
    for (const m of masters)
      ips.set(m, await until(`${m} with an address`, 300_000, async () => (await get(m)).status?.podIP, 250));
    await until(
      'bare Zeta: 2 workers registered',
      600_000,
      async () =>
        Number(
          (await b.http.json<{ workers?: string }>(ipOf(masters[0]), port, '/hazelcast/rest/maps/overview'))?.workers,
        ) >= 2,
      500,
    );
    const sub = await b.http.call(
      ipOf(masters[0]),
      port,
      'POST',
      '/hazelcast/rest/maps/submit-job?jobName=failover-bare',
      JSON.stringify(NODE_JOB),
      120_000,
    );
    if (sub.status !== 200) throw new Error(`bare Zeta submit: ${sub.status} ${sub.body}`);
    jobId = String((JSON.parse(sub.body) as { jobId: string | number }).jobId);
    await until('the bare job RUNNING', 600_000, async () => (await status(masters[0])) === 'RUNNING', 500);
    await until('a first bare checkpoint', 120_000, () => checkpointFiles(path.join(b.dir, 'checkpoints'), jobId) > 0);
  } catch (e) {
    keeper.stop();
    await remove();
    throw e;
  }

  const restarts: Restart[] = [];
  let standby = masters[1];
  let lost: { name: string; pid: number; count: number } | undefined;
  let waitedMs = 0;
  const restartCount = (p: BarePod) => p.status?.containerStatuses?.[0]?.restartCount ?? 0;
  const mainPid = async (name: string) => {
    const id = containerIdOf(await get(name));
    const pid = id ? await containerPid(b.node, id) : undefined;
    if (!pid) throw new Error(`no running container in ${name}`);
    return pid;
  };
  const activeMaster = () =>
    until('an active bare master', 120_000, () => masters.find((n) => ACTIVE.test(b.logs.current(n))));

  const m: Masters = {
    active: async () => {
      const name = await activeMaster();
      // Resolved before the loss, so that the signal goes out at once.
      lost = { name, pid: await mainPid(name), count: restartCount(await get(name)) };
      return name;
    },
    lose: async (name) => {
      standby = masters.find((x) => x !== name)!;
      process.kill(lost!.pid, 'SIGTERM');
    },
    jobStatus: () => status(standby),
    survivorLogs: (name) => masters.filter((x) => x !== name).map((x) => b.logs.current(x)),
    replaced: async (name) => {
      const p = await until(
        `${name} restarted and ready`,
        600_000,
        async () => {
          const x = await get(name);
          return restartCount(x) > lost!.count && podReady(x) ? x : undefined;
        },
        100,
      );
      const pid = await containerPid(b.node, containerIdOf(p)!);
      const startedAt = pid ? processStartedAt(pid) : undefined;
      const exitedAt = b.logs.previousLastLineAt(name);
      const r: Restart = {
        pod: name,
        count: restartCount(p),
        delayMs: startedAt !== undefined && exitedAt !== undefined ? startedAt - exitedAt : undefined,
        waitedMs,
      };
      restarts.push(r);
      console.error(
        `[failover] bare: ${name} restarted by the kubelet (restart ${r.count}), ${r.delayMs ?? '?'} ms after the old JVM's last line`,
      );
      return startedAt;
    },
  };
  return {
    name: 'bare Zeta',
    masters: m,
    jobId,
    restarts,
    settle: async () => {
      const whole = async () =>
        (await Promise.all(masters.map(async (x) => podReady(await get(x)) && (await status(x)) === 'RUNNING'))).every(
          Boolean,
        );
      await until('both bare masters ready and the job RUNNING on both', 300_000, whole, 250);
      waitedMs = 0;
      if (BACKOFF === 'wait') {
        const next = await activeMaster();
        const p = await get(next);
        const startedAt = processStartedAt(await mainPid(next));
        if (restartCount(p) > 0 && startedAt !== undefined && Date.now() - startedAt < BACKOFF_RESET_MS) {
          waitedMs = startedAt + BACKOFF_RESET_MS - Date.now();
          console.error(
            `[failover] bare: ${next} was restarted ${Math.round((Date.now() - startedAt) / 1000)} s ago; waiting ${Math.round(waitedMs / 1000)} s until the kubelet's restart back-off has reset`,
          );
          await sleep(waitedMs);
          await until('both bare masters ready and the job RUNNING on both', 300_000, whole, 250);
        }
      }
      await sleep(SETTLE_MS);
    },
    finish: async () => {
      const rows = counted(keeper.logs());
      keeper.stop();
      await remove();
      return rows;
    },
  };
}
