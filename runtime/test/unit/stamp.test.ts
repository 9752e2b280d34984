import type { PodTemplate } from 'kubernetes-types/core/v1';
import { RuntimeFailure } from '../../src/outcome';
import { masterOwnerReference, stampWorker, templateProblems, workerSelector } from '../../src/workers/stamp';
import { plan } from '../../../test/support/fixtures';

const p = plan({ applicationId: 'orders-0123456789ab', workerCount: 3, workerLabels: { team: 'data' }, workerAnnotations: { 'example.com/a': 'b' } });
const template = p.workerTemplate as PodTemplate;
const master = { name: 'orders-0123456789ab-x7k2p', uid: 'uid-master' };
const input = { appId: p.spec.appId, namespace: 'jobs', template, master, masterHost: '10.244.1.7', masterPort: 5801 };

function envOf(pod: ReturnType<typeof stampWorker>, name: string): string | undefined {
  return pod.spec!.containers[0].env!.find((e) => e.name === name)?.value;
}

test('name, namespace, labels and annotations from the template, owner = the master Pod', () => {
  const w = stampWorker(input, 2);
  expect(w.metadata!.name).toBe('orders-0123456789ab-worker-2');
  expect(w.metadata!.namespace).toBe('jobs');
  expect(w.metadata!.labels).toEqual({ ...template.template!.metadata!.labels });
  expect(w.metadata!.labels!.team).toBe('data');
  expect(w.metadata!.annotations).toEqual({ 'example.com/a': 'b' });
  expect(w.metadata!.ownerReferences).toEqual([{ apiVersion: 'v1', kind: 'Pod', name: master.name, uid: 'uid-master', controller: false, blockOwnerDeletion: false }]);
  expect(masterOwnerReference(master)).toEqual(w.metadata!.ownerReferences![0]);
});

test('the master address is stamped into SEATUNNEL_APPLICATION_MASTER_ADDRESS and ST_DOCKER_MEMBER_LIST', () => {
  const w = stampWorker(input, 1);
  expect(envOf(w, 'SEATUNNEL_APPLICATION_MASTER_ADDRESS')).toBe('10.244.1.7:5801');
  expect(envOf(w, 'ST_DOCKER_MEMBER_LIST')).toBe('10.244.1.7:5801');
  const v6 = stampWorker({ ...input, masterHost: 'fd00::1:7' }, 1);
  expect(envOf(v6, 'ST_DOCKER_MEMBER_LIST')).toBe('[fd00::1:7]:5801');
});

test('builds no spec of its own: apart from the stamped values the spec is the template verbatim', () => {
  const w = stampWorker(input, 3);
  const stampedBack = structuredClone(w.spec!);
  for (const e of stampedBack.containers[0].env!) if (e.name === 'ST_DOCKER_MEMBER_LIST' || e.name === 'SEATUNNEL_APPLICATION_MASTER_ADDRESS') e.value = '';
  expect(stampedBack).toEqual(template.template!.spec);
});

test('fields the runtime does not know are kept (the template may be newer than the runtime)', () => {
  const t = structuredClone(template) as PodTemplate & { template: { spec: Record<string, unknown> } };
  t.template.spec.someFutureField = { x: 1 };
  (t.template.spec.containers as unknown as Array<Record<string, unknown>>)[0].anotherOne = [1, 2];
  const w = stampWorker({ ...input, template: t }, 1) as unknown as { spec: Record<string, unknown> & { containers: Array<Record<string, unknown>> } };
  expect(w.spec.someFutureField).toEqual({ x: 1 });
  expect(w.spec.containers[0].anotherOne).toEqual([1, 2]);
});

test('the template is not modified', () => {
  const before = JSON.stringify(template);
  stampWorker(input, 1);
  expect(JSON.stringify(template)).toBe(before);
});

test('the selector labels are enforced even if a template lost them', () => {
  const t = structuredClone(template);
  delete t.template!.metadata!.labels!['seatunnel.apache.org/role'];
  const w = stampWorker({ ...input, template: t }, 1);
  expect(w.metadata!.labels!['seatunnel.apache.org/role']).toBe('worker');
  expect(workerSelector('a')).toBe('seatunnel.apache.org/application-id=a,seatunnel.apache.org/role=worker');
});

test('a template whose containers do not carry the master address env is refused', () => {
  const t = structuredClone(template);
  t.template!.spec!.containers[0].env = [];
  expect(templateProblems(t)).toHaveLength(1);
  expect(() => stampWorker({ ...input, template: t }, 1)).toThrow(RuntimeFailure);
  try {
    stampWorker({ ...input, template: t }, 1);
  } catch (e) {
    expect((e as RuntimeFailure).reason).toBe('InvalidWorkerTemplate');
  }
  expect(templateProblems({ template: {} } as PodTemplate)).toEqual(['it has no Pod spec with containers']);
});
