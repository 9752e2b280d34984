import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigurationError } from '../../../lib/model/issues';
import { loadApplication } from '../../../lib/model/load';
import { parseOverride, readDeploymentOptions, suggestOption } from '../../../lib/model/deployment';
import { JOB_CONFIG, problems } from '../../support/fixtures';

const load = (text: string, extra: Parameters<typeof loadApplication>[0] = {}) =>
  loadApplication({ deploymentText: text, deploymentFile: 'deploy.conf', jobConfig: JOB_CONFIG, ...extra });

describe('deployment file (HOCON)', () => {
  test('nested blocks and dotted keys are equivalent, and can be mixed', () => {
    const nested = load(`kubernetes { image = "apache/seatunnel:2.3.12", namespace = jobs }
application { worker { slots = 4 }, worker-count = 3 }`);
    const dotted = load(`kubernetes.image = "apache/seatunnel:2.3.12"
kubernetes.namespace = jobs
application.worker.slots = 4
application.worker-count = 3`);
    const mixed = load(`kubernetes { image = "apache/seatunnel:2.3.12" }
kubernetes.namespace = jobs
application.worker { slots = 4 }
application { worker-count = 3 }`);
    for (const s of [nested, dotted, mixed]) {
      expect([s.namespace, s.worker.slots, s.worker.count, s.image]).toEqual(['jobs', 4, 3, 'apache/seatunnel:2.3.12']);
    }
    expect(dotted.appId).toBe(nested.appId);
  });

  test('${…} substitutions, helper keys and environment fallback', () => {
    const s = load(
      `team = data
kubernetes { image = "apache/seatunnel:"\${version}, namespace = \${team}"-jobs", labels = "team:"\${team} }
version = "2.3.12"
kubernetes.service-account = \${?SA_FROM_ENV}`,
      { env: { SA_FROM_ENV: 'runner' } },
    );
    expect(s.image).toBe('apache/seatunnel:2.3.12');
    expect(s.namespace).toBe('data-jobs');
    expect(s.labels).toEqual({ team: 'data' });
    expect(s.serviceAccount).toBe('runner');
  });

  test('the bundled example synthesizes (the way SeaTunnel documents deployment files)', () => {
    const dir = join(__dirname, '..', '..', '..', 'apps', 'examples');
    const s = loadApplication({
      deploymentText: readFileSync(join(dir, 'deploy.conf'), 'utf8'),
      deploymentFile: 'deploy.conf',
      jobConfig: readFileSync(join(dir, 'job.conf'), 'utf8'),
    });
    expect(s.name).toBe('fake-to-console');
    expect(s.worker.count).toBe(2);
    expect(s.labels).toEqual({ 'cost-center': 'cc-42', team: 'data-platform' });
    expect(s.worker.tolerations).toEqual([
      { key: 'dedicated', operator: 'Equal', value: 'seatunnel', effect: 'NoSchedule' },
    ]);
    expect(s.env).toEqual([
      { name: 'ROWS', value: '32' },
      { name: 'GREETING', configmap: 'fake-to-console-settings', key: 'greeting', optional: false },
    ]);
  });

  test('SeaTunnel k:v strings and HOCON objects both give maps', () => {
    const s = load(`kubernetes { image = "a/b:1"
  master.labels = "team: data , tier:batch"
  worker.labels { team = data, "app.example.com/owner" = ops }
  master.node-selector = "pool:batch" }`);
    expect(s.master.labels).toEqual({ team: 'data', tier: 'batch' });
    expect(s.worker.labels).toEqual({ team: 'data', 'app.example.com/owner': 'ops' });
    expect(s.master.nodeSelector).toEqual({ pool: 'batch' });
  });

  test('image pull secrets: comma string or array; tolerations: string or objects', () => {
    const s = load(`kubernetes { image = "a/b:1", image-pull-secrets = " one , two "
  worker.tolerations = "dedicated=seatunnel:NoSchedule,gpu:NoExecute,anything"
  master.tolerations = [ { key = spot, operator = Exists, effect = NoExecute, toleration-seconds = 30 } ] }`);
    expect(s.imagePullSecrets).toEqual(['one', 'two']);
    expect(s.worker.tolerations).toEqual([
      { key: 'dedicated', operator: 'Equal', value: 'seatunnel', effect: 'NoSchedule' },
      { key: 'gpu', operator: 'Exists', effect: 'NoExecute' },
      { key: 'anything', operator: 'Exists' },
    ]);
    expect(s.master.tolerations).toEqual([
      { key: 'spot', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 30 },
    ]);
  });

  test('63-bit job ids are exact, quoted or not', () => {
    expect(load('kubernetes.image = "a/b:1"\napplication.job-id = 917381145928572929').jobId).toBe(
      '917381145928572929',
    );
    expect(load('kubernetes.image = "a/b:1"\napplication.job-id = "917381145928572929"').jobId).toBe(
      '917381145928572929',
    );
  });

  test('configmap, secret, env and env-from entries', () => {
    const s = load(`kubernetes {
  image = "a/b:1"
  configmap.drivers { ref = jdbc-drivers, mounts { "mysql.jar" = "/opt/seatunnel/lib/mysql.jar" } }
  secret.db { data { password = "s3cret" }, mounts { password = /etc/db/password } }
  env.DB_USER = admin
  env.DB_PASSWORD { secret = other, key = password, optional = true }
  env-from.common { configmap = team-env, prefix = "TEAM_" }
  runtime-files.log4j2.enabled = false
  runtime-files.jvm-options.content = "-XX:+PrintFlagsFinal"
}`);
    expect(s.configMaps[0]).toMatchObject({ entry: 'drivers', name: 'jdbc-drivers', owned: false });
    expect(s.secrets[0]).toMatchObject({
      entry: 'db',
      owned: true,
      data: { password: 's3cret' },
      mounts: [{ key: 'password', path: '/etc/db/password' }],
    });
    expect(s.env).toEqual([
      { name: 'DB_USER', value: 'admin' },
      { name: 'DB_PASSWORD', secret: 'other', key: 'password', optional: true },
    ]);
    expect(s.envFrom).toEqual([
      { entry: 'common', kind: 'configmap', name: 'team-env', prefix: 'TEAM_', optional: false },
    ]);
    expect(s.runtimeFiles.log4j2).toEqual({ mode: 'disabled' });
    expect(s.runtimeFiles.jvmOptions).toEqual({
      mode: 'supplied',
      content: '-XX:+PrintFlagsFinal',
      origin: 'inline content',
    });
  });
});

describe('precedence: flags > -D > file > defaults; -D merged before substitution', () => {
  const file = `version = "2.3.11"
kubernetes { image = "apache/seatunnel:"\${version}, namespace = from-file }
application { worker-count = 2, job-id = 5 }`;

  test('-D overrides the file', () => {
    const s = load(file, {
      overrides: [
        ['kubernetes.namespace', 'from-d'],
        ['application.worker-count', '7'],
      ],
    });
    expect(s.namespace).toBe('from-d');
    expect(s.worker.count).toBe(7);
  });

  test('-D is merged before ${…} is resolved', () => {
    expect(load(file, { overrides: [['version', '2.3.12']] }).image).toBe('apache/seatunnel:2.3.12');
  });

  test('a later -D wins over an earlier one', () => {
    expect(
      load(file, {
        overrides: [
          ['kubernetes.namespace', 'a'],
          ['kubernetes.namespace', 'b'],
        ],
      }).namespace,
    ).toBe('b');
  });

  test('--job-id wins over -D and the file', () => {
    expect(load(file, { overrides: [['application.job-id', '6']], jobId: '7' }).jobId).toBe('7');
    expect(load(file, { overrides: [['application.job-id', '6']] }).jobId).toBe('6');
    expect(load(file).jobId).toBe('5');
  });

  test('--restore-job-id sets the restore source', () => {
    expect(load(file, { restoreJobId: '99' }).restoreJobId).toBe('99');
  });

  test('parseOverride splits at the first "="', () => {
    expect(parseOverride('-Dkubernetes.master.labels=a:b=c')).toEqual(['kubernetes.master.labels', 'a:b=c']);
    expect(parseOverride('-D=x')).toBeUndefined();
    expect(parseOverride('-Dnovalue')).toBeUndefined();
  });
});

describe('bad deployment input', () => {
  test('unknown option with a did-you-mean suggestion', () => {
    const found = problems(() => load('kubernetes { image = "a/b:1", namepsace = x }'));
    expect(found).toEqual([
      'kubernetes.namepsace: unknown option; did you mean kubernetes.namespace? (see docs/options.md)',
    ]);
  });

  test('unknown option from -D names its source', () => {
    try {
      load('kubernetes.image = "a/b:1"', { overrides: [['kubernetes.image-pull-polcy', 'Always']] });
      throw new Error('not rejected');
    } catch (e) {
      expect((e as Error).message).toContain(
        'kubernetes.image-pull-polcy: got "Always" (from command-line override); unknown option; did you mean kubernetes.image-pull-policy?',
      );
    }
  });

  test('misspelled top-level section', () => {
    expect(problems(() => load('kubernets { image = "a/b:1" }'))).toEqual(
      expect.arrayContaining(['kubernets: unknown top-level key; did you mean kubernetes?']),
    );
  });

  test('a job file passed as the deployment file', () => {
    expect(problems(() => load(`${JOB_CONFIG}\nkubernetes.image = "a/b:1"`))).toEqual(
      expect.arrayContaining([
        expect.stringMatching(
          /^(env|source): looks like a job config section; pass the job file with -c, the deployment file with -a$/,
        ),
      ]),
    );
  });

  test('wrong types are reported with the value and the rule', () => {
    const found = problems(() =>
      load(`kubernetes { image = "a/b:1", image-pull-policy = always, master.labels = "team" }
application { worker-count = many, worker.memory-mb = [1] }`),
    );
    expect(found).toEqual(
      expect.arrayContaining([
        'kubernetes.image-pull-policy: must be one of Always, IfNotPresent, Never (case-sensitive: did you mean "Always"?)',
        expect.stringMatching(/^kubernetes\.master\.labels: every item must be "key:value"/),
        'application.worker-count: must be an integer',
        'application.worker.memory-mb: must be an integer',
      ]),
    );
  });

  test('reading and validation problems are reported together, each once', () => {
    const found = problems(() =>
      load('kubernetes { image = [x], namespace = "Bad NS", nope = 1 }\napplication.worker-count = 0'),
    );
    expect(found).toHaveLength(4);
    expect(found).toEqual(
      expect.arrayContaining([
        'kubernetes.image: must be a string',
        expect.stringMatching(/^kubernetes\.namespace: must consist of lower-case/),
        expect.stringMatching(/^kubernetes\.nope: unknown option/),
        'application.worker-count: must be between 1 and 1000',
      ]),
    );
  });

  test('unparsable HOCON is one clear error with line and column', () => {
    try {
      load('kubernetes {\n  image = "a/b:1"\n');
      throw new Error('not rejected');
    } catch (e) {
      expect(e).toBeInstanceOf(ConfigurationError);
      expect((e as Error).message).toMatch(/Cannot read the deployment file[\s\S]*deploy\.conf:\d+:\d+/);
    }
  });

  test('an unresolved substitution names the path', () => {
    expect(() => load('kubernetes.image = ${IMAGE_NOT_SET}')).toThrow(/IMAGE_NOT_SET/);
  });

  test('-D keys are checked like file keys', () => {
    const r = readDeploymentOptions({ deploymentText: '', overrides: [['application.worker-count', 'x']] });
    expect(r.issues.map((i) => i.key)).toEqual(['application.worker-count']);
    expect(r.issues[0].source).toBe('command-line override');
  });

  test('bad --job-id flag', () => {
    expect(problems(() => load('kubernetes.image = "a/b:1"', { jobId: '12x' }))).toEqual([
      '--job-id: must be a positive integer',
    ]);
  });

  test('did-you-mean only for close matches', () => {
    expect(suggestOption('kubernetes.namepsace')).toBe('kubernetes.namespace');
    expect(suggestOption('application.worker.memory')).toBe('application.worker.memory-mb');
    expect(suggestOption('completely.unrelated.option.name')).toBeUndefined();
  });
});
