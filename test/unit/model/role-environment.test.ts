// The per-role environment (kubernetes.master.env.*, kubernetes.worker.env.*, and the env-from
// forms) through every door, under the same rules as the shared kubernetes.env.*.
import { loadApplication } from '../../../lib/model/load';
import { TeamTemplate } from '../../../lib/model/template';
import { referencedObjects } from '../../../lib/submit/admit/references';
import { JOB_CONFIG, problems, spec } from '../../support/fixtures';

const IMAGE = 'kubernetes.image = "apache/seatunnel:2.3.12"\n';
const load = (text: string, extra: Parameters<typeof loadApplication>[0] = {}) =>
  loadApplication({
    deploymentText: `${IMAGE}${text}`,
    deploymentFile: 'deploy.conf',
    jobConfig: JOB_CONFIG,
    ...extra,
  });

describe('the deployment file and -D', () => {
  test('kubernetes.<role>.env.* and kubernetes.<role>.env-from.* resolve into the role', () => {
    const s = load(`kubernetes {
  env.TZ = UTC
  master.env.TZ = "Asia/Shanghai"
  worker.env { AWS_REGION = eu-west-1, DB_PASSWORD { secret = db, key = password, optional = true } }
  worker.env-from.aws { secret = aws-creds, prefix = "AWS_" }
  master.env-from.extra { configmap = master-settings }
}`);
    expect(s.env).toEqual([{ name: 'TZ', value: 'UTC' }]);
    expect(s.master.env).toEqual([{ name: 'TZ', value: 'Asia/Shanghai' }]);
    expect(s.worker.env).toEqual([
      { name: 'AWS_REGION', value: 'eu-west-1' },
      { name: 'DB_PASSWORD', secret: 'db', key: 'password', optional: true },
    ]);
    expect(s.worker.envFrom).toEqual([
      { entry: 'aws', kind: 'secret', name: 'aws-creds', prefix: 'AWS_', optional: false },
    ]);
    expect(s.master.envFrom).toEqual([{ entry: 'extra', kind: 'configmap', name: 'master-settings', optional: false }]);
  });

  test('-D sets a per-role variable, `$` kept as typed', () => {
    const s = load('', {
      overrides: [
        ['kubernetes.worker.env.HADOOP_USER_NAME', 'etl$(USER)'],
        ['kubernetes.master.env.ROWS', '10'],
      ],
    });
    expect(s.worker.env).toEqual([{ name: 'HADOOP_USER_NAME', value: 'etl$(USER)' }]);
    expect(s.master.env).toEqual([{ name: 'ROWS', value: '10' }]);
  });

  test('bad input names the per-role key, the value and the rule', () => {
    const found = problems(() =>
      load(`kubernetes {
  worker.env.HOME = /tmp
  master.env.JAVA_TOOL_OPTIONS = "-javaagent:/x.jar"
  worker.env.HZ_NETWORK_RESTAPI_ENABLED = "true"
  worker.env."1BAD" = x
  worker.env.X { secret = db }
  master.env-from.both { secret = s, configmap = c }
  worker.env-from.p { secret = s, prefix = "NODE_" }
  worker.env-from.q { configmap = "Not_A_Name" }
}`),
    );
    expect(found).toEqual([
      expect.stringMatching(/^kubernetes\.master\.env\.JAVA_TOOL_OPTIONS: .*reserved.*; choose another name$/),
      'kubernetes.master.env-from.both: set exactly one of secret and configmap',
      expect.stringMatching(/^kubernetes\.worker\.env\.HOME: .*reserved.*; choose another name$/),
      expect.stringMatching(
        /^kubernetes\.worker\.env\.HZ_NETWORK_RESTAPI_ENABLED: names starting with HZ_ are reserved/,
      ),
      expect.stringMatching(/^kubernetes\.worker\.env\.1BAD: environment variable names must/),
      'kubernetes.worker.env.X.key: a secret source needs key (the key to read)',
      expect.stringMatching(/^kubernetes\.worker\.env-from\.p\.prefix: the prefix makes reserved names/),
      expect.stringMatching(/^kubernetes\.worker\.env-from\.q\.configmap: must consist of lower-case letters/),
    ]);
  });

  test('a host environment variable substituted into a per-role literal is refused, named, never shown', () => {
    const found = problems(() =>
      load('kubernetes.worker.env.DB_PASS = ${DB_PASSWORD}\nkubernetes.master.env.P { value = ${DB_PASSWORD} }', {
        env: { DB_PASSWORD: 'hunter2' },
      }),
    );
    expect(found.map((f) => f.split(':')[0])).toEqual([
      'kubernetes.worker.env.DB_PASS',
      'kubernetes.master.env.P.value',
    ]);
    expect(found.join('\n')).not.toContain('hunter2');
  });
});

describe('typed props (cdk8s, Pulumi)', () => {
  test.each(['masterEnv', 'workerEnv'] as const)('%s: reserved names refused, as for env', (prop) => {
    for (const name of ['HOME', 'NODE_OPTIONS', 'KUBECONFIG', 'LD_PRELOAD', 'SEATUNNEL_APP_X', 'HZ_X'])
      expect(problems(() => spec({ [prop]: { [name]: 'x' } }))).toEqual([
        expect.stringMatching(new RegExp(`^${prop}\\.${name}: .*reserved.*; choose another name$`)),
      ]);
  });

  test.each(['masterEnvFrom', 'workerEnvFrom'] as const)(
    '%s: a prefix that could make a reserved name refused',
    (prop) => {
      expect(problems(() => spec({ [prop]: { e: { secret: 's', prefix: 'KUBE' } } }))).toEqual([
        expect.stringMatching(new RegExp(`^${prop}\\.e\\.prefix: a key of the object could complete the prefix`)),
      ]);
    },
  );

  test('not an object: a clear error, not a crash', () => {
    expect(problems(() => spec({ workerEnv: 'X=1' as never, workerEnvFrom: { e: null as never } }))).toEqual([
      'workerEnv: must be an object keyed by variable name',
      'workerEnvFrom.e: must be an object: { secret } or { configmap }, optional prefix and optional',
    ]);
  });
});

describe('team templates', () => {
  const t = new TeamTemplate(
    { image: 'a/b:1', env: { TZ: 'UTC' }, envFrom: { proxy: { configmap: 'corp-proxy' } } },
    { locked: ['env', 'envFrom'] },
  );

  test('a locked shared variable or entry cannot be replaced on one role', () => {
    expect(
      problems(() =>
        t.application({
          jobConfig: JOB_CONFIG,
          workerEnv: { TZ: 'Asia/Shanghai' },
          masterEnvFrom: { proxy: { configmap: 'no-proxy' } },
        }),
      ),
    ).toEqual([
      expect.stringMatching(/^workerEnv\.TZ: env\.TZ is locked by team template/),
      expect.stringMatching(/^masterEnvFrom\.proxy: envFrom\.proxy is locked by team template/),
    ]);
  });

  test('other per-role variables, and restating the locked value, are fine; entries merge by name', () => {
    const props = t.application({ jobConfig: JOB_CONFIG, workerEnv: { TZ: 'UTC', AWS_REGION: 'eu-west-1' } });
    expect(props.workerEnv).toEqual({ TZ: 'UTC', AWS_REGION: 'eu-west-1' });
    const team = new TeamTemplate({ image: 'a/b:1', workerEnv: { A: '1', B: '2' } });
    expect(team.application({ jobConfig: JOB_CONFIG, workerEnv: { B: '3' } }).workerEnv).toEqual({ A: '1', B: '3' });
  });
});

describe('preflight and submit check each role’s sources, under the option that set them', () => {
  test('a shared source replaced on both roles is not checked; one still used by a role is', () => {
    const s = spec({
      env: { DB: { secret: 'db', key: 'password' }, TOKEN: { secret: 'tokens', key: 't' } },
      envFrom: { team: { configmap: 'team-env' } },
      masterEnv: { DB: { secret: 'db-master', key: 'password' } },
      workerEnv: { DB: { secret: 'db-workers', key: 'password' } },
      workerEnvFrom: { aws: { secret: 'aws-creds', optional: true } },
    });
    const envRefs = referencedObjects(s)
      .filter((r) => r.option.includes('.env'))
      .map((r) => [r.option, `${r.ref.kind}/${r.ref.name}`, r.keys.join(','), r.optional]);
    expect(envRefs).toEqual([
      ['kubernetes.master.env.DB', 'Secret/db-master', 'password', false],
      ['kubernetes.env.TOKEN', 'Secret/tokens', 't', false],
      ['kubernetes.env-from.team', 'ConfigMap/team-env', '', false],
      ['kubernetes.worker.env.DB', 'Secret/db-workers', 'password', false],
      ['kubernetes.worker.env-from.aws', 'Secret/aws-creds', '', true],
    ]);
  });
});

describe("what the admission fence's floor can check", () => {
  // Ten Secret/ConfigMap sources on the workers: the floor's slots for one container.
  const TEN = Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`V${i}`, { secret: `s${i}`, key: 'k' }]));

  test('more Secrets and ConfigMaps in a worker’s environment than the fence checks: refused before anything runs', () => {
    expect(problems(() => spec({ env: TEN, workerEnvFrom: { aws: { secret: 'aws-creds' } } }))).toEqual([
      expect.stringMatching(
        /^workerEnv: a worker's environment may name at most 10 Secrets or ConfigMaps .* it names 11: with admissionFence on, the admission fence checks each/,
      ),
    ]);
    expect(problems(() => spec({ imagePullSecrets: ['a', 'b', 'c', 'd', 'e'] }))).toEqual([
      expect.stringMatching(/^imagePullSecrets: at most 4 image pull Secrets: with admissionFence on/),
    ]);
    const eleven = Array.from({ length: 11 }, (_, i) => `env.V${i} { configmap = c${i}, key = k }`).join('\n');
    expect(problems(() => load(`kubernetes {\n${eleven}\n}`))).toEqual([
      expect.stringMatching(/^kubernetes\.worker\.env: .* it names 11: with kubernetes\.admission-fence on/),
    ]);
  });

  test('within the slots, or what only the master reads, or the fence off: fine', () => {
    expect(() => spec({ env: TEN, imagePullSecrets: ['a', 'b', 'c', 'd'] })).not.toThrow();
    expect(() => spec({ env: TEN, masterEnvFrom: { aws: { secret: 'aws-creds' } } })).not.toThrow();
    expect(() =>
      spec({ env: TEN, workerEnvFrom: { aws: { secret: 'aws-creds' } }, admissionFence: false }),
    ).not.toThrow();
  });
});
