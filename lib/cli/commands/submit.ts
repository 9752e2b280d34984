// `seatunnel-app submit`: validate, check referenced objects, create the suspended Job, its
// dependents (owned by the Job, in parallel), start it; print `Application ID:` and `Job ID:`.
// Returns at once unless --wait. --dry-run runs the preflight instead and creates nothing.

import { describeRef } from '../../kube';
import { serverDependentUse } from '../../submit/admit/server-support';
import { submitApplication, SubmitError } from '../../submit/act/submit';
import type { ParsedArgs } from '../args';
import { connectKube, kubeconfigFromUntrustedFile, readServerSupport, requireSupportedServer } from '../connect';
import { CLI_EXIT } from '../exit-codes';
import { planFromArgs } from '../load';
import type { Output } from '../output';
import { waitAndReport } from './status';

export async function submitCommand(args: ParsedArgs, out: Output): Promise<number> {
  const { spec, plan, deploymentFile } = planFromArgs(args, out);
  const kube = await connectKube(
    { kubeconfig: spec.kubeconfig, deploymentFile, untrusted: kubeconfigFromUntrustedFile(args) },
    out,
  );
  try {
    if (args.dryRun) {
      // Loaded for --dry-run only: the preflight's checks (quotas, permissions, Pod Security) are
      // modules a plain submit never runs.
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- lazy on purpose, typed by the cast
      const { reportPreflight } = require('./preflight') as typeof import('./preflight');
      return await reportPreflight(kube, plan, out, await readServerSupport(kube, serverDependentUse(spec)));
    }
    // The version is asked while submit reads the referenced objects; nothing is created before
    // the server is accepted.
    const accepted = requireSupportedServer(kube, out, serverDependentUse(spec));
    let result;
    try {
      result = await submitApplication(kube, plan, { onNotice: (m) => out.warn(m), writesWaitFor: accepted });
    } catch (e) {
      if (!(e instanceof SubmitError)) throw e;
      if (out.json) {
        out.result(
          {
            error: 'submit-failed',
            applicationId: spec.appId,
            namespace: spec.namespace,
            step: e.step,
            message: e.message,
            causes: e.causes.map((c) => c.message),
            rolledBack: e.rollback.deleted.map(describeRef),
            untouched: e.rollback.untouched.map((u) => ({ object: describeRef(u.ref), why: u.why })),
            rollbackErrors: e.rollback.errors.map((r) => r.message),
          },
          [],
        );
      }
      out.error(`error: ${e.message}`);
      return CLI_EXIT.failed;
    }
    const data = {
      applicationId: spec.appId,
      // The Zeta job that runs: a restore continues the job it restores, under that job's id.
      jobId: spec.restoreJobId ?? spec.jobId,
      namespace: spec.namespace,
      job: { name: result.job.ref.name, uid: result.job.uid },
      objects: [result.job, ...result.dependents].map((c) => describeRef(c.ref)),
    };
    const lines = [`Application ID: ${spec.appId}`, `Job ID: ${data.jobId}`];
    if (!args.wait) {
      out.result(data, lines);
      return CLI_EXIT.ok;
    }
    // The IDs are printed at once, so an interrupted wait still tells what was submitted.
    for (const l of lines) out.line(l);
    return await waitAndReport(kube, args, out, spec.namespace, spec.appId, { data, lines: [] });
  } finally {
    kube.api.close();
  }
}
