// One trial of bench/faults on the three real nodes: a fresh HA application, then each fault in turn,
// each begun only once the application is whole again and a few checkpoints have passed:
//   node-active-master  the node of the active master stopped at once (power loss); once Kubernetes
//                       calls it NotReady the out-of-service taint (as an operator sets it) lets its
//                       Pods be replaced on the survivors; then the taint cleared and the node back;
//   node-worker         the same for a node with a worker but not the active master (the worker
//                       writing the rows when there is a choice);
//   partition           the active master's node cut off for 60 s, then healed;
//   api-server          kube-apiserver stopped (SIGKILL) for N minutes, then started again;
//   master-process      the active master's container SIGKILLed on its node (containerd's task kill:
//                       a crash; the kubelet restarts it in place) — bare Zeta's bare-master;
//   worker-process      the container of the worker writing the rows SIGKILLed (under `replace` the
//                       runtime creates the worker again) — bare Zeta's bare-worker.
// BENCH_FAULTS_STEPS picks some of them (faults-measure.ts, selectFaults). Each fault's "whole again"
// counts from its end: the stop or the kill (both instant), the heal, the API server's return; after
// a kill, the killed incarnation must be gone (restarted, or replaced), as bare Zeta's must. Rows are
// judged afterwards from the kept worker logs (faults-measure.ts).

import { ANNOTATIONS } from '../lib/contract';
import type { RealNode } from '../tools/local-stack/real-node/real-node';
import { waitFor } from '../tools/local-stack/wait';
import { setOutOfService, clearOutOfService, killContainer, waitForNode } from '../test/support/node-faults';
import type { AppPod } from '../test/support/node-ha-app';
import { countAll, newTableRowAfter } from './failover-rows';
import { counted, type Counted } from './failover-trial';
import {
  ApplicationEnded,
  CHECKPOINT_MS,
  submitFaultApp,
  waitWhole,
  type FaultApp,
  type FaultCluster,
} from './faults-cluster';
import { CLUSTER_FAULTS, figuresOf, type FaultKind, type FaultRun } from './faults-measure';
import { sleep } from './harness';

export const PARTITION_MS = 60_000;
/** How long a fault's recovery may take before the trial calls it failed. */
const WHOLE_TIMEOUT_MS = 600_000;
/** How often the application is looked at after a fault bare Zeta also has: as often as bare Zeta is (faults-bare.ts). */
const KILL_POLL_MS = 500;
/** After the application is whole again: a few checkpoints before the next fault. */
const SETTLE_MS = 3 * CHECKPOINT_MS;

/** What a fault fills in as it goes, so that a failure still says when it began and what it saw. */
interface Progress {
  at?: number;
  notes: string[];
}

interface Step {
  readonly kind: FaultKind;
  /** Runs the fault and waits for the application to be whole; resolves with ms from the fault's end until then. */
  run(c: FaultCluster, app: FaultApp, rec: Progress): Promise<number>;
}

const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** Stops `node`, taints it out of service once NotReady, waits until whole on the survivors, brings it back. */
async function loseNode(app: FaultApp, node: RealNode, rec: Progress): Promise<number> {
  const task = (await app.workerNodes())[0] === node;
  rec.notes.push(`${node.name}${task ? ', with the worker writing the rows' : ''}`);
  rec.at = Date.now();
  await node.stop();
  try {
    await waitForNode(node.name, 'Unknown', 180_000);
    rec.notes.push(`NotReady after ${secs(Date.now() - rec.at)}`);
    await setOutOfService(node.name);
    return (await waitWhole(app, 'whole on the surviving nodes', WHOLE_TIMEOUT_MS)) - rec.at;
  } finally {
    // The taint goes before the node comes back, or it evicts everything new on it.
    await clearOutOfService(node.name);
    await node.restart();
    await waitForNode(node.name, 'Ready', 180_000);
  }
}

const restarts = (p: AppPod | undefined) => p?.status?.containerStatuses?.[0]?.restartCount ?? 0;

/**
 * SIGKILLs `pod`'s container; resolves with ms from the kill until the application is whole again
 * and `pod`'s killed incarnation is gone: its container restarted (a master), or the Pod replaced (a
 * worker under `replace`: the same name, another uid).
 */
async function killProcess(c: FaultCluster, app: FaultApp, pod: AppPod, rec: Progress): Promise<number> {
  const before = restarts(pod);
  rec.at = Date.now();
  await killContainer(c.namespace, pod);
  const gone = async (): Promise<true | string> => {
    const now = await app.pod(pod.metadata.name);
    if (!now || now.metadata.uid !== pod.metadata.uid) return true;
    return restarts(now) > before ? true : `${pod.metadata.name}'s killed container not restarted yet`;
  };
  return (
    (await waitWhole(app, `whole again after ${pod.metadata.name}'s process was killed`, WHOLE_TIMEOUT_MS, {
      intervalMs: KILL_POLL_MS,
      also: gone,
    })) - rec.at
  );
}

/** The trial's faults, in CLUSTER_FAULTS' order; `kinds`: those to run (all by default). */
export function steps(apiMinutes: number, kinds: readonly FaultKind[] = CLUSTER_FAULTS): Step[] {
  return allSteps(apiMinutes).filter((step) => kinds.includes(step.kind));
}

function allSteps(apiMinutes: number): Step[] {
  return [
    {
      kind: 'node-active-master',
      run: async (_c, app, rec) => loseNode(app, await app.activeMasterNode(), rec),
    },
    {
      kind: 'node-worker',
      run: async (_c, app, rec) => {
        const active = await app.activeMasterNode();
        const node = (await app.workerNodes()).find((n) => n !== active);
        if (!node) throw new Error(`every worker runs on ${active.name}, the active master's node`);
        return loseNode(app, node, rec);
      },
    },
    {
      kind: 'partition',
      run: async (_c, app, rec) => {
        const node = await app.activeMasterNode();
        rec.notes.push(node.name);
        rec.at = Date.now();
        await node.cutOff();
        try {
          await sleep(PARTITION_MS);
        } finally {
          await node.heal();
        }
        const healed = Date.now();
        return (await waitWhole(app, 'one cluster after the heal', WHOLE_TIMEOUT_MS)) - healed;
      },
    },
    {
      kind: 'api-server',
      run: async (c, app, rec) => {
        rec.at = Date.now();
        await c.nc.stopApiServer('kill');
        try {
          await sleep(apiMinutes * 60_000);
        } finally {
          await c.nc.startApiServer();
        }
        const back = Date.now();
        return (await waitWhole(app, 'whole after the API server came back', WHOLE_TIMEOUT_MS)) - back;
      },
    },
    {
      kind: 'master-process',
      run: async (c, app, rec) => {
        const { pod, node } = await app.activeMaster();
        rec.notes.push(`${pod.metadata.name} on ${node.name}`);
        return killProcess(c, app, pod, rec);
      },
    },
    {
      kind: 'worker-process',
      run: async (c, app, rec) => {
        const [pod] = await app.workersByLatestRow();
        if (!pod) throw new Error('no ready worker to kill');
        rec.notes.push(`${pod.metadata.name} on ${pod.spec?.nodeName ?? '?'}, the worker writing the rows`);
        return killProcess(c, app, pod, rec);
      },
    },
  ];
}

/** Until whole, then a few checkpoints; once more after making the cluster whole if the first wait fails. */
async function settle(c: FaultCluster, app: FaultApp): Promise<void> {
  try {
    await waitWhole(app, 'whole before the next fault', WHOLE_TIMEOUT_MS);
  } catch (e) {
    console.error(`[faults] ${(e as Error).message}; making the cluster whole and waiting once more`);
    await c.makeWhole();
    await waitWhole(app, 'whole before the next fault', WHOLE_TIMEOUT_MS);
  }
  await sleep(SETTLE_MS);
}

export interface ClusterTrial {
  readonly runs: FaultRun[];
  readonly stream: Counted;
  readonly streamEnd: number;
}

/** A fresh application, every step in turn, every row awaited, the application cancelled. */
export async function clusterTrial(
  c: FaultCluster,
  trial: number,
  tables: number,
  apiMinutes: number,
  kinds: readonly FaultKind[] = CLUSTER_FAULTS,
): Promise<ClusterTrial> {
  console.error(`[faults] trial ${trial}: submitting the HA application (${tables} tables)`);
  const app = await submitFaultApp(c, trial, tables);
  console.error(`[faults] trial ${trial}: ${app.appId} RUNNING with rows (Zeta job ${app.jobId})`);
  const runs: FaultRun[] = [];
  let broken: string | undefined;
  for (const step of steps(apiMinutes, kinds)) {
    const rec: Progress = { notes: [] };
    try {
      if (broken) throw new Error(`not run: ${broken}`);
      await settle(c, app);
      console.error(`[faults] trial ${trial}: ${step.kind}`);
      const wholeMs = await step.run(c, app, rec);
      const id = await app.annotation(ANNOTATIONS.zetaJobId).catch(() => undefined);
      if (id !== app.jobId) rec.notes.push(`the Job names Zeta job ${id}, not ${app.jobId}`);
      runs.push({ kind: step.kind, trial, at: rec.at!, wholeMs, note: rec.notes.join('; ') });
      const sofar = figuresOf(runs, counted(app.keeper.logs()), Date.now()).at(-1)!;
      console.error(
        `[faults] trial ${trial} ${step.kind}: whole again after ${secs(wholeMs)}, rows again after ${sofar.rowsAgainMs ?? '–'} ms so far (${rec.notes.join('; ')})`,
      );
    } catch (e) {
      // An application that ended is the failure, whatever the step was waiting for when it noticed
      // (waitWhole says so itself; another wait, e.g. for the active master, does not).
      const over = broken || e instanceof ApplicationEnded ? undefined : await app.ended();
      const error = over ? `${over} (the step: ${(e as Error).message})` : (e as Error).message;
      runs.push({ kind: step.kind, trial, at: rec.at ?? Date.now(), error, note: rec.notes.join('; ') });
      console.error(`[faults] trial ${trial} ${step.kind} FAILED: ${error}`);
      if (!broken) {
        await c.makeWhole();
        if (over || e instanceof ApplicationEnded) broken = error;
        else
          broken = await waitWhole(app, 'whole after a failed fault', WHOLE_TIMEOUT_MS).then(
            () => undefined,
            (w: Error) => `the application was not whole again after ${step.kind}: ${w.message}`,
          );
      }
    }
  }
  // The last fault has no next one to wait behind: rows of a table new after it, or 3 minutes
  // (none when the application ended: no row comes any more).
  const last = runs.at(-1)!.at;
  const over = await app.ended();
  if (!over)
    await waitFor(
      () => {
        const s = counted(app.keeper.logs());
        return newTableRowAfter(s.rows, s.emitted, last);
      },
      {
        description: 'rows of a new table after the last fault',
        timeoutMs: 180_000,
        intervalMs: 1000,
      },
    ).catch(() => undefined);
  // A split that a lost reader held is emitted again, possibly late: wait for every emitted row.
  const allWritten = () => {
    const s = counted(app.keeper.logs());
    return countAll(s.rows, s.emitted).lost === 0;
  };
  if (!over)
    await waitFor(allWritten, {
      description: 'every emitted row written',
      timeoutMs: 180_000,
      intervalMs: 5000,
    }).catch(() => undefined); // the figures say what is missing
  const streamEnd = Date.now();
  const stream = counted(app.keeper.logs());
  await app.cancel().catch((e: Error) => console.error(`[faults] cancel of ${app.appId}: ${e.message}`));
  app.keeper.stop();
  return { runs, stream, streamEnd };
}
