import type { Pod } from 'kubernetes-types/core/v1';
import { classifyWorker } from '../../src/workers/classify';

const pod = (status: Pod['status'], meta: Pod['metadata'] = {}): Pod => ({ metadata: { name: 'w-1', ...meta }, status });

test('Unschedulable (PodScheduled=False, reason Unschedulable) is fatal with the scheduler message', () => {
  const s = classifyWorker(
    pod({
      phase: 'Pending',
      conditions: [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable', message: '0/3 nodes are available: 3 Insufficient cpu.' }],
    }),
  );
  expect(s).toEqual({ kind: 'fatal', reason: 'Unschedulable', message: 'cannot be scheduled: 0/3 nodes are available: 3 Insufficient cpu.' });
});

test.each(['ErrImagePull', 'ImagePullBackOff', 'CreateContainerConfigError', 'InvalidImageName'])(
  'waiting reason %s is fatal, also in an init container',
  (reason) => {
    const waiting = { name: 'seatunnel', image: 'x', imageID: '', ready: false, restartCount: 0, state: { waiting: { reason, message: 'details' } } };
    expect(classifyWorker(pod({ phase: 'Pending', containerStatuses: [waiting] }))).toMatchObject({
      kind: 'fatal',
      reason,
      message: `container seatunnel: ${reason}: details`,
    });
    expect(classifyWorker(pod({ phase: 'Pending', initContainerStatuses: [{ ...waiting, name: 'init' }] }))).toMatchObject({ kind: 'fatal', reason });
  },
);

test('ContainerCreating and an unscheduled Pod without a verdict are pending', () => {
  const creating = { name: 'seatunnel', image: 'x', imageID: '', ready: false, restartCount: 0, state: { waiting: { reason: 'ContainerCreating' } } };
  expect(classifyWorker(pod({ phase: 'Pending', containerStatuses: [creating] }))).toEqual({ kind: 'pending', detail: 'ContainerCreating' });
  expect(classifyWorker(pod({}))).toEqual({ kind: 'pending', detail: 'Pending' });
  expect(classifyWorker(pod({ phase: 'Pending', conditions: [{ type: 'PodScheduled', status: 'False', reason: 'SchedulingGated' }] }))).toMatchObject({
    kind: 'pending',
  });
});

test('Running is running', () => {
  expect(classifyWorker(pod({ phase: 'Running' }))).toEqual({ kind: 'running' });
});

test('a worker that ended Succeeded is lost at once: it will not come back (restartPolicy Never)', () => {
  const done = { name: 'seatunnel', image: 'x', imageID: '', ready: false, restartCount: 0, state: { terminated: { exitCode: 0, reason: 'Completed' } } };
  expect(classifyWorker(pod({ phase: 'Succeeded' }))).toEqual({ kind: 'lost', message: 'ended (phase Succeeded) while the application still needs it' });
  expect(classifyWorker(pod({ phase: 'Succeeded', containerStatuses: [done] }))).toEqual({
    kind: 'lost',
    message: 'ended (phase Succeeded) while the application still needs it: container seatunnel terminated with exit code 0 (Completed)',
  });
});

test('Failed is lost, with the container termination (OOMKilled) and eviction reason', () => {
  const oom = { name: 'seatunnel', image: 'x', imageID: '', ready: false, restartCount: 0, state: { terminated: { exitCode: 137, reason: 'OOMKilled' } } };
  expect(classifyWorker(pod({ phase: 'Failed', containerStatuses: [oom] }))).toEqual({
    kind: 'lost',
    message: 'failed: container seatunnel terminated with exit code 137 (OOMKilled)',
  });
  expect(classifyWorker(pod({ phase: 'Failed', reason: 'Evicted', message: 'The node was low on resource: memory.' }))).toEqual({
    kind: 'lost',
    message: 'failed: Evicted; The node was low on resource: memory.',
  });
});

test('a terminating Pod is lost even while it still runs', () => {
  const s = classifyWorker(pod({ phase: 'Running' }, { deletionTimestamp: '2026-01-01T00:00:00Z' }));
  expect(s.kind).toBe('lost');
});
