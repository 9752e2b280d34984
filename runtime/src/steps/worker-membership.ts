// While the job runs, two kinds of worker are deleted and created again, outside the replacement
// budget and whatever the policy:
//   - a worker that came back from a split of the cluster (../workers/rejoined.ts says which): its
//     task groups from before the split would otherwise run on beside the ones the cluster restored
//     elsewhere, writing what they read a second time. The cluster already counted it lost, and the
//     job goes on without it meanwhile;
//   - a worker created during the run (a replacement, or one of the restarts above) whose container
//     runs but that never joins (../workers/unjoined.ts): Hazelcast's joiner can blacklist a master
//     it tried while the masters were still merging after a split, and that JVM never recovers. The
//     workers the job started with have joined (the registration barrier saw them), and one that
//     joined and left is cut off or lost — other rules judge those.

import { podIpRewrite } from '../metrics/members';
import { RUNTIME_ENV } from '../settings';
import { errorMessage } from '../util';
import type { WorkerReconciler } from '../workers/reconciler';
import { RejoinedWorkers } from '../workers/rejoined';
import { UNJOINED_RESTARTS, UnjoinedWorkers, type UnjoinedWorker, type WorkerIncarnation } from '../workers/unjoined';
import type { Step } from './context';

/** How often the member list is read for a worker under a new identity or one that never joined. */
export const MEMBERSHIP_CHECK_MS = 5_000;

/** The workers the reconciler created, each with its current Pod if the Pod is that incarnation. */
export function workerIncarnations(s: Step, rec: WorkerReconciler): WorkerIncarnation[] {
  const pods = s.state.store?.snapshot().pods;
  return rec.records.flatMap((r) => {
    if (r.phase !== 'created' || r.uid === undefined) return [];
    const pod = pods?.get(r.name);
    return [{ name: r.name, uid: r.uid, pod: pod?.metadata?.uid === r.uid ? pod : undefined }];
  });
}

/** Deletes and creates again worker `w`, which runs but never joined; a `WorkerRestarted` Event says so. */
export function restartNeverJoined(
  s: Step,
  rec: WorkerReconciler,
  w: UnjoinedWorker,
  members: readonly string[] | undefined,
): void {
  if (!rec.restart(w.name, w.uid)) return;
  s.deps.log.warn('restarting a worker that runs but never joined the cluster', { ...w, members: members?.length });
  s.reporter.event(
    'Warning',
    'WorkerRestarted',
    `${w.name} ran ${Math.round(w.forMs / 1000)} s without joining the cluster (its address ${w.ip} is not among ` +
      `the ${members?.length ?? 0} members the masters list); deleted and created again ` +
      `(restart ${w.restart} of at most ${UNJOINED_RESTARTS})`,
  );
}

/** Starts watching the workers' membership; the returned function stops it. */
export function watchWorkerMembership(s: Step): () => void {
  const rec = s.state.reconciler;
  if (!rec) return () => undefined;
  const { engine, clock, log } = s.deps;
  const dial = podIpRewrite(s.deps.env[RUNTIME_ENV.podIpRewrite]);
  const rejoined = new RejoinedWorkers(dial, s.tuning.workerJoinLimitMs);
  const unjoined = new UnjoinedWorkers({
    limitMs: s.tuning.workerJoinLimitMs,
    maxRestarts: UNJOINED_RESTARTS,
    masters: s.deps.settings.app.ha?.masters ?? 1,
    ...(dial ? { dial } : {}),
  });
  // The incarnations the job started with: only later ones can be workers that never joined.
  const startedWith = new Set(workerIncarnations(s, rec).map((w) => w.uid));
  const stop = new AbortController();
  const check = async () => {
    const uuids = await engine.memberUuids().catch(() => undefined);
    for (const w of rejoined.due(workerIncarnations(s, rec), uuids, clock.now())) {
      if (!rec.restart(w.name, w.uid)) continue;
      log.warn('restarting a worker that came back from a split of the cluster', { ...w });
      const how = {
        merged: 'it rejoined under a new member identity',
        'other-side': 'the masters holding the majority dropped it, a master on the other side still lists it',
        outside: `the masters holding the majority have not listed it for ${Math.round(w.outsideMs / 1000)} s while its Pod is Ready`,
      }[w.why];
      s.reporter.event(
        'Warning',
        'WorkerRejoined',
        `${w.name} (${w.ip}) came back from a split of the cluster (a partition or a freeze: ${how}); its ` +
          `tasks from before may still run beside the ones the cluster restored elsewhere (Zeta 2.3.8 does ` +
          `not stop them), so it was deleted and created again`,
      );
    }
    const members = uuids && Object.keys(uuids.majority);
    const neverJoined = (w: WorkerIncarnation) => !startedWith.has(w.uid) && !rejoined.hasJoined(w.uid);
    // Read again: a worker just restarted above is no longer an incarnation to judge.
    for (const w of unjoined.due(clock.now(), workerIncarnations(s, rec), members, neverJoined))
      restartNeverJoined(s, rec, w, members);
  };
  void (async () => {
    while (!stop.signal.aborted) {
      await check().catch((e: unknown) =>
        log.warn("checking the workers' membership failed", { error: errorMessage(e) }),
      );
      await clock.sleep(MEMBERSHIP_CHECK_MS, stop.signal);
    }
  })();
  return () => stop.abort();
}
