// Stamping Pods from the plan (lib/plan/stamp.ts): the workers as the runtime creates them and as
// preflight dry-runs them, and the master Pod as the Job controller makes it.
import type { PodTemplate } from 'kubernetes-types/core/v1';
import { ENV, LABELS } from '../../../lib/model/reserved';
import {
  masterOwnerReference,
  stampMasterPod,
  stampWorker,
  stampWorkers,
  templateProblems,
  workerSelector,
} from '../../../lib/plan/stamp';
import { plan } from '../../support/fixtures';

const p = plan({
  applicationId: 'orders-0123456789ab',
  workerCount: 3,
  workerLabels: { team: 'data' },
  workerAnnotations: { 'example.com/a': 'b' },
});
const template = p.workerTemplate as PodTemplate;
const master = { name: 'orders-0123456789ab-x7k2p', uid: 'uid-master' };
const input = { appId: p.spec.appId, namespace: 'jobs', template, master, masterHost: '10.244.1.7', masterPort: 5801 };

function envOf(pod: ReturnType<typeof stampWorker>, name: string): string | undefined {
  return pod.spec!.containers[0].env!.find((e) => e.name === name)?.value;
}

test('name, namespace, labels and annotations from the template, owner = the master Pod', () => {
  const w = stampWorker(input, 2);
  expect(w.metadata.name).toBe('orders-0123456789ab-worker-2');
  expect(w.metadata.namespace).toBe('jobs');
  expect(w.metadata.labels).toEqual({ ...template.template!.metadata!.labels });
  expect(w.metadata.labels!.team).toBe('data');
  expect(w.metadata.annotations).toEqual({ 'example.com/a': 'b' });
  expect(w.metadata.ownerReferences).toEqual([
    {
      apiVersion: 'v1',
      kind: 'Pod',
      name: master.name,
      uid: 'uid-master',
      controller: false,
      blockOwnerDeletion: false,
    },
  ]);
  expect(masterOwnerReference(master)).toEqual(w.metadata.ownerReferences![0]);
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
  for (const e of stampedBack.containers[0].env!)
    if (e.name === 'ST_DOCKER_MEMBER_LIST' || e.name === 'SEATUNNEL_APPLICATION_MASTER_ADDRESS') e.value = '';
  expect(stampedBack).toEqual(template.template!.spec);
});

test('fields the runtime does not know are kept (the template may be newer than the runtime)', () => {
  const t = structuredClone(template) as PodTemplate & { template: { spec: Record<string, unknown> } };
  t.template.spec.someFutureField = { x: 1 };
  (t.template.spec.containers as unknown as Array<Record<string, unknown>>)[0].anotherOne = [1, 2];
  const w = stampWorker({ ...input, template: t }, 1) as unknown as {
    spec: Record<string, unknown> & { containers: Array<Record<string, unknown>> };
  };
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
  expect(w.metadata.labels!['seatunnel.apache.org/role']).toBe('worker');
  expect(workerSelector('a')).toBe('seatunnel.apache.org/application-id=a,seatunnel.apache.org/role=worker');
});

test('a template whose containers do not carry the master address env is refused', () => {
  const t = structuredClone(template);
  t.template!.spec!.containers[0].env = [];
  expect(templateProblems(t)).toHaveLength(1);
  expect(() => stampWorker({ ...input, template: t }, 1)).toThrow(
    /cannot be used: no container has SEATUNNEL_APPLICATION_MASTER_ADDRESS/,
  );
  expect(templateProblems({ template: {} })).toEqual(['it has no Pod spec with containers']);
});

describe('worker stamping', () => {
  const p = plan({ workerCount: 3, workerLabels: { pool: 'batch' }, workerAnnotations: { 'example.com/a': 'b' } });

  test('N workers named <appId>-worker-<n>, n from 1, with the template labels and annotations, no owner for a dry run', () => {
    const workers = stampWorkers(p);
    expect(workers.map((w) => w.metadata.name)).toEqual([1, 2, 3].map((n) => `${p.spec.appId}-worker-${n}`));
    for (const w of workers) {
      expect(w).toMatchObject({ apiVersion: 'v1', kind: 'Pod' });
      expect(w.metadata.namespace).toBe(p.spec.namespace);
      expect(w.metadata.labels).toEqual(p.workerTemplate.template!.metadata!.labels);
      expect(w.metadata.labels).toMatchObject({
        [LABELS.applicationId]: p.spec.appId,
        [LABELS.role]: 'worker',
        pool: 'batch',
      });
      expect(w.metadata.annotations).toEqual({ 'example.com/a': 'b' });
      expect(w.metadata.ownerReferences).toBeUndefined();
      expect(w.spec).toEqual(p.workerTemplate.template!.spec);
    }
  });

  test('the spec is a copy: stamping never changes the template', () => {
    const before = JSON.stringify(p.workerTemplate);
    const w = stampWorker(
      {
        template: p.workerTemplate,
        appId: p.spec.appId,
        namespace: p.spec.namespace,
        masterHost: '10.0.0.1',
        masterPort: 5801,
      },
      1,
    );
    w.spec!.containers[0].image = 'changed';
    expect(JSON.stringify(p.workerTemplate)).toBe(before);
  });

  test('at run time: owner reference and master address are stamped in', () => {
    const w = stampWorker(
      {
        template: p.workerTemplate,
        appId: p.spec.appId,
        namespace: p.spec.namespace,
        master: { name: 'master', uid: 'u-1' },
        masterHost: '10.244.0.7',
        masterPort: 5801,
      },
      2,
    );
    expect(w.metadata.ownerReferences).toEqual([
      { apiVersion: 'v1', kind: 'Pod', name: 'master', uid: 'u-1', controller: false, blockOwnerDeletion: false },
    ]);
    const env = w.spec!.containers.find((c) => c.name === 'seatunnel')!.env!;
    expect(env.find((e) => e.name === ENV.masterAddress)?.value).toBe('10.244.0.7:5801');
    expect(env.find((e) => e.name === ENV.memberList)?.value).toBe('10.244.0.7:5801');
  });

  test('the master Pod as the Job controller creates it', () => {
    const m = stampMasterPod(p.job);
    expect(m.metadata.generateName).toBe(`${p.spec.appId}-`);
    expect(m.metadata.labels).toMatchObject({
      ...p.job.spec!.template.metadata!.labels,
      'batch.kubernetes.io/job-name': p.spec.appId,
    });
    expect(m.spec).toEqual(p.job.spec!.template.spec);
    expect(m.spec!.initContainers?.map((c) => c.name)).toEqual(['install-runtime']);
  });
});
