// Hostile and careless input reaching the runtime (issue 11): job config errors carry no secret
// into the Job's annotations and Events (item 7); a job config that is too deep, too expansive or
// includes a device is InvalidJobConfig, not an internal error (item 15); a worker that ends
// Succeeded fails the application at once (item 13).
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { readTextFile } from 'seatunnel-app/internal/hocon/file-include';
import { ANNOTATIONS } from 'seatunnel-app/internal/contract';
import { runtimeSettings } from 'seatunnel-app/internal/plan/runtime-settings';
import { plan } from '../../../test/support/fixtures';
import { failure } from './failure';
import { resolveJobConfig } from '../../src/settings';
import { running } from './fakes';
import { setup } from './lifecycle-setup';

const SECRET = 'hunter2-S3cr3t-value';
const TOKEN = 'ghp_T0kenFromAMountedSecret';
// The inline form of runtime.json (the plan now writes the file form: a Secret; the runtime reads both).
const app = {
  ...runtimeSettings(plan({ applicationId: 'app-1', namespace: 'jobs' }).spec),
  jobConfig: { kind: 'inline' as const, env: 'SEATUNNEL_APPLICATION_JOB_CONFIG' },
};
const inline =
  (text: string, env: Record<string, string> = {}) =>
  () =>
    resolveJobConfig(app, { SEATUNNEL_APPLICATION_JOB_CONFIG: text, ...env }, { readFile: readTextFile });

describe('job config errors never carry a secret', () => {
  test.each([
    [
      'a type clash with a value from the environment',
      'source { X {} }\nsink { Jdbc { password = [1] ${DB_PASSWORD} } }',
    ],
    ['a section that is a value from the environment', 'source { X {} }\nsink = ${DB_PASSWORD}'],
    [
      'an object concatenated with a value from the environment',
      'source { X {} }\nsink = ${DB_PASSWORD} { Console {} }',
    ],
  ])('%s', (_name, text) => {
    const f = failure(inline(text, { DB_PASSWORD: SECRET }));
    expect(f.reason).toBe('InvalidJobConfig');
    expect(f.message).not.toContain(SECRET);
    expect(f.message).not.toContain(SECRET.slice(0, 10));
    expect(f.message).toMatch(
      /\$SEATUNNEL_APPLICATION_JOB_CONFIG:2:\d+|sink must be a block of plugins or a list, not a string/,
    );
  });

  test('an included token file', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'st-secret-'));
    fs.writeFileSync(path.join(dir, 'token'), `${TOKEN}\n`);
    fs.writeFileSync(path.join(dir, 'job.conf'), 'source { X {} }\nsink { Jdbc { include "token" } }\n');
    const f = failure(() =>
      resolveJobConfig(
        { ...app, jobConfig: { kind: 'file', path: path.join(dir, 'job.conf') } },
        {},
        { readFile: readTextFile },
      ),
    );
    expect(f.reason).toBe('InvalidJobConfig');
    expect(f.message).not.toContain(TOKEN);
    expect(f.message).toContain(`${path.join(dir, 'token')}:1:`);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('lifecycle: the annotation and the Warning Event say where, not what', async () => {
    const s = setup();
    s.env.SEATUNNEL_APPLICATION_JOB_CONFIG =
      'source { FakeSource {} }\nsink { Jdbc { url = "jdbc:x", password = [1] ${DB_PASSWORD} } }';
    s.env.DB_PASSWORD = SECRET;
    const out = await s.run();
    expect(out).toMatchObject({ reason: 'InvalidJobConfig', exitCode: 4 });
    const published = [
      out.message,
      ...Object.values(s.kube.annotations),
      ...s.kube.events.map((e) => e.message ?? ''),
    ].join('\n');
    expect(published).not.toContain(SECRET);
    expect(s.kube.annotations[ANNOTATIONS.message]).toMatch(
      /job\.conf:2:\d+: cannot concatenate an array with a string \(from \$\{DB_PASSWORD\}\)/,
    );
  });
});

test('a quoted "${DB_PASSWORD}" in the job config: a Warning Event names where, never the value, and the job still runs', async () => {
  const s = setup();
  s.env.SEATUNNEL_APPLICATION_JOB_CONFIG =
    'env { job.mode = BATCH }\nsource { FakeSource {} }\nsink { Jdbc { url = "jdbc:x", password = "${DB_PASSWORD}" } }';
  s.env.DB_PASSWORD = SECRET;
  const out = await s.run();
  const warning = s.kube.events.find((e) => e.reason === 'QuotedPlaceholder');
  expect(warning?.type).toBe('Warning');
  expect(warning?.message).toContain('${DB_PASSWORD} (at sink.Jdbc.password)');
  expect(warning?.message).toContain('write them unquoted');
  const published = [out.message, ...Object.values(s.kube.annotations), ...s.kube.events.map((e) => e.message ?? '')];
  expect(published.join('\n')).not.toContain(SECRET);
  expect(out.reason).not.toBe('InvalidJobConfig');
});

describe('a job config that would exhaust the runtime is a configuration failure', () => {
  test.each([
    [
      'nesting 2000 levels',
      `source { X {} }\nsink { a = ${'{ b = '.repeat(2000)}1${' }'.repeat(2000)} }`,
      /:2:\d+: nested deeper than 100 levels/,
    ],
    [
      'a chain of 3000 substitutions',
      `source { X {} }\nsink { X { v = \${a0} } }\n${Array.from({ length: 3000 }, (_, i) => `a${i} = \${a${i + 1}}`).join('\n')}\na3000 = 1`,
      /resolving goes deeper than/,
    ],
    [
      'an array doubled 27 times',
      `source { X {} }\nsink { X { v = \${a27} } }\na0 = [1,2,3,4,5,6,7,8,9,10]\n${Array.from({ length: 27 }, (_, i) => `a${i + 1} = \${a${i}} \${a${i}}`).join('\n')}`,
      /steps|larger than/,
    ],
  ])('%s', (_name, text, message) => {
    const f = failure(inline(text));
    expect(f.reason).toBe('InvalidJobConfig');
    expect(f.message).toMatch(message);
  });

  test('a job config file that includes /dev/zero', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'st-zero-'));
    fs.writeFileSync(path.join(dir, 'job.conf'), 'source { X {} }\nsink { include "/dev/zero" }\n');
    const f = failure(() =>
      resolveJobConfig(
        { ...app, jobConfig: { kind: 'file', path: path.join(dir, 'job.conf') } },
        {},
        { readFile: readTextFile },
      ),
    );
    expect(f.reason).toBe('InvalidJobConfig');
    expect(f.message).toContain(
      `${path.join(dir, 'job.conf')}:2:8: cannot include "/dev/zero": /dev/zero: is a device, expected a regular file`,
    );
    fs.rmSync(dir, { recursive: true });
  });

  test('a job config path that is a directory', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'st-dir-'));
    const f = failure(() =>
      resolveJobConfig({ ...app, jobConfig: { kind: 'file', path: dir } }, {}, { readFile: readTextFile }),
    );
    expect(f.reason).toBe('InvalidJobConfig');
    expect(f.message).toBe(`cannot read the job config file ${dir}: ${dir}: is a directory, expected a regular file`);
    fs.rmSync(dir, { recursive: true });
  });
});

test('a worker that ends Succeeded during startup fails the application at once, not after the startup timeout', async () => {
  const s = setup({ startupTimeoutMillis: 600_000 });
  s.kube.onCreate = (pod) =>
    s.kube.update(pod.metadata!.name!, (p) => {
      if (p.metadata!.name!.endsWith('-2')) {
        p.status = {
          phase: 'Succeeded',
          containerStatuses: [
            {
              name: 'seatunnel',
              image: 'x',
              imageID: '',
              ready: false,
              restartCount: 0,
              state: { terminated: { exitCode: 0, reason: 'Completed' } },
            },
          ],
        };
      } else running(p);
    });
  const out = await s.run();
  expect(out).toMatchObject({ state: 'FAILED', reason: 'WorkerLost', exitCode: 3 });
  expect(out.message).toBe(
    'worker app-1-worker-2 ended (phase Succeeded) while the application still needs it: container seatunnel terminated with exit code 0 (Completed)',
  );
  expect(s.clock.now()).toBeLessThan(600_000);
  expect(s.engine.submits).toEqual([]);
});
