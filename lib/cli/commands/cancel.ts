// `seatunnel-app cancel --id APP_ID`: delete the application (the Job in the foreground, then
// labelled leftovers). Idempotent; referenced objects and the checkpoint PVC are never touched.

import { cancelApplication } from '../../submit/cancel';
import { describeRef } from '../../submit/kube-api';
import type { ParsedArgs } from '../args';
import { applicationIdFrom, connectKube, connectionFromArgs } from '../connect';
import { CLI_EXIT } from '../exit-codes';
import type { Output } from '../output';

export async function cancelCommand(args: ParsedArgs, out: Output): Promise<number> {
  const applicationId = applicationIdFrom(args);
  const conn = connectionFromArgs(args);
  const kube = await connectKube(conn.kubeconfig, conn.deploymentFile);
  try {
    const r = await cancelApplication(kube, conn.namespace, applicationId);
    const lines = [`Application ID: ${applicationId}`, 'Cancellation requested'];
    for (const e of r.errors) out.warn(`leftover not removed (run cancel again): ${e}`);
    out.result(
      { applicationId, namespace: conn.namespace, cancellationRequested: true, jobFound: r.jobFound, leftoversDeleted: r.deleted.map(describeRef), errors: r.errors },
      lines,
    );
    return r.errors.length ? CLI_EXIT.failed : CLI_EXIT.ok;
  } finally {
    kube.api.close();
  }
}
