// Workers back from a split with their old tasks still running. A worker cut off from the masters
// (or frozen) past Hazelcast's heartbeat timeout is dropped, and Zeta restores its tasks on the
// workers left; when the worker can reach the others again, Hazelcast merges it back into their
// cluster. Zeta 2.3.8 does nothing on that merge (SeaTunnelServer.reset(), which Hazelcast calls on
// a merging member's services, is empty; apache/seatunnel#12125): the worker's task groups from
// before run on beside the restored ones. Seen on three real nodes: a stream with one reader had
// two from the heal to its end, every row written twice. What marks such a worker from outside is
// its identity: Hazelcast gives a member a new UUID when it merges (ClusterServiceImpl.reset), so
// the same Pod at the same address under another UUID is a worker that came back from a split.
// Before the merge the worker is already within reach again, and the other side says so: a master
// outside the majority's cluster lists it under the UUID the majority dropped. Hazelcast looks for
// the other side every 10 s and may take several rounds to merge, the old tasks writing all along
// (in a CI run, two writers more than a minute after a fault ended); the worker is restarted on the other
// side's word instead, seen there in two checks in a row. And a worker may never merge at all: on
// three real nodes, after a 60 s partition the master cut off with it merged back and the worker
// stayed outside, running, for four minutes (5 of 6 members). So a worker the majority has not
// listed for `outsideMs` while its Pod is Ready (its node answers the kubelet's probes again: the
// split is over) is restarted too.
// This module only decides which workers that is; the runtime restarts them (../steps/worker-membership.ts).

import type { ClusterUuids } from '../engine/port';
import { memberHost, runningAt, type WorkerIncarnation } from './unjoined';

/** Checks in a row a worker must be seen on the other side of a split before it is restarted. */
export const MINORITY_SIGHTINGS = 2;

export interface RejoinedWorker {
  readonly name: string;
  readonly uid: string;
  readonly ip: string;
  /** The member UUID the worker had. */
  readonly before: string;
  /**
   * `merged`: the majority lists it under a new UUID; `other-side`: the majority dropped it and a
   * master outside the majority's cluster still lists it under `before`; `outside`: the majority
   * has not listed it for `outsideMs` while its Pod is Ready.
   */
  readonly why: 'merged' | 'other-side' | 'outside';
  /** How long the majority has not listed it (0 for a merged worker). */
  readonly outsideMs: number;
}

/** Whether the Pod's Ready condition is True (the node controller sets it False for a node that stopped answering). */
function podReady(w: WorkerIncarnation): boolean {
  return w.pod?.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;
}

export class RejoinedWorkers {
  /** Pod uid → the member UUID its address was listed under by the majority. */
  private readonly known = new Map<string, string>();
  /** Pod uid → checks in a row it was seen only on the other side of a split. */
  private readonly apart = new Map<string, number>();
  /** Pod uid → since when the majority has not listed it (a worker it listed before). */
  private readonly outside = new Map<string, number>();
  /** The incarnations already reported while outside: each is reported once. */
  private readonly reported = new Set<string>();

  /**
   * `dial`: where the member with a Pod's IP is reached (the IP itself but on the local stack);
   * `outsideMs`: how long a worker the majority dropped may stay outside with its Pod Ready.
   */
  constructor(
    private readonly dial: (podIp: string) => string = (ip) => ip,
    private readonly outsideMs = Number.POSITIVE_INFINITY,
  ) {}

  /** Whether the incarnation `uid` has been seen among the members (under any UUID). */
  hasJoined(uid: string): boolean {
    return this.known.has(uid);
  }

  /**
   * The workers back from a split, given the member UUIDs by address on each side (undefined when
   * no majority answered: nothing is judged, nothing forgotten): the majority lists them under
   * another UUID than before, or a master outside the majority's cluster lists them under the one
   * the majority dropped. A worker absent from every list keeps its UUID on record: a split is
   * exactly when it is absent.
   */
  due(workers: readonly WorkerIncarnation[], cluster: ClusterUuids | undefined, now = 0): RejoinedWorker[] {
    if (cluster === undefined) return [];
    const byHost = (uuids: Readonly<Record<string, string>>) =>
      new Map(Object.entries(uuids).map(([address, uuid]) => [memberHost(address), uuid]));
    const majority = byHost(cluster.majority);
    const minority = cluster.minority.map(byHost);
    const current = new Set(workers.map((w) => w.uid));
    for (const records of [this.known, this.apart, this.outside, this.reported])
      for (const uid of [...records.keys()]) if (!current.has(uid)) records.delete(uid);
    const out: RejoinedWorker[] = [];
    for (const w of workers) {
      const ip = runningAt(w.pod);
      if (ip === undefined) continue;
      const host = this.dial(ip);
      const before = this.known.get(w.uid);
      const uuid = majority.get(host);
      if (uuid !== undefined) {
        this.apart.delete(w.uid);
        this.outside.delete(w.uid);
        this.reported.delete(w.uid);
        this.known.set(w.uid, uuid);
        if (before !== undefined && before !== uuid)
          out.push({ name: w.name, uid: w.uid, ip, before, why: 'merged', outsideMs: 0 });
        continue;
      }
      if (before === undefined) continue; // never listed: the never-joined rule's (./unjoined.ts)
      const since = this.outside.get(w.uid) ?? now;
      this.outside.set(w.uid, since);
      const seen = minority.some((side) => side.get(host) === before) ? (this.apart.get(w.uid) ?? 0) + 1 : 0;
      this.apart.set(w.uid, seen);
      const why =
        seen >= MINORITY_SIGHTINGS
          ? 'other-side'
          : now - since >= this.outsideMs && podReady(w)
            ? 'outside'
            : undefined;
      if (why === undefined || this.reported.has(w.uid)) continue;
      this.reported.add(w.uid);
      out.push({ name: w.name, uid: w.uid, ip, before, why, outsideMs: now - since });
    }
    return out;
  }
}
