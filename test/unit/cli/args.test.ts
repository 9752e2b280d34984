import { parseCommandLine } from '../../../lib/cli/args';

describe('seatunnel-application.sh compatible flags', () => {
  test('submit with every flag, both --opt value and --opt=value', () => {
    const a = parseCommandLine([
      'SUBMIT',
      '-t',
      'kubernetes',
      '-a',
      'deploy.conf',
      '-c',
      'job.conf',
      '-Dkubernetes.namespace=jobs',
      '-D',
      'application.worker-count=3',
      '--job-id=17',
      '--restore-job-id',
      '9',
      '--wait',
      '--wait-timeout=60000',
      '--wait-interval',
      '250',
    ]);
    expect(a).toMatchObject({
      command: 'submit',
      deploymentFile: 'deploy.conf',
      jobFile: 'job.conf',
      overrides: [
        ['kubernetes.namespace', 'jobs'],
        ['application.worker-count', '3'],
      ],
      jobId: '17',
      restoreJobId: '9',
      wait: true,
      waitTimeoutMs: 60000,
      waitIntervalMs: 250,
    });
  });

  test('defaults: wait-interval 500 ms, wait-timeout 0 = forever', () => {
    expect(parseCommandLine(['status', '--id', 'a-000000000000'])).toMatchObject({
      wait: false,
      waitIntervalMs: 500,
      waitTimeoutMs: 0,
      explain: false,
    });
  });

  test('status --explain', () => {
    expect(parseCommandLine(['status', '--id', 'a-000000000000', '--explain', '--output', 'json'])).toMatchObject({
      explain: true,
      json: true,
    });
  });

  test.each([
    [['status', '--id', 'x', '-c', 'job.conf'], /status does not accept --config .*job file is only for submit/],
    [['cancel', '--id', 'x', '-c', 'job.conf'], /cancel does not accept --config/],
    [['submit', '--id', 'x'], /submit does not accept --id/],
    [['cancel', '--id', 'x', '--wait'], /cancel does not accept --wait/],
    [['status', '--id', 'x', '--job-id', '1'], /status does not accept --job-id/],
    [['status'], /status needs --id/],
    [['cancel'], /cancel needs --id/],
    [['submit', '-t', 'standalone'], /for a standalone cluster use seatunnel\.sh/],
    [['submit', '-t', 'yarn'], /unsupported target; the only target is kubernetes/],
    [['submit', '-Dnovalue'], /an override must look like -Dkey=value/],
    [['submit', '--bogus'], /Unknown option '--bogus'/],
    [['launch'], /unknown command "launch"/],
    [['status', '--id', 'x', '--wait-timeout', '5'], /only apply with --wait/],
    [['status', '--id', 'x', '--explain', '--wait'], /--explain cannot be combined with --wait/],
    [['list', '--explain'], /list does not accept --explain/],
    [['status', '--id', 'x', '--wait', '--wait-timeout', 'soon'], /--wait-timeout: got "soon"/],
    [['submit', '--output', 'yaml'], /--output: got "yaml"; must be json or text/],
    [['submit', 'extra'], /unexpected argument "extra"/],
  ])('rejects %j', (argv, message) => {
    expect(() => parseCommandLine(argv)).toThrow(message);
  });

  test('-t is optional and case-insensitive', () => {
    expect(parseCommandLine(['synth', '-t', 'Kubernetes']).command).toBe('synth');
    expect(parseCommandLine(['synth']).command).toBe('synth');
  });
});

describe("overrides as SeaTunnel's starter writes them (-i) and as its pages do (-D)", () => {
  test('-ikey=value and -i key=value; values may contain "="', () => {
    expect(
      parseCommandLine(['submit', '-iapplication.worker-count=3', '-i', 'kubernetes.labels=team=data']).overrides,
    ).toEqual([
      ['application.worker-count', '3'],
      ['kubernetes.labels', 'team=data'],
    ]);
  });

  test('-D and -i mix in command-line order, so the last one for a key wins', () => {
    expect(
      parseCommandLine([
        'synth',
        '-Dapplication.worker-count=2',
        '-iapplication.worker-count=5',
        '-Dkubernetes.namespace=a',
      ]).overrides,
    ).toEqual([
      ['application.worker-count', '2'],
      ['application.worker-count', '5'],
      ['kubernetes.namespace', 'a'],
    ]);
  });

  test('a short option\'s value may start with "=" as JCommander allows', () => {
    expect(parseCommandLine(['submit', '-i=a.b=c']).overrides).toEqual([['a.b', 'c']]);
    expect(parseCommandLine(['submit', '-D=a.b=c']).overrides).toEqual([['a.b', 'c']]);
  });

  test.each([['-t=kubernetes'], ['--target=KUBERNETES'], ['-tKubernetes'], ['--target', 'kubernetes']])(
    'target %s',
    (...flag) => {
      expect(parseCommandLine(['submit', ...flag]).command).toBe('submit');
    },
  );

  test('a malformed -i names its own spelling', () => {
    expect(() => parseCommandLine(['submit', '-inovalue'])).toThrow(
      /-inovalue: an override must look like -ikey=value/,
    );
    expect(() => parseCommandLine(['submit', '-t=yarn'])).toThrow(/-t yarn: unsupported target/);
  });
});

describe('cancel --savepoint', () => {
  test('accepted with an optional --wait-timeout', () => {
    expect(parseCommandLine(['cancel', '--id', 'x', '--savepoint', '--wait-timeout', '30000'])).toMatchObject({
      savepoint: true,
      waitTimeoutMs: 30000,
    });
    expect(parseCommandLine(['cancel', '--id', 'x'])).toMatchObject({ savepoint: false });
  });

  test('--wait-timeout without --savepoint is rejected; --savepoint only for cancel', () => {
    expect(() => parseCommandLine(['cancel', '--id', 'x', '--wait-timeout', '5'])).toThrow(
      /only applies with --savepoint/,
    );
    expect(() => parseCommandLine(['status', '--id', 'x', '--savepoint'])).toThrow(
      /status does not accept --savepoint/,
    );
  });
});
