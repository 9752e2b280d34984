// Before the workers are deleted: what a user needs after the end (docs/runtime.md, "The workers'
// last lines"). Each worker's last lines (bounded, redacted) go into the runtime's own log, which
// survives in the finished Job's Pod, so `logs` shows a Console sink's rows after `status --wait`.
// A failure's message names the worker Pod Zeta lost and how its container ended (OOMKilled, exit
// code 137), so the reason survives the Pod. Skipped when the application is being deleted (the
// record would go with it, and the Role with the Job).

import type { Pod } from '../kube/port';
import { LineSplitter, recordedWorkerLine, WORKER_LOG_TAIL } from 'seatunnel-app/runtime-support';
import type { Outcome } from '../outcome';
import { errorMessage, mapLimit } from '../util';
import { bytesPerWorker, evidenceNote, LogTail, workerContainer, workerEnd, workersNamedBy } from '../workers/evidence';
import type { Step } from './context';

/** How long a failure waits for the kubelet to report the end of a worker Zeta already lost. */
export const SETTLE_MS = 5_000;
const SETTLE_POLL_MS = 250;
/** All the workers' logs are read within this; a worker not reached by then keeps nothing. */
export const READ_BUDGET_MS = 15_000;

/** The workers this runtime created (or adopted) that exist now, by the snapshot. */
function currentWorkers(s: Step): Pod[] {
  const { store, reconciler } = s.state;
  if (!store || !reconciler) return [];
  const pods = store.snapshot().pods;
  return reconciler.records.flatMap((r) => {
    const p = pods.get(r.name);
    return p && r.uid !== undefined && p.metadata?.uid === r.uid ? [p] : [];
  });
}

/** Whether the container has started, so that it has a log to read. */
const hasLog = (p: Pod) =>
  (p.status?.containerStatuses ?? []).some((c) => c.state?.running || c.state?.terminated || c.lastState?.terminated);

/**
 * A failure Zeta reports as a member gone (`deployed node([ip]:port) offline`) often comes before
 * the kubelet has reported the worker's container as ended: wait for it, briefly.
 */
async function settle(s: Step, failureText: string): Promise<Pod[]> {
  const { clock } = s.deps;
  const until = clock.now() + SETTLE_MS;
  for (;;) {
    const pods = currentWorkers(s);
    const waiting = workersNamedBy(failureText, pods).filter((p) => !workerEnd(p));
    if (waiting.length === 0 || clock.now() >= until) return pods;
    await clock.sleep(SETTLE_POLL_MS);
  }
}

/** Writes the last lines of `pod`'s log into the runtime's log. */
async function recordTail(s: Step, pod: Pod, maxBytes: number, deadline: number): Promise<void> {
  const { kube, log, clock } = s.deps;
  const name = pod.metadata?.name ?? '';
  const timeoutMs = Math.min(WORKER_LOG_TAIL.readTimeoutMs, deadline - clock.now());
  if (timeoutMs <= 0) {
    log.warn("no time left to read a worker's last lines; they are not kept", { worker: name });
    return;
  }
  const tail = new LogTail(maxBytes);
  const lines = new LineSplitter((l) => tail.add(l));
  let how: 'complete' | 'timeout';
  try {
    how = await kube.readPodLog(
      name,
      { container: workerContainer(pod), tailLines: WORKER_LOG_TAIL.lines, timeoutMs },
      (c) => lines.push(c),
    );
  } catch (e) {
    log.warn("reading a worker's last lines failed; they are not kept", { worker: name, error: errorMessage(e) });
    return;
  }
  lines.end();
  const end = workerEnd(pod);
  log.info("a worker's last lines, kept before it is deleted", {
    worker: name,
    lines: tail.lines.length,
    droppedForSize: tail.dropped || undefined,
    cutShort: how === 'timeout' || undefined,
    exitCode: end?.exitCode,
    reason: end?.reason,
  });
  for (const l of tail.lines) log.info(recordedWorkerLine(name, l));
}

/** Keeps the workers' evidence; returns the outcome, its message completed for a failure. */
export async function keepWorkerEvidence(s: Step, result: Outcome): Promise<Outcome> {
  // Deleted (cancel, garbage collection): the record would go with the Job, and its Role with it.
  // SIGTERM otherwise (an eviction, a drain): the grace period is for stopping the job.
  if (s.state.applicationDeleted || s.deps.terminate.aborted || !s.state.reconciler) return result;
  const failed = result.state === 'FAILED';
  const pods = failed ? await settle(s, result.message) : currentWorkers(s);
  const readable = s.deps.settings.keepWorkerLogs === false ? [] : pods.filter(hasLog);
  const budget = bytesPerWorker(readable.length, WORKER_LOG_TAIL.bytesPerWorker, WORKER_LOG_TAIL.bytesInAll);
  const deadline = s.deps.clock.now() + READ_BUDGET_MS;
  await mapLimit(readable, s.tuning.createConcurrency, (p) => recordTail(s, p, budget, deadline));
  if (!failed) return result;
  const note = evidenceNote(result.message, pods);
  return note ? { ...result, message: `${result.message} [${note}]` } : result;
}
