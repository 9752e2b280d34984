// While the job runs: a worker that came back from a split of the cluster is deleted and created
// again (../workers/rejoined.ts says which). Its task groups from before the split would otherwise
// run on beside the ones the cluster restored elsewhere, writing what they read a second time.
// Outside the replacement budget and whatever the policy, as a worker that never joined is: the
// cluster already counted it lost, and the job goes on without it meanwhile.

import { podIpRewrite } from '../metrics/members';
import { RUNTIME_ENV } from '../settings';
import { errorMessage } from '../util';
import type { WorkerReconciler } from '../workers/reconciler';
import { RejoinedWorkers } from '../workers/rejoined';
import type { WorkerIncarnation } from '../workers/unjoined';
import type { Step } from './context';

/** How often the member list is read for a worker under a new identity. */
export const REJOINED_CHECK_MS = 5_000;

/** The workers the reconciler created, each with its current Pod if the Pod is that incarnation. */
export function workerIncarnations(s: Step, rec: WorkerReconciler): WorkerIncarnation[] {
  const pods = s.state.store?.snapshot().pods;
  return rec.records.flatMap((r) => {
    if (r.phase !== 'created' || r.uid === undefined) return [];
    const pod = pods?.get(r.name);
    return [{ name: r.name, uid: r.uid, pod: pod?.metadata?.uid === r.uid ? pod : undefined }];
  });
}

/** Starts watching for rejoined workers; the returned function stops it. */
export function watchRejoinedWorkers(s: Step): () => void {
  const rec = s.state.reconciler;
  if (!rec) return () => undefined;
  const { engine, clock, log } = s.deps;
  const rejoined = new RejoinedWorkers(podIpRewrite(s.deps.env[RUNTIME_ENV.podIpRewrite]));
  const stop = new AbortController();
  const check = async () => {
    const uuids = await engine.memberUuids().catch(() => undefined);
    for (const w of rejoined.due(workerIncarnations(s, rec), uuids)) {
      if (!rec.restart(w.name, w.uid)) continue;
      log.warn('restarting a worker that came back from a split of the cluster', { ...w });
      s.reporter.event(
        'Warning',
        'WorkerRejoined',
        `${w.name} (${w.ip}) came back from a split of the cluster (a partition or a freeze: it rejoined ` +
          `under a new member identity); its tasks from before may still run beside the ones the cluster ` +
          `restored elsewhere (Zeta 2.3.8 does not stop them), so it was deleted and created again`,
      );
    }
  };
  void (async () => {
    while (!stop.signal.aborted) {
      await check().catch((e: unknown) => log.warn('checking for rejoined workers failed', { error: errorMessage(e) }));
      await clock.sleep(REJOINED_CHECK_MS, stop.signal);
    }
  })();
  return () => stop.abort();
}
