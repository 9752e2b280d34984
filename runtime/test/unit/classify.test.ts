import type { Pod } from 'kubernetes-types/core/v1';
import type { Event } from 'kubernetes-types/core/v1';
import {
  classifyWorker,
  judgeImagePull,
  judgeUnschedulable,
  scaleUpSignal,
  type ScaleUpSignal,
  type UnschedulableVerdict,
} from '../../src/workers/classify';

const pod = (status: Pod['status'], meta: Pod['metadata'] = {}): Pod => ({
  metadata: { name: 'w-1', ...meta },
  status,
});

test('Unschedulable (PodScheduled=False, reason Unschedulable) is judged over time, with the scheduler message and any nomination', () => {
  const conditions = [
    {
      type: 'PodScheduled',
      status: 'False',
      reason: 'Unschedulable',
      message: '0/3 nodes are available: 3 Insufficient cpu.',
    },
  ];
  expect(classifyWorker(pod({ phase: 'Pending', conditions }))).toEqual({
    kind: 'unschedulable',
    message: 'cannot be scheduled: 0/3 nodes are available: 3 Insufficient cpu.',
    nominated: false,
  });
  expect(classifyWorker(pod({ phase: 'Pending', conditions, nominatedNodeName: 'n-4' }))).toMatchObject({
    kind: 'unschedulable',
    nominated: true,
  });
});

test.each(['CreateContainerConfigError', 'InvalidImageName', 'ErrImageNeverPull'])(
  'waiting reason %s is fatal, also in an init container',
  (reason) => {
    const waiting = {
      name: 'seatunnel',
      image: 'x',
      imageID: '',
      ready: false,
      restartCount: 0,
      state: { waiting: { reason, message: 'details' } },
    };
    expect(classifyWorker(pod({ phase: 'Pending', containerStatuses: [waiting] }))).toMatchObject({
      kind: 'fatal',
      reason,
      message: `container seatunnel: ${reason}: details`,
    });
    expect(
      classifyWorker(pod({ phase: 'Pending', initContainerStatuses: [{ ...waiting, name: 'init' }] })),
    ).toMatchObject({ kind: 'fatal', reason });
  },
);

test.each(['ErrImagePull', 'ImagePullBackOff'])(
  'waiting reason %s is a failing image pull (retried by the kubelet), also in an init container',
  (reason) => {
    const waiting = {
      name: 'seatunnel',
      image: 'x',
      imageID: '',
      ready: false,
      restartCount: 0,
      state: { waiting: { reason, message: 'details' } },
    };
    expect(classifyWorker(pod({ phase: 'Pending', containerStatuses: [waiting] }))).toEqual({
      kind: 'image-pull',
      reason,
      message: `container seatunnel: ${reason}: details`,
    });
    expect(
      classifyWorker(pod({ phase: 'Pending', initContainerStatuses: [{ ...waiting, name: 'init' }] })),
    ).toMatchObject({ kind: 'image-pull', reason });
  },
);

const ev = (reason: string, at: string, message = `${reason} message`): Event => ({
  metadata: { name: `w-1.${reason}` },
  involvedObject: { kind: 'Pod', name: 'w-1' },
  reason,
  message,
  source: { component: 'cluster-autoscaler' },
  lastTimestamp: at,
});

test.each<[string, Event[], ScaleUpSignal]>([
  ['no Events', [], 'none'],
  ["only the scheduler's", [ev('FailedScheduling', '2026-01-01T00:00:01Z')], 'none'],
  [
    'TriggeredScaleUp',
    [ev('FailedScheduling', '2026-01-01T00:00:01Z'), ev('TriggeredScaleUp', '2026-01-01T00:00:02Z')],
    'triggered',
  ],
  ["Karpenter's Nominated", [ev('Nominated', '2026-01-01T00:00:02Z')], 'triggered'],
  ['NotTriggerScaleUp', [ev('NotTriggerScaleUp', '2026-01-01T00:00:02Z')], 'refused'],
  [
    'a refusal after a scale-up',
    [ev('TriggeredScaleUp', '2026-01-01T00:00:02Z'), ev('NotTriggerScaleUp', '2026-01-01T00:01:00Z')],
    'refused',
  ],
  [
    'a scale-up after a refusal',
    [ev('TriggeredScaleUp', '2026-01-01T00:01:00Z'), ev('NotTriggerScaleUp', '2026-01-01T00:00:02Z')],
    'triggered',
  ],
])('scaleUpSignal: %s → %s', (_what, events, signal) => {
  expect(scaleUpSignal(events).signal).toBe(signal);
});

test('scaleUpSignal carries the autoscaler message', () => {
  expect(
    scaleUpSignal([
      ev('NotTriggerScaleUp', '2026-01-01T00:00:02Z', "pod didn't trigger scale-up: 1 max node group size reached"),
    ]),
  ).toEqual({
    signal: 'refused',
    message: "pod didn't trigger scale-up: 1 max node group size reached",
  });
});

test.each<[ScaleUpSignal, boolean, number, number, UnschedulableVerdict]>([
  ['refused', false, 0, 30_000, 'fail'],
  ['refused', true, 0, 30_000, 'fail'],
  ['triggered', false, 0, 30_000, 'wait-for-node'],
  ['triggered', false, 600_000, 30_000, 'wait-for-node'],
  ['none', true, 600_000, 30_000, 'wait-for-node'],
  ['none', false, 29_999, 30_000, 'wait-for-autoscaler'],
  ['none', false, 30_000, 30_000, 'fail'],
  ['none', false, 0, 0, 'fail'],
  ['triggered', false, 0, 0, 'wait-for-node'],
])(
  'judgeUnschedulable(%s, nominated %s, for %i ms, grace %i ms) → %s',
  (signal, nominated, forMs, graceMs, verdict) => {
    expect(judgeUnschedulable(signal, nominated, forMs, graceMs)).toBe(verdict);
  },
);

test.each<[number, number, 'fail' | 'retry']>([
  [0, 60_000, 'retry'],
  [59_999, 60_000, 'retry'],
  [60_000, 60_000, 'fail'],
  [0, 0, 'fail'],
])('judgeImagePull(failing for %i ms, budget %i ms) → %s', (forMs, budgetMs, verdict) => {
  expect(judgeImagePull(forMs, budgetMs)).toBe(verdict);
});

test('ContainerCreating and an unscheduled Pod without a verdict are pending', () => {
  const creating = {
    name: 'seatunnel',
    image: 'x',
    imageID: '',
    ready: false,
    restartCount: 0,
    state: { waiting: { reason: 'ContainerCreating' } },
  };
  expect(classifyWorker(pod({ phase: 'Pending', containerStatuses: [creating] }))).toEqual({
    kind: 'pending',
    detail: 'ContainerCreating',
  });
  expect(classifyWorker(pod({}))).toEqual({ kind: 'pending', detail: 'Pending' });
  expect(
    classifyWorker(
      pod({ phase: 'Pending', conditions: [{ type: 'PodScheduled', status: 'False', reason: 'SchedulingGated' }] }),
    ),
  ).toMatchObject({
    kind: 'pending',
  });
});

test('Running is running', () => {
  expect(classifyWorker(pod({ phase: 'Running' }))).toEqual({ kind: 'running' });
});

test('a worker that ended Succeeded is lost at once: it will not come back (restartPolicy Never)', () => {
  const done = {
    name: 'seatunnel',
    image: 'x',
    imageID: '',
    ready: false,
    restartCount: 0,
    state: { terminated: { exitCode: 0, reason: 'Completed' } },
  };
  expect(classifyWorker(pod({ phase: 'Succeeded' }))).toEqual({
    kind: 'lost',
    message: 'ended (phase Succeeded) while the application still needs it',
  });
  expect(classifyWorker(pod({ phase: 'Succeeded', containerStatuses: [done] }))).toEqual({
    kind: 'lost',
    message:
      'ended (phase Succeeded) while the application still needs it: container seatunnel terminated with exit code 0 (Completed)',
  });
});

test('Failed is lost, with the container termination (OOMKilled) and eviction reason', () => {
  const oom = {
    name: 'seatunnel',
    image: 'x',
    imageID: '',
    ready: false,
    restartCount: 0,
    state: { terminated: { exitCode: 137, reason: 'OOMKilled' } },
  };
  expect(classifyWorker(pod({ phase: 'Failed', containerStatuses: [oom] }))).toEqual({
    kind: 'lost',
    message: 'failed: container seatunnel terminated with exit code 137 (OOMKilled)',
  });
  expect(
    classifyWorker(pod({ phase: 'Failed', reason: 'Evicted', message: 'The node was low on resource: memory.' })),
  ).toEqual({
    kind: 'lost',
    message: 'failed: Evicted; The node was low on resource: memory.',
  });
});

test('a terminating Pod is lost even while it still runs', () => {
  const s = classifyWorker(pod({ phase: 'Running' }, { deletionTimestamp: '2026-01-01T00:00:00Z' }));
  expect(s.kind).toBe('lost');
});
