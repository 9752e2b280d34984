// Issue 11 (items 8, 9, 11, 12, 16, 17): input that would leak a secret, steer the runtime,
// collide with other objects or fail only in the cluster is refused — or, where it is valid but
// risky, named in a warning — before anything is written or sent. Each test failed before.

import { readDeploymentOptions } from '../../../lib/model/deployment';
import { ConfigurationError, type ValidationIssue } from '../../../lib/model/issues';
import { loadApplication } from '../../../lib/model/load';
import { resolveApplication } from '../../../lib/model/resolve';
import { SERVICE_ACCOUNT_TOKEN_DIR } from '../../../lib/model/rules/mounts';
import { TeamTemplate } from '../../../lib/model/template';
import { names } from '../../../lib/plan/pod';
import { JOB_CONFIG, problems, props, spec } from '../../support/fixtures';

const SECRET = 'hunter2-Sup3rSecret';

/** The ConfigurationError `fn` throws (fails the test if it throws none). */
function configurationError(fn: () => unknown): ConfigurationError {
  try {
    fn();
  } catch (e) {
    if (e instanceof ConfigurationError) return e;
    throw e;
  }
  throw new Error('expected a ConfigurationError, but nothing was thrown');
}

const load = (
  text: string,
  extra: Partial<Parameters<typeof loadApplication>[0]> = {},
  onWarning?: (w: string) => void,
) =>
  loadApplication(
    { deploymentText: text, deploymentFile: 'deploy.conf', jobConfig: JOB_CONFIG, ...extra },
    { onWarning },
  );

const IMAGE = 'kubernetes.image = "apache/seatunnel:2.3.12"\n';

describe('item 8: Secret data never appears in an error, text or JSON', () => {
  const cases: Array<[string, () => unknown]> = [
    [
      'a non-string value in data (props)',
      () =>
        resolveApplication(props({ secrets: { db: { data: { password: { nested: SECRET } as unknown as string } } } })),
    ],
    [
      'an entry with both ref and data (props)',
      () => resolveApplication(props({ secrets: { db: { ref: 'x', data: { password: SECRET } } } })),
    ],
    [
      'an unknown field of an entry (deployment file)',
      () => load(`${IMAGE}kubernetes.secret.db { dat { password = "${SECRET}" } }`),
    ],
    ['an entry that is not an object (deployment file)', () => load(`${IMAGE}kubernetes.secret.db = "${SECRET}"`)],
    [
      'ref and data together (deployment file)',
      () => load(`${IMAGE}kubernetes.secret.db { ref = x, data { password = "${SECRET}" } }`),
    ],
    [
      'a misspelt family (unknown option holding the data)',
      () => load(`${IMAGE}kubernetes.secrets.db.data.password = "${SECRET}"`),
    ],
    [
      'a too-large Secret',
      () => resolveApplication(props({ secrets: { db: { data: { password: SECRET.repeat(60_000) } } } })),
    ],
    [
      'a locked Secret entry in a team template',
      () =>
        new TeamTemplate(
          { image: 'a/b:1', secrets: { db: { data: { password: SECRET } } } },
          { locked: ['secrets'] },
        ).application({
          secrets: { db: { data: { password: `${SECRET}-2` } } },
          jobConfig: JOB_CONFIG,
        }),
    ],
  ];

  test.each(cases)('%s', (_name, fn) => {
    const e = configurationError(fn);
    expect(e.message).not.toContain('hunter2');
    // What `--output json` prints: the issues, values included.
    expect(JSON.stringify({ issues: e.issues })).not.toContain('hunter2');
  });

  test('the value is replaced by its size, and the key and rule stay', () => {
    const e = configurationError(() =>
      resolveApplication(props({ secrets: { db: { ref: 'x', data: { password: SECRET } } } })),
    );
    expect(e.message).toMatch(/secrets\.db: got <redacted, \d+ bytes>; set either ref/);
    expect(JSON.stringify(e.issues)).toMatch(/"value":"<redacted, \d+ bytes>"/);
  });

  test('what names a Secret (ref, name, mounts) is still shown', () => {
    expect(problems(() => resolveApplication(props({ secrets: { db: { ref: 'Bad_Name' } } })))).toEqual([
      expect.stringMatching(/^secrets\.db\.ref: /),
    ]);
    const e = configurationError(() => resolveApplication(props({ secrets: { db: { ref: 'Bad_Name' } } })));
    expect(e.message).toContain('got "Bad_Name"');
  });
});

describe('item 9: values from the host environment and from -D/-i', () => {
  const PLAIN_TEXT = `${IMAGE}kubernetes {
  labels.team = \${TEAM}
  annotations.contact = \${CONTACT}
  configmap.settings.data.password = \${DB_PASSWORD}
  env.DB_PASS = \${DB_PASSWORD}
  env.OTHER { value = \${OTHER} }
}`;
  const HOST = { TEAM: 'data', CONTACT: 'me', DB_PASSWORD: SECRET, OTHER: 'o' };

  test('an environment variable substituted into labels, annotations, ConfigMap data or env literals is refused, named, never shown (issue 27, item 3)', () => {
    const found = problems(() => load(PLAIN_TEXT, { env: HOST }));
    expect(found.map((p) => p.split(':')[0])).toEqual([
      'kubernetes.labels.team',
      'kubernetes.annotations.contact',
      'kubernetes.configmap.settings.data.password',
      'kubernetes.env.DB_PASS',
      'kubernetes.env.OTHER.value',
    ]);
    const text = found.join('\n');
    expect(text).not.toContain('hunter2');
    for (const name of ['TEAM', 'CONTACT', 'DB_PASSWORD', 'OTHER'])
      expect(text).toContain(`the host environment variable ${name} is substituted here`);
    expect(text).toContain('--trust-deployment-file');
  });

  test('in a trusted deployment file it is named in a warning, never its value', () => {
    const warnings: string[] = [];
    load(PLAIN_TEXT, { env: HOST, trusted: true }, (w) => warnings.push(w));
    const text = warnings.join('\n');
    expect(text).not.toContain('hunter2');
    for (const name of ['TEAM', 'CONTACT', 'DB_PASSWORD', 'OTHER'])
      expect(text).toContain(`host environment variable ${name} `);
    expect(warnings.find((w) => w.includes('DB_PASSWORD'))).toContain(
      'kubernetes.configmap.settings.data.password, kubernetes.env.DB_PASS',
    );
  });

  test('no warning where the value belongs (Secret data) or is not free text (namespace)', () => {
    const warnings: string[] = [];
    load(
      `${IMAGE}kubernetes.namespace = \${NS}\nkubernetes.secret.db.data.password = \${DB_PASSWORD}`,
      { env: { NS: 'jobs', DB_PASSWORD: SECRET } },
      (w) => warnings.push(w),
    );
    expect(warnings).toEqual([]);
  });

  test('Secret data from a command-line override is refused, directly or through a substitution, without its value', () => {
    const direct = configurationError(() =>
      load(IMAGE, { overrides: [['kubernetes.secret.db.data.password', SECRET]] }),
    );
    expect(direct.issues).toEqual([
      expect.objectContaining({ key: 'kubernetes.secret.db.data.password', source: 'command-line override' }),
    ]);
    expect(direct.issues[0].rule).toMatch(/must not come from a command-line override/);
    const indirect = configurationError(() =>
      load(`${IMAGE}pw = ""\nkubernetes.secret.db.data.password = \${pw}`, { overrides: [['pw', SECRET]] }),
    );
    expect(indirect.issues.map((i) => i.key)).toEqual(['kubernetes.secret.db.data.password']);
    for (const e of [direct, indirect]) {
      expect(e.message).not.toContain('hunter2');
      expect(JSON.stringify(e.issues)).not.toContain('hunter2');
    }
  });

  test('overrides elsewhere are still fine, and are labelled as command-line overrides', () => {
    const r = readDeploymentOptions({ deploymentText: IMAGE, overrides: [['application.worker-count', 'x']] });
    expect(r.issues[0].source).toBe('command-line override');
    expect(load(IMAGE, { overrides: [['kubernetes.labels.team', 'data']] }).labels).toEqual({ team: 'data' });
  });
});

describe('item 11: seatunnel.apache.org/ annotations are reserved', () => {
  test.each(['annotations', 'masterAnnotations', 'workerAnnotations'] as const)('%s', (prop) => {
    for (const key of [
      'seatunnel.apache.org/cancel-requested',
      'seatunnel.apache.org/phase',
      'seatunnel.apache.org/job-status',
    ]) {
      expect(problems(() => spec({ [prop]: { [key]: 'Canceled' } }))).toEqual([
        `${prop}.${key}: annotation keys under seatunnel.apache.org/ are reserved: this tool and the runtime set and act on them; choose another key`,
      ]);
    }
  });

  test('other annotations pass', () => {
    expect(spec({ annotations: { 'example.com/owner': 'data' } }).annotations).toEqual({ 'example.com/owner': 'data' });
  });
});

describe('item 12: environment names that steer the runtime, Node.js or the client are reserved', () => {
  const reserved = [
    'SEATUNNEL_APP_ENGINE_REST_HOST',
    'SEATUNNEL_APP_LOG_LEVEL',
    'SEATUNNEL_APP_ANYTHING',
    'NODE_OPTIONS',
    'NODE_TLS_REJECT_UNAUTHORIZED',
    'NODE_EXTRA_CA_CERTS',
    'KUBECONFIG',
    'KUBERNETES_SERVICE_HOST',
    'KUBERNETES_SERVICE_PORT',
    'KUBERNETES_SERVICE_PORT_HTTPS',
    'OPENSSL_CONF',
    'LD_PRELOAD',
    // issue 27, item 10: the runtime's home (its client reads $HOME/.kube/config before the
    // in-cluster credentials), every JVM's extra flags, Hazelcast's configuration overrides.
    'HOME',
    'JAVA_TOOL_OPTIONS',
    '_JAVA_OPTIONS',
    'HZ_NETWORK_JOIN_MULTICAST_ENABLED',
    'HZ_NETWORK_RESTAPI_ENABLED',
  ];

  test.each(reserved)('%s as a literal and from a Secret key', (name) => {
    expect(problems(() => spec({ env: { [name]: 'x' } }))).toEqual([
      expect.stringMatching(new RegExp(`^env\\.${name}: .*reserved.*; choose another name$`)),
    ]);
    expect(problems(() => spec({ env: { [name]: { secret: 's', key: 'k' } } }))).toHaveLength(1);
  });

  test.each(['NODE_', 'SEATUNNEL_APP_X', 'KUBERNETES_SERVICE_', 'KUBE', 'N', 'HZ_', 'H'])(
    'env-from prefix %s could make a reserved name',
    (prefix) => {
      expect(problems(() => spec({ envFrom: { db: { secret: 's', prefix } } }))).toEqual([
        expect.stringMatching(/^envFrom\.db\.prefix: /),
      ]);
    },
  );

  test('ordinary names and prefixes pass', () => {
    const s = spec({
      env: { DB_URL: 'x', NODENAME_HINT: 'y', KUBERNETES_NAMESPACE_HINT: 'z' },
      envFrom: { db: { secret: 's', prefix: 'DB_' } },
    });
    expect(s.env.map((e) => e.name)).toEqual(['DB_URL', 'NODENAME_HINT', 'KUBERNETES_NAMESPACE_HINT']);
    expect(s.envFrom[0].prefix).toBe('DB_');
  });

  test('a locked image cannot be bypassed through runtime.image', () => {
    const t = new TeamTemplate({ image: 'registry.example.com/seatunnel:2.3.12' }, { locked: ['image'] });
    expect(
      problems(() => t.application({ runtimeImage: 'evil.example.com/anything:1', jobConfig: JOB_CONFIG })),
    ).toEqual([expect.stringMatching(/^runtimeImage: image is locked by team template/)]);
    // Restating the default runtime image is no bypass.
    expect(() => t.application({ jobConfig: JOB_CONFIG })).not.toThrow();
  });

  test('a locked label cannot be overridden on the Pods through the per-role labels', () => {
    const t = new TeamTemplate({ image: 'a/b:1', labels: { 'cost-center': 'cc-42' } }, { locked: ['labels'] });
    expect(problems(() => t.application({ workerLabels: { 'cost-center': 'free' }, jobConfig: JOB_CONFIG }))).toEqual([
      expect.stringMatching(/^workerLabels\.cost-center: labels\.cost-center is locked/),
    ]);
    expect(() => t.application({ workerLabels: { tier: 'gold' }, jobConfig: JOB_CONFIG })).not.toThrow();
  });
});

describe('item 16: mount paths and owned names', () => {
  const mount = (path: string, roles: Array<'master' | 'worker'> = ['master']) =>
    problems(() => spec({ configMaps: { c: { ref: 'cfg', mounts: { k: path }, roles } } }));

  test.each([['/opt/./seatunnel-app/runtime.cjs'], ['/etc//seatunnel-app/engine/seatunnel-master.yaml']])(
    '%s: not in normal form, and what it names is reserved',
    (path) => {
      const found = mount(path);
      expect(found).toEqual(
        expect.arrayContaining([
          expect.stringMatching(/must be written in normal form/),
          expect.stringMatching(/lies inside \/(opt|etc)\/seatunnel-app/),
        ]),
      );
    },
  );

  test.each([
    ['/', /would hide \//],
    ['/opt/seatunnel', /would hide \/opt\/seatunnel \(SEATUNNEL_HOME/],
    ['/opt', /would hide/],
    [SERVICE_ACCOUNT_TOKEN_DIR, /would hide \/var\/run\/secrets\/kubernetes\.io\/serviceaccount/],
    [
      `${SERVICE_ACCOUNT_TOKEN_DIR}/token`,
      /lies inside \/var\/run\/secrets\/kubernetes\.io\/serviceaccount \(the ServiceAccount token\)/,
    ],
    ['/var/run/secrets', /would hide \/var\/run\/secrets\/kubernetes\.io\/serviceaccount/],
  ])('%s is refused', (path, rule) => {
    expect(mount(path)).toEqual(expect.arrayContaining([expect.stringMatching(rule)]));
  });

  test("a file inside SEATUNNEL_HOME is the user's business", () => {
    expect(() => mount('/opt/seatunnel/config/extra.conf')).toThrow('expected a ConfigurationError');
  });

  test('one mount inside another is refused, on the role where both are', () => {
    const found = problems(() =>
      spec({
        configMaps: { a: { ref: 'a', mounts: { k: '/etc/app/conf' } } },
        secrets: { b: { ref: 'b', mounts: { k: '/etc/app/conf/key.pem' } } },
      }),
    );
    expect(found).toEqual([
      expect.stringMatching(
        /^secrets\.b\.mounts\."k": overlaps the mount of a\.mounts\."k" at \/etc\/app\/conf on the master/,
      ),
    ]);
    // On different roles they never meet.
    expect(() =>
      spec({
        configMaps: { a: { ref: 'a', mounts: { k: '/etc/app/conf' }, roles: ['worker'] } },
        secrets: { b: { ref: 'b', mounts: { k: '/etc/app/conf/key.pem' } } },
      }),
    ).not.toThrow();
  });

  test("an owned name outside the application's prefix is refused (kube-root-ca.crt, another application's objects)", () => {
    const s = spec();
    const readable = s.appId.replace(/-[0-9a-f]{12}$/, '');
    for (const name of ['kube-root-ca.crt', 'other-app-0123456789ab-engine', `${readable}-0123456789ab-engine`]) {
      expect(problems(() => spec({ configMaps: { c: { name, data: { k: 'v' } } } }))).toEqual([
        expect.stringMatching(/^configMaps\.c\.name: /),
      ]);
      expect(problems(() => spec({ secrets: { c: { name, data: { k: 'v' } } } }))).toEqual([
        expect.stringMatching(/^secrets\.c\.name: /),
      ]);
    }
    expect(spec({ configMaps: { c: { name: `${readable}-settings`, data: { k: 'v' } } } }).configMaps[0].name).toBe(
      `${readable}-settings`,
    );
  });

  test('every name the plan generates is refused as an owned name', () => {
    const s = spec();
    const generated = [
      names.job(s),
      names.service(s),
      names.engineConfig(s),
      names.workerTemplate(s),
      names.role(s),
      names.masterPolicy(s),
      names.workerPolicy(s),
    ];
    for (const name of new Set(generated)) {
      expect(problems(() => spec({ configMaps: { c: { name, data: { k: 'v' } } } }))).toEqual([
        expect.stringMatching(/used by an object this tool generates/),
      ]);
    }
  });

  test('two entries with one name are a configuration issue', () => {
    const s = spec();
    const e = configurationError(() =>
      resolveApplication(
        props({
          configMaps: { a: { data: { k: 'v' } }, b: { name: `${s.appId}-a`, data: { k: 'v' } } },
        }),
      ),
    );
    expect(e.issues).toEqual([
      expect.objectContaining({
        key: 'configMaps.b.name',
        rule: expect.stringMatching(/is also the name of entry "a"/),
      }),
    ]);
  });
});

describe('item 17: the rest', () => {
  test('..data and other keys starting with ".." are refused', () => {
    expect(problems(() => spec({ configMaps: { c: { data: { '..data': 'x' } } } }))).toEqual([
      expect.stringMatching(/^configMaps\.c\.data\."\.\.data": keys must not start with "\.\."/),
    ]);
    expect(problems(() => spec({ secrets: { c: { data: { '..2024_01_01': 'x' } } } }))).toHaveLength(1);
  });

  test('the engine ConfigMap over 1 MiB (supplied runtime files, once per role) is refused', () => {
    const big = `hazelcast:\n  properties:\n    filler: "${'x'.repeat(500 * 1024)}"\n`;
    const found = problems(() => spec({ runtimeFiles: { hazelcast: { content: big } } }));
    expect(found).toEqual([
      expect.stringMatching(
        /^runtimeFiles: the supplied runtime files go into one ConfigMap .* 1 MiB; they come to \d+ bytes/,
      ),
    ]);
  });

  test('a ConfigMap is measured as the API server measures it (bytes of the values)', () => {
    const exactly = 'x'.repeat(1024 * 1024 - 2);
    expect(() => spec({ configMaps: { c: { data: { ab: exactly, cd: 'é' } } } })).not.toThrow();
    expect(problems(() => spec({ configMaps: { c: { data: { ab: exactly, cd: 'éé' } } } }))).toEqual([
      expect.stringMatching(/has 1048578$/),
    ]);
  });

  test('cpu-cores = 1e400 shows what was written and the rule', () => {
    const e = configurationError(() => load(`${IMAGE}application.worker.cpu-cores = 1e400`));
    expect(e.message).toContain(
      'application.worker.cpu-cores: got 1e400 (from deployment file); must be a finite number',
    );
    const d = configurationError(() => load(IMAGE, { overrides: [['application.master.cpu-cores', '1e400']] }));
    expect(d.message).toContain(
      'application.master.cpu-cores: got "1e400" (from command-line override); must be a finite number',
    );
    expect(problems(() => spec({ workerCpuCores: Infinity }))).toEqual([
      'workerCpuCores: must be a finite number of cores',
    ]);
    expect(load(`${IMAGE}application.worker.cpu-cores = 5e-1`).worker.cpuMillicores).toBe(500);
  });

  test('an empty node-selector value is valid, as in Kubernetes', () => {
    expect(load(`${IMAGE}kubernetes.worker.node-selector = "pool:,disktype:ssd"`).worker.nodeSelector).toEqual({
      pool: '',
      disktype: 'ssd',
    });
    expect(load(`${IMAGE}kubernetes.master.node-selector { pool = "" }`).master.nodeSelector).toEqual({ pool: '' });
  });

  test('worker.port equal to a master port is refused', () => {
    expect(problems(() => spec({ workerPort: 5801 }))).toEqual([
      'workerPort: must differ from the master port (masterPort)',
    ]);
    expect(problems(() => spec({ workerPort: 9000, masterRestPort: 9000 }))).toEqual([
      'workerPort: must differ from the master REST port (masterRestPort)',
    ]);
  });

  test.each([
    ['auto-detection', 'hazelcast:\n  network:\n    join:\n      auto-detection:\n        enabled: true\n'],
    [
      'kubernetes join',
      'hazelcast:\n  network:\n    join:\n      kubernetes:\n        enabled: true\n        service-name: x\n',
    ],
    ['multicast', 'hazelcast:\n  network:\n    join:\n      multicast:\n        enabled: true\n'],
    [
      'discovery strategies',
      'hazelcast:\n  network:\n    join:\n      discovery-strategies:\n        discovery-strategies: []\n',
    ],
    ['REST on the member port (workers)', 'hazelcast:\n  network:\n    rest-api:\n      enabled: true\n'],
  ])('a Hazelcast file enabling %s is refused', (_name, content) => {
    expect(problems(() => spec({ runtimeFiles: { hazelcast: { content } } }))).toEqual([
      expect.stringMatching(
        /^runtimeFiles\.hazelcast: .*remove it from the file \(member discovery is fixed by application mode\)$/,
      ),
    ]);
  });

  test('a Hazelcast file that keeps discovery as it is passes', () => {
    const content =
      'hazelcast:\n  network:\n    join:\n      multicast:\n        enabled: false\n  properties:\n    hazelcast.slow.operation.detector.enabled: true\n';
    expect(spec({ runtimeFiles: { hazelcast: { content } } }).runtimeFiles.hazelcast.mode).toBe('supplied');
  });

  test('every problem is reported at once, with key and rule', () => {
    const e = configurationError(() =>
      resolveApplication(
        props({
          workerPort: 5801,
          annotations: { 'seatunnel.apache.org/phase': 'Failed' },
          env: { NODE_OPTIONS: '--require /tmp/x.js' },
          configMaps: { c: { data: { '..data': 'x' }, mounts: { '..data': '/' } } },
        }),
      ),
    );
    const keys = e.issues.map((i: ValidationIssue) => i.key);
    expect(keys).toEqual(
      expect.arrayContaining([
        'workerPort',
        'annotations.seatunnel.apache.org/phase',
        'env.NODE_OPTIONS',
        'configMaps.c.data."..data"',
      ]),
    );
  });
});
