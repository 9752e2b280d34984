// The Pods preflight dry-runs and sizes: N workers stamped from the worker PodTemplate exactly as
// the runtime stamps them, and the master Pod as the Job controller makes it.
import { ENV, LABELS } from '../../../lib/model/reserved';
import { stampMasterPod, stampWorker, stampWorkers } from '../../../lib/submit/stamp';
import { plan } from '../../support/fixtures';

describe('worker stamping', () => {
  const p = plan({ workerCount: 3, workerLabels: { pool: 'batch' }, workerAnnotations: { 'example.com/a': 'b' } });

  test('N workers named <appId>-worker-<n>, n from 1, with the template labels and annotations, no owner for a dry run', () => {
    const workers = stampWorkers(p);
    expect(workers.map((w) => w.metadata.name)).toEqual([1, 2, 3].map((n) => `${p.spec.appId}-worker-${n}`));
    for (const w of workers) {
      expect(w).toMatchObject({ apiVersion: 'v1', kind: 'Pod' });
      expect(w.metadata.namespace).toBe(p.spec.namespace);
      expect(w.metadata.labels).toEqual(p.workerTemplate.template!.metadata!.labels);
      expect(w.metadata.labels).toMatchObject({ [LABELS.applicationId]: p.spec.appId, [LABELS.role]: 'worker', pool: 'batch' });
      expect(w.metadata.annotations).toEqual({ 'example.com/a': 'b' });
      expect(w.metadata.ownerReferences).toBeUndefined();
      expect(w.spec).toEqual(p.workerTemplate.template!.spec);
    }
  });

  test('the spec is a copy: stamping never changes the template', () => {
    const before = JSON.stringify(p.workerTemplate);
    const w = stampWorker(p.workerTemplate, p.spec.appId, 1, { masterAddress: '10.0.0.1:5801' });
    w.spec!.containers[0].image = 'changed';
    expect(JSON.stringify(p.workerTemplate)).toBe(before);
  });

  test('at run time: owner reference and master address are stamped in', () => {
    const owner = { apiVersion: 'v1', kind: 'Pod', name: 'master', uid: 'u-1', controller: true, blockOwnerDeletion: true };
    const w = stampWorker(p.workerTemplate, p.spec.appId, 2, { owner, masterAddress: '10.244.0.7:5801' });
    expect(w.metadata.ownerReferences).toEqual([owner]);
    const env = w.spec!.containers.find((c) => c.name === 'seatunnel')!.env!;
    expect(env.find((e) => e.name === ENV.masterAddress)?.value).toBe('10.244.0.7:5801');
    expect(env.find((e) => e.name === ENV.memberList)?.value).toBe('10.244.0.7:5801');
  });

  test('the master Pod as the Job controller creates it', () => {
    const m = stampMasterPod(p.job);
    expect(m.metadata.generateName).toBe(`${p.spec.appId}-`);
    expect(m.metadata.labels).toMatchObject({ ...p.job.spec!.template.metadata!.labels, 'batch.kubernetes.io/job-name': p.spec.appId });
    expect(m.spec).toEqual(p.job.spec!.template.spec);
    expect(m.spec!.initContainers?.map((c) => c.name)).toEqual(['install-runtime']);
  });
});
