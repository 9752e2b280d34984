// The status mapping as a pure function: one case per row of the table in lib/submit/observe/status.ts.
import type { Job } from 'kubernetes-types/batch/v1';
import type { Event, Pod } from 'kubernetes-types/core/v1';
import { LABELS } from '../../../lib/model/reserved';
import { ANNOTATIONS } from '../../../lib/contract';
import { deriveStatus, statusLines, type StatusObservation } from '../../../lib/submit/observe/status';

const ID = 'orders-0123456789ab';
const NS = 'jobs';

function job(
  extra: {
    suspend?: boolean;
    conditions?: Array<{ type: string; status?: string; reason?: string; message?: string }>;
    annotations?: Record<string, string>;
    deleting?: boolean;
  } = {},
): Job {
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: {
      name: ID,
      namespace: NS,
      uid: 'u1',
      annotations: extra.annotations,
      ...(extra.deleting ? { deletionTimestamp: '2026-01-01T00:00:00Z' } : {}),
    },
    spec: { suspend: extra.suspend ?? false, template: { spec: { containers: [] } } },
    status: { conditions: (extra.conditions ?? []).map((c) => ({ status: 'True', ...c })) },
  };
}

function pod(role: 'master' | 'worker', name: string, status: Pod['status'], memoryLimit = '1024Mi'): Pod {
  return {
    metadata: {
      name,
      namespace: NS,
      labels: { [LABELS.applicationId]: ID, [LABELS.role]: role },
      creationTimestamp: '2026-01-01T00:00:00Z',
    },
    spec: { containers: [{ name: 'seatunnel', resources: { limits: { memory: memoryLimit } } }] },
    status,
  };
}

const running: Pod['status'] = {
  phase: 'Running',
  containerStatuses: [
    { name: 'seatunnel', ready: true, restartCount: 0, image: 'x', imageID: '', state: { running: {} } },
  ],
};
const terminatedWith = (exitCode: number, reason = 'Error'): Pod['status'] => ({
  phase: 'Failed',
  containerStatuses: [
    {
      name: 'seatunnel',
      ready: false,
      restartCount: 0,
      image: 'x',
      imageID: '',
      state: { terminated: { exitCode, reason } },
    },
  ],
});
const waiting = (reason: string, message: string, init = false): Pod['status'] => ({
  phase: 'Pending',
  [init ? 'initContainerStatuses' : 'containerStatuses']: [
    {
      name: init ? 'install-runtime' : 'seatunnel',
      ready: false,
      restartCount: 0,
      image: 'x',
      imageID: '',
      state: { waiting: { reason, message } },
    },
  ],
});
const unschedulable: Pod['status'] = {
  phase: 'Pending',
  conditions: [
    {
      type: 'PodScheduled',
      status: 'False',
      reason: 'Unschedulable',
      message: '0/3 nodes are available: 3 Insufficient cpu.',
    },
  ],
};

const obs = (o: Partial<StatusObservation>): StatusObservation => ({
  applicationId: ID,
  namespace: NS,
  pods: [],
  ...o,
});

describe('deriveStatus', () => {
  test('no Job → UNKNOWN (never CANCELED), mentioning leftover Pods', () => {
    expect(deriveStatus(obs({}))).toMatchObject({ status: 'UNKNOWN', reason: 'NotFound' });
    const r = deriveStatus(obs({ pods: [pod('worker', `${ID}-worker-1`, running)] }));
    expect(r.status).toBe('UNKNOWN');
    expect(r.message).toMatch(/1 Pod\(s\) with its label remain/);
  });

  test('Complete=True → SUCCEEDED', () => {
    expect(deriveStatus(obs({ job: job({ conditions: [{ type: 'Complete' }] }) })).status).toBe('SUCCEEDED');
    expect(deriveStatus(obs({ job: job({ conditions: [{ type: 'SuccessCriteriaMet' }] }) })).status).toBe('SUCCEEDED');
    expect(deriveStatus(obs({ job: job({ conditions: [{ type: 'Complete', status: 'False' }] }) })).status).not.toBe(
      'SUCCEEDED',
    );
  });

  test('Failed=True with the runtime failure reason, the Zeta message and the exit-code meaning', () => {
    const r = deriveStatus(
      obs({
        job: job({
          conditions: [
            {
              type: 'Failed',
              reason: 'PodFailurePolicy',
              message: 'Container seatunnel for pod jobs/x failed with exit code 1 matching FailJob rule at index 0',
            },
          ],
          annotations: {
            [ANNOTATIONS.reason]: 'JobFailed',
            [ANNOTATIONS.message]: 'java.lang.RuntimeException: table not found',
            [ANNOTATIONS.zetaJobId]: '917',
            [ANNOTATIONS.zetaJobStatus]: 'FAILED',
          },
        }),
        pods: [pod('master', `${ID}-abcde`, terminatedWith(1))],
      }),
    );
    expect(r).toMatchObject({ status: 'FAILED', reason: 'JobFailed', zetaJobId: '917', zetaJobStatus: 'FAILED' });
    expect(r.message).toMatch(/exit code 1: the Zeta job failed/);
    expect(r.message).toMatch(/table not found/);
  });

  test('OOMKilled master → FAILED with OOMKilled and the memory limit', () => {
    const r = deriveStatus(
      obs({
        job: job({ conditions: [{ type: 'Failed', reason: 'BackoffLimitExceeded' }] }),
        pods: [pod('master', 'm', terminatedWith(137, 'OOMKilled'), '2Gi')],
      }),
    );
    expect(r).toMatchObject({ status: 'FAILED', reason: 'OOMKilled' });
    expect(r.message).toMatch(/exceeding its memory limit \(2Gi\)/);
  });

  test('Failed from the Job condition alone (Pods gone): the condition reason and the exit code meaning', () => {
    const r = deriveStatus(
      obs({
        job: job({
          conditions: [
            {
              type: 'Failed',
              reason: 'PodFailurePolicy',
              message: 'Container seatunnel for pod jobs/x failed with exit code 3 matching FailJob rule at index 0',
            },
          ],
        }),
      }),
    );
    expect(r.status).toBe('FAILED');
    expect(r.reason).toMatch(/^exit code 3: infrastructure failure/);
    expect(r.message).toMatch(/PodFailurePolicy: Container seatunnel/);
  });

  test('CANCELED: runtime exit code 2 (on the Pod, or in the condition once the Pod is gone), or the phase / Zeta status annotation', () => {
    expect(
      deriveStatus(
        obs({
          job: job({ conditions: [{ type: 'Failed', reason: 'PodFailurePolicy' }] }),
          pods: [pod('master', 'm', terminatedWith(2))],
        }),
      ).status,
    ).toBe('CANCELED');
    expect(
      deriveStatus(
        obs({
          job: job({
            conditions: [
              {
                type: 'Failed',
                reason: 'PodFailurePolicy',
                message: 'Container seatunnel for pod jobs/x failed with exit code 2 matching FailJob rule at index 0',
              },
            ],
          }),
        }),
      ).status,
    ).toBe('CANCELED');
    expect(
      deriveStatus(
        obs({
          job: job({ conditions: [{ type: 'FailureTarget' }], annotations: { [ANNOTATIONS.phase]: 'Canceled' } }),
        }),
      ).status,
    ).toBe('CANCELED');
    expect(
      deriveStatus(
        obs({
          job: job({ conditions: [{ type: 'Failed' }], annotations: { [ANNOTATIONS.zetaJobStatus]: 'CANCELED' } }),
        }),
      ).status,
    ).toBe('CANCELED');
    // exit code 1 is a failure, not a cancellation
    expect(
      deriveStatus(
        obs({ job: job({ conditions: [{ type: 'Failed' }] }), pods: [pod('master', 'm', terminatedWith(1))] }),
      ).status,
    ).toBe('FAILED');
  });

  test('master Pod ended before the Job condition is recorded', () => {
    expect(deriveStatus(obs({ job: job(), pods: [pod('master', 'm', terminatedWith(5))] }))).toMatchObject({
      status: 'FAILED',
      reason: 'exit code 5: the Zeta master could not start or died',
    });
    expect(deriveStatus(obs({ job: job(), pods: [pod('master', 'm', { phase: 'Succeeded' })] })).status).toBe(
      'SUCCEEDED',
    );
  });

  test("the runtime's recorded success is the end, before the Pod or the Job shows it; its other phases are not", () => {
    const done = { [ANNOTATIONS.phase]: 'Succeeded', [ANNOTATIONS.finishedAt]: '2026-12-07T01:00:00.000Z' };
    expect(deriveStatus(obs({ job: job({ annotations: done }), pods: [pod('master', 'm', running)] }))).toMatchObject({
      status: 'SUCCEEDED',
      phase: 'Succeeded',
      finishedAt: '2026-12-07T01:00:00.000Z',
    });
    // Without finishedAt it is not the runtime's terminal record.
    const noEnd = { [ANNOTATIONS.phase]: 'Succeeded' };
    expect(deriveStatus(obs({ job: job({ annotations: noEnd }), pods: [pod('master', 'm', running)] })).status).toBe(
      'RUNNING',
    );
    // A recorded failure waits for the Pod's exit code or the Job's condition (cancel or failure).
    const failed = { [ANNOTATIONS.phase]: 'Failed', [ANNOTATIONS.finishedAt]: '2026-12-07T01:00:00.000Z' };
    expect(deriveStatus(obs({ job: job({ annotations: failed }), pods: [pod('master', 'm', running)] })).status).toBe(
      'RUNNING',
    );
    // What Kubernetes records later still decides: a Pod that failed after the record is FAILED.
    expect(
      deriveStatus(obs({ job: job({ annotations: done }), pods: [pod('master', 'm', terminatedWith(137))] })).status,
    ).toBe('FAILED');
  });

  test('a Job being deleted before it finished → CANCELED; a finished one keeps its outcome', () => {
    expect(deriveStatus(obs({ job: job({ deleting: true }), pods: [pod('master', 'm', running)] }))).toMatchObject({
      status: 'CANCELED',
      reason: 'Deleting',
    });
    expect(deriveStatus(obs({ job: job({ deleting: true, conditions: [{ type: 'Complete' }] }) })).status).toBe(
      'SUCCEEDED',
    );
  });

  test('suspended → CREATED', () => {
    expect(deriveStatus(obs({ job: job({ suspend: true }) }))).toMatchObject({
      status: 'CREATED',
      reason: 'Suspended',
    });
  });

  test('master Running → RUNNING with the phase, registered/desired workers and stuck workers', () => {
    const r = deriveStatus(
      obs({
        job: job({
          annotations: {
            [ANNOTATIONS.phase]: 'WaitingForWorkers',
            [ANNOTATIONS.workersRegistered]: '1',
            [ANNOTATIONS.workersDesired]: '3',
          },
        }),
        pods: [
          pod('master', 'm', running),
          pod('worker', 'w1', running),
          pod('worker', 'w2', unschedulable),
          pod('worker', 'w3', unschedulable),
        ],
      }),
    );
    expect(r).toMatchObject({
      status: 'RUNNING',
      phase: 'WaitingForWorkers',
      workers: { desired: 3, registered: 1, pods: 3, running: 1 },
    });
    expect(r.workers?.problems).toEqual(['2 Unschedulable: 0/3 nodes are available: 3 Insufficient cpu.']);
    expect(statusLines(r)).toEqual([
      'Status: RUNNING',
      'Message: workers not running: 2 Unschedulable: 0/3 nodes are available: 3 Insufficient cpu.',
      'Phase: WaitingForWorkers; workers 1/3 registered, 1/3 worker Pods running',
    ]);
  });

  test("the job's rows as the runtime recorded them from Zeta's metrics; a value it would not write is left out", () => {
    const withRows = (rows: string) =>
      deriveStatus(
        obs({
          job: job({ annotations: { [ANNOTATIONS.phase]: 'Running', [ANNOTATIONS.rows]: rows } }),
          pods: [pod('master', 'm', running)],
        }),
      );
    const r = withRows('{"read":1200,"written":1180,"perSecond":118,"at":"2026-01-01T00:00:10Z"}');
    expect(r.rows).toEqual({ read: 1200, written: 1180, perSecond: 118, at: '2026-01-01T00:00:10Z' });
    expect(statusLines(r)).toContain('Rows: 1200 read, 1180 written, 118 rows/s (recorded 2026-01-01T00:00:10Z)');
    expect(withRows('{"read":"many"}').rows).toBeUndefined();
  });

  test("workers waiting for an autoscaler's node → RUNNING with reason WaitingForNode, the runtime's account before the scheduler's", () => {
    const r = deriveStatus(
      obs({
        job: job({
          annotations: {
            [ANNOTATIONS.phase]: 'WaitingForWorkers',
            [ANNOTATIONS.workersRegistered]: '1',
            [ANNOTATIONS.workersDesired]: '2',
            [ANNOTATIONS.workersWaiting]: `1 waiting for a node (scale-up triggered) (${ID}-worker-2)`,
          },
        }),
        pods: [pod('master', 'm', running), pod('worker', 'w1', running), pod('worker', 'w2', unschedulable)],
      }),
    );
    expect(r).toMatchObject({
      status: 'RUNNING',
      reason: 'WaitingForNode',
      message: `workers: 1 waiting for a node (scale-up triggered) (${ID}-worker-2); workers not running: 1 Unschedulable: 0/3 nodes are available: 3 Insufficient cpu.`,
    });
  });

  test.each([
    ['Unschedulable with the scheduler message', unschedulable, 'Unschedulable', /0\/3 nodes are available/],
    ['ErrImagePull', waiting('ErrImagePull', 'pull access denied'), 'ErrImagePull', /pull access denied/],
    [
      'ImagePullBackOff of the init container',
      waiting('ImagePullBackOff', 'Back-off pulling image', true),
      'ImagePullBackOff',
      /install-runtime/,
    ],
    [
      'CreateContainerConfigError',
      waiting('CreateContainerConfigError', 'secret "db" not found'),
      'CreateContainerConfigError',
      /secret "db" not found/,
    ],
  ])('DEPLOYING: %s', (_n, status, reason, message) => {
    const r = deriveStatus(obs({ job: job(), pods: [pod('master', 'm', status)] }));
    expect(r).toMatchObject({ status: 'DEPLOYING', reason });
    expect(r.message).toMatch(message);
  });

  test("DEPLOYING without a master Pod: the Job controller's Warning event (e.g. quota), else waiting", () => {
    const events: Event[] = [
      {
        metadata: { name: 'e1' },
        involvedObject: {},
        type: 'Normal',
        reason: 'Whatever',
        lastTimestamp: '2026-01-01T00:00:03Z',
      },
      {
        metadata: { name: 'e2' },
        involvedObject: {},
        type: 'Warning',
        reason: 'FailedCreate',
        message: 'pods "x" is forbidden: exceeded quota: q',
        lastTimestamp: '2026-01-01T00:00:02Z',
      },
    ];
    expect(deriveStatus(obs({ job: job(), events }))).toMatchObject({
      status: 'DEPLOYING',
      reason: 'FailedCreate',
      message: expect.stringMatching(/exceeded quota/),
    });
    expect(deriveStatus(obs({ job: job() }))).toMatchObject({
      status: 'DEPLOYING',
      message: expect.stringMatching(/Job controller/),
    });
  });

  test('the newest master Pod that is not being deleted is the one that counts', () => {
    const old = {
      ...pod('master', 'old', terminatedWith(1)),
      metadata: {
        ...pod('master', 'old', {}).metadata,
        creationTimestamp: '2026-01-01T00:00:00Z',
        deletionTimestamp: '2026-01-01T00:01:00Z',
      },
    };
    const current = {
      ...pod('master', 'new', running),
      metadata: { ...pod('master', 'new', {}).metadata, creationTimestamp: '2026-01-01T00:02:00Z' },
    };
    expect(deriveStatus(obs({ job: job(), pods: [old, current] }))).toMatchObject({
      status: 'RUNNING',
      masterPod: 'new',
    });
  });
});

test('a worker loss stops the Zeta job (CANCELED in Zeta), yet the application FAILED: the runtime decides', () => {
  const failedPhase = {
    [ANNOTATIONS.phase]: 'Failed',
    [ANNOTATIONS.zetaJobStatus]: 'CANCELED',
    [ANNOTATIONS.reason]: 'WorkerLost',
  };
  expect(deriveStatus(obs({ job: job({ conditions: [{ type: 'Failed' }], annotations: failedPhase }) })).status).toBe(
    'FAILED',
  );
  expect(
    deriveStatus(
      obs({
        job: job({ conditions: [{ type: 'Failed', reason: 'PodFailurePolicy' }], annotations: failedPhase }),
        pods: [pod('master', 'm', terminatedWith(3))],
      }),
    ).status,
  ).toBe('FAILED');
});
