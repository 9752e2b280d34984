// With HA, a new coordinator takes over the workers an earlier coordinator of the same Job created.
// A Pod with the worker's name, the application's labels and the Job as owner proves nothing:
// whoever may create Pods in the namespace can make one. Without HA the proof is the creation token
// only this process knows; a new coordinator cannot know an earlier one's. What it can know is the
// Pod's uid — assigned by the API server, never chosen by a client — recorded on the Job
// (annotation `worker-uids`) by the coordinator that created it. Only the application's runtime
// and its submitter may change the Job, and the admission fence holds the runtime to its status
// annotations (lib/plan/admission-fence.ts). A worker whose uid no coordinator recorded (one
// created just before its coordinator was lost) is replaced, never adopted (docs/ha.md).

import { ANNOTATIONS } from 'seatunnel-app/runtime-support';
import type { Clock } from '../clock';
import { isTransient, type KubePort } from '../kube/port';
import type { Logger } from '../log';
import { errorMessage, retry } from '../util';

const MAX_UID_LENGTH = 64;

/** The record as the Job carries it: worker index → uid. Anything malformed is ignored. */
export function parseWorkerUids(text: string | undefined, count: number): Map<number, string> {
  const out = new Map<number, string>();
  if (!text || text.length > count * (MAX_UID_LENGTH + 16) + 16) return out;
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return out;
  }
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return out;
  for (const [k, v] of Object.entries(raw as Record<string, unknown>)) {
    const n = Number(k);
    if (Number.isInteger(n) && n >= 1 && n <= count && typeof v === 'string' && v && v.length <= MAX_UID_LENGTH)
      out.set(n, v);
  }
  return out;
}

/** The record written back: compact JSON, by index. */
export function formatWorkerUids(uids: ReadonlyMap<number, string>): string {
  return JSON.stringify(Object.fromEntries([...uids].sort(([a], [b]) => a - b)));
}

export class WorkerUidRecord {
  private earlier: Promise<Map<number, string>> | undefined;
  private readonly mine = new Map<number, string>();
  private writing: Promise<void> | undefined;
  private dirty = false;

  constructor(
    private readonly kube: KubePort,
    private readonly jobName: string,
    private readonly count: number,
    private readonly log: Logger,
    private readonly clock: Clock,
  ) {}

  /**
   * The uid recorded for worker `n`: what this coordinator recorded, else what the Job said when
   * first read. Throws when the Job cannot be read (the caller retries on transient errors).
   */
  async recorded(n: number): Promise<string | undefined> {
    return this.mine.get(n) ?? (await this.load()).get(n);
  }

  /** Records that worker `n` is the Pod `uid`; written to the Job in the background, latest first. */
  record(n: number, uid: string): void {
    if (this.mine.get(n) === uid) return;
    this.mine.set(n, uid);
    this.dirty = true;
    this.writing ??= this.write().finally(() => {
      this.writing = undefined;
    });
  }

  /** Waits for the writes started so far (tests). */
  async settled(): Promise<void> {
    while (this.writing) await this.writing;
  }

  private load(): Promise<Map<number, string>> {
    this.earlier ??= this.kube.getJob(this.jobName).then(
      (job) => parseWorkerUids(job.metadata?.annotations?.[ANNOTATIONS.workerUids], this.count),
      (e: unknown) => {
        this.earlier = undefined;
        throw e;
      },
    );
    return this.earlier;
  }

  private async write(): Promise<void> {
    while (this.dirty) {
      this.dirty = false;
      try {
        await retry(
          async () => {
            const all = new Map([...(await this.load()), ...this.mine]);
            await this.kube.patchJobAnnotations(this.jobName, { [ANNOTATIONS.workerUids]: formatWorkerUids(all) });
          },
          { clock: this.clock, retryable: isTransient, budgetMs: 60_000, backoff: [200, 5000] },
        );
      } catch (e) {
        this.log.warn("recording the workers' uids on the Job failed; a later coordinator would replace them", {
          error: errorMessage(e),
        });
        return;
      }
    }
  }
}
