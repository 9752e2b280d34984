// bench/faults' cluster: three real nodes started in this process (tools/local-stack/real-node, as
// the node tier's global setup does), one namespace with the runtime's ServiceAccount and a shared
// checkpoint claim, and per trial one HA application (test/support/node-ha-app.ts, the node tier's
// faults application) running the counted stream, its worker logs kept by a WorkerLogKeeper.

import * as fs from 'node:fs';
import * as path from 'node:path';
import { ANNOTATIONS, FINAL_PHASES } from '../lib/contract';
import { CLUSTER_ENV } from '../tools/local-stack/control-server';
import { NodeCluster } from '../tools/local-stack/real-node/node-cluster';
import type { RealNode } from '../tools/local-stack/real-node/real-node';
import { waitFor } from '../tools/local-stack/wait';
import { adminHttp, createTestNamespace, deleteNamespace } from '../test/support/cluster';
import { clearOutOfService, waitForNode } from '../test/support/node-faults';
import {
  applicationPods,
  type AppPod,
  createJobConfigMap,
  deploymentHeader,
  describeViews,
  haApplicationLines,
  isOneCluster,
  masterMemberViews,
  podReady,
  prepareNamespace,
} from '../test/support/node-ha-app';
import { WorkerLogKeeper } from '../test/support/node-rows';
import { CONTAINER_NAME } from '../lib/plan/pod';
import { countedJob, sinkRows } from './failover-rows';
import { runCli } from './local-plane';

export const CHECKPOINT_MS = 3000;
const CLAIM = 'fault-checkpoints';
const JOB_FILE = '/etc/seatunnel-jobs/job.conf';
const MASTERS = 3;
const WORKERS = 3;

export interface FaultCluster {
  readonly nc: NodeCluster;
  readonly namespace: string;
  readonly dir: string;
  /** Brings every node and the API server back, whatever a fault left (each undo refuses when it does not apply). */
  makeWhole(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * `nodeGraceSeconds`: the node controller's --node-monitor-grace-period (how long a silent node
 * stays Ready); undefined: Kubernetes' default, 50 s.
 */
export async function startFaultCluster(dir: string, nodeGraceSeconds?: number): Promise<FaultCluster> {
  const nc = await NodeCluster.start({
    nodes: 3,
    controllerManagerFlags: nodeGraceSeconds ? [`--node-monitor-grace-period=${nodeGraceSeconds}s`] : undefined,
  });
  let namespace: string | undefined;
  let volume: string | undefined;
  const stop = async () => {
    if (namespace) await deleteNamespace(namespace, { wait: true }).catch(() => undefined);
    if (volume)
      await adminHttp()
        .request('DELETE', `/api/v1/persistentvolumes/${volume}`)
        .catch(() => undefined);
    await nc.stop();
  };
  try {
    // The node tier's helpers (node-faults, node-rows, node-ha-app) find the cluster through its info file.
    process.env[CLUSTER_ENV] = nc.controlPlane.writeInfo();
    namespace = await createTestNamespace('bench-faults', { 'pod-security.kubernetes.io/enforce': 'baseline' });
    volume = await prepareNamespace(namespace, CLAIM, dir);
  } catch (e) {
    await stop().catch(() => undefined);
    throw e;
  }
  return {
    nc,
    namespace,
    dir,
    makeWhole: async () => {
      if (!nc.controlPlane.processList.find((p) => p.name === 'kube-apiserver')?.running)
        await nc.startApiServer().catch(() => undefined);
      for (const n of nc.nodes) {
        for (const undo of [() => n.thaw(), () => n.heal(), () => clearOutOfService(n.name), () => n.restart()])
          await undo().catch(() => undefined);
        await waitForNode(n.name, 'Ready', 180_000).catch((e: Error) =>
          console.error(`[faults] node ${n.name} not Ready again: ${e.message}`),
        );
      }
    },
    stop,
  };
}

/** One trial's HA application: its ids, its rows, and what the faults ask of it. */
export interface FaultApp {
  readonly appId: string;
  readonly jobId: string;
  readonly keeper: WorkerLogKeeper;
  annotation(key: string): Promise<string | undefined>;
  /** The active master's Pod and the node that runs it. */
  activeMaster(): Promise<{ pod: AppPod; node: RealNode }>;
  /** The node that runs the active master. */
  activeMasterNode(): Promise<RealNode>;
  /** One of the application's Pods by name; undefined once it is gone. */
  pod(name: string): Promise<AppPod | undefined>;
  /** The application's ready worker Pods, the one that wrote the latest row first. */
  workersByLatestRow(): Promise<AppPod[]>;
  /** Nodes running a worker of the application, the one whose worker wrote the latest row first. */
  workerNodes(): Promise<RealNode[]>;
  /**
   * Whole: 3 masters and 3 workers ready on Ready nodes, and every master counting the same 6
   * members (one cluster). The reason when not.
   */
  whole(): Promise<true | string>;
  cancel(): Promise<void>;
  /**
   * Why the application is over, when its runtime recorded a final phase ("the application ended
   * Failed: EngineUnreachable: …"); undefined while it runs. No fault can run on it any more.
   */
  ended(): Promise<string | undefined>;
}

/** The application ended (its runtime recorded a final phase) while a step waited on it; the message says how. */
export class ApplicationEnded extends Error {}

export async function submitFaultApp(c: FaultCluster, trial: number, tables: number): Promise<FaultApp> {
  const ns = c.namespace;
  const configMap = `counted-job-${trial}`;
  await createJobConfigMap(ns, configMap, countedJob(tables, CHECKPOINT_MS));
  const deploy = path.join(c.dir, `faults-${trial}.conf`);
  fs.writeFileSync(
    deploy,
    [
      deploymentHeader(ns),
      haApplicationLines({ name: `faults-${trial}`, claim: CLAIM, configMap, jobFile: JOB_FILE }),
    ].join('\n'),
  );
  const sub = await runCli(['submit', '-a', deploy]);
  const appId = String(sub.applicationId);
  const jobId = String(sub.jobId);
  const keeper = new WorkerLogKeeper(ns, appId);
  const node = (name: string | undefined) => c.nc.nodes.find((n) => n.name === name);
  const annotations = async () =>
    (
      await adminHttp().call<{ metadata: { annotations?: Record<string, string> } }>(
        'GET',
        `/apis/batch/v1/namespaces/${ns}/jobs/${appId}`,
      )
    ).metadata.annotations ?? {};
  const annotation = async (key: string) => (await annotations())[key];
  const live = async (role: string) =>
    (await applicationPods(ns, appId, role)).filter((p) => !p.metadata.deletionTimestamp);

  const activeMaster = () =>
    // The annotation may still name a master replaced a moment ago: wait until it names a live one.
    waitFor(
      async () => {
        const active = await annotation(ANNOTATIONS.activeMaster);
        const pod = (await live('master')).find((m) => m.metadata.name === active);
        const on = node(pod?.spec?.nodeName);
        return pod && on ? { pod, node: on } : undefined;
      },
      { description: 'the active master named on the Job, on a node', timeoutMs: 120_000, intervalMs: 1000 },
    );
  const workersByLatestRow = async () => {
    const workers = (await live('worker')).filter(podReady);
    const latest = await Promise.all(workers.map((w) => latestRowAt(ns, w.metadata.name)));
    return workers
      .map((w, i) => ({ w, at: latest[i] }))
      .sort((a, b) => b.at - a.at)
      .map((x) => x.w);
  };

  const app: FaultApp = {
    appId,
    jobId,
    keeper,
    annotation,
    activeMaster,
    pod: async (name) => {
      const r = await adminHttp().request<AppPod>('GET', `/api/v1/namespaces/${ns}/pods/${name}`);
      if (r.status === 404) return undefined;
      if (r.status !== 200) throw new Error(`reading Pod ${name}: HTTP ${r.status}: ${r.text.slice(0, 200)}`);
      return r.body;
    },
    activeMasterNode: async () => (await activeMaster()).node,
    workersByLatestRow,
    workerNodes: async () =>
      (await workersByLatestRow())
        .flatMap((w) => {
          const n = node(w.spec?.nodeName);
          return n ? [n] : [];
        })
        .filter((n, i, all) => all.indexOf(n) === i),
    whole: async () => {
      const nodes = await adminHttp().call<{
        items: Array<{ metadata: { name: string }; status?: { conditions?: Array<{ type: string; status: string }> } }>;
      }>('GET', '/api/v1/nodes');
      const readyNodes = new Set(
        nodes.items
          .filter((n) => n.status?.conditions?.some((x) => x.type === 'Ready' && x.status === 'True'))
          .map((n) => n.metadata.name),
      );
      const placed = async (role: string) =>
        (await live(role)).filter((p) => podReady(p) && readyNodes.has(p.spec?.nodeName ?? '')).length;
      const [masters, workers] = [await placed('master'), await placed('worker')];
      if (masters !== MASTERS || workers !== WORKERS)
        return `${masters} masters and ${workers} workers ready on Ready nodes`;
      const views = await masterMemberViews(ns, appId);
      return isOneCluster(views, MASTERS, MASTERS + WORKERS) || `members each master counts: ${describeViews(views)}`;
    },
    ended: async () => {
      // Unreadable (the API server away) counts as running: the outage's own step waits it out.
      const a = await annotations().catch(() => undefined);
      const phase = a?.[ANNOTATIONS.phase];
      if (!a || !phase || !FINAL_PHASES.has(phase)) return undefined;
      const why = [a[ANNOTATIONS.reason], a[ANNOTATIONS.message]].filter(Boolean).join(': ');
      return `the application ended ${phase}${why ? `: ${why}` : ''}`;
    },
    cancel: async () => {
      await runCli(['cancel', '-a', deploy, '--id', appId]);
      await waitFor(async () => (await applicationPods(ns, appId, 'worker')).length === 0, {
        description: `the workers of ${appId} removed`,
        timeoutMs: 300_000,
        intervalMs: 2000,
      }).catch((e: Error) => console.error(`[faults] ${e.message}`));
    },
  };
  let over: string | undefined;
  await waitFor(
    async () => {
      // An application that ended before its job ran says why at once, not after 10 minutes.
      over = await app.ended();
      return over !== undefined || (await annotation(ANNOTATIONS.zetaJobStatus)) === 'RUNNING';
    },
    { description: `job ${jobId} RUNNING`, timeoutMs: 600_000, intervalMs: 1000 },
  );
  if (over) {
    keeper.stop();
    throw new ApplicationEnded(`${over}, before its job was RUNNING`);
  }
  await waitFor(() => keeper.rows().length > 0, {
    description: 'the first rows',
    timeoutMs: 300_000,
    intervalMs: 1000,
  });
  return app;
}

/** The time of the latest row in a worker's recent log (through the API), 0 if none. */
async function latestRowAt(ns: string, pod: string): Promise<number> {
  const r = await adminHttp().request(
    'GET',
    `/api/v1/namespaces/${ns}/pods/${pod}/log?container=${CONTAINER_NAME}&sinceSeconds=20`,
  );
  if (r.status !== 200) return 0;
  return sinkRows([r.text]).at(-1)?.at ?? 0;
}

/**
 * Waits until `app` is whole and `also` (when given) holds; resolves with the time it was first seen
 * so. `intervalMs`: how often to look (2 s; a fault bare Zeta also has is looked at as often as bare
 * Zeta's, every 0.5 s).
 */
export async function waitWhole(
  app: FaultApp,
  description: string,
  timeoutMs: number,
  opts: { intervalMs?: number; also?: () => Promise<true | string> } = {},
): Promise<number> {
  let last = '';
  let over: string | undefined;
  await waitFor(
    async () => {
      // An application that ended is never whole again: say so now, not after the timeout.
      over = await app.ended();
      if (over) return true;
      const w = (await opts.also?.()) ?? true;
      const whole = w === true ? await app.whole() : w;
      if (whole !== true) last = whole;
      return whole === true;
    },
    { description, timeoutMs, intervalMs: opts.intervalMs ?? 2000 },
  ).catch((e: Error) => {
    throw new Error(`${e.message}; last seen: ${last || 'nothing'}`);
  });
  if (over) throw new ApplicationEnded(`${over}, while waiting for ${description}`);
  return Date.now();
}
