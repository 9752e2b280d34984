// The Pod status the local kubelet (local-kubelet.ts) reports for its one main container, and the
// kubelet's restart rules, as pure functions:
//   - restartPolicy Always restarts any exit, OnFailure a non-zero one, Never none; a restarted
//     container stays in the same Pod (same IP), with restartCount + 1 and the exit as lastState;
//   - between exit and restart the container waits in CrashLoopBackOff; the kubelet's back-off
//     (10 s doubling to 5 min) is shortened here to 1 s doubling to 10 s, so tests stay quick;
//   - Ready and ContainersReady follow the container's readiness (probes, container-probes.ts).
import type { ContainerStateTerminated, PodCondition, PodStatus } from 'kubernetes-types/core/v1';

export interface ContainerRunState {
  readonly name: string;
  readonly image: string;
  readonly restartCount: number;
  readonly started: boolean;
  readonly ready: boolean;
  /** Set while the process runs. */
  readonly startedAt?: string;
  /** Set while it waits for a restart. */
  readonly waiting?: { reason: string; message?: string };
  readonly lastTerminated?: ContainerStateTerminated;
}

export type RestartPolicy = 'Always' | 'OnFailure' | 'Never';

/** Whether the kubelet restarts a container that exited with `exitCode` under `policy`. */
export function shouldRestart(policy: string | undefined, exitCode: number): boolean {
  const p = (policy ?? 'Always') as RestartPolicy;
  return p === 'Always' || (p === 'OnFailure' && exitCode !== 0);
}

/** How long to wait before restart number `restartCount + 1`. */
export function restartBackoffMs(restartCount: number): number {
  return Math.min(1000 * 2 ** restartCount, 10_000);
}

/** The terminated state of a process that exited with `code` or was killed by `signal`. */
export function terminatedState(
  code: number | null,
  signal: NodeJS.Signals | null,
  startedAt: string | undefined,
  finishedAt: string,
  message?: string,
): ContainerStateTerminated {
  const exitCode = code ?? 128 + (signal === 'SIGKILL' ? 9 : 15);
  return {
    exitCode,
    reason: exitCode === 0 ? 'Completed' : 'Error',
    finishedAt,
    ...(startedAt ? { startedAt } : {}),
    ...(signal ? { signal: signal === 'SIGKILL' ? 9 : 15 } : {}),
    ...(message ? { message } : {}),
  };
}

const condition = (type: string, ok: boolean, now: string, previous: readonly PodCondition[]): PodCondition => {
  const before = previous.find((c) => c.type === type);
  const status = ok ? 'True' : 'False';
  return {
    type,
    status,
    lastTransitionTime: before?.status === status && before.lastTransitionTime ? before.lastTransitionTime : now,
  };
};

/**
 * The status of a Pod whose container runs or waits to be restarted (phase Running); `ip` is the
 * Pod IP as the API shows it (pod-addresses.ts clusterPodIp).
 */
export function runningPodStatus(
  c: ContainerRunState,
  ip: string,
  now: string,
  previous: PodStatus | undefined,
): PodStatus {
  const prev = previous?.conditions ?? [];
  return {
    phase: 'Running',
    podIP: ip,
    podIPs: [{ ip }],
    hostIP: '127.0.0.1',
    startTime: previous?.startTime ?? now,
    conditions: [
      condition('PodScheduled', true, now, prev),
      condition('Initialized', true, now, prev),
      condition('ContainersReady', c.ready, now, prev),
      condition('Ready', c.ready, now, prev),
    ],
    containerStatuses: [
      {
        name: c.name,
        ready: c.ready,
        started: c.started,
        restartCount: c.restartCount,
        image: c.image,
        imageID: '',
        state: c.startedAt
          ? { running: { startedAt: c.startedAt } }
          : { waiting: c.waiting ?? { reason: 'ContainerCreating' } },
        ...(c.lastTerminated ? { lastState: { terminated: c.lastTerminated } } : {}),
      },
    ],
  };
}

/** The status of a Pod whose main container ended for good: phase Succeeded or Failed by its exit code. */
export function terminalPodStatus(
  c: Pick<ContainerRunState, 'name' | 'image' | 'restartCount'>,
  terminated: ContainerStateTerminated,
  now: string,
): PodStatus {
  return {
    phase: terminated.exitCode === 0 ? 'Succeeded' : 'Failed',
    conditions: ['Ready', 'ContainersReady'].map((type) => ({
      type,
      status: 'False',
      reason: 'PodCompleted',
      lastTransitionTime: now,
    })),
    containerStatuses: [
      {
        name: c.name,
        ready: false,
        restartCount: c.restartCount,
        image: c.image,
        imageID: '',
        started: false,
        state: { terminated },
      },
    ],
  };
}
