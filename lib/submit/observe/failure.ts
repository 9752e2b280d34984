// Why an application ended the way it did: cancelled or failed, and the most specific reason and
// message Kubernetes keeps — the runtime's annotations, the master container's exit code (what
// the runtime's exit codes mean) or termination, the Pod's reason, the Job's condition. Pure; used
// by status (status.ts).

import type { Job } from 'kubernetes-types/batch/v1';
import type { Pod } from 'kubernetes-types/core/v1';
import { EXIT_CODES } from '../../model/reserved';
import { ANNOTATIONS, FINAL_PHASES } from '../../contract';
import { CONTAINER_NAME } from '../../plan/pod';
import { terminated } from './application-pods';

/** The Job's condition of that type when it is True. */
export const jobCondition = (job: Job, type: string) =>
  job.status?.conditions?.find((c) => c.type === type && c.status === 'True');

/** What the runtime's exit codes mean (EXIT_CODES). */
export const EXIT_CODE_MEANING: Record<number, string> = {
  [EXIT_CODES.jobFailed]: 'the Zeta job failed',
  [EXIT_CODES.canceled]: 'the job was cancelled',
  [EXIT_CODES.infrastructure]:
    'infrastructure failure: workers could not be created, scheduled or registered in time, a worker was lost, or the API failed',
  [EXIT_CODES.configuration]:
    "the configuration is invalid: the Pod's settings, the job config, a connector the image lacks or the checkpoint to restore",
  [EXIT_CODES.engine]: 'the Zeta master could not start or died',
};

/** The runtime's exit code as recorded on the master container or, once the Pod is gone, in the Job's condition. */
function exitCode(job: Job, master: Pod | undefined): number | undefined {
  const t = terminated(master);
  if (t) return t.exitCode;
  const c = jobCondition(job, 'Failed') ?? jobCondition(job, 'FailureTarget');
  const m = c?.reason === 'PodFailurePolicy' ? /exit code (\d+)/.exec(c.message ?? '') : null;
  return m ? Number(m[1]) : undefined;
}

/** Whether the application ended cancelled rather than failed (the (*) rule of status.ts). */
export function isCanceled(job: Job, master: Pod | undefined): boolean {
  const ann = job.metadata?.annotations ?? {};
  // The runtime's own account first: its exit code, then its terminal phase. The Zeta status alone
  // is weaker evidence — the runtime stops (cancels) the Zeta job when a worker is lost too.
  const code = exitCode(job, master);
  if (code !== undefined) return code === EXIT_CODES.canceled;
  const phase = ann[ANNOTATIONS.phase] ?? '';
  if (FINAL_PHASES.has(phase)) return phase === 'Canceled';
  return (ann[ANNOTATIONS.zetaJobStatus] ?? '').toUpperCase() === 'CANCELED';
}

/** The most specific failure reason known: the runtime's, the container's, the Pod's, the Job's. */
export function failure(job: Job, master: Pod | undefined): { reason?: string; message?: string } {
  const ann = job.metadata?.annotations ?? {};
  const details: string[] = [];
  const runtimeReason = ann[ANNOTATIONS.reason];
  if (ann[ANNOTATIONS.message]) details.push(ann[ANNOTATIONS.message]);
  const t = terminated(master);
  let containerReason: string | undefined;
  if (t) {
    if (t.reason === 'OOMKilled') {
      const limit = master?.spec?.containers.find((c) => c.name === CONTAINER_NAME)?.resources?.limits?.memory;
      containerReason = 'OOMKilled';
      details.push(`the master container was killed for exceeding its memory limit${limit ? ` (${limit})` : ''}`);
    } else if (t.exitCode !== 0) {
      const meaning = EXIT_CODE_MEANING[t.exitCode];
      containerReason = meaning
        ? `exit code ${t.exitCode}: ${meaning}`
        : `exit code ${t.exitCode}${t.reason ? ` (${t.reason})` : ''}`;
      if (t.message) details.push(t.message);
    }
  }
  if (master?.status?.reason) {
    containerReason ??= master.status.reason;
    if (master.status.message) details.push(master.status.message);
  }
  const c = jobCondition(job, 'Failed') ?? jobCondition(job, 'FailureTarget');
  if (c?.message) details.push(`${c.reason ?? 'Failed'}: ${c.message}`);
  else if (c?.reason) details.push(c.reason);
  const code = exitCode(job, master);
  if (!containerReason && code !== undefined && code !== 0 && EXIT_CODE_MEANING[code])
    containerReason = `exit code ${code}: ${EXIT_CODE_MEANING[code]}`;
  const reason = runtimeReason ?? containerReason ?? c?.reason;
  if (runtimeReason && containerReason) details.unshift(containerReason);
  const unique = details.filter((d, i) => d !== reason && details.indexOf(d) === i);
  return { ...(reason ? { reason } : {}), ...(unique.length ? { message: unique.join('; ') } : {}) };
}
