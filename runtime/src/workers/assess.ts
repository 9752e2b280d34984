// What the Pod snapshot means for the workers, from scratch every time (pure): which are running,
// which wait and why, and the first failure in worker order. The reconciler (./reconciler.ts)
// acts on it. A Pod counts as a worker only if it is the one the runtime created: the uid recorded
// at create time, or (before the answer arrived) the creation token.

import type { Pod } from 'kubernetes-types/core/v1';
import { ownedBy } from 'seatunnel-app/runtime-support';
import type { Reason } from '../outcome';
import {
  classifyWorker,
  judgeImagePull,
  judgeUnschedulable,
  WAITING_FOR_AUTOSCALER,
  WAITING_FOR_SCALE_UP,
  type ScaleUpSignal,
} from './classify';
import type { PodSnapshot } from './snapshot';

export type WorkerPhase = 'new' | 'creating' | 'created' | 'released';

export interface WorkerRecord {
  readonly index: number;
  readonly name: string;
  phase: WorkerPhase;
  /** Snapshot `listsStarted` when the create was acknowledged (or the Pod adopted). */
  ackedAtList?: number;
  /** Observed in the snapshot as ours at least once. */
  seen: boolean;
  attempts: number;
  /** Random per worker incarnation and runtime process; sent as an annotation with every create of it. */
  token: string;
  /** The uid of the Pod this runtime created (or adopted by its token). */
  uid?: string;
  /**
   * The uid of the incarnation this one replaces (a restart, a replacement): never adopted, and
   * deleted again wherever it is found under the name — its first deletion may have failed.
   */
  retired?: string;
  /** The name is taken by a Pod this runtime did not create: never deleted by it. */
  refused?: boolean;
  /** Clock time the Pod was first seen Unschedulable (cleared once it is not). */
  unschedulableSince?: number;
  /** What a cluster autoscaler last said about the Pod (from its Events), while Unschedulable. */
  scaleUp?: { readonly signal: ScaleUpSignal; readonly message?: string };
  /** Clock time the Pod's image pull was first seen failing (cleared once it is not). */
  pullFailingSince?: number;
}

/** Annotation on each worker: its creation token (see WorkerRecord.token). */
export const CREATION_TOKEN_ANNOTATION = 'seatunnel.apache.org/creation-token';

/** Whether `pod` is the worker this runtime created for `r`: by uid once known, else by token. */
export function isOurWorker(pod: Pod, r: Pick<WorkerRecord, 'token' | 'uid'>, masterUid: string): boolean {
  if (!ownedBy(pod, masterUid)) return false;
  if (r.uid !== undefined) return pod.metadata?.uid === r.uid;
  return pod.metadata?.annotations?.[CREATION_TOKEN_ANNOTATION] === r.token;
}

export interface WorkerFailure {
  readonly reason: Reason;
  readonly worker: string;
  readonly message: string;
}

export interface Assessment {
  readonly failure?: WorkerFailure;
  readonly created: number;
  readonly running: number;
  /** Why workers are not running yet, by name. */
  readonly waiting: ReadonlyMap<string, string>;
  /** Names seen for the first time in this assessment. */
  readonly newlySeen: readonly string[];
  /** Workers in a state judged over time, by name. */
  readonly timed: ReadonlyMap<string, 'unschedulable' | 'image-pull'>;
}

/** The budgets of the states judged over time, and the time now; all 0 = fail at once. */
export interface TimedJudgement {
  readonly now: number;
  readonly scaleUpGraceMs: number;
  readonly imagePullRetryMs: number;
}

const FAIL_AT_ONCE: TimedJudgement = { now: 0, scaleUpGraceMs: 0, imagePullRetryMs: 0 };

/** What the snapshot means for the workers (pure). The first failure, in worker order, wins. */
export function assess(
  records: readonly WorkerRecord[],
  snap: PodSnapshot,
  masterUid: string,
  t: TimedJudgement = FAIL_AT_ONCE,
): Assessment {
  let failure: WorkerFailure | undefined;
  let created = 0;
  let running = 0;
  const waiting = new Map<string, string>();
  const newlySeen: string[] = [];
  const timed = new Map<string, 'unschedulable' | 'image-pull'>();
  const fail = (f: WorkerFailure) => (failure ??= f);
  for (const r of records) {
    if (r.phase === 'released') continue;
    if (r.phase === 'created') created++;
    const pod = snap.pods.get(r.name);
    if (pod && isOurWorker(pod, r, masterUid)) {
      if (!r.seen) newlySeen.push(r.name);
      const state = classifyWorker(pod);
      switch (state.kind) {
        case 'running':
          running++;
          break;
        case 'pending':
          waiting.set(r.name, state.detail);
          break;
        case 'fatal':
          fail({ reason: state.reason, worker: r.name, message: `worker ${r.name} ${state.message}` });
          break;
        case 'unschedulable': {
          timed.set(r.name, 'unschedulable');
          const forMs = t.now - (r.unschedulableSince ?? t.now);
          const said = r.scaleUp ?? { signal: 'none' };
          const verdict = judgeUnschedulable(said.signal, state.nominated, forMs, t.scaleUpGraceMs);
          if (verdict === 'wait-for-node') waiting.set(r.name, WAITING_FOR_SCALE_UP);
          else if (verdict === 'wait-for-autoscaler') waiting.set(r.name, WAITING_FOR_AUTOSCALER);
          else {
            const why =
              said.signal === 'refused'
                ? `; the cluster autoscaler will not add a node for it (NotTriggerScaleUp${said.message ? `: ${said.message}` : ''})`
                : t.scaleUpGraceMs > 0
                  ? `; no autoscaler started adding a node within ${Math.round(t.scaleUpGraceMs / 1000)} s (application.scale-up-grace-millis)`
                  : '';
            fail({ reason: 'Unschedulable', worker: r.name, message: `worker ${r.name} ${state.message}${why}` });
          }
          break;
        }
        case 'image-pull': {
          timed.set(r.name, 'image-pull');
          const forMs = t.now - (r.pullFailingSince ?? t.now);
          if (judgeImagePull(forMs, t.imagePullRetryMs) === 'retry') waiting.set(r.name, state.reason);
          else {
            const why =
              t.imagePullRetryMs > 0
                ? ` (still failing after ${Math.round(forMs / 1000)} s; application.image-pull-retry-millis)`
                : '';
            fail({ reason: state.reason, worker: r.name, message: `worker ${r.name} ${state.message}${why}` });
          }
          break;
        }
        case 'lost':
          fail({ reason: 'WorkerLost', worker: r.name, message: `worker ${r.name} ${state.message}` });
          break;
      }
      continue;
    }
    if (r.phase !== 'created') {
      waiting.set(r.name, r.phase === 'new' ? 'NotCreated' : 'Creating');
      continue;
    }
    const tomb = snap.deleted.get(r.name);
    if (r.seen || (tomb && isOurWorker(tomb, r, masterUid))) {
      const last = tomb ? classifyWorker(tomb) : undefined;
      const detail =
        last && last.kind === 'lost' && !last.message.startsWith('is being deleted') ? ` (it had ${last.message})` : '';
      fail({ reason: 'WorkerLost', worker: r.name, message: `worker ${r.name} was deleted${detail}` });
    } else if (snap.syncedList > (r.ackedAtList ?? Number.MAX_SAFE_INTEGER)) {
      fail({
        reason: 'WorkerLost',
        worker: r.name,
        message: `worker ${r.name} no longer exists (created, then gone before it was observed)`,
      });
    } else {
      waiting.set(r.name, 'Created');
    }
  }
  return { failure, created, running, waiting, newlySeen, timed };
}
