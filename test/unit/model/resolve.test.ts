import type { SeaTunnelApplicationProps } from '../../../lib/model/props';
import { ConfigurationError } from '../../../lib/model/issues';
import { resolveApplication } from '../../../lib/model/resolve';
import { fixedRandom, problems, props, spec } from '../../support/fixtures';

describe('resolveApplication defaults', () => {
  const s = spec();

  test.each([
    ['namespace', s.namespace, 'default'],
    ['imagePullPolicy', s.imagePullPolicy, 'IfNotPresent'],
    ['serviceAccount', s.serviceAccount, `${s.appId}-runtime`],
    ['serviceAccountGenerated', s.serviceAccountGenerated, true],
    ['seatunnelHome', s.seatunnelHome, '/opt/seatunnel'],
    ['worker.count', s.worker.count, 1],
    ['worker.slots', s.worker.slots, 2],
    ['worker.cpuMillicores', s.worker.cpuMillicores, 1000],
    ['worker.memoryMiB', s.worker.memoryMiB, 1024],
    ['worker.heapMiB (1024 less 384)', s.worker.heapMiB, 640],
    ['worker.port', s.worker.port, 5802],
    ['master.cpuMillicores', s.master.cpuMillicores, 1000],
    ['master.memoryMiB', s.master.memoryMiB, 1024],
    ['master.port', s.master.port, 5801],
    ['master.restPort', s.master.restPort, 8080],
    ['startupTimeoutMillis', s.startupTimeoutMillis, 120000],
    ['finishedJobRetentionSeconds', s.finishedJobRetentionSeconds, 86400],
    ['rbacCreate', s.rbacCreate, true],
    ['networkPolicyEnabled', s.networkPolicyEnabled, true],
    ['runtime.mode', s.runtime.mode, 'init-container'],
  ])('%s defaults to %p', (_name, actual, expected) => {
    expect(actual).toEqual(expected);
  });

  test('the job config travels verbatim, placeholders unresolved', () => {
    expect(s.jobConfig).toEqual({ kind: 'inline', text: props().jobConfig });
    expect(s.jobConfig.kind === 'inline' && s.jobConfig.text).toContain('${ROWS}');
  });

  test('heap: the memory limit less max(384 MiB, a quarter), at least half of it, rounded down', () => {
    const heap = (mib: number) => spec({ workerMemoryMb: mib }).worker.heapMiB;
    // The fixed non-heap share: small and middling Pods.
    expect(heap(1000)).toBe(616);
    expect(heap(1536)).toBe(1152);
    // A quarter once that is more than 384 MiB.
    expect(heap(4096)).toBe(3072);
    expect(heap(2001)).toBe(1501);
    // Never less than half: the smallest Pods.
    expect(heap(640)).toBe(320);
    expect(heap(257)).toBe(128);
    expect(spec({ masterMemoryMb: 768 }).master.heapMiB).toBe(384);
  });

  test('fractional cores become millicores', () => {
    expect(spec({ workerCpuCores: 0.5, masterCpuCores: 2.25 }).worker.cpuMillicores).toBe(500);
    expect(spec({ masterCpuCores: 2.25 }).master.cpuMillicores).toBe(2250);
  });
});

describe('application and job IDs', () => {
  test('random IDs: sanitised prefix + 12 hex, positive odd 63-bit job id', () => {
    const s = spec({ name: 'My Orders_Sync!!' }, { ids: 'random', random: fixedRandom(0xff) });
    expect(s.appId).toBe('my-orders-sync-ffffffffffff');
    expect(s.jobId).toBe(((1n << 63n) - 1n).toString());
  });

  test('random IDs differ per resolution', () => {
    const a = spec({}, { ids: 'random' });
    const b = spec({}, { ids: 'random' });
    expect(a.appId).not.toBe(b.appId);
    expect(a.jobId).not.toBe(b.jobId);
    expect(a.appId).toMatch(/^orders-[0-9a-f]{12}$/);
    expect(BigInt(a.jobId) % 2n).toBe(1n);
  });

  test('derived IDs are stable and depend on namespace, name and run ID', () => {
    const a = spec();
    expect(spec().appId).toBe(a.appId);
    expect(spec().jobId).toBe(a.jobId);
    expect(spec({ namespace: 'other' }).appId).not.toBe(a.appId);
    expect(spec({ runId: '2' }).appId).not.toBe(a.appId);
    expect(a.appId).toMatch(/^orders-[0-9a-f]{12}$/);
  });

  test('a long name is cut to 35 characters without a trailing dash', () => {
    const s = spec({ name: `${'a'.repeat(34)}-bbbb` });
    expect(s.appId).toMatch(new RegExp(`^${'a'.repeat(34)}-[0-9a-f]{12}$`));
    expect(s.appId.length).toBeLessThanOrEqual(48);
  });

  test('an empty sanitised name falls back to "seatunnel"', () => {
    expect(spec({ name: '!!!' }).appId).toMatch(/^seatunnel-[0-9a-f]{12}$/);
  });

  test('explicit job IDs keep all 63 bits (string, bigint)', () => {
    expect(spec({ jobId: '917381145928572929' }).jobId).toBe('917381145928572929');
    expect(spec({ jobId: 917381145928572929n }).jobId).toBe('917381145928572929');
    expect(spec({ jobId: 42 }).jobId).toBe('42');
  });

  test('an explicit application ID is used as is', () => {
    expect(spec({ applicationId: 'orders-run-7' }).appId).toBe('orders-run-7');
  });
});

type Case = [string, Partial<SeaTunnelApplicationProps>, RegExp];

describe('validation rules, each rejected with the option, the value and the rule', () => {
  const cases: Case[] = [
    ['missing image', { image: undefined }, /^image: .*is required/],
    ['blank image', { image: '  ' }, /^image: must not/],
    ['malformed image', { image: 'Apache/SeaTunnel:latest' }, /^image: must be an image reference/],
    ['namespace not a DNS label', { namespace: 'Data_Prod' }, /^namespace: .*DNS-1123 label/],
    [
      'pull policy case',
      { imagePullPolicy: 'always' as never },
      /^imagePullPolicy: must be one of Always, IfNotPresent, Never/,
    ],
    ['empty pull secret', { imagePullSecrets: ['ok', ''] }, /^imagePullSecrets\.\[1\]: entries must be non-empty/],
    ['service account name', { serviceAccount: 'Bad Name' }, /^serviceAccount: .*DNS-1123 subdomain/],
    ['relative seatunnel home', { seatunnelHome: 'opt/seatunnel' }, /^seatunnelHome: must be an absolute path/],
    ['colon in seatunnel home', { seatunnelHome: '/opt/sea:tunnel' }, /^seatunnelHome: must not contain ":"/],
    ['zero workers', { workerCount: 0 }, /^workerCount: must be between 1 and 1000/],
    ['non-integer workers', { workerCount: 2.5 }, /^workerCount: must be an integer/],
    ['zero slots', { workerSlots: 0 }, /^workerSlots: must be between 1 and 1024/],
    ['too little memory', { workerMemoryMb: 100 }, /^workerMemoryMb: must be between 256 and/],
    ['negative cores', { masterCpuCores: -1 }, /^masterCpuCores: must be a positive number of cores/],
    ['sub-millicore cores', { workerCpuCores: 0.0001 }, /^workerCpuCores: must be a positive number of cores/],
    ['port out of range', { masterPort: 70000 }, /^masterPort: must be between 1024 and 65535/],
    ['REST port equals master port', { masterRestPort: 5801 }, /^masterRestPort: must differ from the master port/],
    ['startup timeout too small', { startupTimeoutMillis: 100 }, /^startupTimeoutMillis: must be between 5000/],
    ['retention zero', { finishedJobRetentionSeconds: 0 }, /^finishedJobRetentionSeconds: must be between 1 and/],
    ['job id zero', { jobId: 0 }, /^jobId: must be between 1 and 9223372036854775807/],
    ['job id too big', { jobId: '9223372036854775808' }, /^jobId: must be between 1 and/],
    ['job id not a number', { jobId: 'abc' }, /^jobId: must be a positive integer/],
    [
      'unsafe float job id',
      // eslint-disable-next-line no-loss-of-precision -- the lost precision is the case under test
      { jobId: 917381145928572929 },
      /^jobId: must be a positive integer \(use a string or bigint/,
    ],
    ['restore equals job id', { jobId: '17', restoreJobId: '17' }, /^restoreJobId: must differ from the job ID/],
    [
      'reserved label (application id)',
      { masterLabels: { 'seatunnel.apache.org/application-id': 'x' } },
      /^masterLabels\.seatunnel\.apache\.org\/application-id: .*reserved/,
    ],
    ['reserved label (role)', { workerLabels: { 'seatunnel.apache.org/role': 'x' } }, /reserved/],
    ['reserved label (managed-by)', { labels: { 'app.kubernetes.io/managed-by': 'me' } }, /reserved/],
    ['label key syntax', { workerLabels: { 'bad key': 'x' } }, /^workerLabels\.bad key: name part must consist/],
    ['label value syntax', { masterLabels: { team: 'has space' } }, /^masterLabels\.team: label value must consist/],
    ['node selector value', { workerNodeSelector: { pool: '-bad-' } }, /^workerNodeSelector\.pool: label value/],
    [
      'toleration Exists with value',
      { workerTolerations: [{ key: 'k', operator: 'Exists', value: 'v' }] },
      /^workerTolerations\.\[0\]: operator Exists must not have a value/,
    ],
    [
      'toleration seconds without NoExecute',
      { masterTolerations: [{ key: 'k', value: 'v', tolerationSeconds: 5, effect: 'NoSchedule' }] },
      /only valid with effect NoExecute/,
    ],
    [
      'toleration bad effect',
      { workerTolerations: [{ key: 'k', value: 'v', effect: 'Never' as never }] },
      /effect must be NoSchedule, PreferNoSchedule or NoExecute/,
    ],
    [
      'toleration without key needs Exists',
      { workerTolerations: [{ value: 'v' }] },
      /a toleration without a key must use operator Exists/,
    ],
    [
      'configmap ref and data',
      { configMaps: { a: { ref: 'x', data: { k: 'v' } } } },
      /^configMaps\.a: set either ref .* or data/,
    ],
    ['configmap neither', { configMaps: { a: {} } }, /^configMaps\.a: needs ref/],
    [
      'configmap mount of unknown key',
      { configMaps: { a: { data: { k: 'v' }, mounts: { other: '/x/other' } } } },
      /mounts a key that data does not define \(keys: k\)/,
    ],
    [
      'configmap relative mount',
      { configMaps: { a: { data: { k: 'v' }, mounts: { k: 'x/k' } } } },
      /^configMaps\.a\.mounts\."k": must be an absolute path/,
    ],
    [
      'configmap entry name',
      { configMaps: { Bad_Entry: { ref: 'x' } } },
      /^configMaps\.Bad_Entry: entry names become object and volume names/,
    ],
    ['configmap bad key', { configMaps: { a: { data: { 'no/slash': 'v' } } } }, /keys may contain only letters/],
    ['configmap name with ref', { configMaps: { a: { ref: 'x', name: 'y' } } }, /name is only for a created object/],
    ['configmap empty roles', { configMaps: { a: { ref: 'x', roles: [] } } }, /roles must be a non-empty list/],
    [
      'owned name collides with generated',
      { applicationId: 'app-1', configMaps: { engine: { data: { k: 'v' } } } },
      /the name is used by an object this tool generates/,
    ],
    [
      'two mounts at one path',
      { configMaps: { a: { ref: 'x', mounts: { k: '/etc/f' } }, b: { ref: 'y', mounts: { j: '/etc/f' } } } },
      /is also the mount path of a\.mounts\."k" on the master/,
    ],
    [
      'mount over a reserved path',
      { secrets: { s: { ref: 'x', mounts: { k: '/opt/seatunnel/checkpoints/k' } } } },
      /lies inside \/opt\/seatunnel\/checkpoints \(the checkpoint volume\), which the application itself uses/,
    ],
    ['env name', { env: { '1BAD': 'x' } }, /^env\.1BAD: environment variable names/],
    ['env reserved name', { env: { SEATUNNEL_APPLICATION_JOB_CONFIG: 'x' } }, /the variable is set by this tool/],
    [
      'env two sources',
      { env: { A: { secret: 's', configmap: 'c', key: 'k' } as never } },
      /exactly one of \{ value \}, \{ secret, key \}, \{ configmap, key \}/,
    ],
    ['env secret without key', { env: { A: { secret: 's' } as never } }, /^env\.A\.key: .*a secret source needs key/],
    [
      'env-from both',
      { envFrom: { e: { secret: 's', configmap: 'c' } } },
      /^envFrom\.e: set exactly one of secret and configmap/,
    ],
    ['secret-ref name', { secretRef: 'Bad' }, /^secretRef: .*DNS-1123 subdomain/],
    ['checkpoint pvc name', { checkpointPvc: 'bad_pvc' }, /^checkpointPvc: .*DNS-1123 subdomain/],
    ['job config and job file', { jobConfigFile: '/etc/job.conf' }, /^jobConfigFile: .*both given; choose one/],
    ['no job config at all', { jobConfig: undefined }, /^jobConfig: a job config is required/],
    ['empty job config', { jobConfig: '  ' }, /^jobConfig: the job config must not be empty/],
    ['job config not HOCON', { jobConfig: 'source { FakeSource { ' }, /^jobConfig: the job config is not valid HOCON/],
    ['job config without sink', { jobConfig: 'env {}\nsource { FakeSource {} }' }, /has no sink section/],
    [
      'job file not mounted',
      { jobConfig: undefined, jobConfigFile: '/etc/job/job.conf' },
      /must be the path of a key mounted on the master .*mounted on the master: none/,
    ],
    [
      'job file mounted on workers only',
      {
        jobConfig: undefined,
        jobConfigFile: '/etc/job.conf',
        configMaps: { job: { ref: 'j', mounts: { 'job.conf': '/etc/job.conf' }, roles: ['worker'] } },
      },
      /must be the path of a key mounted on the master/,
    ],
    [
      'HA with one master',
      { haEnabled: true, haMasters: 1, checkpointPvc: 'c' },
      /^haMasters: high availability needs at least 2 masters/,
    ],
    [
      'HA with backup-count 0',
      { haEnabled: true, haBackupCount: 0, checkpointPvc: 'c' },
      /^haBackupCount: high availability needs backup-count of at least 1/,
    ],
    [
      'HA backup count not below masters',
      { haEnabled: true, haMasters: 2, haBackupCount: 2, checkpointPvc: 'c' },
      /^haBackupCount: must be less than the number of masters \(2\)/,
    ],
    [
      'HA with local checkpoints',
      { haEnabled: true },
      /^checkpointPvc: high availability needs checkpoint storage every master reaches/,
    ],
    [
      'HA with a runtime ConfigMap whose seatunnel.yaml is replaced by a local one',
      {
        haEnabled: true,
        runtimeConfigMap: 'seatunnel-config',
        runtimeFiles: { engine: { content: 'seatunnel: {}\n' } },
      },
      /^checkpointPvc: high availability needs checkpoint storage every master reaches/,
    ],
    [
      'runtime file content and file',
      { runtimeFiles: { log4j2: { content: 'x', file: 'y' } } },
      /^runtimeFiles\.log4j2: set either content or file, not both/,
    ],
    [
      'disabled runtime file with content',
      { runtimeFiles: { engine: { enabled: false, content: 'x' } } },
      /a disabled runtime file cannot also supply content/,
    ],
    [
      'engine file not YAML',
      { runtimeFiles: { engine: { content: 'a: [' } } },
      /^runtimeFiles\.engine: .*is not valid YAML/,
    ],
    [
      'runtime file without reader',
      { runtimeFiles: { hazelcast: { file: 'hz.yaml' } } },
      /files can only be read where a file reader is available/,
    ],
    ['runtime image', { runtimeImage: 'UPPER:case' }, /^runtimeImage: must be an image reference/],
    ['application id too long', { applicationId: 'a'.repeat(49) }, /^applicationId: must be at most 48 characters/],
  ];

  test.each(cases)('%s', (_name, extra, expected) => {
    const found = problems(() => resolveApplication(props(extra)));
    expect(found.some((p) => expected.test(p))).toBe(true);
  });

  test('the error message names the option, the value received and the rule', () => {
    try {
      resolveApplication(props({ imagePullPolicy: 'always' as never }));
      throw new Error('not rejected');
    } catch (e) {
      expect(e).toBeInstanceOf(ConfigurationError);
      expect((e as Error).message).toContain(
        'imagePullPolicy: got "always"; must be one of Always, IfNotPresent, Never (case-sensitive)',
      );
    }
  });

  test('every problem is reported at once', () => {
    const found = problems(() =>
      resolveApplication(props({ namespace: 'Bad', workerCount: 0, image: '', masterPort: 1, env: { '9x': 'v' } })),
    );
    expect(found.map((f) => f.split(':')[0])).toEqual(
      expect.arrayContaining(['namespace', 'workerCount', 'image', 'masterPort', 'env.9x']),
    );
  });

  test('the runtime file reader is used and its failure reported', () => {
    const read = jest.fn((p: string) => {
      if (p === 'ok.properties') return 'rootLogger.level = WARN';
      throw new Error('ENOENT: no such file');
    });
    const ok = resolveApplication(props({ runtimeFiles: { log4j2: { file: 'ok.properties' } } }), { readFile: read });
    expect(ok.runtimeFiles.log4j2).toEqual({
      mode: 'supplied',
      content: 'rootLogger.level = WARN',
      origin: 'ok.properties',
    });
    expect(
      problems(() => resolveApplication(props({ runtimeFiles: { log4j2: { file: 'missing' } } }), { readFile: read })),
    ).toEqual(['runtimeFiles.log4j2.file: cannot be read: ENOENT: no such file']);
  });

  test('valid mounted objects resolve with default roles and names', () => {
    const s = spec({
      applicationId: 'app-1',
      configMaps: {
        drivers: { ref: 'jdbc', mounts: { 'a.jar': '/opt/seatunnel/lib/a.jar' } },
        job: { data: { 'job.conf': 'x' } },
      },
      secrets: { db: { data: { password: 'p' }, mounts: { password: '/etc/db/password' } } },
    });
    expect(s.configMaps).toEqual([
      {
        entry: 'drivers',
        name: 'jdbc',
        owned: false,
        mounts: [{ key: 'a.jar', path: '/opt/seatunnel/lib/a.jar' }],
        roles: ['master', 'worker'],
      },
      {
        entry: 'job',
        name: 'app-1-job',
        owned: true,
        data: { 'job.conf': 'x' },
        mounts: [],
        roles: ['master', 'worker'],
      },
    ]);
    expect(s.secrets).toEqual([
      {
        entry: 'db',
        name: 'app-1-db',
        owned: true,
        data: { password: 'p' },
        mounts: [{ key: 'password', path: '/etc/db/password' }],
        roles: ['master'],
      },
    ]);
  });

  test('a job file mounted on the master replaces the inline config', () => {
    const s = spec({
      jobConfig: undefined,
      jobConfigFile: '/etc/job/job.conf',
      configMaps: { job: { ref: 'jobs', mounts: { 'job.conf': '/etc/job/job.conf' }, roles: ['master'] } },
    });
    expect(s.jobConfig).toEqual({ kind: 'file', path: '/etc/job/job.conf' });
  });
});
