// list's join and derivation: each application's line is what status derives from the same
// objects (applicationStatus), the status filter, Pods without a Job, events per Job; the table.
import type { Job } from 'kubernetes-types/batch/v1';
import type { Event, Pod } from 'kubernetes-types/core/v1';
import { age, listTable } from '../../../lib/cli/commands/list';
import { table } from '../../../lib/cli/output';
import { LABELS, MANAGED_BY } from '../../../lib/model/reserved';
import { ANNOTATIONS } from '../../../lib/contract';
import { deriveList, jobSelector } from '../../../lib/submit/observe/list';
import { applicationStatus } from '../../../lib/submit/observe/status';
import { parseStatusFilter } from '../../../lib/submit/observe/statuses';

const NOW = Date.parse('2026-01-02T00:00:00Z');

function job(
  ns: string,
  id: string,
  o: { suspend?: boolean; conditions?: string[]; annotations?: Record<string, string>; uid?: string } = {},
): Job {
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: {
      name: id,
      namespace: ns,
      uid: o.uid ?? `uid-${id}`,
      creationTimestamp: '2026-01-01T22:30:00Z',
      labels: { [LABELS.applicationId]: id, [LABELS.managedBy]: MANAGED_BY },
      annotations: { [ANNOTATIONS.applicationName]: `name of ${id}`, ...o.annotations },
    },
    spec: { suspend: o.suspend ?? false, template: { spec: { containers: [] } } },
    status: { conditions: (o.conditions ?? []).map((type) => ({ type, status: 'True' })) },
  };
}

function pod(ns: string, id: string, role: 'master' | 'worker', name: string, phase: string, exitCode?: number): Pod {
  return {
    metadata: {
      name,
      namespace: ns,
      labels: { [LABELS.applicationId]: id, [LABELS.role]: role },
      creationTimestamp: '2026-01-01T22:30:01Z',
    },
    spec: { containers: [{ name: 'seatunnel' }] },
    status: {
      phase,
      containerStatuses: [
        {
          name: 'seatunnel',
          ready: phase === 'Running',
          restartCount: 0,
          image: 'x',
          imageID: '',
          state: exitCode === undefined ? { running: {} } : { terminated: { exitCode } },
        },
      ],
    },
  };
}

const running = job('a', 'run-1', {
  annotations: {
    [ANNOTATIONS.phase]: 'Running',
    [ANNOTATIONS.workersDesired]: '2',
    [ANNOTATIONS.workersRegistered]: '2',
    [ANNOTATIONS.zetaJobId]: '917',
    [ANNOTATIONS.rows]: '{"read":1200,"written":1180,"perSecond":118,"at":"2026-01-01T00:00:00Z"}',
  },
});
const failed = job('a', 'fail-1', { conditions: ['Failed'], annotations: { [ANNOTATIONS.reason]: 'WorkerLost' } });
const canceled = job('a', 'cancel-1', { conditions: ['Failed'] });
const waiting = job('b', 'wait-1');
const created = job('b', 'created-1', { suspend: true });
const succeeded = job('b', 'done-1', { conditions: ['Complete'] });
const jobs = [running, failed, canceled, waiting, created, succeeded];
const pods = [
  pod('a', 'run-1', 'master', 'run-1-m', 'Running'),
  pod('a', 'run-1', 'worker', 'run-1-worker-1', 'Running'),
  pod('a', 'run-1', 'worker', 'run-1-worker-2', 'Running'),
  pod('a', 'fail-1', 'master', 'fail-1-m', 'Failed', 3),
  pod('a', 'cancel-1', 'master', 'cancel-1-m', 'Failed', 2),
  // the same ID in another namespace is another application
  pod('b', 'run-1', 'worker', 'run-1-worker-9', 'Running'),
];
const quota = (name: string, uid: string): Event => ({
  metadata: { name: `${name}.1`, namespace: 'b' },
  involvedObject: { kind: 'Job', name, namespace: 'b', uid },
  type: 'Warning',
  reason: 'FailedCreate',
  message: 'exceeded quota: pods',
  lastTimestamp: '2026-01-01T22:31:00Z',
});

describe('deriveList', () => {
  const events = [quota('wait-1', 'uid-wait-1'), quota('wait-1', 'an-earlier-job')];
  const reports = deriveList({ jobs, pods, events });

  test('each application is reported exactly as status derives it from its own objects', () => {
    const byKey = new Map(reports.map((r) => [`${r.namespace}/${r.applicationId}`, r]));
    for (const j of jobs) {
      const ns = j.metadata!.namespace!;
      const id = j.metadata!.name!;
      const own = pods.filter((p) => p.metadata!.namespace === ns && p.metadata!.labels![LABELS.applicationId] === id);
      const ownEvents = events.filter((e) => e.involvedObject.name === id);
      expect(byKey.get(`${ns}/${id}`)).toEqual(applicationStatus(id, ns, j, own, ownEvents));
    }
  });

  test('statuses, sorted by namespace then ID; Pods without a Job are UNKNOWN', () => {
    expect(reports.map((r) => `${r.namespace}/${r.applicationId} ${r.status}`)).toEqual([
      'a/cancel-1 CANCELED',
      'a/fail-1 FAILED',
      'a/run-1 RUNNING',
      'b/created-1 CREATED',
      'b/done-1 SUCCEEDED',
      'b/run-1 UNKNOWN',
      'b/wait-1 DEPLOYING',
    ]);
    expect(reports.find((r) => r.applicationId === 'wait-1')).toMatchObject({
      reason: 'FailedCreate',
      message: 'exceeded quota: pods',
    });
    expect(reports.find((r) => r.applicationId === 'run-1')).toMatchObject({
      name: 'name of run-1',
      createdAt: '2026-01-01T22:30:00Z',
      zetaJobId: '917',
    });
  });

  test('the status filter keeps only the statuses asked for', () => {
    const r = deriveList({ jobs, pods }, { statuses: parseStatusFilter('failed,CANCELED') });
    expect(r.map((x) => x.applicationId)).toEqual(['cancel-1', 'fail-1']);
    expect(deriveList({ jobs, pods }, { statuses: new Set() })).toHaveLength(7);
    // With a label selector the Jobs it left out would look like Pods without a Job: not reported.
    expect(deriveList({ jobs: [running], pods }, { jobless: false }).map((x) => x.applicationId)).toEqual(['run-1']);
  });

  test('the Jobs selector is the application label, then the user selector', () => {
    expect(jobSelector()).toBe(`${LABELS.managedBy}=${MANAGED_BY},${LABELS.applicationId}`);
    expect(jobSelector(' team in (a,b) ')).toBe(
      `${LABELS.managedBy}=${MANAGED_BY},${LABELS.applicationId},team in (a,b)`,
    );
  });
});

describe('the table', () => {
  test('aligned columns; NAMESPACE across namespaces; "-" for what is not known', () => {
    const own = pods.filter((p) => p.metadata!.namespace === 'a' && p.metadata!.name!.startsWith('run-1'));
    const lines = listTable(deriveList({ jobs: [running, created], pods: own }), NOW, false);
    expect(lines).toEqual([
      'ID         STATUS   PHASE    WORKERS  ROWS  JOB ID  AGE    NAME',
      'run-1      RUNNING  Running  2/2      1180  917     1h30m  name of run-1',
      'created-1  CREATED  -        -        -     -       1h30m  name of created-1',
    ]);
    const all = listTable(deriveList({ jobs: [running], pods: own }), NOW, true);
    expect(all[0]).toMatch(/^NAMESPACE {2}ID/);
    expect(all[1]).toMatch(/^a {10}run-1/);
  });

  test('control characters from the cluster are escaped before the widths are measured', () => {
    const lines = table([
      ['A', 'B'],
      ['x\u001b[2J', 'y'],
    ]);
    expect(lines).toEqual(['A           B', 'x\\u001b[2J  y']);
  });

  test('age like kubectl', () => {
    const at = (s: number) => new Date(NOW - s * 1000).toISOString();
    expect([
      age(at(5), NOW),
      age(at(125), NOW),
      age(at(3600), NOW),
      age(at(90000), NOW),
      age(at(86400 * 12), NOW),
      age(undefined, NOW),
      age(at(-5), NOW),
    ]).toEqual(['5s', '2m5s', '1h', '1d1h', '12d', '-', '0s']);
  });
});
