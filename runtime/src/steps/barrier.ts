// The registration barrier: one deadline (startup-timeout-millis, from the start of creation)
// covers creating all N workers and Zeta's /overview showing them all registered with all their
// slots. A worker that can never start fails earlier, through the reconciler and the policy; this
// step only waits, keeps the workers-registered annotation current, and times out with the counts
// and the reasons the others are not running. While workers wait for a node (a cluster autoscaler
// adds one, or has not answered yet) it says so on the Job (workers-waiting), which `status` shows.

import { EngineRejected, EngineUnavailable } from '../engine/port';
import { RuntimeFailure } from '../outcome';
import { errorMessage } from '../util';
import type { Assessment, WorkerReconciler } from '../workers/reconciler';
import type { Step } from './context';
import { WAITING_FOR_AUTOSCALER, WAITING_FOR_SCALE_UP } from '../workers/classify';
import { UNJOINED_RESTARTS, UnjoinedWorkers } from '../workers/unjoined';
import { restartNeverJoined, workerIncarnations } from './worker-membership';
import { podIpRewrite } from '../metrics/members';
import { RUNTIME_ENV } from '../settings';

const NODE_WAITS: ReadonlySet<string> = new Set([WAITING_FOR_SCALE_UP, WAITING_FOR_AUTOSCALER]);
/** How long the first /overview waits for members still missing from Hazelcast's list, at most. */
export const JOIN_WAIT_MS = 10_000;
/** How often the member list is read once /overview is asked, while workers are missing. */
export const MEMBER_CHECK_MS = 5_000;

/** `2 Pending (app-worker-1, app-worker-2); 1 ImagePullBackOff (…)` — at most five names per reason. */
export function describeWaiting(a: Assessment | undefined, only: (why: string) => boolean = () => true): string {
  if (!a || a.waiting.size === 0) return '';
  const byState = new Map<string, string[]>();
  for (const [name, why] of a.waiting) if (only(why)) byState.set(why, [...(byState.get(why) ?? []), name]);
  return [...byState]
    .map(([why, ns]) => `${ns.length} ${why} (${ns.slice(0, 5).join(', ')}${ns.length > 5 ? ', …' : ''})`)
    .join('; ');
}

export async function awaitRegistration(s: Step, rec: WorkerReconciler): Promise<void> {
  const { engine, clock, log } = s.deps;
  const app = s.deps.settings.app;
  const want = { workers: app.workerCount, slots: app.workerCount * app.workerSlots };
  const started = clock.now();
  const deadline = started + app.startupTimeoutMillis;
  let last = { workers: 0, totalSlot: 0 };
  let lastError = '';
  const memberCount = (app.ha?.masters ?? 1) + app.workerCount;
  let joined: number | undefined;
  // Zeta 2.3.8 makes its resource manager on the first /overview and registers the workers that
  // have joined by then; one that joins later waits for its own heartbeat, every 5 s. So the first
  // /overview waits until every member has joined (docs/performance.md, "No registration race").
  // When the member list cannot be read, /overview is asked at once; when it stays short (an HA
  // master gone meanwhile), after JOIN_WAIT_MS — a heartbeat registers a worker within 5 s then.
  let overviewAsked = false;
  let gateSince: number | undefined;
  let members: readonly string[] | undefined;
  let membersReadAt: number | undefined;
  const readMembers = async () => {
    members = await engine.joinedMembers().catch(() => undefined);
    membersReadAt = clock.now();
    joined = members?.length;
  };
  const everyoneJoined = async (): Promise<boolean> => {
    if (overviewAsked) return true;
    gateSince ??= clock.now();
    await readMembers();
    if (joined !== undefined && joined < memberCount && clock.now() - gateSince < JOIN_WAIT_MS) return false;
    overviewAsked = true;
    log.info('asking Zeta for its workers', { joined: joined ?? 'unknown', members: memberCount });
    return true;
  };
  // A worker whose container runs but that never joins is restarted (../workers/unjoined.ts).
  const dial = podIpRewrite(s.deps.env[RUNTIME_ENV.podIpRewrite]);
  const unjoined = new UnjoinedWorkers({
    limitMs: s.tuning.workerJoinLimitMs,
    maxRestarts: UNJOINED_RESTARTS,
    masters: app.ha?.masters ?? 1,
    ...(dial ? { dial } : {}),
  });
  const incarnations = () => workerIncarnations(s, rec);
  let toldUnmatched = false;
  const restartUnjoined = async () => {
    if (overviewAsked && clock.now() - (membersReadAt ?? -Infinity) >= MEMBER_CHECK_MS) await readMembers();
    const restart = unjoined.due(clock.now(), incarnations(), members);
    if (unjoined.unmatched && !toldUnmatched) {
      toldUnmatched = true;
      log.warn('the member addresses are not the worker Pods’ IPs: a worker that never joins is not restarted', {
        members: members?.join(' '),
      });
    }
    for (const w of restart) restartNeverJoined(s, rec, w, members);
  };
  let nodeWaits = '';
  const noteNodeWaits = (now: string) => {
    if (now === nodeWaits) return;
    nodeWaits = now;
    s.reporter.annotate({ workersWaiting: now || null });
  };
  // Whichever way the wait ends, the Job no longer says a worker waits for a node.
  try {
    for (;;) {
      s.interruption.throwIfSet();
      noteNodeWaits(describeWaiting(rec.assessment, (why) => NODE_WAITS.has(why)));
      if (rec.allCreated) {
        s.setPhase('WaitingForWorkers');
        try {
          const gateOpen = await everyoneJoined();
          await restartUnjoined();
          if (!gateOpen) throw new EngineUnavailable(`${joined} of ${memberCount} members joined`);
          last = await engine.overview();
          lastError = '';
          const registered = Math.min(last.workers, app.workerCount);
          if (registered !== s.state.registered) {
            s.state.registered = registered;
            s.reporter.annotate({ workersRegistered: String(registered) });
            log.info('workers registered with Zeta', {
              registered: last.workers,
              desired: app.workerCount,
              totalSlot: last.totalSlot,
            });
          }
          if (last.workers >= want.workers && last.totalSlot >= want.slots) break;
        } catch (e) {
          // The engine not answering yet is expected; anything else is a bug and ends the application.
          if (!(e instanceof EngineUnavailable || e instanceof EngineRejected)) throw e;
          lastError = errorMessage(e);
          log.debug(overviewAsked ? 'overview failed' : 'waiting for members to join', { error: lastError });
        }
      }
      s.interruption.throwIfSet();
      if (clock.now() >= deadline) {
        const a = rec.reconcile();
        const created = rec.records.filter((r) => r.phase === 'created').length;
        const waiting = describeWaiting(a);
        const notJoined = unjoined.describe(incarnations(), members);
        throw new RuntimeFailure(
          'StartupTimeout',
          `Timed out starting ${app.workerCount} application workers after ${Math.round(app.startupTimeoutMillis / 1000)} s: ` +
            `${created}/${app.workerCount} created, ${a.running} running, ` +
            `${joined !== undefined && !overviewAsked ? `${joined}/${memberCount} members joined the cluster, ` : ''}` +
            `${Math.min(last.workers, app.workerCount)}/${app.workerCount} registered with Zeta ` +
            `(totalSlot ${last.totalSlot} of ${want.slots})${waiting ? `; not running: ${waiting}` : ''}` +
            `${notJoined ? `; running but not joined: ${notJoined}` : ''}${lastError ? `; last engine error: ${lastError}` : ''}`,
        );
      }
      await s.interruption.pause(Math.min(s.tuning.barrierPollMs, Math.max(1, deadline - clock.now())));
    }
  } finally {
    noteNodeWaits('');
  }
  s.state.registered = app.workerCount;
  const secs = ((clock.now() - started) / 1000).toFixed(1);
  s.reporter.annotate({ workersRegistered: String(app.workerCount) });
  s.reporter.event(
    'Normal',
    'AllWorkersRegistered',
    `all ${app.workerCount} workers registered with Zeta (${last.totalSlot} slots) ${secs} s after creation started`,
  );
}
