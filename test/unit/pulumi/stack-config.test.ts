// Stack config → application: the Pulumi program's only input (pure apart from reading files).

import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TEAM_TEMPLATES } from '../../../apps/pulumi/templates';
import { packageRoot } from '../../../lib/cli/io';
import { loadApplication } from '../../../lib/model/load';
import { resolveApplication } from '../../../lib/model/resolve';
import { dataTeam } from '../../../apps/examples/team/template';
import {
  applicationFromStackConfig,
  readStackJobConfig,
  STACK_CONFIG_KEYS,
  type StackJobConfig,
} from '../../../lib/pulumi/stack-config';
import { JOB_CONFIG, problems } from '../../support/fixtures';

const root = packageRoot();
const ctx = { baseDir: root, templates: TEAM_TEMPLATES, env: {} };
const load = (c: StackJobConfig) => applicationFromStackConfig(c, ctx);
const example = { deploymentFile: 'apps/examples/deploy.conf', jobFile: 'apps/examples/job.conf' };

describe('reading the stack config', () => {
  test('reads every key of the seatunnel namespace, objects with getObject', () => {
    const values: Record<string, unknown> = {
      deploymentFile: 'd.conf',
      overrides: { 'application.worker-count': 3 },
      template: 'platform',
    };
    const calls: string[] = [];
    const cfg = readStackJobConfig({
      get: (k) => {
        calls.push(`get ${k}`);
        return values[k] as string | undefined;
      },
      getObject: <T>(k: string) => {
        calls.push(`getObject ${k}`);
        return values[k] as T | undefined;
      },
    });
    expect(cfg).toEqual(values);
    expect(calls).toEqual(
      STACK_CONFIG_KEYS.map((k) =>
        ['deployment', 'overrides', 'application'].includes(k) ? `getObject ${k}` : `get ${k}`,
      ),
    );
  });
});

describe('the SeaTunnel way: a deployment file and a job file', () => {
  test('the bundled example resolves exactly as the CLI and cdk8s resolve it (derived, stable IDs)', () => {
    const spec = load(example);
    const direct = loadApplication(
      {
        deploymentText: readFileSync(join(root, example.deploymentFile), 'utf8'),
        jobConfig: readFileSync(join(root, example.jobFile), 'utf8'),
        env: {},
      },
      { ids: 'derived' },
    );
    expect(spec).toEqual(direct);
    expect(spec.appId).toMatch(/^fake-to-console-[0-9a-f]{12}$/);
    expect(load(example)).toEqual(spec);
  });

  test('absolute paths work too; -D overrides apply as on the command line', () => {
    const spec = load({
      deploymentFile: join(root, example.deploymentFile),
      jobFile: join(root, example.jobFile),
      overrides: { 'application.worker-count': 5, 'kubernetes.namespace': 'etl' },
    });
    expect(spec.worker.count).toBe(5);
    expect(spec.namespace).toBe('etl');
  });

  test("structured config with the deployment file's keys is the same as the file", () => {
    const dir = mkdtempSync(join(tmpdir(), 'stack-config-'));
    writeFileSync(
      join(dir, 'deploy.conf'),
      'application { name = orders, worker-count = 3 }\nkubernetes { namespace = etl, image = "apache/seatunnel:2.3.12", labels = "team:data" }\n',
    );
    writeFileSync(join(dir, 'job.conf'), JOB_CONFIG);
    const fromFile = applicationFromStackConfig(
      { deploymentFile: 'deploy.conf', jobFile: 'job.conf' },
      { baseDir: dir, env: {} },
    );
    const structured = applicationFromStackConfig(
      {
        deployment: {
          application: { name: 'orders', 'worker-count': 3 },
          kubernetes: { namespace: 'etl', image: 'apache/seatunnel:2.3.12', labels: 'team:data' },
        },
        jobConfig: JOB_CONFIG,
      },
      { baseDir: dir, env: {} },
    );
    expect(structured).toEqual(fromFile);
    expect(structured.labels).toMatchObject({ team: 'data' });
  });

  test("problems are reported with the deployment file's keys", () => {
    expect(
      problems(() =>
        load({
          deployment: { application: { 'worker-count': 0 }, kubernetes: { image: 'a/b:1', namspace: 'x' } },
          jobConfig: JOB_CONFIG,
        }),
      ),
    ).toEqual([
      expect.stringMatching(/^kubernetes\.namspace: unknown option; did you mean kubernetes\.namespace\?/),
      expect.stringMatching(/^application\.worker-count: must be between 1 and/),
    ]);
  });
});

describe('the TypeScript way: typed props', () => {
  test('typed props with a job file', () => {
    const spec = load({
      application: { name: 'orders', image: 'apache/seatunnel:2.3.12', workerCount: 2 },
      jobFile: 'apps/examples/team/orders.conf',
    });
    expect(spec).toEqual(
      resolveApplication(
        {
          name: 'orders',
          image: 'apache/seatunnel:2.3.12',
          workerCount: 2,
          jobConfig: readFileSync(join(root, 'apps/examples/team/orders.conf'), 'utf8'),
        },
        { ids: 'derived' },
      ),
    );
  });

  test('a team template by name: its defaults under the props, its locks enforced', () => {
    const spec = load({
      template: 'dataTeam',
      application: { name: 'orders', workerCount: 3 },
      jobFile: 'apps/examples/team/orders.conf',
    });
    expect(spec.namespace).toBe('data-jobs');
    expect(spec.labels).toMatchObject({ 'cost-center': 'cc-42', team: 'data' });
    expect(spec.worker.cpuMillicores).toBe(2000);
    expect(spec).toEqual(
      resolveApplication(
        dataTeam.application({
          name: 'orders',
          workerCount: 3,
          jobConfig: spec.jobConfig.kind === 'inline' ? spec.jobConfig.text : '',
        }),
        {
          ids: 'derived',
        },
      ),
    );
    expect(
      problems(() =>
        load({ template: 'platform', application: { name: 'x', namespace: 'elsewhere' }, jobConfig: JOB_CONFIG }),
      ),
    ).toEqual([expect.stringMatching(/^namespace: is locked by the platform template/)]);
  });

  test("a template's locks hold for deployment files too; its defaults sit under the file", () => {
    expect(problems(() => load({ ...example, template: 'platform' }))).toEqual([
      expect.stringMatching(/^namespace: is locked by the platform template/),
    ]);
    const spec = load({ deployment: { application: { name: 'x' } }, jobConfig: JOB_CONFIG, template: 'platform' });
    expect(spec.namespace).toBe('data-jobs');
    expect(spec.image).toBe('registry.example.com/platform/seatunnel:2.3.12');
  });
});

describe('invalid stack config: every problem at once, named by its config key', () => {
  test('nothing configured', () => {
    expect(problems(() => load({}))).toEqual([
      expect.stringMatching(/^seatunnel: no application configured: set seatunnel:deploymentFile/),
    ]);
  });

  test('conflicting, unknown and missing things', () => {
    const p = problems(() =>
      load({
        deploymentFile: 'nope.conf',
        deployment: { application: { name: 'x' } },
        application: { name: 'x', image: 'a/b:1' },
        jobFile: 'apps/examples/job.conf',
        jobConfig: JOB_CONFIG,
        template: 'nobody',
        ...({ namespace: 'x' } as object),
      }),
    );
    expect(p).toEqual([
      expect.stringMatching(/^seatunnel:namespace: unknown key; expected one of seatunnel:deploymentFile/),
      expect.stringMatching(/^seatunnel:deployment: give the deployment either as a file/),
      expect.stringMatching(/^seatunnel:application: typed props and a deployment/),
      expect.stringMatching(/^seatunnel:jobConfig: give the job either as a file/),
      'seatunnel:template: unknown team template; known: platform, dataTeam',
      expect.stringMatching(/^seatunnel:deploymentFile: file not found \(looked at .*nope\.conf\)/),
    ]);
  });

  test('overrides without a deployment; a non-object where an object belongs; a directory as a file', () => {
    expect(
      problems(() =>
        load({
          application: { name: 'x', image: 'a/b:1' },
          overrides: { 'application.worker-count': 2 },
          jobConfig: JOB_CONFIG,
        }),
      ),
    ).toEqual([expect.stringMatching(/^seatunnel:overrides: overrides apply to a deployment/)]);
    expect(problems(() => load({ application: 'name=x' as unknown as object, jobConfig: JOB_CONFIG }))).toEqual([
      expect.stringMatching(/^seatunnel:application: must be an object/),
    ]);
    expect(problems(() => load({ deploymentFile: 'apps/examples', jobFile: 'apps/examples/job.conf' }))).toEqual([
      'seatunnel:deploymentFile: is a directory, expected a file',
    ]);
  });

  test("the model's own problems come through unchanged", () => {
    expect(
      problems(() => load({ application: { name: 'x', image: 'a/b:1', workerCount: 0 }, jobConfig: JOB_CONFIG })),
    ).toEqual([expect.stringMatching(/^workerCount: must be between 1 and/)]);
  });
});
