// `seatunnel-app status --id APP_ID [--wait | --explain]`: the status from Kubernetes alone (see
// lib/submit/observe/status.ts for the mapping); --explain adds the story (lib/submit/observe/timeline.ts). Plain status exits 0 whenever the query succeeded, even
// for FAILED or UNKNOWN; with --wait the final status decides (SeaTunnel 3.1.0).

import type { Kube } from '../../kube';
import {
  applicationStatus,
  readApplication,
  readStatus,
  statusLines,
  type StatusReport,
} from '../../submit/observe/status';
import { readRuntimeImageRecord } from '../../submit/observe/runtime-image';
import { applicationTimeline, timelineLines } from '../../submit/observe/timeline';
import { packageRoot } from '../io';
import type { ParsedArgs } from '../args';
import {
  applicationIdFrom,
  connectKube,
  connectionFromArgs,
  readOnSupportedServer,
  requireSupportedServer,
} from '../connect';
import { CLI_EXIT } from '../exit-codes';
import type { Output } from '../output';
import { elapsed, waitExitCode, waitForApplication } from '../wait';

/** Follows the application and prints the final status; returns the exit code. */
export async function waitAndReport(
  kube: Kube,
  args: ParsedArgs,
  out: Output,
  namespace: string,
  applicationId: string,
  extra: { data: Record<string, unknown>; lines: string[] },
): Promise<number> {
  const runtimeImage = readRuntimeImageRecord(packageRoot());
  const w = await waitForApplication(kube, namespace, applicationId, out, {
    intervalMs: args.waitIntervalMs,
    timeoutMs: args.waitTimeoutMs,
    read: () => readStatus(kube, namespace, applicationId, runtimeImage),
  });
  const lines = [...extra.lines, ...statusLines(w.report)];
  if (w.timedOut)
    out.error(
      `error: --wait-timeout ${args.waitTimeoutMs} ms expired after ${elapsed(w.elapsedMs)}; the last status is ${lastStatus(w.report)} (the application keeps running; closing the CLI never cancels it)`,
    );
  out.result(
    { ...extra.data, ...statusData(w.report), waited: true, timedOut: w.timedOut, elapsedMs: Math.round(w.elapsedMs) },
    lines,
  );
  return w.timedOut ? CLI_EXIT.waitTimeout : waitExitCode(w.report.status);
}

/** The status with why, when known: a timed-out wait should say what it waited on (e.g. the scheduler's message). */
export function lastStatus(r: StatusReport): string {
  const why = [r.reason, r.message].filter((x) => x).join(': ');
  return why ? `${r.status} (${why.length > 300 ? `${why.slice(0, 297)}...` : why})` : r.status;
}

export function statusData(r: StatusReport): Record<string, unknown> {
  return { ...r };
}

export async function statusCommand(args: ParsedArgs, out: Output): Promise<number> {
  const applicationId = applicationIdFrom(args);
  const conn = connectionFromArgs(args);
  const kube = await connectKube(conn, out);
  try {
    if (args.wait) {
      await requireSupportedServer(kube, out);
      out.line(`Application ID: ${applicationId}`);
      return await waitAndReport(kube, args, out, conn.namespace, applicationId, { data: {}, lines: [] });
    }
    if (args.explain) {
      // The status exactly as plain status derives it, then the story (lib/submit/observe/timeline.ts).
      const o = await readOnSupportedServer(kube, out, () =>
        readApplication(kube, conn.namespace, applicationId, { events: 'always' }),
      );
      const report = applicationStatus(
        applicationId,
        conn.namespace,
        o.job,
        o.pods,
        o.events,
        o.readAt,
        readRuntimeImageRecord(packageRoot()),
      );
      const timeline = o.job
        ? applicationTimeline(o.job, o.events ?? [], o.pods, { now: new Date(), eventsRead: o.events !== undefined })
        : undefined;
      out.result({ ...statusData(report), ...(timeline ? { timeline } : {}) }, [
        `Application ID: ${applicationId}`,
        ...statusLines(report),
        ...(report.finishedAt ? [`Finished: ${report.finishedAt}`] : []),
        ...(timeline
          ? timelineLines(timeline)
          : ['Timeline: none (without its Job nothing of the application is recorded)']),
      ]);
      return CLI_EXIT.ok;
    }
    const runtimeImage = readRuntimeImageRecord(packageRoot());
    const report = await readOnSupportedServer(kube, out, () =>
      readStatus(kube, conn.namespace, applicationId, runtimeImage),
    );
    out.result(statusData(report), [`Application ID: ${applicationId}`, ...statusLines(report)]);
    return CLI_EXIT.ok;
  } finally {
    kube.api.close();
  }
}
