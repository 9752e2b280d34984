// Why the master Pod was asked to stop, from what the API says (a user's cancel or the kubelet's kill).
import { ANNOTATIONS } from 'seatunnel-app/runtime-support';
import { stopCauseOf, type StopEvidence } from '../../src/stop-cause';

const JOB = { metadata: { name: 'app-1' } };
const POD = { metadata: { name: 'app-1-m' } };
const deleting = { deletionTimestamp: '2026-01-01T00:00:00Z' };
const disrupted = (reason: string) => ({
  ...POD,
  metadata: { ...POD.metadata, ...deleting },
  status: { conditions: [{ type: 'DisruptionTarget', status: 'True', reason, message: `by ${reason}` }] },
});
const killing = (message: string) => ({ reason: 'Killing', message, metadata: { name: 'e' }, involvedObject: {} });

test.each<[string, StopEvidence, string]>([
  ['the Job gone (cancel deleted it)', { job: undefined, pod: POD, events: [] }, 'application-deleted'],
  [
    'the Job being deleted',
    { job: { metadata: { ...JOB.metadata, ...deleting } }, pod: POD, events: [] },
    'application-deleted',
  ],
  [
    'cancel --savepoint annotated the Job',
    {
      job: { metadata: { ...JOB.metadata, annotations: { [ANNOTATIONS.cancelRequested]: 'savepoint' } } },
      pod: POD,
      events: [],
    },
    'application-deleted',
  ],
  [
    'this Pod deleted, nothing else said',
    { job: JOB, pod: { metadata: { ...POD.metadata, ...deleting } }, events: [] },
    'pod-deleted',
  ],
  ['this Pod gone', { job: JOB, pod: undefined, events: [] }, 'pod-deleted'],
  ['evicted (DisruptionTarget)', { job: JOB, pod: disrupted('EvictionByEvictionAPI'), events: [] }, 'disruption'],
  [
    'a cancel wins over an eviction seen at the same time',
    { job: undefined, pod: disrupted('EvictionByEvictionAPI'), events: [] },
    'application-deleted',
  ],
  [
    'killed for a failed liveness probe',
    { job: JOB, pod: POD, events: [killing('Container seatunnel failed liveness probe, will be restarted')] },
    'probe',
  ],
  [
    'killed for a failed startup probe',
    { job: JOB, pod: POD, events: [killing('Container seatunnel failed startup probe, will be restarted')] },
    'probe',
  ],
  [
    'a Killing Event that is not a probe says nothing',
    { job: JOB, pod: POD, events: [killing('Stopping container seatunnel')] },
    'unknown',
  ],
  ['nothing in the API', { job: JOB, pod: POD, events: [] }, 'unknown'],
])('%s → %s', (_name, evidence, kind) => {
  expect(stopCauseOf(evidence).kind).toBe(kind);
});

test('a disruption carries its reason and message', () => {
  expect(stopCauseOf({ job: JOB, pod: disrupted('PreemptionByScheduler'), events: [] })).toEqual({
    kind: 'disruption',
    reason: 'PreemptionByScheduler',
    message: 'by PreemptionByScheduler',
  });
});
