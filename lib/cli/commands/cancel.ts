// `seatunnel-app cancel --id APP_ID`: delete the application (the Job in the foreground, then
// labelled leftovers). Idempotent; referenced objects and the checkpoint PVC are never touched.
// With --savepoint (ours), the runtime is first asked to stop the job with a savepoint, so a
// streaming job's checkpoints stay for `submit --restore-job-id`; the deletion follows.

import { cancelApplication, requestGracefulStop } from '../../submit/act/cancel';
import { describeRef } from '../../kube';
import type { ParsedArgs } from '../args';
import { applicationIdFrom, connectKube, connectionFromArgs, requireSupportedServer } from '../connect';
import { CLI_EXIT } from '../exit-codes';
import type { Output } from '../output';

/** How long `cancel --savepoint` waits for the runtime, unless --wait-timeout says otherwise. */
export const DEFAULT_SAVEPOINT_TIMEOUT_MS = 90_000;

export async function cancelCommand(args: ParsedArgs, out: Output): Promise<number> {
  const applicationId = applicationIdFrom(args);
  const conn = connectionFromArgs(args);
  const kube = await connectKube(conn, out);
  try {
    // The version is asked while cancel reads the Job; nothing is changed before the server is accepted.
    const accepted = requireSupportedServer(kube, out);
    if (args.savepoint) {
      await accepted;
      const timeoutMs = args.waitTimeoutMs > 0 ? args.waitTimeoutMs : DEFAULT_SAVEPOINT_TIMEOUT_MS;
      const g = await requestGracefulStop(kube, conn.namespace, applicationId, { timeoutMs });
      if (!g.stopped)
        out.warn(
          `the application did not stop with a savepoint within ${timeoutMs} ms (last phase ${g.phase ?? 'unknown'}); deleting it anyway`,
        );
    }
    const r = await cancelApplication(kube, conn.namespace, applicationId, { writesWaitFor: accepted });
    const lines = [`Application ID: ${applicationId}`, 'Cancellation requested'];
    for (const e of r.errors) out.warn(`leftover not removed (run cancel again): ${e}`);
    out.result(
      {
        applicationId,
        namespace: conn.namespace,
        cancellationRequested: true,
        jobFound: r.jobFound,
        leftoversDeleted: r.deleted.map(describeRef),
        errors: r.errors,
      },
      lines,
    );
    return r.errors.length ? CLI_EXIT.failed : CLI_EXIT.ok;
  } finally {
    kube.api.close();
  }
}
