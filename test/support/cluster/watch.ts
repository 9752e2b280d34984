// Recording a client-node watch, to assert on the events the API server sent.
import { loadClientNode, type k8s } from '../../../lib/kube/client-node';
import { waitFor } from '../../../tools/local-stack/wait';
import { adminKubeConfig } from './access';

export interface WatchEvent<T = Record<string, unknown>> {
  /** ADDED, MODIFIED, DELETED, BOOKMARK or ERROR, as the API server sends it. */
  type: string;
  object: T;
}

export interface RecordedWatch<T = Record<string, unknown>> {
  /** Every event so far, in arrival order. */
  readonly events: WatchEvent<T>[];
  /** Resolves when the watch ends, with the error client-node reported (null for a clean close). */
  readonly ended: Promise<unknown>;
  /** Waits until some recorded event satisfies `pred` and returns it. */
  until(pred: (e: WatchEvent<T>) => boolean, description: string, timeoutMs?: number): Promise<WatchEvent<T>>;
  stop(): void;
}

/**
 * Starts a client-node Watch (as admin unless `kc` is given) on an API path such as
 * /api/v1/namespaces/<ns>/pods and records its events.
 */
export async function recordWatch<T = Record<string, unknown>>(
  apiPath: string,
  query: Record<string, string | number | boolean | undefined> = {},
  kc?: k8s.KubeConfig,
): Promise<RecordedWatch<T>> {
  const { Watch } = await loadClientNode();
  const events: WatchEvent<T>[] = [];
  let resolveEnded!: (err: unknown) => void;
  const ended = new Promise<unknown>((r) => (resolveEnded = r));
  let finished = false;
  const controller = await new Watch(kc ?? (await adminKubeConfig())).watch(
    apiPath,
    query,
    (type: string, object: T) => events.push({ type, object }),
    (err: unknown) => {
      finished = true;
      resolveEnded(err ?? null);
    },
  );
  return {
    events,
    ended,
    async until(pred, description, timeoutMs = 60_000) {
      return waitFor(() => events.find(pred), {
        description,
        timeoutMs,
        intervalMs: 50,
        guard: () => {
          if (finished && !events.some(pred)) {
            throw new Error(
              `the watch ended before ${description}; events so far: ${events.map((e) => e.type).join(', ') || 'none'}`,
            );
          }
        },
      });
    },
    stop() {
      controller.abort();
    },
  };
}
