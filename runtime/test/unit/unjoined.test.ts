import type { Pod } from 'kubernetes-types/core/v1';
import { UnjoinedWorkers, memberHost, type WorkerIncarnation } from '../../src/workers/unjoined';

function worker(
  name: string,
  uid: string,
  ip: string,
  container: 'running' | 'waiting' = 'running',
): WorkerIncarnation {
  const pod: Pod = {
    metadata: { name, uid },
    status: {
      phase: container === 'running' ? 'Running' : 'Pending',
      podIP: ip,
      containerStatuses: [
        {
          name: 'seatunnel',
          image: 'x',
          imageID: '',
          ready: container === 'running',
          restartCount: 0,
          state: container === 'running' ? { running: {} } : { waiting: { reason: 'ContainerCreating' } },
        },
      ],
    },
  };
  return { name, uid, pod };
}

test('a member address is matched by its host, IPv6 included', () => {
  expect(memberHost('10.244.0.7:5802')).toBe('10.244.0.7');
  expect(memberHost('fd00:10:244::7:5802')).toBe('fd00:10:244::7');
});

test('due after the limit, counted from when its container was first seen running outside the member list', () => {
  const u = new UnjoinedWorkers({ limitMs: 30_000, maxRestarts: 2, masters: 1 });
  const w1 = worker('w-1', 'a', '10.0.1.1');
  const w2 = worker('w-2', 'b', '10.0.1.2');
  const members = ['10.0.0.9:5801', '10.0.1.2:5802'];
  expect(u.due(0, [w1, w2], members)).toEqual([]);
  expect(u.due(29_999, [w1, w2], members)).toEqual([]);
  expect(u.due(30_000, [w1, w2], members)).toEqual([
    { name: 'w-1', uid: 'a', ip: '10.0.1.1', forMs: 30_000, restart: 1 },
  ]);
  expect(u.describe([w1, w2], members)).toBe('w-1 (restarted 1 time)');
});

test('a worker that joins meanwhile, or is not running yet, is not judged; a new incarnation starts a new clock', () => {
  const u = new UnjoinedWorkers({ limitMs: 30_000, maxRestarts: 2, masters: 1 });
  expect(u.due(0, [worker('w-1', 'a', '10.0.1.1')], ['10.0.0.9:5801'])).toEqual([]);
  // Joined at 10 s: the wait is over, and leaving again later starts from zero.
  expect(u.due(10_000, [worker('w-1', 'a', '10.0.1.1')], ['10.0.0.9:5801', '10.0.1.1:5802'])).toEqual([]);
  expect(u.due(20_000, [worker('w-1', 'a', '10.0.1.1')], ['10.0.0.9:5801'])).toEqual([]);
  expect(u.due(45_000, [worker('w-1', 'a', '10.0.1.1')], ['10.0.0.9:5801'])).toEqual([]);
  expect(u.due(50_000, [worker('w-1', 'a', '10.0.1.1')], ['10.0.0.9:5801'])).toHaveLength(1);
  // Its container not running (yet): never due, however long.
  expect(u.due(0, [worker('w-2', 'c', '10.0.1.3', 'waiting')], ['10.0.0.9:5801'])).toEqual([]);
  expect(u.due(99_000, [worker('w-2', 'c', '10.0.1.3', 'waiting')], ['10.0.0.9:5801'])).toEqual([]);
  // A new uid for w-1 has its own clock.
  expect(u.due(60_000, [worker('w-1', 'd', '10.0.1.4')], ['10.0.0.9:5801'])).toEqual([]);
  expect(u.due(89_999, [worker('w-1', 'd', '10.0.1.4')], ['10.0.0.9:5801'])).toEqual([]);
  expect(u.due(90_000, [worker('w-1', 'd', '10.0.1.4')], ['10.0.0.9:5801'])[0].restart).toBe(2);
});

test('no member list, no judgement; the restarts per worker are bounded', () => {
  const u = new UnjoinedWorkers({ limitMs: 1_000, maxRestarts: 1, masters: 1 });
  expect(u.due(0, [worker('w-1', 'a', '10.0.1.1')], undefined)).toEqual([]);
  expect(u.due(5_000, [worker('w-1', 'a', '10.0.1.1')], undefined)).toEqual([]);
  expect(u.describe([worker('w-1', 'a', '10.0.1.1')], undefined)).toBe('');
  expect(u.due(6_000, [worker('w-1', 'a', '10.0.1.1')], [])).toEqual([]);
  expect(u.due(7_000, [worker('w-1', 'a', '10.0.1.1')], [])).toHaveLength(1);
  expect(u.due(8_000, [worker('w-1', 'b', '10.0.1.2')], [])).toEqual([]);
  expect(u.due(99_000, [worker('w-1', 'b', '10.0.1.2')], [])).toEqual([]);
  expect(u.describe([worker('w-1', 'b', '10.0.1.2')], [])).toBe('w-1 (restarted 1 time)');
});

test('addresses it cannot match (more workers out of the list than the list lacks): nobody is restarted', () => {
  const u = new UnjoinedWorkers({ limitMs: 1_000, maxRestarts: 2, masters: 1 });
  const ws = [worker('w-1', 'a', '10.245.0.1'), worker('w-2', 'b', '10.245.0.2')];
  // Both joined, under other addresses (the local stack's loopback ones): nothing lacks.
  const members = ['127.0.0.9:5801', '127.0.0.1:5802', '127.0.0.2:5802'];
  expect(u.due(0, ws, members)).toEqual([]);
  expect(u.due(99_000, ws, members)).toEqual([]);
  expect(u.unmatched).toBe(true);
  expect(u.describe(ws, members)).toBe('');
  // One of two lacking, both look out: still ambiguous.
  expect(u.due(200_000, ws, members.slice(0, 2))).toEqual([]);
  // With the rewrite the local stack gives, they match, and the one that lacks is found.
  const local = new UnjoinedWorkers({
    limitMs: 1_000,
    maxRestarts: 2,
    masters: 1,
    dial: (ip) => ip.replace(/^10\.245\.(\d+)\.(\d+)$/, '127.$1.0.$2'),
  });
  expect(local.due(0, ws, members.slice(0, 2))).toEqual([]);
  expect(local.due(1_000, ws, members.slice(0, 2))).toMatchObject([{ name: 'w-2', restart: 1 }]);
  expect(local.unmatched).toBe(false);
});

test('only the workers `judged` accepts are timed; the others still count when the list is matched', () => {
  const u = new UnjoinedWorkers({ limitMs: 30_000, maxRestarts: 2, masters: 1 });
  const old = worker('w-1', 'a', '10.0.1.1');
  const fresh = worker('w-2', 'b', '10.0.1.2');
  const members = ['10.0.0.9:5801'];
  const judged = (w: WorkerIncarnation) => w.uid === 'b';
  expect(u.due(0, [old, fresh], members, judged)).toEqual([]);
  expect(u.due(30_000, [old, fresh], members, judged)).toEqual([
    { name: 'w-2', uid: 'b', ip: '10.0.1.2', forMs: 30_000, restart: 1 },
  ]);
  expect(u.due(90_000, [old], members, judged)).toEqual([]);
  // Both out while the list lacks one worker: not matched, nothing judged.
  expect(u.due(120_000, [old, worker('w-2', 'c', '10.0.1.3')], ['10.0.0.9:5801', '10.0.1.7:5802'], () => true)).toEqual(
    [],
  );
  expect(u.unmatched).toBe(true);
});
