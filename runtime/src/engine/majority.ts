// With HA, whose answer counts. Zeta 2.3.8 has no quorum: a master cut off from the others, or
// frozen and thawed, goes on as the active master of a cluster of its own for a while, and answers
// for the job as that cluster sees it — seen on three real nodes: a master thawed after 60 s
// answered job-info FAILED (its workers gone from its view) while the other two masters ran the
// job on. So the coordinator acts on the end of a job only as the cluster holding a majority of
// the masters reports it, and takes that cluster's oldest member as the active master.

import type { MemberView } from './zeta-rest';

/**
 * The index of a master (views aligned with the masters' addresses) in a cluster that holds more
 * than half of `desired` masters, or undefined. A master counts for another when each lists the
 * other: a master back from a freeze may still list members the others have dropped.
 */
export function majorityMaster(views: ReadonlyArray<MemberView | undefined>, desired: number): number | undefined {
  const answering = views.map((v) => (v?.self ? { self: v.self, members: v.members } : undefined));
  for (const [i, v] of answering.entries()) {
    if (!v) continue;
    const together = answering.filter((w) => w && v.members.includes(w.self) && w.members.includes(v.self)).length;
    if (together * 2 > desired) return i;
  }
  return undefined;
}

/**
 * The index of the active master: the oldest member of the majority's cluster when it is one of
 * the masters; without a majority, the first master whose own list starts with itself (as each
 * side of a split says of its own). Undefined when none says so.
 */
export function activeMasterIndex(views: ReadonlyArray<MemberView | undefined>, desired: number): number | undefined {
  const m = majorityMaster(views, desired);
  if (m !== undefined) {
    const oldest = views[m]!.members[0];
    const i = views.findIndex((v) => v?.self === oldest);
    return i < 0 ? undefined : i;
  }
  const i = views.findIndex((v) => v?.self !== undefined && v.self === v.members[0]);
  return i < 0 ? undefined : i;
}
