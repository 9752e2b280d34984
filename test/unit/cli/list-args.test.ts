// list's flags: accepted by list only, validated (namespace, selector, statuses) before any API call.
import { parseCommandLine } from '../../../lib/cli/args';

describe('list flags', () => {
  test('namespace, selector and a status filter in any case', () => {
    const a = parseCommandLine(['list', '-n', 'jobs', '-l', 'team=data', '--status', 'running, Failed']);
    expect(a).toMatchObject({ command: 'list', namespace: 'jobs', selector: 'team=data', allNamespaces: false });
    expect([...a.statuses!]).toEqual(['RUNNING', 'FAILED']);
    expect(parseCommandLine(['list', '--all-namespaces', '--output=json'])).toMatchObject({
      allNamespaces: true,
      json: true,
    });
    expect(parseCommandLine(['list', '-A', '-a', 'deploy.conf'])).toMatchObject({
      allNamespaces: true,
      deploymentFile: 'deploy.conf',
    });
  });

  test.each([
    [
      ['list', '--status', 'RUNNING,DONE'],
      /--status: got "DONE"; each status must be one of CREATED, DEPLOYING, RUNNING, SUCCEEDED, FAILED, CANCELED, UNKNOWN/,
    ],
    [['list', '--status', ' , '], /--status: got " , "; give one or more of/],
    [['list', '--namespace', 'Jobs_1'], /--namespace: got "Jobs_1"; /],
    [['list', '-n', 'a', '-A'], /--namespace and --all-namespaces exclude each other/],
    [['list', '-l', '  '], /--selector: got an empty selector/],
    [['list', '--id', 'x'], /list does not accept --id/],
    [['list', '--wait'], /list does not accept --wait/],
    [
      ['status', '--id', 'x', '--namespace', 'jobs'],
      /status does not accept --namespace .*from -a or -Dkubernetes.namespace/,
    ],
    [['status', '--id', 'x', '--status', 'RUNNING'], /status does not accept --status/],
    [['cancel', '--id', 'x', '-A'], /cancel does not accept --all-namespaces/],
    [['submit', '-l', 'a=b'], /submit does not accept --selector/],
  ])('rejects %j', (argv, message) => {
    expect(() => parseCommandLine(argv)).toThrow(message);
  });
});
