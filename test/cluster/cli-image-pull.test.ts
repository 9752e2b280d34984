// A master Pod that cannot pull its image (issue 28 item 8): no runtime starts, so nothing in the
// cluster ends the application. `status` says DEPLOYING with the kubelet's reason while the pull is
// retried, and after application.image-pull-retry-millis (recorded on the Job) FAILED with
// ImagePullFailed and what to do — so `status --wait` without --wait-timeout returns (exit 1). The
// Pod's state is set through its status subresource on a Pod kwok leaves alone.
import { LABELS } from '../../lib/model/reserved';
import {
  KWOK_LIFECYCLE_ANNOTATION,
  patchPodStatus,
  useTestNamespace,
  waitFor,
  withComponentLogs,
} from '../support/cluster';
import { deploymentFiles, labelled, run, waitAllGone } from './cli-support';

const ns = useTestNamespace('cli-image-pull');

test(
  'ErrImagePull on the init container: DEPLOYING, then FAILED ImagePullFailed after the bound; status --wait returns',
  withComponentLogs(async () => {
    const files = deploymentFiles(
      ns.name,
      `application.image-pull-retry-millis = 15000
kubernetes.master.annotations { "${KWOK_LIFECYCLE_ANNOTATION}" = "manual" }`,
    );
    const submitted = await run(['submit', ...files.args]);
    expect(submitted.code).toBe(0);
    const appId = submitted.value('Application ID')!;
    const master = await waitFor(
      async () =>
        [...(await labelled(ns.name, appId))]
          .filter(([k, o]) => k.startsWith('Pod/') && o.metadata.labels?.[LABELS.role] === 'master')
          .map(([, o]) => o)
          .find((p) => (p as { spec?: { nodeName?: string } }).spec?.nodeName),
      { description: `the scheduled master Pod of ${appId}` },
    );
    await patchPodStatus(ns.name, master.metadata.name, {
      phase: 'Pending',
      startTime: new Date().toISOString(),
      initContainerStatuses: [
        {
          name: 'install-runtime',
          ready: false,
          restartCount: 0,
          image: 'seatunnel-app-runtime:0.1.0',
          imageID: '',
          state: { waiting: { reason: 'ErrImagePull', message: 'pull access denied for seatunnel-app-runtime' } },
        },
      ],
    });
    const status = () => run(['status', '--id', appId, '-a', files.deploy]);
    const deploying = await waitFor(
      async () => {
        const s = await status();
        return s.value('Reason') === 'ErrImagePull' ? s : undefined;
      },
      { description: 'status to show ErrImagePull' },
    );
    expect(deploying.value('Status')).toBe('DEPLOYING');

    // No --wait-timeout: it returns because status gives up on the pull.
    const waited = await run(['status', '--id', appId, '-a', files.deploy, '--wait']);
    expect(waited.code).toBe(1);
    expect([waited.value('Status'), waited.value('Reason')]).toEqual(['FAILED', 'ImagePullFailed']);
    expect(waited.value('Message')).toMatch(
      new RegExp(
        `master Pod ${master.metadata.name}: container "install-runtime" could not pull image "[^"]+" for \\d+ s \\(ErrImagePull: pull access denied for seatunnel-app-runtime\\); build the runtime image with \`npm run image\` in a checkout of this release and load it into the container runtime of the nodes, or push it to a registry the nodes can reach .*docs/runtime.md.*seatunnel-app cancel --id ${appId}`,
      ),
    );
    const listed = await run(['list', '-a', files.deploy]);
    expect(listed.out.find((l) => l.startsWith(appId))).toMatch(/\bFAILED\b/);

    const cancelled = await run(['cancel', '--id', appId, '-a', files.deploy]);
    expect([cancelled.code, cancelled.err]).toEqual([0, []]);
    await waitAllGone(ns.name, appId);
  }),
);
