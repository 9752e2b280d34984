// Who the application is: its readable name, namespace, application ID (the Job name) and Zeta
// job IDs. IDs are random per submission or derived stably, as the door asks.

import { APP_ID_MAX, derivedApplicationId, derivedJobId, randomApplicationId, randomJobId } from '../ids';
import { dns1123LabelProblem } from '../k8s-syntax';
import type { ApplicationSpec } from '../spec';
import type { PropReader } from './reader';

export type Identity = Pick<ApplicationSpec, 'appId' | 'name' | 'namespace' | 'jobId' | 'restoreJobId'>;

/** The application ID's own rule (used for `--id` too). */
export function applicationIdProblem(id: string): string | undefined {
  const p = dns1123LabelProblem(id);
  if (p) return p;
  if (id.length > APP_ID_MAX)
    return `must be at most ${APP_ID_MAX} characters so that worker Pod names fit (has ${id.length})`;
  return undefined;
}

export function resolveIdentity(r: PropReader): Identity {
  const { props, ctx } = r;
  const name = r.str('name');
  const namespace = r.str('namespace', dns1123LabelProblem);
  const runId = r.str('runId');
  let appId: string;
  if (props.applicationId !== undefined) {
    const given = r.str('applicationId', applicationIdProblem);
    // A wrong-typed ID (already reported) still needs a stand-in, so names derived from it can be checked too.
    appId = typeof props.applicationId === 'string' ? given : 'invalid';
  } else if (ctx.ids === 'random') {
    appId = randomApplicationId(name, ctx.random);
  } else {
    appId = derivedApplicationId(name, namespace, runId);
  }
  const jobId = r.long('jobId') ?? (ctx.ids === 'random' ? randomJobId(ctx.random) : derivedJobId(appId));
  const restoreJobId = r.long('restoreJobId');
  if (restoreJobId !== undefined && restoreJobId === jobId) {
    r.fail(
      'restoreJobId',
      restoreJobId,
      "must differ from the job ID: a restore starts a new job from the old job's checkpoint",
    );
  }
  return { appId, name, namespace, jobId, ...(restoreJobId !== undefined ? { restoreJobId } : {}) };
}
