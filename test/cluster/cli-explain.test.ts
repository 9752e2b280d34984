// `seatunnel-app status --explain` against the real runtime (the bundle as a local process with
// the master Pod's environment, the engine stand-in; runtime/test/support/application.ts): the
// runtime writes its Events and annotations on the Job as it does in the Pod, the Job controller
// its own, and the story is told before and after the worker Pods are deleted.
import type { Pod } from 'kubernetes-types/core/v1';
import { EXIT_CODES } from '../../lib/model/reserved';
import { ANNOTATIONS } from '../../lib/contract';
import type { Timeline } from '../../lib/submit/observe/timeline';
import {
  deleteApplication,
  deployApplication,
  expectNoWorkersLeft,
  jobAnnotations,
  jobEvents,
  startRuntime,
  waitForExit,
  waitForStandIn,
  workerPods,
  type Deployed,
  type RuntimeRun,
} from '../../runtime/test/support/application';
import { adminHttp, patchPodStatus, useTestNamespace, waitFor, withComponentLogs } from '../support/cluster';
import { deploymentFiles, run } from './cli-support';

const ns = useTestNamespace('cli-explain');

/** Runs `body` on a deployed application, then removes it (and stops the runtime if still running). */
async function withApplication(
  name: string,
  opts: Parameters<typeof deployApplication>[2],
  body: (app: Deployed, started: (r: RuntimeRun) => void) => Promise<void>,
) {
  const app = await deployApplication(ns.name, name, opts);
  let runtime: RuntimeRun | undefined;
  try {
    await body(app, (r) => (runtime = r));
  } finally {
    if (runtime && runtime.child.exitCode === null) runtime.child.kill('SIGKILL');
    await deleteApplication(app);
  }
}

const explain = (appId: string, deploy: string, json = false) =>
  run(['status', '--id', appId, '-a', deploy, '--explain', ...(json ? ['--output', 'json'] : [])], { json });
const timelineOf = (lines: string[]) => lines.slice(lines.indexOf('Timeline:') + 1).filter((l) => l.startsWith('  '));

test(
  'the story while the workers run, and after a worker is lost and the workers are deleted: reasons, phases and durations from the Job alone',
  withComponentLogs(() =>
    withApplication('explain', { owned: true }, async (app, started) => {
      const r = await startRuntime(app, { standIn: { STANDIN_JOB: 'hang' } });
      started(r);
      await waitForStandIn(r, (e) => e.call === 'submit', 'the job to be submitted');
      await waitFor(async () => (await jobEvents(app)).some((e) => e.reason === 'JobSubmitted') || undefined, {
        description: 'the JobSubmitted Event',
      });
      const workers = (await workerPods(app.namespace, app.appId)).map((p: Pod) => p.metadata!.name!).sort();
      expect(workers).toHaveLength(2);
      const { deploy } = deploymentFiles(ns.name);

      // ---- running: the workers exist, each with its own lines
      const live = await explain(app.appId, deploy);
      expect(live.code).toBe(0);
      expect(live.value('Status')).toBe('RUNNING');
      const liveTimeline = timelineOf(live.out);
      for (const line of [
        /Job: created \(submitted\)$/,
        / job-controller: SuccessfulCreate — Created pod: /,
        / runtime: WorkersCreating — /,
        / runtime: AllWorkersRegistered — /,
        new RegExp(` runtime: JobSubmitted — submitted Zeta job ${app.spec.jobId}`),
        ...workers.flatMap((w) => [
          new RegExp(` Pod ${w} \\(worker\\): created$`),
          new RegExp(` Pod ${w} \\(worker\\): scheduled`),
        ]),
      ])
        expect(liveTimeline.filter((l) => line.test(l))).toHaveLength(1);
      const order = (re: RegExp) => liveTimeline.findIndex((l) => re.test(l));
      expect(order(/runtime: WorkersCreating/)).toBeLessThan(order(/runtime: AllWorkersRegistered/));
      expect(order(/runtime: AllWorkersRegistered/)).toBeLessThan(order(/runtime: JobSubmitted/));
      expect(live.value('Durations')).toMatch(
        /^Job created → Job started \d+s → runtime started \d+s → workers registered \d+s → job submitted \d+s$/,
      );
      expect(live.value('Phases')).toMatch(
        /^Starting \S+ \(\d+s\), CreatingWorkers \S+ \(\d+s\), WaitingForWorkers \S+ \(\d+s\), Submitting \S+ \(\d+s\), Running \S+ \(\d+s, so far\)$/,
      );

      // ---- a worker lost: the runtime stops the job, deletes the workers, records why, exits 3;
      // then the kubelet would record the exit on the master Pod and the Job controller fail the Job.
      await adminHttp().call('DELETE', `/api/v1/namespaces/${app.namespace}/pods/${workers[1]}`);
      const code = await waitForExit(r);
      if (code !== EXIT_CODES.infrastructure)
        throw new Error(`expected exit 3, got ${code}; runtime output:\n${r.output()}`);
      await expectNoWorkersLeft(app.namespace, app.appId);
      expect((await jobAnnotations(app))[ANNOTATIONS.reason]).toBe('WorkerLost');
      const now = new Date().toISOString();
      await patchPodStatus(app.namespace, app.masterPod.metadata!.name!, {
        phase: 'Failed',
        containerStatuses: [
          {
            name: 'seatunnel',
            ready: false,
            restartCount: 0,
            image: 'seatunnel-app-test:fake',
            imageID: '',
            state: {
              terminated: {
                exitCode: EXIT_CODES.infrastructure,
                reason: 'Error',
                startedAt: app.masterPod.status!.startTime,
                finishedAt: now,
              },
            },
          },
        ],
      });

      const after = await waitFor(
        async () => {
          const s = await explain(app.appId, deploy);
          return s.value('Status') === 'FAILED' && timelineOf(s.out).some((l) => l.includes('Job: condition Failed'))
            ? s
            : undefined;
        },
        { description: `status --explain FAILED with the Job's Failed condition for ${app.appId}` },
      );
      expect(after.value('Reason')).toBe('WorkerLost');
      const story = timelineOf(after.out);
      // the workers are gone: no Pod lines for them, but the record still says what happened
      expect(story.some((l) => workers.some((w) => l.includes(`Pod ${w}`)))).toBe(false);
      expect(
        story.filter((l) =>
          new RegExp(`! runtime: WorkerLost — WorkerLost: worker ${workers[1]} (was deleted|is being deleted)`).test(l),
        ),
      ).toHaveLength(1);
      expect(story.filter((l) => / runtime: Stopping — stopping Zeta job /.test(l))).toHaveLength(1);
      expect(
        story.filter((l) => new RegExp(`! runtime: finished \\(Failed\\) — WorkerLost: worker ${workers[1]}`).test(l)),
      ).toHaveLength(1);
      expect(after.value('Durations')).toMatch(
        /→ workers registered \d+s → job submitted \d+s → job ended \d+s → finished \d+s \(total \d+(s|m\d\ds)\)$/,
      );
      expect(after.value('Phases')).toMatch(
        /Running \S+ \(\d+s\), Stopping \S+ \(\d+s\), CleaningUp \S+ \(\d+s\), Failed \S+$/,
      );
      // the order of the story: the loss, then the stop, then the runtime's terminal record, then the Job's
      const at = (re: RegExp) => story.findIndex((l) => re.test(l));
      expect(at(/runtime: JobSubmitted/)).toBeLessThan(at(/runtime: WorkerLost/));
      expect(at(/runtime: WorkerLost/)).toBeLessThan(at(/runtime: Stopping/));
      expect(at(/runtime: Stopping/)).toBeLessThan(at(/runtime: finished \(Failed\)/));
      expect(at(/runtime: finished \(Failed\)/)).toBeLessThan(at(/Job: condition Failed/));

      // ---- the same story, structured
      const json = await explain(app.appId, deploy, true);
      const doc = json.data[0] as { status: string; reason: string; timeline: Timeline };
      expect(doc).toMatchObject({ status: 'FAILED', reason: 'WorkerLost' });
      expect(doc.timeline.stages.map((s) => s.to)).toEqual([
        'Job started',
        'runtime started',
        'workers registered',
        'job submitted',
        'job ended',
        'finished',
      ]);
      expect(doc.timeline.entries.filter((e) => e.what === 'WorkerLost')).toEqual([
        expect.objectContaining({ type: 'Warning', source: 'event', subject: 'runtime' }),
      ]);
      expect(doc.timeline.phases.map((p) => p.phase)).toEqual(
        expect.arrayContaining(['Starting', 'Running', 'Stopping', 'CleaningUp', 'Failed']),
      );
      expect(doc.timeline.notes).toEqual([]);

      // plain status is unchanged: no story
      const plain = await run(['status', '--id', app.appId, '-a', deploy]);
      expect(plain.out.some((l) => l === 'Timeline:' || l.startsWith('Durations:'))).toBe(false);
    }),
  ),
);

test(
  'an Event written through events.k8s.io with a series reads as one entry with its count; Events of another Job of the same name are left out',
  withComponentLogs(() =>
    withApplication('series', {}, async (app) => {
      const base = Date.now();
      const micro = (ms: number) => new Date(ms).toISOString().replace('Z', '000Z');
      await adminHttp().call('POST', `/apis/events.k8s.io/v1/namespaces/${ns.name}/events`, {
        apiVersion: 'events.k8s.io/v1',
        kind: 'Event',
        metadata: { name: `${app.appId}.series` },
        eventTime: micro(base),
        series: { count: 3, lastObservedTime: micro(base + 2000) },
        reportingController: 'seatunnel-app-runtime',
        reportingInstance: `${app.appId}-x7k2p`,
        action: 'Replace',
        reason: 'MasterReplaced',
        note: 'a master Pod was replaced (3 so far); Zeta keeps the job running on the others',
        type: 'Normal',
        regarding: { apiVersion: 'batch/v1', kind: 'Job', name: app.appId, namespace: ns.name, uid: app.jobUid },
      });
      // the same name, another uid: an earlier Job's leftover Event
      await adminHttp().call('POST', `/api/v1/namespaces/${ns.name}/events`, {
        apiVersion: 'v1',
        kind: 'Event',
        metadata: { name: `${app.appId}.earlier` },
        involvedObject: {
          apiVersion: 'batch/v1',
          kind: 'Job',
          name: app.appId,
          namespace: ns.name,
          uid: '00000000-0000-0000-0000-000000000000',
        },
        reason: 'WorkerLost',
        message: 'from an earlier Job of this name',
        type: 'Warning',
        source: { component: 'seatunnel-app-runtime' },
        reportingComponent: 'seatunnel-app-runtime',
        reportingInstance: `${app.appId}-x7k2p`,
        firstTimestamp: new Date(base).toISOString(),
        lastTimestamp: new Date(base).toISOString(),
        count: 1,
      });
      const { deploy } = deploymentFiles(ns.name);
      const s = await explain(app.appId, deploy);
      const story = timelineOf(s.out);
      expect(
        story.filter((l) => /runtime: MasterReplaced \(×3, last \S+\) — a master Pod was replaced/.test(l)),
      ).toHaveLength(1);
      expect(story.some((l) => l.includes('earlier Job'))).toBe(false);
    }),
  ),
);
