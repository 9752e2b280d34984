// What a worker leaves behind before the runtime deletes it (pure): how its container ended — an
// OOM kill is exit code 137 with reason OOMKilled — and which worker Pod Zeta means when it says
// `deployed node([10.244.0.37]:5802) offline` (Zeta names members by address; the Pod's IP says
// which worker that was). The effects (reading the logs, waiting for the kubelet's report) are
// ../steps/worker-evidence.ts.

import type { Pod } from 'kubernetes-types/core/v1';
import { CONTAINER_NAME } from 'seatunnel-app/runtime-support';
import { redact } from '../report/redact';

/** How a worker's main container ended. */
export interface WorkerEnd {
  readonly pod: string;
  readonly ip?: string;
  readonly container: string;
  readonly exitCode: number;
  readonly reason?: string;
}

/** The worker's container (SeaTunnel's, else the first): the one whose end and log matter. */
export function workerContainer(pod: Pod): string {
  const containers = pod.spec?.containers ?? [];
  return containers.find((c) => c.name === CONTAINER_NAME)?.name ?? containers[0]?.name ?? CONTAINER_NAME;
}

/** How the worker's container ended (its current state, else the last one), if it did. */
export function workerEnd(pod: Pod): WorkerEnd | undefined {
  const container = workerContainer(pod);
  const s = pod.status?.containerStatuses?.find((c) => c.name === container);
  const t = s?.state?.terminated ?? s?.lastState?.terminated;
  if (!t) return undefined;
  return {
    pod: pod.metadata?.name ?? '',
    ...(pod.status?.podIP ? { ip: pod.status.podIP } : {}),
    container,
    exitCode: t.exitCode,
    ...(t.reason ? { reason: t.reason } : {}),
  };
}

/** Exit codes above 128 are a signal's: 137 = SIGKILL (the OOM killer's, or a kill), 143 = SIGTERM. */
function signalOf(exitCode: number): string | undefined {
  return exitCode === 137 ? 'SIGKILL' : exitCode === 143 ? 'SIGTERM' : undefined;
}

/** "worker Pod app-worker-2 (10.244.0.37): container seatunnel was OOMKilled (exit code 137, SIGKILL)". */
export function describeWorkerEnd(e: WorkerEnd): string {
  const where = `worker Pod ${e.pod}${e.ip ? ` (${e.ip})` : ''}`;
  const signal = signalOf(e.exitCode);
  const code = `exit code ${e.exitCode}${signal ? `, ${signal}` : ''}`;
  if (e.reason === 'OOMKilled')
    return `${where}: container ${e.container} was OOMKilled (${code}): it ran out of memory; raise its memory limit or lower the job's parallelism`;
  return `${where}: container ${e.container} terminated${e.reason ? ` (${e.reason})` : ''} with ${code}`;
}

/** The IP addresses in Zeta's text: members are named `[10.244.0.37]:5802` (IPv6 in the brackets too). */
export function addressesIn(text: string): string[] {
  const found = new Set<string>();
  for (const m of text.matchAll(/\[([0-9a-fA-F.:]+)\]:\d+/g)) found.add(m[1].toLowerCase());
  return [...found];
}

/** The worker Pods among `pods` whose IP Zeta's text names. */
export function workersNamedBy(text: string, pods: readonly Pod[]): Pod[] {
  const ips = new Set(addressesIn(text));
  return pods.filter((p) => {
    const ip = p.status?.podIP?.toLowerCase();
    return ip !== undefined && ips.has(ip);
  });
}

/** Whether `text` names `pod` as a word of its own (app-worker-1 is not named by app-worker-10). */
const mentions = (text: string, pod: string) => pod !== '' && text.split(/[^A-Za-z0-9.-]+/).includes(pod);

/**
 * What a failure's message gains from the workers: each worker Zeta names, with how it ended (or
 * that it still ran), and every other worker that ended abnormally. Empty when there is nothing.
 */
export function evidenceNote(failureText: string, pods: readonly Pod[]): string {
  const named = new Set(workersNamedBy(failureText, pods).map((p) => p.metadata?.name));
  const parts: string[] = [];
  for (const p of pods) {
    // A worker the message already names (WorkerLost …) is described there.
    if (mentions(failureText, p.metadata?.name ?? '')) continue;
    const end = workerEnd(p);
    if (end) parts.push(describeWorkerEnd(end));
    else if (named.has(p.metadata?.name))
      parts.push(
        `worker Pod ${p.metadata?.name}${p.status?.podIP ? ` (${p.status.podIP})` : ''} is the member Zeta names; its container had not ended (${p.status?.phase ?? 'unknown phase'})`,
      );
  }
  return parts.join('; ');
}

/**
 * The newest lines of a log, within a byte budget (UTF-8), each redacted as everything the runtime
 * writes from the engine is: older lines give way to newer ones, and a single line over the budget
 * keeps its end.
 */
export class LogTail {
  private readonly kept: string[] = [];
  private bytes = 0;
  private droppedLines = 0;

  constructor(private readonly maxBytes: number) {}

  add(line: string): void {
    let text = redact(line);
    let size = Buffer.byteLength(text);
    if (size > this.maxBytes) {
      text = Buffer.from(text)
        .subarray(size - this.maxBytes)
        .toString('utf8')
        .replace(/^\uFFFD+/, '');
      size = Buffer.byteLength(text);
    }
    this.kept.push(text);
    this.bytes += size;
    while (this.bytes > this.maxBytes && this.kept.length > 0) {
      this.bytes -= Buffer.byteLength(this.kept.shift()!);
      this.droppedLines++;
    }
  }

  get lines(): readonly string[] {
    return this.kept;
  }

  /** Lines read but not kept (the byte budget). */
  get dropped(): number {
    return this.droppedLines;
  }
}

/** Each worker's byte budget: its own bound, or its share of the bound of all of them. */
export function bytesPerWorker(workers: number, perWorker: number, inAll: number): number {
  return Math.max(1024, Math.min(perWorker, Math.floor(inAll / Math.max(1, workers))));
}
