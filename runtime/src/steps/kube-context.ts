// What the runtime reads from the API server before it creates workers: its Job (uid, for owner
// references and Events), its own Pod (owner of the workers), the worker PodTemplate — and it
// adopts the dependents applied without an owner.

import { ANNOTATIONS, jobOwnerReference, templateProblems, type MasterRef } from 'seatunnel-app/runtime-support';
import { isStatus, isTransient, type Job, type ObjectRef, type PodTemplate } from '../kube/port';
import { RuntimeFailure } from '../outcome';
import { errorMessage, mapLimit, retry } from '../util';
import type { Step } from './context';

export interface KubeContext {
  /** Clock time the runtime started reading the cluster: the startup budget counts from here. */
  readonly startedAt: number;
  readonly jobUid: string;
  /** The Job's resourceVersion as first read (a precondition for claims; may be stale later). */
  readonly jobResourceVersion: string;
  /** The Job's annotations as first read: what earlier runtimes of this Job recorded. */
  readonly annotations: Readonly<Record<string, string>>;
  /** Runtimes of this Job that failed before this one (the Job's count, including those not yet counted). */
  readonly failedBefore: number;
  /** This Pod (the workers' owner with one local master). */
  readonly pod: MasterRef;
  readonly template: PodTemplate;
}

/** A Kubernetes read, retried on transient errors within the API failure budget. */
async function read<T>(
  s: Step,
  what: string,
  fn: () => Promise<T>,
  notFound?: () => RuntimeFailure,
  budget = s.tuning.apiFailureBudgetMs,
): Promise<T> {
  try {
    return await retry(
      async () => {
        s.interruption.throwIfSet();
        return fn();
      },
      {
        clock: s.deps.clock,
        retryable: isTransient,
        budgetMs: budget,
        backoff: [200, 3000],
        signal: s.interruption.signal,
        onRetry: (e) => s.deps.log.warn(`${what} failed; retrying`, { error: errorMessage(e) }),
      },
    );
  } catch (e) {
    s.interruption.throwIfSet();
    if (e instanceof RuntimeFailure) throw e;
    if (notFound && isStatus(e, 404)) throw notFound();
    if (isStatus(e, 403))
      throw new RuntimeFailure(
        'ApiError',
        `${what}: forbidden — the runtime's Role does not allow it (${errorMessage(e)})`,
      );
    if (!isTransient(e)) throw new RuntimeFailure('ApiError', `${what}: ${errorMessage(e)}`);
    throw new RuntimeFailure(
      'ApiUnavailable',
      `${what}: the API server did not answer for ${Math.round(budget / 1000)} s (${errorMessage(e)})`,
    );
  }
}

/** The runtime's own Job, retried on transient errors until `deadline` (clock time). */
export function readJob(s: Step, deadline = s.deps.clock.now() + s.tuning.apiFailureBudgetMs): Promise<Job> {
  const app = s.deps.settings.app;
  return read(
    s,
    `reading Job ${app.appId}`,
    () => s.deps.kube.getJob(app.appId),
    undefined,
    deadline - s.deps.clock.now(),
  );
}

export async function readKubernetes(s: Step): Promise<KubeContext> {
  const { kube, settings, log, clock } = s.deps;
  const app = settings.app;
  const startedAt = clock.now();
  const jobObj = await readJob(s);
  const jobUid = jobObj.metadata?.uid;
  if (!jobUid) throw new RuntimeFailure('ApiError', `Job ${app.appId} has no uid`);
  s.reporter.setJobUid(jobUid);
  s.reporter.seedPhaseTimes(jobObj.metadata?.annotations?.[ANNOTATIONS.phaseTimes]);
  // The rest needs only the Job's uid: in parallel, as the workers wait for all of it.
  const [podObj, template] = await Promise.all([
    read(s, `reading the master Pod ${settings.pod.name}`, () => kube.getPod(settings.pod.name)),
    read(
      s,
      `reading the worker PodTemplate ${app.workerTemplate}`,
      () => kube.getPodTemplate(app.workerTemplate),
      () =>
        new RuntimeFailure(
          'InvalidWorkerTemplate',
          `the worker PodTemplate ${app.workerTemplate} does not exist (apply it with the other objects of the application)`,
        ),
    ),
    adoptDependents(s, jobUid),
  ]);
  const pod: MasterRef = { name: settings.pod.name, uid: podObj.metadata?.uid ?? settings.pod.uid };
  if (settings.pod.uid && pod.uid !== settings.pod.uid)
    log.warn('the Pod uid from the API differs from SEATUNNEL_POD_UID; using the API', {
      api: pod.uid,
      env: settings.pod.uid,
    });
  const problems = templateProblems(template);
  if (problems.length)
    throw new RuntimeFailure(
      'InvalidWorkerTemplate',
      `the worker PodTemplate ${app.workerTemplate} cannot be used: ${problems.join('; ')}`,
    );
  return {
    startedAt,
    jobUid,
    jobResourceVersion: jobObj.metadata?.resourceVersion ?? '',
    annotations: jobObj.metadata?.annotations ?? {},
    failedBefore: (jobObj.status?.failed ?? 0) + (jobObj.status?.uncountedTerminatedPods?.failed?.length ?? 0),
    pod,
    template,
  };
}

/**
 * `kubectl apply` of synthesized YAML creates the dependents before the Job exists, without
 * owner references; the runtime adds the Job as their owner so that deleting the Job (cancel,
 * TTL) removes them. Only the objects named in runtime.json, only when they have no owner. A
 * failure is a Warning Event, not a failure of the application.
 */
async function adoptDependents(s: Step, jobUid: string): Promise<void> {
  const { kube, clock, log } = s.deps;
  const app = s.deps.settings.app;
  const owner = jobOwnerReference(app.appId, jobUid);
  const adopted: string[] = [];
  await mapLimit(app.dependents, 8, async (dep: ObjectRef) => {
    const id = `${dep.kind}/${dep.name}`;
    const adopt = async (): Promise<void> => {
      const meta = await kube.getMetadata(dep);
      const owners = meta.ownerReferences ?? [];
      if (owners.some((o) => o.uid === jobUid)) return;
      if (owners.length > 0) return log.info('dependent has another owner; left alone', { object: id });
      await kube.setOwnerReferences(dep, [owner], meta.resourceVersion ?? '');
      adopted.push(id);
    };
    // 409: it changed between the read and the patch (resourceVersion precondition): read again.
    const retryable = (e: unknown) => isStatus(e, 409) || isTransient(e);
    try {
      await retry(adopt, { clock, retryable, attempts: 3, backoff: [100, 1000], signal: s.interruption.signal });
    } catch (e) {
      if (isStatus(e, 404)) return log.warn('dependent not found; nothing to adopt', { object: id });
      const why = retryable(e) ? ' (it kept changing or the API did not answer)' : `: ${errorMessage(e)}`;
      s.reporter.event('Warning', 'AdoptionFailed', `could not add the Job as owner of ${id}${why}`);
    }
  });
  if (adopted.length) log.info('adopted dependents applied without an owner', { objects: adopted.sort().join(',') });
}
