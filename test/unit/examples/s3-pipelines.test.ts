// The S3 pipeline's helpers (apps/examples/s3-pipelines.ts) that the example runner and the engine tier share: the
// sink's check counts rows across objects and sees a row twice, a row missing and a line that is not a row; and the
// names and numbers the helpers hold are the ones the pipeline's files use.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { S3_FILE_SINK, S3_SECRET, countLines } from '../../../apps/examples/s3-pipelines';
import { loadApplication } from '../../../lib/model/load';

const dir = join(__dirname, '..', '..', '..', 'apps', 'examples', 'pipelines', 's3-file-sink');
const read = (file: string) => readFileSync(join(dir, file), 'utf8');

describe('countLines (s3-file-sink: every row once is rows = ids, unreadable 0)', () => {
  const row = (id: number) => `{"id":${id},"name":"x","score":1}`;

  test('the lines of every object count, the trailing newline and blank lines do not', () => {
    expect(countLines([`${row(1)}\n${row(2)}\n`, `${row(3)}\n\n`])).toEqual({ messages: 3, ids: 3, unreadable: 0 });
  });

  test('a row in two objects is two rows with one id; a line that is not a row is unreadable', () => {
    expect(countLines([`${row(1)}\n`, `${row(1)}\nnot json\n`])).toEqual({ messages: 3, ids: 1, unreadable: 1 });
  });

  test('no object, no row', () => {
    expect(countLines([])).toEqual({ messages: 0, ids: 0, unreadable: 0 });
  });
});

describe("s3-file-sink's files name what the helpers hold", () => {
  test('S3_FILE_SINK.rows rows (row.num counts per reader) as JSON into its bucket and prefix, committed out of tmp_path', () => {
    const job = read('job.conf');
    const parallelism = Number(/^\s*parallelism = (\d+)$/m.exec(job)?.[1]);
    const rowNum = Number(/^\s*row\.num = (\d+)$/m.exec(job)?.[1]);
    expect(parallelism * rowNum).toBe(S3_FILE_SINK.rows);
    expect(job).toContain(`bucket = "s3a://${S3_FILE_SINK.bucket}"`);
    expect(`${/^\s*path = "\/(.+)"$/m.exec(job)?.[1]}/`).toBe(S3_FILE_SINK.prefix);
    expect(job).toMatch(/^\s*tmp_path = "\/s3-file-sink\/tmp"$/m);
    expect(job).toMatch(/^\s*file_format_type = "json"$/m);
    expect(job).toMatch(/^\s*bigint\.max = 9007199254740991$/m);
  });

  test('its deploy.conf loads and takes the Secret with env-from; job.conf reads ${S3_…} unquoted', () => {
    const spec = loadApplication({
      deploymentText: read('deploy.conf'),
      deploymentFile: 'deploy.conf',
      jobConfig: read('job.conf'),
    });
    expect(spec.envFrom.map((e) => e.name)).toEqual([S3_SECRET]);
    const job = read('job.conf');
    for (const [key, name] of [
      ['fs.s3a.endpoint', 'S3_ENDPOINT'],
      ['access_key', 'S3_ACCESS_KEY'],
      ['secret_key', 'S3_SECRET_KEY'],
    ])
      expect(job).toMatch(new RegExp(`^\\s*${key.replace(/\./g, '\\.')} = \\$\\{${name}\\}$`, 'm'));
  });
});
