// With HA (docs/ha.md): the coordinator's view of the masters. Kubernetes keeps them (the
// StatefulSet), Zeta elects among them; the coordinator only watches, reports and, at the end,
// removes them. It decides nothing from a master's loss: a replaced master is a failover Zeta
// handles, never a reason to fail or succeed the application. (The one master the coordinator ever
// restarts is an active master that does not serve the job: steps/zeta-job.ts.)

import { LABELS, type HaRuntimeSettings } from 'seatunnel-app/runtime-support';
import { isStatus, retryableUnlessRoleGone } from '../kube/port';
import { RuntimeFailure } from '../outcome';
import { errorMessage, retry } from '../util';
import type { Step } from '../steps/context';

/** How often the masters' StatefulSet and Pods are read. */
const POLL_MS = 2_000;

export interface MastersView {
  readonly desired: number;
  readonly ready: number;
  /** The master Pod Zeta made its active master, when known. */
  readonly active?: string;
  /** Master Pods replaced so far: incarnations seen beyond one per ordinal. */
  readonly failovers: number;
}

/**
 * Counts replacements from the master Pods seen: a StatefulSet Pod keeps its name and gets a new
 * uid when it is replaced. Pure over the record it is given.
 */
export function countFailovers(
  seen: Map<string, Set<string>>,
  pods: ReadonlyArray<{ name: string; uid: string }>,
): number {
  for (const p of pods) {
    const uids = seen.get(p.name) ?? new Set<string>();
    uids.add(p.uid);
    seen.set(p.name, uids);
  }
  let n = 0;
  for (const uids of seen.values()) n += uids.size - 1;
  return n;
}

/** The master Pod behind a master's member address: the StatefulSet's Pod of the same ordinal. */
export function masterPodOf(
  ha: Pick<HaRuntimeSettings, 'statefulSet' | 'masterAddresses'>,
  address: string,
): string | undefined {
  const i = ha.masterAddresses.indexOf(address);
  return i < 0 ? undefined : `${ha.statefulSet}-${i}`;
}

export class MastersWatch {
  private timer: Promise<void> | undefined;
  private readonly stop$ = new AbortController();
  private readonly seen = new Map<string, Set<string>>();
  /** Undefined until the first reading. */
  private last: MastersView | undefined;

  /** `earlier`: replacements counted by earlier coordinators of this Job (its annotation). */
  constructor(
    private readonly s: Step,
    private readonly ha: HaRuntimeSettings,
    private readonly earlier = 0,
  ) {}

  get view(): MastersView {
    return this.last ?? { desired: this.ha.masters, ready: 0, failovers: this.earlier };
  }

  start(): void {
    this.timer = this.loop();
  }

  async stop(): Promise<void> {
    this.stop$.abort();
    await this.timer;
  }

  private async loop(): Promise<void> {
    while (!this.stop$.signal.aborted) {
      await this.poll().catch((e: unknown) =>
        this.s.deps.log.debug('reading the masters failed', { error: errorMessage(e) }),
      );
      await this.s.deps.clock.sleep(POLL_MS, this.stop$.signal).catch(() => undefined);
    }
  }

  /** One reading of the StatefulSet and the master Pods; reports what changed. */
  async poll(): Promise<MastersView> {
    const { kube, settings, engine } = this.s.deps;
    const set = await kube.getStatefulSet(this.ha.statefulSet);
    const pods = await kube.listPods(`${LABELS.applicationId}=${settings.app.appId},${LABELS.role}=master`);
    const failovers =
      this.earlier +
      countFailovers(
        this.seen,
        pods.items
          .filter((p) => p.metadata?.name && p.metadata.uid)
          .map((p) => ({ name: p.metadata!.name!, uid: p.metadata!.uid! })),
      );
    const address = await engine.activeMaster(this.ha.masterAddresses).catch(() => undefined);
    const active = address ? masterPodOf(this.ha, address) : undefined;
    const next: MastersView = {
      desired: this.ha.masters,
      ready: set.status?.readyReplicas ?? 0,
      failovers,
      ...((active ?? this.last?.active) ? { active: active ?? this.last?.active } : {}),
    };
    const prev = this.last;
    if (next.active && prev?.active && next.active !== prev.active)
      this.s.reporter.event(
        'Normal',
        'ActiveMasterChanged',
        `Zeta's active master is now ${next.active} (was ${prev.active})`,
      );
    // The first reading is always recorded; a replacement only once it is seen to happen.
    if (!prev || next.ready !== prev.ready || next.failovers !== prev.failovers || next.active !== prev.active) {
      this.s.deps.log.info('masters', {
        ready: next.ready,
        desired: next.desired,
        failovers: next.failovers,
        active: next.active,
      });
      this.s.reporter.annotate({
        mastersReady: String(next.ready),
        masterFailovers: String(next.failovers),
        ...(next.active ? { activeMaster: next.active } : {}),
      });
      if (next.failovers > (prev?.failovers ?? this.earlier)) {
        this.s.reporter.event(
          'Normal',
          'MasterReplaced',
          `a master Pod was replaced (${next.failovers} so far); Zeta keeps the job running on the others`,
        );
      }
    }
    this.last = next;
    return next;
  }
}

/** Waits until every master is ready, within the startup budget (from `started`). */
export async function awaitMasters(s: Step, watch: MastersWatch, started: number): Promise<void> {
  const { clock } = s.deps;
  const app = s.deps.settings.app;
  const deadline = started + app.startupTimeoutMillis;
  for (;;) {
    s.interruption.throwIfSet();
    const view = await watch.poll().catch(() => watch.view);
    if (view.ready >= view.desired) break;
    if (clock.now() >= deadline) {
      throw new RuntimeFailure(
        'StartupTimeout',
        `Timed out starting ${view.desired} masters after ${Math.round(app.startupTimeoutMillis / 1000)} s: ${view.ready}/${view.desired} ready (see \`kubectl describe statefulset ${app.ha?.statefulSet}\`)`,
      );
    }
    await s.interruption.pause(Math.min(500, Math.max(1, deadline - clock.now())));
  }
  s.reporter.event('Normal', 'MastersReady', `all ${watch.view.desired} masters are ready`);
}

/** At the end: removes the masters (their Pods go with the StatefulSet). Returns the problems. */
export async function removeMasters(s: Step, ha: HaRuntimeSettings): Promise<string[]> {
  const { kube, clock } = s.deps;
  try {
    await retry(() => kube.deleteStatefulSet(ha.statefulSet), {
      clock,
      retryable: retryableUnlessRoleGone(() => s.state.applicationDeleted),
      budgetMs: s.tuning.cleanupBudgetMs,
      backoff: [200, 2000],
    });
    s.deps.log.info('masters removed', { statefulSet: ha.statefulSet });
    return [];
  } catch (e) {
    // The application is being deleted and the Role with it: the StatefulSet, owned by the Job, goes by
    // garbage collection — nothing is left behind, so no cleanup problem (as for the workers).
    if (s.state.applicationDeleted && isStatus(e, 403)) {
      s.deps.log.info("the masters go with the Job (garbage collection); the runtime's Role went with it", {
        statefulSet: ha.statefulSet,
      });
      return [];
    }
    return [`deleting the masters (StatefulSet ${ha.statefulSet}): ${errorMessage(e)}`];
  }
}
