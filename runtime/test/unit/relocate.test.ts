import { relocate } from '../../src/engine/zeta';

test('the master command follows a relocated work directory, nothing else changes', () => {
  const argv = [
    'java',
    '-Dseatunnel.config=/var/run/seatunnel-app/engine/seatunnel-master.yaml',
    '-Dseatunnel.logs.path=/var/run/seatunnel-app/logs',
    '-cp',
    '/opt/seatunnel/lib/*',
  ];
  expect(relocate(argv, '/var/run/seatunnel-app')).toEqual(argv);
  expect(relocate(argv, '/tmp/pod/work/')).toEqual([
    'java',
    '-Dseatunnel.config=/tmp/pod/work/engine/seatunnel-master.yaml',
    '-Dseatunnel.logs.path=/tmp/pod/work/logs',
    '-cp',
    '/opt/seatunnel/lib/*',
  ]);
});
