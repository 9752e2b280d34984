import { parseCommandLine } from '../../../lib/cli/args';

describe('seatunnel-application.sh compatible flags', () => {
  test('submit with every flag, both --opt value and --opt=value', () => {
    const a = parseCommandLine(['SUBMIT', '-t', 'kubernetes', '-a', 'deploy.conf', '-c', 'job.conf', '-Dkubernetes.namespace=jobs', '-D', 'application.worker-count=3',
      '--job-id=17', '--restore-job-id', '9', '--wait', '--wait-timeout=60000', '--wait-interval', '250']);
    expect(a).toMatchObject({
      command: 'submit', deploymentFile: 'deploy.conf', jobFile: 'job.conf',
      overrides: [['kubernetes.namespace', 'jobs'], ['application.worker-count', '3']],
      jobId: '17', restoreJobId: '9', wait: true, waitTimeoutMs: 60000, waitIntervalMs: 250,
    });
  });

  test('defaults: wait-interval 500 ms, wait-timeout 0 = forever', () => {
    expect(parseCommandLine(['status', '--id', 'a-000000000000'])).toMatchObject({ wait: false, waitIntervalMs: 500, waitTimeoutMs: 0 });
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
    [['status', '--id', 'x', '--wait', '--wait-timeout', 'soon'], /--wait-timeout: got "soon"/],
    [['submit', '--output', 'yaml'], /--output: got "yaml"; must be json or text/],
    [['submit', 'extra'], /unexpected argument "extra"/],
  ])('rejects %j', (argv, message) => {
    expect(() => parseCommandLine(argv as string[])).toThrow(message as RegExp);
  });

  test('-t is optional and case-insensitive', () => {
    expect(parseCommandLine(['synth', '-t', 'Kubernetes']).command).toBe('synth');
    expect(parseCommandLine(['synth']).command).toBe('synth');
  });
});

describe('cancel --savepoint', () => {
  test('accepted with an optional --wait-timeout', () => {
    expect(parseCommandLine(['cancel', '--id', 'x', '--savepoint', '--wait-timeout', '30000'])).toMatchObject({ savepoint: true, waitTimeoutMs: 30000 });
    expect(parseCommandLine(['cancel', '--id', 'x'])).toMatchObject({ savepoint: false });
  });

  test('--wait-timeout without --savepoint is rejected; --savepoint only for cancel', () => {
    expect(() => parseCommandLine(['cancel', '--id', 'x', '--wait-timeout', '5'])).toThrow(/only applies with --savepoint/);
    expect(() => parseCommandLine(['status', '--id', 'x', '--savepoint'])).toThrow(/status does not accept --savepoint/);
  });
});
