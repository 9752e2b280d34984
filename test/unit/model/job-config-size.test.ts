// An inline job config travels in a Secret of the application, which `kubectl apply` copies whole
// into its last-applied-configuration annotation — and a Kubernetes object's annotations may total at
// most 256 KiB. (It once travelled in the master's environment, where Linux refuses one string over
// 128 KiB: a 135 KiB job made the master die with "argument list too long" on a real node.) A job
// over the limit is refused before anything is sent instead, naming the way out.
import { MAX_INLINE_JOB_CONFIG_BYTES } from '../../../lib/model/rules/job-config';
import { plan, problems, spec } from '../../support/fixtures';

/** A valid streaming job of about `bytes` bytes (a FakeSource with many explicit rows). */
function jobOf(bytes: number): string {
  const row = '{ kind = INSERT, fields = [1234567] },\n';
  const rows = row.repeat(Math.ceil((bytes - 200) / row.length));
  return `env { job.mode = "STREAMING" }\nsource { FakeSource { schema { fields { id = int } }, rows = [\n${rows}] } }\nsink { Console {} }\n`;
}

test('the job config Secret at the limit still fits the annotation kubectl apply writes (256 KiB)', () => {
  const p = plan({ jobConfig: jobOf(MAX_INLINE_JOB_CONFIG_BYTES - 64) });
  const secret = p.secrets.find((s) => s.metadata?.name?.endsWith('job-config'));
  expect(secret).toBeDefined();
  expect(Buffer.byteLength(JSON.stringify(secret))).toBeLessThan(256 * 1024 - 4096);
});

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
