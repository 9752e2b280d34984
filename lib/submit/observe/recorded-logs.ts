// The workers' last lines after the end: the runtime deletes the workers when the job ends, and
// keeps a bounded tail of each one's log in its own log first (lib/contract/worker-log.ts). When
// `logs` asks for workers that no longer exist, they are read back from there: the Pods of the
// application's Job (the master without HA, the coordinator with it), which stay until the Job's TTL.

import type { Pod } from 'kubernetes-types/core/v1';
import { parseRecordedWorkerLine } from '../../contract/worker-log';
import type { Kube } from '../../kube';
import { LineSplitter } from '../../kube/line-splitter';
import { names } from '../../plan/pod';
import { linePrefix, logContainer, type LogSink, type LogsRequest } from './logs';

/** The Pods the runtime ran in: the application's Pods that the Job owns, oldest first. */
export function runtimePods(pods: readonly Pod[]): Pod[] {
  return pods
    .filter((p) => p.metadata?.ownerReferences?.some((o) => o.kind === 'Job'))
    .sort((a, b) =>
      String(a.metadata?.creationTimestamp ?? '').localeCompare(String(b.metadata?.creationTimestamp ?? '')),
    );
}

/** Whether the request asks for workers at all (`--role master` does not). */
export const wantsWorkers = (req: Pick<LogsRequest, 'role'>): boolean => req.role !== 'master';

/**
 * The recorded lines of the workers the request names, from the runtime's log text as it arrives:
 * with `tailLines`, the last that many of each worker (bounded by it); else every one, at once.
 */
export class RecordedLines {
  private readonly held = new Map<string, string[]>();
  private count = 0;

  constructor(
    private readonly req: Pick<LogsRequest, 'applicationId' | 'worker' | 'tailLines'>,
    private readonly print: (pod: string, line: string) => void,
  ) {}

  /** One line of the runtime's log. */
  take(logLine: string): void {
    const r = parseRecordedWorkerLine(logLine);
    if (!r || !r.pod.startsWith(`${this.req.applicationId}-worker-`)) return;
    if (this.req.worker !== undefined && r.pod !== names.worker(this.req.applicationId, this.req.worker)) return;
    this.count++;
    if (this.req.tailLines === undefined) return this.print(r.pod, r.line);
    const kept = this.held.get(r.pod) ?? [];
    kept.push(r.line);
    if (kept.length > this.req.tailLines) kept.shift();
    this.held.set(r.pod, kept);
  }

  /** The end of the runtime's log: what `tailLines` held back is printed, worker by worker. */
  end(): void {
    for (const [pod, lines] of this.held) for (const l of lines) this.print(pod, l);
    this.held.clear();
  }

  /** Recorded lines of the requested workers seen (printed or held). */
  get seen(): number {
    return this.count;
  }
}

/**
 * Prints the workers' recorded last lines from the runtime Pods' logs; how many lines were found.
 * A note on stderr says where they come from. Errors reading a log count as nothing found.
 */
export async function printRecordedWorkerLines(
  kube: Kube,
  req: LogsRequest,
  pods: readonly Pod[],
  sink: LogSink,
): Promise<number> {
  const prefix = req.worker === undefined;
  let found = 0;
  for (const pod of runtimePods(pods)) {
    const name = pod.metadata?.name ?? '';
    let noted = false;
    const recorded = new RecordedLines(req, (worker, line) => {
      if (!noted) {
        noted = true;
        sink.note(
          `The worker Pods of application ${req.applicationId} are deleted (the runtime removes them when the job ends); ` +
            `below are their last lines as the runtime kept them in the log of Pod ${name} before deleting them.`,
        );
      }
      sink.line(`${prefix ? linePrefix(worker, logContainer(pod)) : ''}${line}`);
    });
    const lines = new LineSplitter((l) => recorded.take(l));
    const error = await new Promise<unknown>((resolve) => {
      kube.podLog(
        req.namespace,
        name,
        { container: logContainer(pod), follow: false, previous: false, sinceSeconds: req.sinceSeconds },
        { data: (c) => lines.push(c), closed: resolve },
      );
    });
    lines.end();
    if (error === undefined) recorded.end();
    found += recorded.seen;
  }
  return found;
}
