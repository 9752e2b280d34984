// Every timing the HA design relies on, in one place, because they only work in a given order
// (test/unit/contract/ha-timings.test.ts states it): a frozen master is killed by its liveness
// probe before Hazelcast's heartbeat timeout would drop it; a member dropped by the heartbeat
// timeout (a crash, a lost node: no goodbye) is merged back by the next merge run; and the
// coordinator tolerates the engine's REST answering nothing for longer than all of that, so a
// failover is never mistaken for a lost engine. The plan writes the probes and the engine files
// from here, and runtime.json carries the tolerance to the runtime.

export interface HaTimings {
  readonly readiness: {
    readonly periodSeconds: number;
    readonly timeoutSeconds: number;
    readonly failureThreshold: number;
  };
  readonly liveness: {
    readonly periodSeconds: number;
    readonly timeoutSeconds: number;
    readonly failureThreshold: number;
    readonly terminationGracePeriodSeconds: number;
  };
  readonly heartbeatTimeoutSeconds: number;
  readonly memberConnect: { readonly timeoutSeconds: number; readonly maxFaults: number };
  readonly mergeFirstRunDelaySeconds: number;
  readonly mergeNextRunDelaySeconds: number;
  readonly engineUnreachableMillis: number;
}

export const HA_TIMINGS: HaTimings = {
  /** The masters' readiness: Hazelcast's /hazelcast/health/ready (docs/ha.md). */
  readiness: { periodSeconds: 1, timeoutSeconds: 2, failureThreshold: 10 },
  /**
   * The masters' liveness: /hazelcast/health/node-state. A frozen JVM still accepts TCP, so only
   * an HTTP check catches it; killed with a 1 s grace (a frozen process cannot leave gracefully).
   */
  liveness: { periodSeconds: 2, timeoutSeconds: 2, failureThreshold: 5, terminationGracePeriodSeconds: 1 },
  /** `hazelcast.max.no.heartbeat.seconds` with HA (180 s without: a lone master has no one to fail over to). */
  heartbeatTimeoutSeconds: 30,
  /**
   * `hazelcast.socket.connect.timeout.seconds` / `hazelcast.connection.monitor.max.faults`: a member
   * whose connects fail this many times is suspected and dropped. A deleted master's Pod address
   * vanishes with its network, so connects to it time out rather than being refused; with
   * Hazelcast's 10 s × 3 the survivors still held the old member when the StatefulSet's replacement,
   * under the same DNS name, joined ~7 s later — and the new active master never restored the job
   * (job-info: getJobMetrics null until EngineUnreachable; seen on real nodes in 3 runs of 5).
   */
  memberConnect: { timeoutSeconds: 2, maxFaults: 2 },
  /** `hazelcast.merge.first.run.delay.seconds` / `…next.run.delay.seconds` (Hazelcast's default: 300 s). */
  mergeFirstRunDelaySeconds: 10,
  mergeNextRunDelaySeconds: 10,
  /**
   * How long the coordinator tolerates Zeta's REST answering nothing useful before it gives up
   * (EngineUnreachable): two merge runs after a heartbeat timeout and a slow member's start on a
   * loaded node.
   */
  engineUnreachableMillis: 120_000,
};

/**
 * With one local master the runtime starts the master's JVM once every worker's container runs, or
 * after this head start at the latest (docs/runtime.md, "Start order").
 */
export const WORKER_HEAD_START_MS = 10_000;

/**
 * How much later than its container a local master's JVM may start: the head start plus the
 * runtime's own first reads of the cluster (seconds when the API server answers).
 */
export const LOCAL_MASTER_START_DELAY_MS = WORKER_HEAD_START_MS + 30_000;

/** Without HA: the master runs beside the runtime; its REST failing for this long means it is gone. */
export const LOCAL_ENGINE_UNREACHABLE_MILLIS = 30_000;

export interface HaWindows {
  /** Longest time a frozen master answers nothing before the kubelet kills it. */
  readonly probeKillMs: number;
  /** When the other members drop a silent one. */
  readonly heartbeatMs: number;
  /** When a member dropped by the heartbeat timeout is merged back at the latest. */
  readonly mergeMs: number;
  /** When the coordinator gives up on the engine. */
  readonly toleranceMs: number;
}

/** The windows whose order the design depends on, derived from the timings. */
export function haWindows(t: HaTimings = HA_TIMINGS): HaWindows {
  const l = t.liveness;
  const heartbeatMs = t.heartbeatTimeoutSeconds * 1000;
  return {
    probeKillMs: (l.periodSeconds * l.failureThreshold + l.timeoutSeconds + l.terminationGracePeriodSeconds) * 1000,
    heartbeatMs,
    mergeMs: heartbeatMs + Math.max(t.mergeFirstRunDelaySeconds, t.mergeNextRunDelaySeconds) * 1000,
    toleranceMs: t.engineUnreachableMillis,
  };
}
