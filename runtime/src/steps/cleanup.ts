// Removing the workers. Every step is attempted even if one fails, and the problems are returned
// (the policy decides what they do to the outcome): stop creating (in-flight creates finish and
// are recorded), then delete every worker whose create was attempted (404 = done), which covers a
// create whose answer was lost. No delete by selector and none of a Pod merely seen in the
// snapshot: the Role allows deleting the worker names only, and a look-alike Pod someone else made
// is never touched. One budget covers it all.

import { isStatus, retryableUnlessRoleGone } from '../kube/port';
import { errorMessage, mapLimit, retry } from '../util';
import type { Step } from './context';

/** How long cleanup waits for in-flight creates to finish before it deletes by name anyway. */
const RELEASE_WAIT_MS = 25_000;

/** `inherited`: worker names an earlier runtime of this Job may have created (an earlier coordinator's). */
export async function removeWorkers(s: Step, inherited: readonly string[] = []): Promise<string[]> {
  const { kube, clock, log } = s.deps;
  const { reconciler } = s.state;
  const problems: string[] = [];
  const deadline = clock.now() + s.tuning.cleanupBudgetMs;
  const names = new Set<string>();
  if (reconciler) {
    const attempted = await Promise.race([
      reconciler.release(),
      clock.sleep(Math.min(RELEASE_WAIT_MS, s.tuning.cleanupBudgetMs)).then(() => undefined),
    ]);
    if (!attempted) {
      problems.push('worker creation did not stop in time');
      for (const r of reconciler.records) names.add(r.name);
    } else for (const n of attempted) names.add(n);
  }
  for (const name of inherited) names.add(name);
  let roleGone = 0;
  const attempt = async (what: string, fn: () => Promise<unknown>): Promise<void> => {
    try {
      await retry(fn, {
        clock,
        retryable: retryableUnlessRoleGone(() => s.state.applicationDeleted),
        budgetMs: deadline - clock.now(),
        backoff: [200, 2000],
      });
    } catch (e) {
      // The application is being deleted and the Role with it: the workers go by garbage collection
      // (owned by the master Pod) and `cancel`'s delete by label — no cleanup problem.
      if (s.state.applicationDeleted && isStatus(e, 403)) {
        roleGone++;
        return;
      }
      problems.push(`${what}: ${errorMessage(e)}`);
    }
  };
  if (names.size > 0) {
    s.setPhase('CleaningUp');
    log.info('deleting workers', { count: names.size });
  }
  let deleted = 0;
  await mapLimit([...names].sort(), s.tuning.createConcurrency, (name) =>
    attempt(`deleting worker ${name}`, async () => {
      if ((await kube.deletePod(name)) === 'deleted') deleted++;
    }),
  );
  log.info('workers deleted', {
    deleted,
    problems: problems.length,
    ...(roleGone ? { leftToGarbageCollection: roleGone } : {}),
  });
  return problems;
}
