import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseHocon } from 'seatunnel-app/internal/hocon/index';
import { runtimeSettings } from 'seatunnel-app/internal/plan/runtime-settings';
import { runtimeSettingsProblems } from 'seatunnel-app/runtime-support';
import { plan } from '../../../test/support/fixtures';
import { failure } from './failure';
import {
  engineRestoreBudget,
  loadSettings,
  quotedPlaceholders,
  resolveJobConfig,
  restJobBody,
  withoutEngineRetries,
} from '../../src/settings';

const p = plan({ applicationId: 'app-1', namespace: 'jobs', jobId: '9223372036854775807' });
const json = JSON.stringify(runtimeSettings(p.spec));
const io = (files: Record<string, string>) => ({
  readFile: (f: string) => {
    if (f in files) return files[f];
    throw Object.assign(new Error(`ENOENT: no such file, open '${f}'`), { code: 'ENOENT' });
  },
});
const env = {
  SEATUNNEL_POD_NAME: 'app-1-xyz',
  SEATUNNEL_POD_NAMESPACE: 'jobs',
  SEATUNNEL_POD_UID: 'u-1',
  SEATUNNEL_POD_IP: '10.244.0.5',
  SEATUNNEL_APPLICATION_MASTER_HOST: '10.244.0.5',
  SEATUNNEL_APPLICATION_ID: 'app-1',
  SEATUNNEL_APP_ENGINE_CONFIG: '/etc/seatunnel-app/engine',
};

test('reads the downward-API identity and the runtime.json the plan generates', () => {
  const s = loadSettings(env, io({ '/etc/seatunnel-app/engine/runtime.json': json }));
  expect(s.pod).toEqual({
    name: 'app-1-xyz',
    namespace: 'jobs',
    uid: 'u-1',
    ip: '10.244.0.5',
    masterHost: '10.244.0.5',
  });
  expect(s.app.jobId).toBe('9223372036854775807');
  expect(s.workDir).toBe('/var/run/seatunnel-app');
  expect(s.engineWorkDir).toBe('/var/run/seatunnel-app/engine');
  // REST v2 on the rest port first, then Zeta 2.3.8's Hazelcast REST on the master port
  expect(s.engineRest).toEqual({
    host: '127.0.0.1',
    candidates: [
      { port: 8080, path: '' },
      { port: 5801, path: '/hazelcast/rest/maps' },
    ],
  });
  expect(s.app.master.command).toContain(`-Dhazelcast.config=/var/run/seatunnel-app/engine/hazelcast-master.yaml`);
  expect(s.keepWorkerLogs).toBe(true);
});

test("SEATUNNEL_APP_KEEP_WORKER_LOGS=off: the workers' last lines are not read (the cluster tier's fake nodes)", () => {
  const files = io({ '/etc/seatunnel-app/engine/runtime.json': json });
  expect(loadSettings({ ...env, SEATUNNEL_APP_KEEP_WORKER_LOGS: 'off' }, files).keepWorkerLogs).toBe(false);
});

test('an explicit restPath in runtime.json selects exactly that endpoint', () => {
  const withPath = JSON.stringify({
    ...JSON.parse(json),
    master: { ...JSON.parse(json).master, restPort: 5801, restPath: '/hazelcast/rest/maps' },
  });
  const s = loadSettings(env, io({ '/etc/seatunnel-app/engine/runtime.json': withPath }));
  expect(s.engineRest.candidates).toEqual([{ port: 5801, path: '/hazelcast/rest/maps' }]);
});

test('test seams: work dir and engine REST host', () => {
  const s = loadSettings(
    { ...env, SEATUNNEL_APP_WORK_DIR: '/tmp/w', SEATUNNEL_APP_ENGINE_REST_HOST: '::1' },
    io({ '/etc/seatunnel-app/engine/runtime.json': json }),
  );
  expect(s.engineWorkDir).toBe('/tmp/w/engine');
  expect(s.engineRest.host).toBe('::1');
});

test('every missing variable is reported at once (configuration failure)', () => {
  const f = failure(() => loadSettings({}, io({})));
  expect(f.reason).toBe('InvalidSettings');
  for (const v of [
    'SEATUNNEL_POD_NAME',
    'SEATUNNEL_POD_NAMESPACE',
    'SEATUNNEL_POD_UID',
    'SEATUNNEL_POD_IP',
    'SEATUNNEL_APPLICATION_MASTER_HOST',
    'SEATUNNEL_APPLICATION_ID',
    'SEATUNNEL_APP_ENGINE_CONFIG',
  ]) {
    expect(f.message).toContain(v);
  }
});

test('an unreadable runtime.json, or one for another application or namespace, is refused', () => {
  expect(failure(() => loadSettings(env, io({}))).message).toMatch(
    /cannot read \/etc\/seatunnel-app\/engine\/runtime.json: ENOENT/,
  );
  expect(
    failure(() =>
      loadSettings(
        { ...env, SEATUNNEL_APPLICATION_ID: 'other' },
        io({ '/etc/seatunnel-app/engine/runtime.json': json }),
      ),
    ).message,
  ).toMatch(/appId "app-1" differs/);
  expect(
    failure(() =>
      loadSettings({ ...env, SEATUNNEL_POD_NAMESPACE: 'x' }, io({ '/etc/seatunnel-app/engine/runtime.json': json })),
    ).message,
  ).toMatch(/namespace "jobs" differs/);
});

test('runtime.json fields are checked one by one', () => {
  const good = JSON.parse(json);
  expect(runtimeSettingsProblems(good)).toEqual([]);
  const bad = {
    ...good,
    version: 1,
    jobId: '9223372036854775808',
    workerCount: 0,
    master: { ...good.master, command: [], restPath: 'x y' },
    jobConfig: { kind: 'file', path: 'rel' },
    dependents: [{}],
  };
  const problems = runtimeSettingsProblems(bad);
  expect(problems).toHaveLength(7);
  expect(problems.join('\n')).toMatch(/version.*got 1/);
  expect(problems.join('\n')).toMatch(/jobId: expected a positive 63-bit integer/);
  expect(runtimeSettingsProblems('x')).toEqual(['runtime.json: expected a JSON object']);
});

describe('job config', () => {
  // The inline form of runtime.json (the plan now writes the file form: a Secret; the runtime reads both).
  const app = {
    ...runtimeSettings(p.spec),
    jobConfig: { kind: 'inline' as const, env: 'SEATUNNEL_APPLICATION_JOB_CONFIG' },
  };
  test('inline: ${VAR} from the environment, output as exact JSON in source order', () => {
    const r = resolveJobConfig(
      app,
      {
        SEATUNNEL_APPLICATION_JOB_CONFIG:
          'env { id = 9223372036854775807, b = 1.50 }\nsink { X { pw = ${DB_PW}, opt = ${?NOPE} } }',
        DB_PW: 's3cr=t',
      },
      io({}),
    );
    expect(r.json).toBe(
      '{"env":{"id":9223372036854775807,"b":1.5,"job.retry.times":0},"sink":[{"plugin_name":"X","pw":"s3cr=t"}]}',
    );
    expect(r.envUsed).toEqual(['DB_PW']);
  });

  test('with HA replacing lost workers, Zeta may restore the pipelines four times a replacement and four more; with `fail` or no replacement allowed, never', () => {
    type Ha = NonNullable<typeof app.ha>;
    const ha = (policy: 'replace' | 'fail', replacements: number) => ({
      ...app,
      ha: { ...(app.ha ?? {}), workerFailurePolicy: policy, workerReplacements: replacements } as Ha,
    });
    const times = (a: typeof app) =>
      JSON.parse(resolveJobConfig(a, { SEATUNNEL_APPLICATION_JOB_CONFIG: 'env { job.mode = STREAMING }' }, io({})).json)
        .env['job.retry.times'];
    expect(times(ha('replace', 3))).toBe(16);
    expect(times(ha('replace', 0))).toBe(0);
    expect(times(ha('fail', 3))).toBe(0);
    expect(engineRestoreBudget(ha('replace', 5))).toBe(24);
  });

  test('a quoted "${NAME}" whose NAME is set is reported by path (HOCON keeps it as text); SeaTunnel\'s own placeholders and unset names are not', () => {
    const env = {
      SEATUNNEL_APPLICATION_JOB_CONFIG: [
        'source { Jdbc { url = "${PG_URL}", user = ${PG_USER}, query = "select ${NOT_SET}" } }',
        'sink = [ { Jdbc { table = "${table_name}", password = "p-${PG_PASSWORD}" } } ]',
      ].join('\n'),
      PG_URL: 'jdbc:postgresql://db/x',
      PG_USER: 'u',
      PG_PASSWORD: 'secret',
      table_name: 'collides with a SeaTunnel placeholder',
    };
    const r = resolveJobConfig(app, env, io({}));
    expect(r.quotedPlaceholders).toEqual([
      '${PG_URL} (at source.Jdbc.url)',
      '${PG_PASSWORD} (at sink[0].Jdbc.password)',
    ]);
    // Names and paths only: no value of the environment.
    expect(r.quotedPlaceholders.join()).not.toMatch(/secret|jdbc:postgresql/);
    expect(JSON.parse(r.json).source[0]).toMatchObject({ plugin_name: 'Jdbc', user: 'u', url: '${PG_URL}' });
    expect(quotedPlaceholders({ a: 'plain', b: ['${X}'] }, {})).toEqual([]);
  });

  test('every required placeholder without a value is named', () => {
    const f = failure(() =>
      resolveJobConfig(app, { SEATUNNEL_APPLICATION_JOB_CONFIG: 'a = ${X}\nb = "u-"${Y}' }, io({})),
    );
    expect(f.reason).toBe('InvalidJobConfig');
    expect(f.message).toMatch(
      /\$\{X\} \(\$SEATUNNEL_APPLICATION_JOB_CONFIG:1:5\), \$\{Y\} .*set X, Y in the master's environment/,
    );
  });

  test('empty inline config and invalid HOCON are configuration failures', () => {
    expect(failure(() => resolveJobConfig(app, {}, io({}))).message).toMatch(
      /SEATUNNEL_APPLICATION_JOB_CONFIG is not set/,
    );
    expect(failure(() => resolveJobConfig(app, { SEATUNNEL_APPLICATION_JOB_CONFIG: 'a = {' }, io({}))).message).toMatch(
      /not valid HOCON/,
    );
  });

  test('file: read from the mounted path, includes relative to it', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'st-job-'));
    fs.writeFileSync(path.join(dir, 'common.conf'), 'env { parallelism = 2 }\n');
    fs.writeFileSync(path.join(dir, 'job.conf'), 'include "common.conf"\nenv { job.mode = BATCH }\n');
    const fileApp = { ...app, jobConfig: { kind: 'file' as const, path: path.join(dir, 'job.conf') } };
    expect(resolveJobConfig(fileApp, {}, { readFile: (f) => fs.readFileSync(f, 'utf8') }).json).toBe(
      '{"env":{"parallelism":2,"job.mode":"BATCH","job.retry.times":0}}',
    );
    expect(
      failure(() => resolveJobConfig({ ...fileApp, jobConfig: { kind: 'file', path: '/nope/job.conf' } }, {}, io({})))
        .message,
    ).toMatch(/cannot read the job config file \/nope\/job.conf/);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});

describe('engine retries are off unless the job sets them', () => {
  const json = (text: string) => JSON.parse(withoutEngineRetries(parseHocon(text), {}).resolveWithReport({}).toJson());

  test('added when absent', () => {
    expect(json('env { job.mode = BATCH }\nsource {}\nsink {}').env.job).toEqual({
      mode: 'BATCH',
      retry: { times: 0 },
    });
  });

  test('kept when the job sets it, in either form', () => {
    expect(json('env { job.retry.times = 2 }').env.job.retry.times).toBe(2);
    expect(json('env { "job.retry.times" = 2 }').env['job.retry.times']).toBe(2);
  });
});

describe('the REST body: plugin blocks become plugin lists', () => {
  test('blocks → lists with plugin_name first; lists kept', () => {
    expect(
      restJobBody({
        env: {},
        source: { FakeSource: { a: 1 } },
        transform: [{ plugin_name: 'Sql', q: 'x' }],
        sink: { Console: {}, Assert: { r: 2 } },
      }),
    ).toEqual({
      env: {},
      source: [{ plugin_name: 'FakeSource', a: 1 }],
      transform: [{ plugin_name: 'Sql', q: 'x' }],
      sink: [{ plugin_name: 'Console' }, { plugin_name: 'Assert', r: 2 }],
    });
  });

  test('a plugin that is not a block is a configuration failure', () => {
    expect(() => restJobBody({ source: { FakeSource: 3 } })).toThrow(/source\.FakeSource must be a block of options/);
  });
});
