// Reads what says why this Pod was asked to stop (../stop-cause.ts): the Job, this Pod and its
// Events. A kubelet records its Events and status a moment after it acts, so an answer that
// explains nothing is asked once more after a second.

import type { Event, Job, Pod } from '../kube/port';
import { isStatus } from '../kube/port';
import { stopCauseOf, type StopCause } from '../stop-cause';
import { errorMessage } from '../util';
import type { Step } from './context';

/** Undefined when it is gone; a read that fails otherwise counts as "nothing learnt". */
async function readOrGone<T>(read: () => Promise<T>): Promise<T | undefined | 'unreadable'> {
  try {
    return await read();
  } catch (e) {
    return isStatus(e, 404) ? undefined : 'unreadable';
  }
}

export async function learnStopCause(s: Step): Promise<{ cause: StopCause; deleting: boolean }> {
  const { kube, settings, clock, log } = s.deps;
  for (let attempt = 0; ; attempt++) {
    const [job, pod, events] = await Promise.all([
      readOrGone<Job>(() => kube.getJob(settings.app.appId)),
      readOrGone<Pod>(() => kube.getPod(settings.pod.name)),
      kube.listPodEvents(settings.pod.name, settings.pod.uid).catch((e: unknown): Event[] => {
        log.debug("reading this Pod's Events failed", { error: errorMessage(e) });
        return [];
      }),
    ]);
    // A read that failed says nothing either way: the Job counts as present, the Pod as it was.
    const cause = stopCauseOf({
      job: job === 'unreadable' ? {} : job,
      pod: pod === 'unreadable' ? {} : pod,
      events,
    });
    if (cause.kind !== 'unknown' || attempt >= 1) {
      const jobGone = job === undefined || (job !== 'unreadable' && Boolean(job.metadata?.deletionTimestamp));
      const podGone = pod === undefined || (pod !== 'unreadable' && Boolean(pod.metadata?.deletionTimestamp));
      // The workers go with the Job, and without HA with this Pod too.
      const deleting = jobGone || (!s.state.outlivesPod && podGone);
      log.info('why this Pod was asked to stop', { cause: cause.kind, deleting });
      return { cause, deleting };
    }
    await clock.sleep(1000);
  }
}
