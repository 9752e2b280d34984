// Workers whose JVM runs but never joins the cluster. Hazelcast's TCP joiner (SeaTunnel's
// LiteNodeDropOutTcpIpJoiner in 2.3.8) can put the master's address on its blacklist while the
// master is still starting and then never try it again: seen in a cold CI run on a loaded machine,
// a worker logged "[master]:5801 is added to the blacklist", then "failed send heartbeat to resource
// manager" every 5 s for four minutes, and "Could not join cluster" when it was stopped — the
// application timed out with 1 of 2 workers registered. Nothing in that JVM recovers; a new one
// (the Pod deleted and created again) joins like any other. This module only decides which
// workers are due for that; the registration barrier acts on it.

import type { Pod } from 'kubernetes-types/core/v1';
import { CONTAINER_NAME } from 'seatunnel-app/runtime-support';

export interface WorkerIncarnation {
  readonly name: string;
  /** The Pod's uid: a new incarnation starts its own clock. */
  readonly uid: string;
  readonly pod: Pod | undefined;
}

export interface UnjoinedWorker {
  readonly name: string;
  readonly uid: string;
  readonly ip: string;
  /** How long its container has been seen running without its address among the members. */
  readonly forMs: number;
  /** Restarts of this worker so far, this one included. */
  readonly restart: number;
}

/** The host of a member address `host:port` (an IPv6 host has colons of its own). */
export function memberHost(address: string): string {
  const i = address.lastIndexOf(':');
  return i < 0 ? address : address.slice(0, i);
}

/** The Pod's address while its main container runs (undefined otherwise). */
export function runningAt(pod: Pod | undefined): string | undefined {
  if (!pod || pod.metadata?.deletionTimestamp || pod.status?.phase !== 'Running') return undefined;
  const main = pod.status.containerStatuses?.find((c) => c.name === CONTAINER_NAME);
  return main?.state?.running ? pod.status.podIP : undefined;
}

/** Restarts of one worker that runs without joining, at most (per phase: before the submission, then while the job runs). */
export const UNJOINED_RESTARTS = 2;

export interface UnjoinedOptions {
  /** How long a running worker may stay out of the member list before it is restarted. */
  readonly limitMs: number;
  /** Restarts per worker at most; one that still does not join is left to the startup timeout. */
  readonly maxRestarts: number;
  /** The masters the member list holds besides the workers. */
  readonly masters: number;
  /** Where the member with a Pod's IP is reached (the IP itself but on the local stack). */
  readonly dial?: (podIp: string) => string;
}

export class UnjoinedWorkers {
  /** uid → clock time its container was first seen running while its address was not a member. */
  private readonly missingSince = new Map<string, number>();
  private readonly restarts = new Map<string, number>();
  /** Set when more workers were out of the list than the list lacks: addresses this runtime cannot match. */
  unmatched = false;

  constructor(private readonly opts: UnjoinedOptions) {}

  private outside(workers: readonly WorkerIncarnation[], members: readonly string[]) {
    const hosts = new Set(members.map(memberHost));
    const dial = this.opts.dial ?? ((ip: string) => ip);
    const running = workers.flatMap((w) => {
      const ip = runningAt(w.pod);
      return ip === undefined ? [] : [{ w, ip }];
    });
    const out = running.filter(({ ip }) => !hosts.has(dial(ip)));
    // Only as many workers can be out as the list lacks: when more look out, the member addresses
    // are not the Pod IPs (another network set-up), and no healthy worker must pay for it.
    const lacking = running.length - Math.max(0, members.length - this.opts.masters);
    return { out, ambiguous: out.length > Math.max(0, lacking) };
  }

  /**
   * The workers to restart now, given the members the masters list (undefined when none answered:
   * nothing is judged then, and a worker's wait resumes where it was). Only workers `judged` accepts
   * are timed; the others still count when the list is matched against the Pods.
   */
  due(
    now: number,
    workers: readonly WorkerIncarnation[],
    members: readonly string[] | undefined,
    judged: (w: WorkerIncarnation) => boolean = () => true,
  ): UnjoinedWorker[] {
    if (members === undefined) return [];
    const { out: all, ambiguous } = this.outside(workers, members);
    if (ambiguous) {
      this.unmatched = true;
      this.missingSince.clear();
      return [];
    }
    const outside = all.filter(({ w }) => judged(w));
    const out: UnjoinedWorker[] = [];
    const still = new Set(outside.map(({ w }) => w.uid));
    for (const uid of [...this.missingSince.keys()]) if (!still.has(uid)) this.missingSince.delete(uid);
    for (const { w, ip } of outside) {
      const since = this.missingSince.get(w.uid) ?? now;
      this.missingSince.set(w.uid, since);
      const done = this.restarts.get(w.name) ?? 0;
      if (now - since < this.opts.limitMs || done >= this.opts.maxRestarts) continue;
      this.restarts.set(w.name, done + 1);
      this.missingSince.delete(w.uid);
      out.push({ name: w.name, uid: w.uid, ip, forMs: now - since, restart: done + 1 });
    }
    return out;
  }

  /** Workers running now without having joined, for a timeout's message: `name (restarted n times)`. */
  describe(workers: readonly WorkerIncarnation[], members: readonly string[] | undefined): string {
    if (members === undefined) return '';
    const { out, ambiguous } = this.outside(workers, members);
    if (ambiguous) return '';
    return out
      .slice(0, 5)
      .map(({ w }) => {
        const n = this.restarts.get(w.name) ?? 0;
        return n > 0 ? `${w.name} (restarted ${n} time${n > 1 ? 's' : ''})` : w.name;
      })
      .join(', ');
  }
}
