// A master Pod that cannot pull its image (issue 28 item 8): DEPLOYING with ErrImagePull /
// ImagePullBackOff while the kubelet retries, then FAILED with ImagePullFailed after the bound the
// plan records on the Job (application.image-pull-retry-millis), with one sentence on what to do.
import type { Job } from 'kubernetes-types/batch/v1';
import type { Pod } from 'kubernetes-types/core/v1';
import { preflightLines } from '../../../lib/cli/commands/preflight';
import { ANNOTATIONS } from '../../../lib/contract';
import { applicationImages, type PreflightReport } from '../../../lib/submit/admit/preflight-judge';
import { imagePullBoundMs, judgeJobPodImagePull } from '../../../lib/submit/observe/image-pull';
import { deriveStatus, TERMINAL_STATUSES } from '../../../lib/submit/observe/status';
import { plan } from '../../support/fixtures';

const START = Date.parse('2026-01-01T00:00:00Z');

const job = (bound?: string): Job => ({
  metadata: { name: 'app', annotations: bound === undefined ? {} : { [ANNOTATIONS.imagePullRetryMillis]: bound } },
  spec: { template: { spec: { containers: [] } } },
});

function master(waiting: { reason: string; message?: string }, where: 'init' | 'main' = 'init'): Pod {
  const status = { name: where === 'init' ? 'install-runtime' : 'seatunnel', state: { waiting } };
  return {
    metadata: {
      name: 'app-m',
      labels: { 'seatunnel.apache.org/role': 'master' },
      creationTimestamp: new Date(START - 5000).toISOString(),
    },
    spec: {
      initContainers: [{ name: 'install-runtime', image: 'seatunnel-app-runtime:0.1.0' }],
      containers: [{ name: 'seatunnel', image: 'apache/seatunnel:2.3.8' }],
    },
    status: {
      phase: 'Pending',
      startTime: new Date(START).toISOString(),
      ...(where === 'init' ? { initContainerStatuses: [status] } : { containerStatuses: [status] }),
    },
  } as unknown as Pod;
}

const observe = (j: Job, pod: Pod, readAt?: number) =>
  deriveStatus({ applicationId: 'app', namespace: 'ns', job: j, pods: [pod], ...(readAt ? { readAt } : {}) });

test('the plan records the bound on the Job; a Job without it gets the documented default (60 s)', () => {
  expect(plan({ imagePullRetryMillis: 5000 }).job.metadata.annotations![ANNOTATIONS.imagePullRetryMillis]).toBe('5000');
  expect(imagePullBoundMs(job('5000'))).toBe(5000);
  expect(imagePullBoundMs(job())).toBe(60_000);
  expect(imagePullBoundMs(job('soon'))).toBe(60_000);
});

test('within the bound: DEPLOYING with the kubelet reason; past it: FAILED ImagePullFailed, which ends status --wait', () => {
  const pod = master({ reason: 'ImagePullBackOff', message: 'Back-off pulling image "seatunnel-app-runtime:0.1.0"' });
  const before = observe(job('60000'), pod, START + 59_000);
  expect([before.status, before.reason]).toEqual(['DEPLOYING', 'ImagePullBackOff']);
  const after = observe(job('60000'), pod, START + 61_000);
  expect([after.status, after.reason]).toEqual(['FAILED', 'ImagePullFailed']);
  expect(TERMINAL_STATUSES.has(after.status)).toBe(true);
  expect(after.message).toBe(
    'master Pod app-m: container "install-runtime" could not pull image "seatunnel-app-runtime:0.1.0" for 61 s ' +
      '(ImagePullBackOff: Back-off pulling image "seatunnel-app-runtime:0.1.0"); build the runtime image with ' +
      '`npm run image` in a checkout of this release and load it into the container runtime of the nodes, or push ' +
      'it to a registry the nodes can reach and name it in kubernetes.runtime.image (docs/runtime.md, "Delivery"), ' +
      'then `seatunnel-app cancel --id app` and submit again',
  );
});

test("the main container's pull counts too; other waiting reasons and a read without a time do not give up", () => {
  const main = master({ reason: 'ErrImagePull', message: 'not found' }, 'main');
  expect(judgeJobPodImagePull(main, 1000, START + 2000, 'app')?.message).toMatch(
    /container "seatunnel" could not pull image "apache\/seatunnel:2.3.8" for 2 s \(ErrImagePull: not found\)/,
  );
  expect(judgeJobPodImagePull(master({ reason: 'CreateContainerConfigError' }), 0, START + 10_000, 'app')).toBe(
    undefined,
  );
  expect(judgeJobPodImagePull(master({ reason: 'PodInitializing' }), 0, START + 10_000, 'app')).toBe(undefined);
  expect(observe(job('0'), main).status).toBe('DEPLOYING');
});

test('a Pod not yet on a node is measured from its creation', () => {
  const pod = master({ reason: 'ErrImagePull' });
  delete pod.status!.startTime;
  expect(judgeJobPodImagePull(pod, 5000, START + 1000, 'app')).toMatchObject({ reason: 'ImagePullFailed' });
  expect(judgeJobPodImagePull(pod, 7000, START + 1000, 'app')).toBe(undefined);
});

test('preflight names every image the nodes must pull, and what to do when one cannot be (a dry run cannot tell)', () => {
  const p = plan({ haEnabled: true, haMasters: 3, checkpointPvc: 'ckpt' });
  const images = applicationImages(p);
  const all = [p.job.spec!.template.spec!, p.workerTemplate.template!.spec!, p.masters!.spec!.template.spec!].flatMap(
    (s) => [...(s.initContainers ?? []), ...s.containers].map((c) => c.image),
  );
  expect(images).toEqual([...new Set(all)]);
  expect(images.length).toBeGreaterThanOrEqual(2); // the SeaTunnel image and the runtime image
  const report = {
    footprint: { pods: 1, workers: 0, requests: {}, limits: {} },
    checked: { dryRunObjects: 0, dryRunPods: 0, resourceQuotas: 0, limitRanges: 0, permissions: 0, references: 0 },
    notes: [],
    problems: [],
    ok: true,
    images,
  } as unknown as PreflightReport;
  expect(preflightLines(report)).toContainEqual(
    `Images: ${images.join(', ')} (pulled by the nodes when the application starts; if a node cannot pull one, load the image into the container runtime of the nodes, or push it to a registry the nodes can reach and name it there (docs/runtime.md, "Delivery"); seatunnel-app-runtime:0.1.0 is built by \`npm run image\` in a checkout of this release)`,
  );
  // A runtime image the user named (their registry's) gets no such note.
  const own = { ...report, images: ['apache/seatunnel:2.3.8', 'registry.example/team/runtime:7'] } as PreflightReport;
  expect(preflightLines(own).find((l) => l.startsWith('Images: '))).not.toContain('npm run image');
});
