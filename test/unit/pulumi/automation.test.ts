// The Automation API helper's pure parts: validation of all jobs before any stack runs, the
// environment that keeps the CLI local (file backend, no downloads), and the stack config it writes.

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TEAM_TEMPLATES } from '../../../apps/pulumi/templates';
import { packageRoot } from '../../../lib/cli/io';
import { automationEnv, prepareJobs, stackConfigValues, upJobs } from '../../../lib/pulumi/automation';
import { JOB_CONFIG, props } from '../../support/fixtures';

const root = packageRoot();
const example = { deploymentFile: 'apps/examples/deploy.conf', jobFile: 'apps/examples/job.conf' };

describe('prepareJobs: every job resolved before any stack runs', () => {
  test('one stack per job, named after the application ID unless named', () => {
    const jobs = prepareJobs(
      [
        { config: example },
        { application: props({ name: 'orders' }) },
        {
          stack: 'clicks-prod',
          config: { template: 'dataTeam', application: { name: 'clicks' }, jobConfig: JOB_CONFIG },
        },
      ],
      { projectDir: root, templates: TEAM_TEMPLATES },
    );
    expect(jobs.map((j) => j.stack)).toEqual([jobs[0].spec.appId, jobs[1].spec.appId, 'clicks-prod']);
    expect(jobs[0].stack).toMatch(/^fake-to-console-[0-9a-f]{12}$/);
    expect(jobs[2].spec.namespace).toBe('data-jobs');
  });

  test('every problem of every job in one error; duplicates rejected', () => {
    let message = '';
    try {
      prepareJobs(
        [
          { application: props({ workerCount: 0 }) },
          { config: { template: 'nobody', application: { name: 'x' } } },
          { application: props({ name: 'same' }) },
          { application: props({ name: 'same' }) },
          { stack: 'a', application: props({ name: 'one' }) },
          { stack: 'a', application: props({ name: 'two' }) },
        ],
        { projectDir: root, templates: TEAM_TEMPLATES },
      );
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).toMatch(/job 1: [\s\S]*workerCount: got 0/);
    expect(message).toMatch(/job 2: [\s\S]*seatunnel:template: got "nobody"; unknown team template/);
    expect(message).toMatch(/stack same-[0-9a-f]{12} is named twice/);
    expect(message).toMatch(/application default\/same-[0-9a-f]{12} is deployed by two stacks/);
    expect(message).toMatch(/stack a is named twice/);
  });
});

describe('the CLI environment', () => {
  test('local file backend, passphrase, no plugin downloads, no update checks', () => {
    const env = automationEnv({
      backendDir: '/var/state',
      passphrase: 'pw',
      pulumiHome: '/var/home',
      kubeconfig: '/etc/kube.yaml',
    });
    expect(env).toEqual({
      PULUMI_BACKEND_URL: 'file:///var/state',
      PULUMI_CONFIG_PASSPHRASE: 'pw',
      PULUMI_SKIP_UPDATE_CHECK: 'true',
      PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: 'true',
      PULUMI_NODEJS_TRANSPILE_ONLY: 'true',
      PULUMI_HOME: '/var/home',
      KUBECONFIG: '/etc/kube.yaml',
    });
  });

  test('a passphrase is required (option or PULUMI_CONFIG_PASSPHRASE); an empty one is allowed', () => {
    const saved = process.env.PULUMI_CONFIG_PASSPHRASE;
    delete process.env.PULUMI_CONFIG_PASSPHRASE;
    try {
      expect(() => automationEnv({ backendDir: '/s' })).toThrow(/passphrase .* is required/);
      expect(automationEnv({ backendDir: '/s', passphrase: '' }).PULUMI_CONFIG_PASSPHRASE).toBe('');
      process.env.PULUMI_CONFIG_PASSPHRASE = 'from-env';
      expect(automationEnv({ backendDir: '/s' }).PULUMI_CONFIG_PASSPHRASE).toBe('from-env');
    } finally {
      if (saved === undefined) delete process.env.PULUMI_CONFIG_PASSPHRASE;
      else process.env.PULUMI_CONFIG_PASSPHRASE = saved;
    }
  });

  test('no CLI at pulumiRoot: a clear error, nothing downloaded', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'no-cli-'));
    await expect(
      upJobs([{ application: props() }], { backendDir: join(dir, 'state'), passphrase: '', pulumiRoot: dir }),
    ).rejects.toThrow(
      new RegExp(`no usable Pulumi CLI at ${dir}/bin/pulumi \\(build one with tools/pulumi/build.sh\\)`),
    );
  });
});

describe('stack config written for `config` jobs', () => {
  test('objects as JSON; Secret data and job texts stored as secrets', () => {
    expect(stackConfigValues({ ...example, overrides: { 'application.worker-count': 3 } })).toEqual({
      'seatunnel:deploymentFile': { value: 'apps/examples/deploy.conf', secret: false },
      'seatunnel:jobFile': { value: 'apps/examples/job.conf', secret: false },
      'seatunnel:overrides': { value: '{"application.worker-count":3}', secret: false },
    });
    const withSecrets = stackConfigValues({
      application: { name: 'x', secrets: { db: { data: { password: 'p' } } } },
      jobConfig: JOB_CONFIG,
      template: 'platform',
    });
    expect(withSecrets['seatunnel:application']).toEqual({
      value: JSON.stringify({ name: 'x', secrets: { db: { data: { password: 'p' } } } }),
      secret: true,
    });
    expect(withSecrets['seatunnel:jobConfig'].secret).toBe(true);
    expect(withSecrets['seatunnel:template']).toEqual({ value: 'platform', secret: false });
    expect(
      stackConfigValues({ deployment: { 'kubernetes.secret.db.data.password': 'p' } })['seatunnel:deployment'].secret,
    ).toBe(true);
    expect(
      stackConfigValues({ deployment: { kubernetes: { secret: { db: { data: { password: 'p' } } } } } })[
        'seatunnel:deployment'
      ].secret,
    ).toBe(true);
    expect(stackConfigValues({ deployment: { kubernetes: { image: 'a/b:1' } } })['seatunnel:deployment'].secret).toBe(
      false,
    );
  });
});
