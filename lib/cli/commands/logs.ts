// `seatunnel-app logs --id APP_ID [--role master|worker] [--worker N] [-f] [--since D] [--previous]
// [--tail N] [--timestamps]`: the master's and workers' container output through the API server
// (lib/submit/observe/logs.ts). When the workers asked for are deleted (the application finished),
// their last lines as the runtime kept them in its own log are printed instead
// (lib/submit/observe/recorded-logs.ts). When there is nothing to read — no such record, or the Job
// is gone — it says so and prints what `status` still knows, exiting 2 (status's "not found"). A
// Pod whose log could not be read is named on stderr; any such Pod makes the exit code 1 (2 when
// all of them are gone).

import { readStatus, statusLines } from '../../submit/observe/status';
import type { Pod } from 'kubernetes-types/core/v1';
import { LABELS } from '../../model/reserved';
import { streamLogs, type LogsRequest } from '../../submit/observe/logs';
import { printRecordedWorkerLines, wantsWorkers } from '../../submit/observe/recorded-logs';
import type { ParsedArgs } from '../args';
import { applicationIdFrom, connectKube, connectionFromArgs } from '../connect';
import { CLI_EXIT } from '../exit-codes';
import type { Output } from '../output';

/** What the request asked for, in words: "worker 2 (Pod app-worker-2)", "master". */
export function describeTarget(req: Pick<LogsRequest, 'applicationId' | 'role' | 'worker'>): string {
  if (req.worker !== undefined) return `worker ${req.worker} (Pod ${req.applicationId}-worker-${req.worker})`;
  return req.role ? `${req.role} Pod` : 'master or worker Pod';
}

export async function logsCommand(args: ParsedArgs, out: Output): Promise<number> {
  const applicationId = applicationIdFrom(args);
  const conn = connectionFromArgs(args);
  const flags = args.logs ?? { follow: false, previous: false, timestamps: false };
  const req: LogsRequest = { applicationId, namespace: args.namespace ?? conn.namespace, ...flags };
  const kube = await connectKube(conn, out);
  try {
    const outcome = await streamLogs(kube, req, { line: (t) => out.line(t), note: (t) => out.error(t) });
    for (const f of outcome.failed) if (!req.follow) out.error(f.message);
    const allGone = outcome.shown === 0 && outcome.failed.length > 0 && outcome.failed.every((f) => f.gone);
    if (outcome.noPods || allGone) {
      if (wantsWorkers(req)) {
        const { items } = await kube.list<Pod>('v1', 'Pod', req.namespace, {
          labelSelector: `${LABELS.applicationId}=${applicationId}`,
        });
        const sink = { line: (t: string) => out.line(t), note: (t: string) => out.error(t) };
        if ((await printRecordedWorkerLines(kube, req, items, sink)) > 0) return CLI_EXIT.ok;
      }
      const report = await readStatus(kube, req.namespace, applicationId);
      out.error(
        outcome.noPods
          ? `No ${describeTarget(req)} of application ${applicationId} exists in namespace ${req.namespace}, so there is no log to show: ` +
              (report.status === 'UNKNOWN'
                ? 'the application does not exist (any more).'
                : 'its Pods are deleted when it ends (workers at once, the master with the Job), or it has not created them yet.')
          : `The Pods of application ${applicationId} are gone, and their logs with them.`,
      );
      out.error(`What status knows:`);
      for (const l of [`Application ID: ${applicationId}`, ...statusLines(report)]) out.error(`  ${l}`);
      return CLI_EXIT.unknown;
    }
    return outcome.failed.length ? CLI_EXIT.failed : CLI_EXIT.ok;
  } finally {
    kube.api.close();
  }
}
