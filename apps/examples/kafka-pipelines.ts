// What the Kafka pipelines of apps/examples/pipelines/ need around them, in one place for `npm run example --
// --pipeline kafka-…` (run-local.ts) and the engine tier (test/engine/data-pipelines.test.ts): the topics their
// job.conf names, the messages the batch source reads, and the sink's check.

import { execFileSync } from 'node:child_process';
import * as path from 'node:path';
import { packageRoot } from '../../lib/cli/io';

/** kafka-sink/job.conf: FakeSource's 2 readers × 5 000 rows into this topic. */
export const KAFKA_SINK = { topic: 'fake-rows', partitions: 3, rows: 10_000 } as const;
/** kafka-batch-source/job.conf reads this topic; messages.sh makes its messages (check.sql expects 10 000). */
export const KAFKA_BATCH_SOURCE = { topic: 'events', partitions: 3, messages: 10_000 } as const;

/** The secret the Kafka pipelines' deploy.conf reads KAFKA_BOOTSTRAP from (env-from). */
export const KAFKA_SECRET = 'pipelines-kafka';

/** kafka-batch-source/messages.sh's lines: one JSON message each, ids 1 … count. */
export function batchSourceMessages(count: number = KAFKA_BATCH_SOURCE.messages): string[] {
  const script = path.join(packageRoot(), 'apps', 'examples', 'pipelines', 'kafka-batch-source', 'messages.sh');
  return execFileSync('bash', [script, String(count)], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })
    .split('\n')
    .filter((l) => l.length > 0);
}

export interface TopicCount {
  /** Records in the topic. */
  messages: number;
  /** Distinct `id`s among them. */
  ids: number;
  /** Records that are not a JSON object with an integer `id` JavaScript holds exactly (|id| < 2^53). */
  unreadable: number;
}

/** kafka-sink's check: every row once is messages = ids = the rows written, unreadable 0. */
export function countIds(values: ReadonlyArray<string | null>): TopicCount {
  const ids = new Set<number>();
  let unreadable = 0;
  for (const v of values) {
    const id = idOf(v);
    if (id === undefined) unreadable++;
    else ids.add(id);
  }
  return { messages: values.length, ids: ids.size, unreadable };
}

function idOf(v: string | null): number | undefined {
  try {
    const o = JSON.parse(v ?? '') as unknown;
    const id = typeof o === 'object' && o !== null ? (o as { id?: unknown }).id : undefined;
    return Number.isSafeInteger(id) ? (id as number) : undefined;
  } catch {
    return undefined;
  }
}
