import { EXIT_CODES, LABELS } from '../../../lib/model/reserved';
import { plan } from '../../support/fixtures';
import { main, masterPod, workerPod } from './helpers';

describe('basic step', () => {
  const p = plan({ workerCpuCores: 0.5, workerMemoryMb: 2048, masterCpuCores: 2, imagePullSecrets: ['reg'] });

  test('the Job: suspended, one Pod, no retries, TTL from retention', () => {
    expect(p.job.metadata.name).toBe(p.spec.appId);
    expect(p.job.spec).toMatchObject({
      suspend: true,
      backoffLimit: 0,
      completions: 1,
      parallelism: 1,
      ttlSecondsAfterFinished: 86400,
    });
    expect(plan({}, { suspend: false }).job.spec!.suspend).toBe(false);
    expect(plan({ finishedJobRetentionSeconds: 60 }).job.spec!.ttlSecondsAfterFinished).toBe(60);
  });

  test('the exit-code contract ends the Job at once (podFailurePolicy)', () => {
    const rules = p.job.spec!.podFailurePolicy!.rules;
    expect(rules[0]).toEqual({
      action: 'FailJob',
      onExitCodes: {
        containerName: 'seatunnel',
        operator: 'In',
        values: [
          EXIT_CODES.jobFailed,
          EXIT_CODES.canceled,
          EXIT_CODES.infrastructure,
          EXIT_CODES.configuration,
          EXIT_CODES.engine,
        ],
      },
    });
  });

  test('both Pods: restartPolicy Never, 120 s grace, requests == limits', () => {
    for (const pod of [masterPod(p), workerPod(p)]) {
      expect(pod.restartPolicy).toBe('Never');
      expect(pod.terminationGracePeriodSeconds).toBe(120);
      const r = main(pod).resources!;
      expect(r.requests).toEqual(r.limits);
      expect(pod.imagePullSecrets).toEqual([{ name: 'reg' }]);
    }
    expect(main(workerPod(p)).resources!.limits).toEqual({ cpu: '500m', memory: '2048Mi' });
    expect(main(masterPod(p)).resources!.limits).toEqual({ cpu: '2', memory: '1024Mi' });
  });

  test('only the master mounts an API token', () => {
    expect(masterPod(p).automountServiceAccountToken).toBe(true);
    expect(workerPod(p).automountServiceAccountToken).toBe(false);
  });

  test('labels: SeaTunnel ownership and role labels plus app.kubernetes.io/*', () => {
    const labels = p.job.spec!.template.metadata!.labels!;
    expect(labels).toMatchObject({
      [LABELS.applicationId]: p.spec.appId,
      [LABELS.role]: 'master',
      'app.kubernetes.io/name': 'seatunnel',
      'app.kubernetes.io/instance': p.spec.appId,
      'app.kubernetes.io/managed-by': 'seatunnel-app',
    });
    expect(p.workerTemplate.template!.metadata!.labels).toMatchObject({
      [LABELS.applicationId]: p.spec.appId,
      [LABELS.role]: 'worker',
    });
  });

  test('per-role labels and annotations go on the right Pods only', () => {
    const q = plan({
      masterLabels: { m: '1' },
      workerLabels: { w: '1' },
      masterAnnotations: { ma: 'x' },
      workerAnnotations: { wa: 'y' },
      labels: { all: 'yes' },
    });
    expect(q.job.spec!.template.metadata).toMatchObject({ labels: { m: '1', all: 'yes' }, annotations: { ma: 'x' } });
    expect(q.job.spec!.template.metadata!.labels!.w).toBeUndefined();
    expect(q.workerTemplate.template!.metadata).toMatchObject({
      labels: { w: '1', all: 'yes' },
      annotations: { wa: 'y' },
    });
    expect(q.service.metadata.labels!.all).toBe('yes');
  });

  test('the Job names its worker template', () => {
    expect(p.job.metadata.annotations!['seatunnel.apache.org/worker-template']).toBe(p.workerTemplate.metadata.name);
  });
});
