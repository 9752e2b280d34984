// What the S3 pipelines of apps/examples/pipelines/ need around them, in one place for `npm run example --
// --pipeline s3-file-sink` (run-local.ts) and the engine tier (test/engine/data-pipelines.test.ts): the bucket and
// prefix its job.conf names, the Secret its deploy.conf reads, and the sink's check.

import { countIds, type TopicCount } from './kafka-pipelines';

/** s3-file-sink/job.conf: FakeSource's 2 readers × 5 000 rows as JSON lines under this bucket's prefix. */
export const S3_FILE_SINK = { bucket: 'pipelines', prefix: 's3-file-sink/rows/', rows: 10_000 } as const;

/** The secret the S3 pipelines' deploy.conf reads S3_ENDPOINT, S3_ACCESS_KEY and S3_SECRET_KEY from (env-from). */
export const S3_SECRET = 'pipelines-s3';

/** What the sink wrote: every JSON line of the objects, counted as kafka-sink's messages are. */
export function countLines(objects: readonly string[]): TopicCount {
  return countIds(objects.flatMap((text) => text.split('\n').filter((l) => l.trim().length > 0)));
}
