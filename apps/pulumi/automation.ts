// The Automation API helper with this project's program and team templates: each job is its own
// stack of Pulumi.yaml's program (`config` jobs) or an inline program (`application` jobs).
//
//   await upJobs([{ config: { deploymentFile: 'apps/examples/deploy.conf', jobFile: 'apps/examples/job.conf' } }],
//                { backendDir: '/var/lib/seatunnel-stacks', passphrase, pulumiRoot, kubeconfig });

import * as lib from '../../lib/pulumi/automation';
import { TEAM_TEMPLATES } from './templates';

export type {
  AutomationOptions,
  DestroyJobsOptions,
  JobStack,
  JobStackResult,
  UpJobsOptions,
} from '../../lib/pulumi/automation';
export { JobStacksError } from '../../lib/pulumi/automation';

const withTemplates = <O extends lib.AutomationOptions>(opts: O): O => ({ templates: TEAM_TEMPLATES, ...opts });

export const upJobs = (jobs: readonly lib.JobStack[], opts: lib.UpJobsOptions) => lib.upJobs(jobs, withTemplates(opts));
export const previewJobs = (jobs: readonly lib.JobStack[], opts: lib.AutomationOptions) =>
  lib.previewJobs(jobs, withTemplates(opts));
export const destroyJobs = (jobs: readonly lib.JobStack[], opts: lib.DestroyJobsOptions) =>
  lib.destroyJobs(jobs, withTemplates(opts));
