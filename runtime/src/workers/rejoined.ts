// Workers back from a split with their old tasks still running. A worker cut off from the masters
// (or frozen) past Hazelcast's heartbeat timeout is dropped, and Zeta restores its tasks on the
// workers left; when the worker can reach the others again, Hazelcast merges it back into their
// cluster. Zeta 2.3.8 does nothing on that merge (SeaTunnelServer.reset(), which Hazelcast calls on
// a merging member's services, is empty; apache/seatunnel#12125): the worker's task groups from
// before run on beside the restored ones. Seen on three real nodes: a stream with one reader had
// two from the heal to its end, every row written twice. What marks such a worker from outside is
// its identity: Hazelcast gives a member a new UUID when it merges (ClusterServiceImpl.reset), so
// the same Pod at the same address under another UUID is a worker that came back from a split.
// This module only decides which workers that is; the runtime restarts them (../steps/worker-membership.ts).

import { memberHost, runningAt, type WorkerIncarnation } from './unjoined';

export interface RejoinedWorker {
  readonly name: string;
  readonly uid: string;
  readonly ip: string;
  /** The member UUID the worker had, and the one it came back under. */
  readonly before: string;
  readonly now: string;
}

export class RejoinedWorkers {
  /** Pod uid → the member UUID its address was listed under. */
  private readonly known = new Map<string, string>();

  /** `dial`: where the member with a Pod's IP is reached (the IP itself but on the local stack). */
  constructor(private readonly dial: (podIp: string) => string = (ip) => ip) {}

  /** Whether the incarnation `uid` has been seen among the members (under any UUID). */
  hasJoined(uid: string): boolean {
    return this.known.has(uid);
  }

  /**
   * The workers the cluster lists under another UUID than before, given the UUIDs by member address
   * as the cluster holding a majority of the masters lists them (undefined when none answered:
   * nothing is judged, nothing forgotten). A worker absent from the list keeps its UUID on record:
   * a split is exactly when it is absent.
   */
  due(workers: readonly WorkerIncarnation[], uuids: Readonly<Record<string, string>> | undefined): RejoinedWorker[] {
    if (uuids === undefined) return [];
    const byHost = new Map(Object.entries(uuids).map(([address, uuid]) => [memberHost(address), uuid]));
    const current = new Set(workers.map((w) => w.uid));
    for (const uid of [...this.known.keys()]) if (!current.has(uid)) this.known.delete(uid);
    const out: RejoinedWorker[] = [];
    for (const w of workers) {
      const ip = runningAt(w.pod);
      const uuid = ip === undefined ? undefined : byHost.get(this.dial(ip));
      if (ip === undefined || uuid === undefined) continue;
      const before = this.known.get(w.uid);
      this.known.set(w.uid, uuid);
      if (before !== undefined && before !== uuid) out.push({ name: w.name, uid: w.uid, ip, before, now: uuid });
    }
    return out;
  }
}
