// The runtime's decisions, one row per rule of runtime/src/policy.ts.
import { outcome, stateOf, type Reason } from '../../src/outcome';
import type { StopCause } from '../../src/stop-cause';
import {
  afterCleanup,
  decide,
  howToStop,
  reattachment,
  type ReattachFacts,
  terminalPhase,
  type Decision,
  type Facts,
  type Happening,
  type StopDecision,
} from '../../src/policy';
import type { WorkerFailure } from '../../src/workers/reconciler';

const RUNNING: Facts = {
  ending: false,
  deletion: 'unknown',
  streaming: false,
  savepointRequested: false,
  submitted: true,
  zetaStatus: 'RUNNING',
};
const LOST: WorkerFailure = {
  reason: 'WorkerLost',
  worker: 'app-worker-2',
  message: 'worker app-worker-2 was deleted',
};
const UNSCHEDULABLE: WorkerFailure = {
  reason: 'Unschedulable',
  worker: 'app-worker-3',
  message: 'worker app-worker-3 cannot be scheduled: 0/3 nodes',
};

const end = (reason: string, message: string, extra: object = {}): Decision =>
  ({ do: 'end', reason, message, ...extra }) as Decision;
const CONTINUE: Decision = { do: 'continue' };

describe('decide: what now', () => {
  test.each<[string, Partial<Facts>, Happening, Decision]>([
    // a worker dies
    [
      'a lost worker, deletion not known yet: ask first',
      {},
      { type: 'WorkerFailed', failure: LOST },
      { do: 'ask-deletion' },
    ],
    [
      'a lost worker, the application is not being deleted: WorkerLost with a Warning',
      { deletion: 'not-deleting' },
      { type: 'WorkerFailed', failure: LOST },
      end('WorkerLost', 'worker app-worker-2 was deleted', { worker: 'app-worker-2', warn: 'WorkerLost' }),
    ],
    [
      'a lost worker while the application is being deleted: a cancel',
      { deletion: 'deleting' },
      { type: 'WorkerFailed', failure: LOST },
      end('Terminated', 'the application is being deleted (e.g. by `cancel`); worker app-worker-2 was deleted'),
    ],
    [
      'a worker that can never start: its reason, Warning WorkerFailed',
      { deletion: 'not-deleting' },
      { type: 'WorkerFailed', failure: UNSCHEDULABLE },
      end('Unschedulable', UNSCHEDULABLE.message, { worker: 'app-worker-3', warn: 'WorkerFailed' }),
    ],
    [
      'a lost worker once the application is ending: ignored',
      { ending: true, deletion: 'not-deleting' },
      { type: 'WorkerFailed', failure: LOST },
      CONTINUE,
    ],
    // the Pod and the Job
    ['SIGTERM: first learn why', {}, { type: 'SIGTERM' }, { do: 'ask-stop-cause' }],
    ['SIGTERM while ending: ignored', { ending: true }, { type: 'SIGTERM' }, CONTINUE],
    [
      'the own Job being deleted: Terminated',
      {},
      { type: 'OwnJob', deleting: true },
      end('Terminated', 'the application is being deleted (e.g. by `cancel`)'),
    ],
    [
      'the own Job gone: Terminated',
      {},
      { type: 'OwnJobGone' },
      end('Terminated', "the application's Job was deleted (e.g. by `cancel`)"),
    ],
    [
      'cancel --savepoint on the Job: Terminated with a savepoint',
      {},
      { type: 'OwnJob', deleting: false, cancelRequested: 'savepoint' },
      end('Terminated', 'cancel requested with a savepoint'),
    ],
    [
      'another cancel request: Terminated',
      {},
      { type: 'OwnJob', deleting: false, cancelRequested: 'true' },
      end('Terminated', 'cancel requested'),
    ],
    ['the own Job changed otherwise (our own annotations): nothing', {}, { type: 'OwnJob', deleting: false }, CONTINUE],
    // the engine and the API
    [
      'the engine exits: EngineExited',
      {},
      { type: 'EngineExited', exit: { code: 137, signal: null } },
      end('EngineExited', 'the Zeta master process exited with code 137 before the application ended'),
    ],
    [
      'the engine could not start: EngineStartFailed',
      {},
      { type: 'EngineExited', exit: { code: null, signal: null, error: 'ENOENT' } },
      end('EngineStartFailed', 'the Zeta master could not be started (ENOENT)'),
    ],
    [
      'the engine exits while ending (we stopped it): ignored',
      { ending: true },
      { type: 'EngineExited', exit: { code: 143, signal: null } },
      CONTINUE,
    ],
    [
      'the worker Pods cannot be observed: ApiUnavailable',
      {},
      { type: 'WorkersUnobservable', error: 'listing failed for 61 s' },
      end('ApiUnavailable', 'lost track of the worker Pods: listing failed for 61 s'),
    ],
    [
      'an unexpected exception: InternalError',
      {},
      { type: 'Unexpected', error: 'TypeError: x is undefined' },
      end('InternalError', 'unexpected error: TypeError: x is undefined'),
    ],
    // Zeta's job status
    ['RUNNING: keep following', {}, { type: 'JobStatus', jobId: '7', status: 'RUNNING' }, CONTINUE],
    [
      'FINISHED: JobFinished',
      {},
      { type: 'JobStatus', jobId: '7', status: 'FINISHED' },
      end('JobFinished', 'Zeta job 7 ended FINISHED'),
    ],
    [
      'SAVEPOINT_DONE: JobFinished',
      {},
      { type: 'JobStatus', jobId: '7', status: 'SAVEPOINT_DONE' },
      end('JobFinished', 'Zeta job 7 ended SAVEPOINT_DONE'),
    ],
    [
      'CANCELED in the engine: JobCanceled',
      {},
      { type: 'JobStatus', jobId: '7', status: 'CANCELED' },
      end('JobCanceled', 'Zeta job 7 was canceled in the engine'),
    ],
    [
      'FAILED: JobFailed with the first line of the error',
      {},
      { type: 'JobStatus', jobId: '7', status: 'FAILED', errorMsg: 'java.lang.X: boom\n\tat y' },
      end('JobFailed', 'Zeta job 7 ended FAILED: java.lang.X: boom'),
    ],
    [
      'UNKNOWABLE: JobFailed',
      {},
      { type: 'JobStatus', jobId: '7', status: 'UNKNOWABLE' },
      end('JobFailed', 'Zeta job 7 ended UNKNOWABLE'),
    ],
    [
      'FAILED with a worker loss known: the loss is the root cause',
      {},
      { type: 'JobStatus', jobId: '7', status: 'FAILED', errorMsg: 'MemberLeft\nx', workerFailure: LOST },
      end('WorkerLost', 'worker app-worker-2 was deleted; Zeta: MemberLeft', { worker: 'app-worker-2' }),
    ],
    [
      'job status unreadable for a while: keep trying',
      {},
      { type: 'JobStatusUnreadable', error: 'HTTP 500', engineError: true, failingForMs: 10_000, limitMs: 30_000 },
      CONTINUE,
    ],
    [
      'job status unreadable too long: EngineUnreachable',
      {},
      { type: 'JobStatusUnreadable', error: 'HTTP 500', engineError: true, failingForMs: 31_000, limitMs: 30_000 },
      end('EngineUnreachable', "the engine's job status could not be read for 31 s: HTTP 500"),
    ],
    [
      'reading the job status threw something unexpected: InternalError at once',
      {},
      {
        type: 'JobStatusUnreadable',
        error: 'RangeError: Invalid string length',
        engineError: false,
        failingForMs: 0,
        limitMs: 30_000,
      },
      end('InternalError', 'unexpected error while reading the job status: RangeError: Invalid string length'),
    ],
  ])('%s', (_name, facts, happening, expected) => {
    expect(decide({ ...RUNNING, ...facts }, happening)).toEqual(expected);
  });
});

describe('howToStop', () => {
  const STREAMING: Partial<Facts> = { streaming: true };
  test.each<[string, Partial<Facts>, Parameters<typeof howToStop>[1], StopDecision]>([
    ['nothing submitted: nothing to stop', { submitted: false }, 'WorkerLost', { do: 'nothing' }],
    ['the job already ended: nothing to stop', { zetaStatus: 'FINISHED' }, 'CleanupFailed', { do: 'nothing' }],
    ['a failure: plain stop', {}, 'WorkerLost', { do: 'stop', savepoint: false }],
    [
      'a worker loss of a streaming job: no stop-job, so Zeta keeps the checkpoints to restore from',
      STREAMING,
      'WorkerLost',
      { do: 'keep-checkpoints' },
    ],
    [
      'the API away too long, streaming: checkpoints kept',
      { ...STREAMING, deletion: 'not-deleting' },
      'ApiUnavailable',
      { do: 'keep-checkpoints' },
    ],
    ['a terminated batch job: plain stop', {}, 'Terminated', { do: 'stop', savepoint: false }],
    ['a terminated streaming job, deletion unknown: ask first', STREAMING, 'Terminated', { do: 'ask-deletion' }],
    [
      'a terminated streaming job (eviction, drain): savepoint',
      { ...STREAMING, deletion: 'not-deleting' },
      'Terminated',
      { do: 'stop', savepoint: true },
    ],
    [
      'a streaming job whose application is being deleted (plain cancel): no stop-job, so Zeta keeps its checkpoints',
      { ...STREAMING, deletion: 'deleting' },
      'Terminated',
      { do: 'keep-checkpoints' },
    ],
    [
      'cancel --savepoint: savepoint without asking',
      { ...STREAMING, savepointRequested: true },
      'Terminated',
      { do: 'stop', savepoint: true },
    ],
  ])('%s', (_name, facts, reason, expected) => {
    expect(howToStop({ ...RUNNING, ...facts }, reason)).toEqual(expected);
  });
});

describe('the end', () => {
  test.each([
    [
      'no problems: unchanged',
      outcome('JobFinished', 'done', 'FINISHED'),
      [],
      outcome('JobFinished', 'done', 'FINISHED'),
    ],
    [
      'success with a cleanup problem: CleanupFailed, exit 3, Zeta status kept',
      outcome('JobFinished', 'done', 'FINISHED'),
      ['deleting worker w: forbidden'],
      outcome(
        'CleanupFailed',
        'the job succeeded, but removing the workers failed: deleting worker w: forbidden',
        'FINISHED',
      ),
    ],
    [
      'a failure with a cleanup problem: the original cause kept, the problem appended',
      outcome('WorkerLost', 'worker w was deleted'),
      ['a', 'b'],
      outcome('WorkerLost', 'worker w was deleted (cleanup also failed: a; b)'),
    ],
  ])('afterCleanup: %s', (_name, result, problems, expected) => {
    expect(afterCleanup(result, problems)).toEqual(expected);
  });

  test.each([
    ['JobFinished', 'Succeeded'],
    ['Terminated', 'Canceled'],
    ['JobCanceled', 'Canceled'],
    ['WorkerLost', 'Failed'],
    ['InternalError', 'Failed'],
  ] as const)('terminalPhase(%s) = %s', (reason, phase) => {
    expect(terminalPhase(reason)).toBe(phase);
  });
});

describe("the master Pod stopped: a user's cancel or Kubernetes, named for what it was", () => {
  test.each<[string, StopCause, string, string]>([
    ['the application deleted (cancel)', { kind: 'application-deleted' }, 'Terminated', 'CANCELED'],
    ['the master Pod deleted by hand', { kind: 'pod-deleted' }, 'Terminated', 'CANCELED'],
    ['a node drain', { kind: 'disruption', reason: 'EvictionByEvictionAPI', message: '' }, 'Evicted', 'FAILED'],
    ['node pressure', { kind: 'disruption', reason: 'TerminationByKubelet', message: 'memory' }, 'Evicted', 'FAILED'],
    ['preemption', { kind: 'disruption', reason: 'PreemptionByScheduler', message: '' }, 'Preempted', 'FAILED'],
    ['the node lost', { kind: 'disruption', reason: 'DeletionByTaintManager', message: '' }, 'NodeLost', 'FAILED'],
    ['out of service', { kind: 'disruption', reason: 'DeletionByPodGC', message: '' }, 'NodeLost', 'FAILED'],
    [
      'a failed liveness probe',
      { kind: 'probe', message: 'Container seatunnel failed liveness probe, will be restarted' },
      'MasterUnhealthy',
      'FAILED',
    ],
    ['nothing in the API says', { kind: 'unknown' }, 'Killed', 'FAILED'],
  ])('%s → %s', (_name, cause, reason, state) => {
    const d = decide(RUNNING, { type: 'SIGTERM', cause });
    expect(d).toMatchObject({ do: 'end', reason });
    expect(stateOf((d as { reason: Reason }).reason)).toBe(state);
  });

  test('a streaming job stopped by Kubernetes keeps its checkpoints like a cancel: a savepoint, never a plain stop', () => {
    for (const reason of ['Evicted', 'Preempted', 'NodeLost', 'MasterUnhealthy', 'Killed'] as const)
      expect(howToStop({ ...RUNNING, streaming: true, deletion: 'not-deleting' }, reason)).toEqual({
        do: 'stop',
        savepoint: true,
      });
    expect(howToStop({ ...RUNNING, streaming: true, deletion: 'not-deleting' }, 'JobFailed')).toEqual({
      do: 'keep-checkpoints',
    });
  });
});

describe('with HA the coordinator is not the application', () => {
  const HA: Facts = { ...RUNNING, outlivesPod: true };
  test.each<[string, StopCause, Decision]>([
    [
      'SIGTERM while the application is deleted: a cancel',
      { kind: 'application-deleted' },
      end('Terminated', 'the application is being deleted (e.g. by `cancel`)'),
    ],
    [
      'SIGTERM while the application stays (the coordinator Pod deleted): detached',
      { kind: 'pod-deleted' },
      end(
        'Detached',
        'the coordinator Pod was deleted or stopped; the job goes on and the next coordinator re-attaches',
      ),
    ],
    [
      'SIGTERM by a drain: detached, saying so',
      { kind: 'disruption', reason: 'EvictionByEvictionAPI', message: '' },
      end(
        'Detached',
        'the coordinator Pod was evicted through the Eviction API (a node drain, or a PodDisruptionBudget-aware eviction); the job goes on and the next coordinator re-attaches',
      ),
    ],
  ])('%s', (_name, cause, expected) => {
    expect(decide(HA, { type: 'SIGTERM', cause })).toEqual(expected);
  });

  test('a detached coordinator never stops the job', () => {
    expect(howToStop({ ...HA, deletion: 'not-deleting', streaming: true }, 'Detached')).toEqual({ do: 'nothing' });
  });

  test.each<[string, Partial<ReattachFacts>, string]>([
    ['never claimed: submit (a claim is always recorded before the job is sent)', { recorded: false }, 'submit'],
    [
      'never claimed, Zeta not answering: still submit, nothing can have sent it',
      { recorded: false, answered: false },
      'submit',
    ],
    [
      'known to Zeta though not recorded (an older runtime): follow',
      { recorded: false, zetaStatus: 'RUNNING' },
      'follow',
    ],
    ['claimed and known: follow, even if it already ended', { zetaStatus: 'FINISHED' }, 'follow'],
    ['claimed, unknown to Zeta within the window (a failover): ask again', { askedForMs: 1_000 }, 'wait'],
    ['claimed, Zeta not answering within the window: ask again', { answered: false, askedForMs: 1_000 }, 'wait'],
    [
      'claimed, Zeta answered it does not know the job after the window: lost, never a second submission',
      { askedForMs: 30_000 },
      'lost',
    ],
    [
      'claimed, Zeta never answered within the window: unreachable, never a second submission',
      { answered: false, askedForMs: 30_000 },
      'unreachable',
    ],
  ])('re-attachment: %s', (_name, facts, expected) => {
    const base: ReattachFacts = { recorded: true, answered: true, askedForMs: 0, limitMs: 30_000 };
    expect(reattachment({ ...base, ...facts })).toBe(expected);
  });
});
