// The Kafka pipelines' helpers (apps/examples/kafka-pipelines.ts) that the example runner and the engine tier share:
// the sink's check sees a row twice, a row missing and a message that is not a row; the batch source's messages are
// the ones check.sql expects; and the names and numbers the helpers hold are the ones the pipelines' files use.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  KAFKA_BATCH_SOURCE,
  KAFKA_SECRET,
  KAFKA_SINK,
  batchSourceMessages,
  countIds,
} from '../../../apps/examples/kafka-pipelines';
import { loadApplication } from '../../../lib/model/load';

const pipelines = join(__dirname, '..', '..', '..', 'apps', 'examples', 'pipelines');
const read = (pipeline: string, file: string) => readFileSync(join(pipelines, pipeline, file), 'utf8');

describe('countIds (kafka-sink: every row once is messages = ids, unreadable 0)', () => {
  const row = (id: number | string) => `{"id":${id},"name":"x","score":1}`;

  test('each row once', () => {
    expect(countIds([row(1), row(2), row(3)])).toEqual({ messages: 3, ids: 3, unreadable: 0 });
  });

  test('a row written twice: one message more than ids', () => {
    expect(countIds([row(1), row(2), row(2)])).toEqual({ messages: 3, ids: 2, unreadable: 0 });
  });

  test('a null value, a value that is not JSON, an object without an id, an id JavaScript would round: unreadable', () => {
    expect(countIds([null, 'not json', '{"name":"x"}', row('9007199254740993'), '[1]', row(1)])).toEqual({
      messages: 6,
      ids: 1,
      unreadable: 5,
    });
  });

  test('the largest id the job draws (2^53 - 1) is read exactly', () => {
    expect(countIds([row('9007199254740991'), row('9007199254740990')])).toEqual({
      messages: 2,
      ids: 2,
      unreadable: 0,
    });
    expect(read('kafka-sink', 'job.conf')).toMatch(/^\s*bigint\.max = 9007199254740991$/m);
  });
});

describe('kafka-batch-source/messages.sh', () => {
  const lines = batchSourceMessages();

  test(`${KAFKA_BATCH_SOURCE.messages} messages, ids 1 … ${KAFKA_BATCH_SOURCE.messages} each once, with check.sql's values`, () => {
    expect(lines).toHaveLength(KAFKA_BATCH_SOURCE.messages);
    const parsed = lines.map((l) => JSON.parse(l) as { id: number; name: string; amount: number });
    expect(parsed.map((m) => m.id)).toEqual(Array.from({ length: lines.length }, (_, i) => i + 1));
    // check.sql: name 'event-' || i, amount ((i % 1000) / 100.0)::numeric(12,2), written with two decimals
    for (const [k, line] of lines.entries()) {
      const i = k + 1;
      expect(line).toBe(`{"id":${i},"name":"event-${i}","amount":${((i % 1000) / 100).toFixed(2)}}`);
    }
    expect(read('kafka-batch-source', 'check.sql')).toContain(`generate_series(1, ${KAFKA_BATCH_SOURCE.messages})`);
  });

  test('a count of its own', () => {
    expect(batchSourceMessages(3)).toEqual([
      '{"id":1,"name":"event-1","amount":0.01}',
      '{"id":2,"name":"event-2","amount":0.02}',
      '{"id":3,"name":"event-3","amount":0.03}',
    ]);
  });
});

describe("the pipelines' files name what the helpers hold", () => {
  test('kafka-sink writes KAFKA_SINK.rows rows (row.num counts per reader) into its topic', () => {
    const job = read('kafka-sink', 'job.conf');
    expect(job).toContain(`topic = "${KAFKA_SINK.topic}"`);
    const parallelism = Number(/^\s*parallelism = (\d+)$/m.exec(job)?.[1]);
    const rowNum = Number(/^\s*row\.num = (\d+)$/m.exec(job)?.[1]);
    expect(parallelism * rowNum).toBe(KAFKA_SINK.rows);
  });

  test('kafka-batch-source reads its topic from the earliest offset, in BATCH mode', () => {
    const job = read('kafka-batch-source', 'job.conf');
    expect(job).toContain(`topic = "${KAFKA_BATCH_SOURCE.topic}"`);
    expect(job).toMatch(/job\.mode = "BATCH"/);
    expect(job).toMatch(/start_mode = "earliest"/);
  });

  test.each([
    ['kafka-sink', [KAFKA_SECRET]],
    ['kafka-batch-source', [KAFKA_SECRET, 'pipelines-postgres']],
  ])(
    '%s: its deploy.conf loads and takes the Secrets %j with env-from; job.conf reads ${KAFKA_BOOTSTRAP} unquoted',
    (pipeline, secrets) => {
      const spec = loadApplication({
        deploymentText: read(pipeline, 'deploy.conf'),
        deploymentFile: 'deploy.conf',
        jobConfig: read(pipeline, 'job.conf'),
      });
      expect(spec.envFrom.map((e) => e.name).sort()).toEqual([...secrets].sort());
      expect(read(pipeline, 'job.conf')).toMatch(/^\s*bootstrap\.servers = \$\{KAFKA_BOOTSTRAP\}$/m);
    },
  );
});
