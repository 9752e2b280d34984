// logs' flags: validated before any API call, each error naming the flag, the value and the rule.
import { parseCommandLine } from '../../../lib/cli/args';
import { parseSince } from '../../../lib/cli/log-flags';
import { main } from '../../../lib/cli/main';
import type { Output } from '../../../lib/cli/output';

function capture(): Output & { err: string[] } {
  const err: string[] = [];
  return {
    json: false,
    err,
    result: () => undefined,
    line: () => undefined,
    warn: (t) => err.push(t),
    error: (t) => err.push(t),
  };
}

describe('logs flags', () => {
  test('role, worker, follow, since, tail, previous, timestamps and a namespace', () => {
    const a = parseCommandLine([
      'logs',
      '--id',
      'app-1',
      '--role',
      'Worker',
      '-f',
      '--since',
      '1h30m',
      '--tail',
      '0',
      '-n',
      'jobs',
    ]);
    expect(a).toMatchObject({ command: 'logs', id: 'app-1', namespace: 'jobs' });
    expect(a.logs).toEqual({
      role: 'worker',
      follow: true,
      previous: false,
      sinceSeconds: 5400,
      tailLines: 0,
      timestamps: false,
    });
    expect(parseCommandLine(['logs', '--id', 'a', '--worker=2', '--previous', '--timestamps']).logs).toEqual({
      worker: 2,
      follow: false,
      previous: true,
      timestamps: true,
    });
    expect(parseCommandLine(['logs', '--id', 'a', '--role', 'worker', '--worker', '3']).logs).toMatchObject({
      role: 'worker',
      worker: 3,
    });
  });

  test.each([
    ['30s', 30],
    ['10m', 600],
    ['2h', 7200],
    ['1h2m3s', 3723],
  ])('--since %s is %d seconds', (text, seconds) => {
    expect(parseSince(text)).toBe(seconds);
  });

  test.each([
    [['logs'], /logs needs --id <application ID>/],
    [['logs', '--id', 'a', '--worker', '-1'], /--worker: got "-1"; must be a worker number, 1 or more/],
    [['logs', '--id', 'a', '--worker', '0'], /--worker: got "0"; must be a worker number, 1 or more/],
    [['logs', '--id', 'a', '--worker', '1.5'], /--worker: got "1.5"; must be a worker number/],
    [['logs', '--id', 'a', '--role', 'foo'], /--role: got "foo"; must be master or worker/],
    [
      ['logs', '--id', 'a', '--role', 'master', '--worker', '2'],
      /--worker 2 names a worker; it cannot be combined with --role master/,
    ],
    [
      ['logs', '--id', 'a', '--since', '5x'],
      /--since: got "5x"; must be a duration of whole h, m and s units, like 30s, 10m, 2h or 1h30m/,
    ],
    [['logs', '--id', 'a', '--since', '0s'], /--since: got "0s"; must be a duration .* longer than 0s/],
    [['logs', '--id', 'a', '--since', '1m1m'], /--since: got "1m1m"; .*each unit once/],
    [['logs', '--id', 'a', '--since', '-5s'], /--since: got "-5s"/],
    [['logs', '--id', 'a', '--tail', 'all'], /--tail: got "all"; must be a whole number of lines, 0 or more/],
    [['logs', '--id', 'a', '-n', 'Bad_NS'], /--namespace: got "Bad_NS"; /],
    [['logs', '--id', 'a', '--output', 'json'], /logs does not accept --output .*as it is/],
    [['logs', '--id', 'a', '--wait'], /logs does not accept --wait/],
    [['status', '--id', 'a', '-f'], /status does not accept --follow/],
    [['list', '--role', 'master'], /list does not accept --role/],
  ])('rejects %j', (argv, message) => {
    expect(() => parseCommandLine(argv)).toThrow(message);
  });

  test('a bad --id and a bad flag exit 64 with the message, before any connection is made', async () => {
    // KUBECONFIG names no file: any attempt to connect would fail differently.
    const saved = process.env.KUBECONFIG;
    process.env.KUBECONFIG = '/nonexistent/kubeconfig';
    try {
      for (const [argv, message] of [
        [['logs', '--id', 'Bad_Id'], /--id: got "Bad_Id"/],
        [['logs', '--id', 'a', '--since', '5x'], /--since: got "5x"/],
      ] as const) {
        const o = capture();
        expect(await main([...argv], o)).toBe(64);
        expect(o.err.join('\n')).toMatch(message);
      }
    } finally {
      if (saved === undefined) delete process.env.KUBECONFIG;
      else process.env.KUBECONFIG = saved;
    }
  });
});
