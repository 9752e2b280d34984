// An inline job config travels in the master's environment, and Linux refuses to start a process
// with one environment string over 128 KiB (MAX_ARG_STRLEN): on a real node a 135 KiB job made the
// master container die with "argument list too long" before the runtime ran, reported as a failed
// job. Refused before anything is sent instead, naming the way out.
import { MAX_INLINE_JOB_CONFIG_BYTES } from '../../../lib/model/rules/job-config';
import { problems, spec } from '../../support/fixtures';

/** A valid streaming job of about `bytes` bytes (a FakeSource with many explicit rows). */
function jobOf(bytes: number): string {
  const row = '{ kind = INSERT, fields = [1234567] },\n';
  const rows = row.repeat(Math.ceil((bytes - 200) / row.length));
  return `env { job.mode = "STREAMING" }\nsource { FakeSource { schema { fields { id = int } }, rows = [\n${rows}] } }\nsink { Console {} }\n`;
}

test('the limit stays under what Linux allows one environment string (128 KiB, the name included)', () => {
  expect(MAX_INLINE_JOB_CONFIG_BYTES + 'SEATUNNEL_APPLICATION_JOB_CONFIG='.length + 1).toBeLessThan(128 * 1024);
});

test('an inline job config over the limit is refused, naming a mounted file as the way out', () => {
  const p = problems(() => spec({ jobConfig: jobOf(MAX_INLINE_JOB_CONFIG_BYTES + 1024) }));
  expect(p.join('\n')).toMatch(
    /may be at most 120 KiB; mount it with kubernetes\.configmap\.<entry> and set kubernetes\.job-config-file/,
  );
});

test('one under the limit is accepted', () => {
  expect(() => spec({ jobConfig: jobOf(MAX_INLINE_JOB_CONFIG_BYTES - 2048) })).not.toThrow();
});
