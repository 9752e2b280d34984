// The runtime against a real control plane: the bundle runs as a local process with the master
// Pod's environment and the application ServiceAccount's token (RBAC is the plan's Role), and an
// engine stand-in that registers a worker once its Pod is Running. See ../support/application.ts.
import { randomBytes } from 'node:crypto';
import type { Job } from 'kubernetes-types/batch/v1';
import type { Pod } from 'kubernetes-types/core/v1';
import { EXIT_CODES, LABELS } from 'seatunnel-app/internal/model/reserved';
import { ANNOTATIONS } from 'seatunnel-app/internal/contract';
import { deriveStatus } from 'seatunnel-app/internal/submit/observe/status';
import {
  adminHttp,
  clusterInfo,
  createFakeNode,
  deleteNode,
  recordWatch,
  restartApiServer,
  useTestNamespace,
  waitFor,
  withComponentLogs,
  type RecordedWatch,
} from '../../../test/support/cluster';
import {
  deployApplication,
  expectNoWorkersLeft,
  jobAnnotations,
  jobEvents,
  startRuntime,
  waitForExit,
  waitForStandIn,
  workerPods,
  workerSelector,
  type Deployed,
  type RuntimeRun,
} from '../support/application';
import { cleanUpEachApplication } from '../support/cleanup';
import { DOLLAR_JOB_CONFIG } from '../../../test/support/fixtures';
import { TcpProxy } from '../support/tcp-proxy';

const ns = useTestNamespace('runtime');
const track = cleanUpEachApplication();

async function deploy(name: string, opts: Parameters<typeof deployApplication>[2] = {}): Promise<Deployed> {
  const app = await deployApplication(ns.name, name, opts);
  track(app);
  return app;
}

async function start(app: Deployed, opts: Parameters<typeof startRuntime>[1] = {}): Promise<RuntimeRun> {
  const run = await startRuntime(app, opts);
  track(app, run);
  return run;
}

/** Exit code of the run; on a mismatch the runtime's output is in the failure message. */
async function expectExit(run: RuntimeRun, code: number): Promise<void> {
  const got = await waitForExit(run);
  if (got !== code) throw new Error(`expected exit code ${code}, got ${got}; runtime output:\n${run.output()}`);
}

test(
  'happy path, N = 3: all workers registered before the one submit; success; workers deleted; exit 0; the story on the Job',
  withComponentLogs(async () => {
    const app = await deploy('happy', { props: { workerCount: 3 } });
    const pods: RecordedWatch<Pod> = await recordWatch<Pod>(`/api/v1/namespaces/${app.namespace}/pods`, {
      labelSelector: workerSelector(app.appId),
    });
    try {
      const run = await start(app);
      await expectExit(run, EXIT_CODES.succeeded);
      const log = run.standInLog();
      const podIp = app.masterPod.status!.podIP!;

      // the engine files were completed with the master Pod's IP before the engine started
      const started = log.find((e) => e.call === 'started')!;
      expect(started.masterHost).toBe(`${podIp}:5801`);
      expect(started.env).toEqual({ HZ_PHONE_HOME_ENABLED: 'false', jobConfigVisible: false });

      // exactly one submission, after all three workers registered; nothing registered → no submit
      const submits = log.filter((e) => e.call === 'submit');
      expect(submits).toHaveLength(1);
      expect(submits[0].registered).toBe(3);
      expect(submits[0].query).toEqual({ jobId: app.spec.jobId, jobName: app.spec.name });
      // ${ROWS} resolved from the master Pod's environment (kubernetes.env.ROWS)
      expect(submits[0].config).toEqual({
        env: { 'job.mode': 'BATCH', 'job.retry.times': 0, parallelism: 1 },
        source: [
          {
            plugin_name: 'FakeSource',
            result_table_name: 'fake',
            row: { num: '16' },
            schema: { fields: { name: 'string' } },
          },
        ],
        sink: [{ plugin_name: 'Console', source_table_name: 'fake' }],
      });
      expect(log.some((e) => e.call === 'stop')).toBe(false);

      // the workers as created: stamped from the template, owned by the master Pod
      const added = pods.events.filter((e) => e.type === 'ADDED').map((e) => e.object);
      expect(added.map((p) => p.metadata!.name).sort()).toEqual([1, 2, 3].map((n) => `${app.appId}-worker-${n}`));
      for (const p of added) {
        expect(p.metadata!.ownerReferences).toEqual([
          {
            apiVersion: 'v1',
            kind: 'Pod',
            name: app.masterPod.metadata!.name,
            uid: app.masterPod.metadata!.uid,
            controller: false,
            blockOwnerDeletion: false,
          },
        ]);
        const env = Object.fromEntries(p.spec!.containers[0].env!.map((e) => [e.name, e.value]));
        expect(env.ST_DOCKER_MEMBER_LIST).toBe(`${podIp}:5801`);
        expect(env.SEATUNNEL_APPLICATION_MASTER_ADDRESS).toBe(`${podIp}:5801`);
        expect(p.spec!.containers[0].command).toEqual(app.plan.workerTemplate.template!.spec!.containers[0].command);
        expect(p.spec!.automountServiceAccountToken).toBe(false);
      }
      // The runtime exits once its deletes are acknowledged; the test's own watch may hear of the last one a moment later.
      await waitFor(() => pods.events.filter((e) => e.type === 'DELETED').length >= 3, {
        description: 'the three workers deleted (watch)',
      });
      expect(pods.events.filter((e) => e.type === 'DELETED')).toHaveLength(3);

      // the story on the Job
      expect(await jobAnnotations(app)).toEqual({
        [ANNOTATIONS.phase]: 'Succeeded',
        [ANNOTATIONS.workersDesired]: '3',
        [ANNOTATIONS.workersRegistered]: '3',
        [ANNOTATIONS.zetaJobId]: app.spec.jobId,
        [ANNOTATIONS.zetaJobStatus]: 'FINISHED',
        [ANNOTATIONS.message]: `Zeta job ${app.spec.jobId} ended FINISHED`,
        [ANNOTATIONS.finishedAt]: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        [ANNOTATIONS.phaseTimes]: expect.stringMatching(/^\{"Starting":"\d{4}-\d\d-\d\dT.*"Succeeded":/),
      });
      expect((await jobEvents(app)).map((e) => e.reason)).toEqual([
        'WorkersCreating',
        'AllWorkersRegistered',
        'JobSubmitted',
        'Succeeded',
      ]);

      // applied without owner references (kubectl apply): the runtime made the Job owner of the
      // data objects (the job config's Secret too); its fences (Role, RoleBinding, NetworkPolicies,
      // Service, and the worker template, the admission fence's parameter) it cannot patch.
      const pathOf = (obj: { kind: string; metadata: { name: string } }) =>
        obj.kind === 'Role'
          ? `/apis/rbac.authorization.k8s.io/v1/namespaces/${app.namespace}/roles/${obj.metadata.name}`
          : `/api/v1/namespaces/${app.namespace}/${obj.kind.toLowerCase()}s/${obj.metadata.name}`;
      for (const obj of [app.plan.configMaps[0], ...app.plan.secrets]) {
        const got = await adminHttp().call<{ metadata: { ownerReferences?: Array<{ uid: string; kind: string }> } }>(
          'GET',
          pathOf(obj),
        );
        expect(got.metadata.ownerReferences).toEqual([
          {
            apiVersion: 'batch/v1',
            kind: 'Job',
            name: app.appId,
            uid: app.jobUid,
            controller: false,
            blockOwnerDeletion: false,
          },
        ]);
      }
      for (const obj of [app.plan.service, app.plan.roles[0], app.plan.workerTemplate]) {
        const got = await adminHttp().call<{ metadata: { ownerReferences?: unknown[] } }>('GET', pathOf(obj));
        expect(got.metadata.ownerReferences).toBeUndefined();
      }
      await expectNoWorkersLeft(app.namespace, app.appId);
    } finally {
      pods.stop();
    }
  }),
);

test(
  'a worker Pod deleted mid-run: detected, the job stopped, workers removed, exit 3 with WorkerLost naming it',
  withComponentLogs(async () => {
    const app = await deploy('lost', { owned: true });
    const run = await start(app, { standIn: { STANDIN_JOB: 'hang' } });
    await waitForStandIn(run, (e) => e.call === 'submit', 'the job to be submitted');
    const victim = `${app.appId}-worker-2`;
    await adminHttp().call('DELETE', `/api/v1/namespaces/${app.namespace}/pods/${victim}`);
    await expectExit(run, EXIT_CODES.infrastructure);
    expect(
      run
        .standInLog()
        .filter((e) => e.call === 'stop')
        .map((e) => e.jobId),
    ).toEqual([app.spec.jobId]);
    const ann = await jobAnnotations(app);
    expect(ann[ANNOTATIONS.phase]).toBe('Failed');
    expect(ann[ANNOTATIONS.reason]).toBe('WorkerLost');
    expect(ann[ANNOTATIONS.message]).toMatch(new RegExp(`^worker ${victim} (was deleted|is being deleted)`));
    expect(ann[ANNOTATIONS.zetaJobStatus]).toBe('CANCELED');
    const reasons = (await jobEvents(app)).map((e) => e.reason);
    expect(reasons).toEqual([
      'WorkersCreating',
      'AllWorkersRegistered',
      'JobSubmitted',
      'WorkerLost',
      'Stopping',
      'Failed',
    ]);
    await expectNoWorkersLeft(app.namespace, app.appId);
  }),
);

/** The application's worker Pod once the scheduler has marked it Unschedulable. */
async function unschedulableWorker(app: Deployed): Promise<Pod> {
  return waitFor(
    async () =>
      (await workerPods(app.namespace, app.appId)).find((p) =>
        p.status?.conditions?.some(
          (c) => c.type === 'PodScheduled' && c.status === 'False' && c.reason === 'Unschedulable',
        ),
      ),
    { description: 'a worker Pod marked Unschedulable by the scheduler' },
  );
}

/** Writes the Event cluster-autoscaler writes about a Pod it looked at. */
async function autoscalerEvent(
  pod: Pod,
  reason: 'TriggeredScaleUp' | 'NotTriggerScaleUp',
  message: string,
): Promise<void> {
  const at = new Date().toISOString();
  const { name, namespace, uid } = pod.metadata!;
  await adminHttp().call('POST', `/api/v1/namespaces/${namespace}/events`, {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name: `${name}.${Date.now().toString(16)}`, namespace },
    involvedObject: { apiVersion: 'v1', kind: 'Pod', name, namespace, uid },
    reason,
    message,
    type: 'Normal',
    source: { component: 'cluster-autoscaler' },
    reportingComponent: 'cluster-autoscaler',
    firstTimestamp: at,
    lastTimestamp: at,
    count: 1,
  });
}

test(
  'an Unschedulable worker the cluster autoscaler will not scale up for (its NotTriggerScaleUp Event) fails the application at once, inside a 5-minute grace period',
  withComponentLogs(async () => {
    const app = await deploy('notscale', {
      owned: true,
      props: {
        workerCount: 1,
        workerNodeSelector: { pool: 'does-not-exist' },
        startupTimeoutMillis: 600_000,
        scaleUpGraceMillis: 300_000,
      },
    });
    const run = await start(app);
    const pod = await unschedulableWorker(app);
    await autoscalerEvent(
      pod,
      'NotTriggerScaleUp',
      "pod didn't trigger scale-up: 1 node(s) didn't match Pod's node affinity/selector",
    );
    // waitForExit gives up after 2 minutes: well inside the grace period.
    await expectExit(run, EXIT_CODES.infrastructure);
    const ann = await jobAnnotations(app);
    expect(ann[ANNOTATIONS.reason]).toBe('Unschedulable');
    expect(ann[ANNOTATIONS.message]).toMatch(
      /cannot be scheduled: 0\/\d+ nodes are available: .*; the cluster autoscaler will not add a node for it \(NotTriggerScaleUp: pod didn't trigger scale-up/,
    );
    expect(run.standInLog().some((e) => e.call === 'submit')).toBe(false);
    expect((await jobEvents(app)).map((e) => e.reason)).toEqual(['WorkersCreating', 'WorkerFailed', 'Failed']);
    await expectNoWorkersLeft(app.namespace, app.appId);
  }),
);

test(
  'an Unschedulable worker the cluster autoscaler scales up for (TriggeredScaleUp) waits past the grace period, status says so, and runs once the node is there',
  withComponentLogs(async () => {
    const pool = `scaled-${randomBytes(3).toString('hex')}`;
    const graceMs = 2_000;
    const app = await deploy('scaleup', {
      owned: true,
      props: {
        workerCount: 1,
        workerNodeSelector: { pool },
        startupTimeoutMillis: 600_000,
        scaleUpGraceMillis: graceMs,
      },
    });
    const run = await start(app);
    const pod = await unschedulableWorker(app);
    await autoscalerEvent(pod, 'TriggeredScaleUp', `pod triggered scale-up: [{${pool} 0->1 (max: 3)}]`);
    // The runtime read the Event: the Job says the worker waits for a node, and so does `status`.
    await waitFor(
      async () =>
        (await jobAnnotations(app))[ANNOTATIONS.workersWaiting]?.includes('waiting for a node (scale-up triggered)'),
      {
        description: 'the workers-waiting annotation to say a scale-up was triggered',
      },
    );
    const job = await adminHttp().call<Job>('GET', `/apis/batch/v1/namespaces/${app.namespace}/jobs/${app.appId}`);
    const pods = await adminHttp().call<{ items: Pod[] }>(
      'GET',
      `/api/v1/namespaces/${app.namespace}/pods?labelSelector=${encodeURIComponent(`${LABELS.applicationId}=${app.appId}`)}`,
    );
    expect(deriveStatus({ applicationId: app.appId, namespace: app.namespace, job, pods: pods.items })).toMatchObject({
      status: 'RUNNING',
      reason: 'WaitingForNode',
      message: expect.stringContaining(`1 waiting for a node (scale-up triggered) (${pod.metadata!.name})`),
    });
    // Several grace periods pass while the node comes up: the application goes on.
    await new Promise((r) => setTimeout(r, 3 * graceMs + 5_000));
    expect(run.child.exitCode).toBeNull();
    const node = `st-scaled-${randomBytes(3).toString('hex')}`;
    await createFakeNode(node, { labels: { pool } });
    try {
      await expectExit(run, EXIT_CODES.succeeded);
      expect(run.standInLog().filter((e) => e.call === 'submit')).toHaveLength(1);
      const ann = await jobAnnotations(app);
      expect(ann[ANNOTATIONS.workersWaiting]).toBeUndefined();
      expect(ann[ANNOTATIONS.phase]).toBe('Succeeded');
      await expectNoWorkersLeft(app.namespace, app.appId);
    } finally {
      await deleteNode(node);
    }
  }),
);

test(
  'a worker that stays Unschedulable with no autoscaler answering fails the application with Unschedulable after the grace period (the startup timeout is 10 minutes)',
  withComponentLogs(async () => {
    const app = await deploy('unsched', {
      owned: true,
      props: {
        workerNodeSelector: { pool: 'does-not-exist' },
        startupTimeoutMillis: 600_000,
        scaleUpGraceMillis: 3_000,
      },
    });
    const run = await start(app);
    await expectExit(run, EXIT_CODES.infrastructure);
    const ann = await jobAnnotations(app);
    expect(ann[ANNOTATIONS.reason]).toBe('Unschedulable');
    expect(ann[ANNOTATIONS.message]).toMatch(
      /cannot be scheduled: 0\/\d+ nodes are available: .*node affinity\/selector.*; no autoscaler started adding a node within 3 s \(application.scale-up-grace-millis\)/,
    );
    expect(run.standInLog().some((e) => e.call === 'submit')).toBe(false);
    expect((await jobEvents(app)).map((e) => e.reason)).toEqual(['WorkersCreating', 'WorkerFailed', 'Failed']);
    await expectNoWorkersLeft(app.namespace, app.appId);
  }),
);

test(
  'startup timeout: workers Running but never registered → StartupTimeout with the counts, nothing submitted',
  withComponentLogs(async () => {
    const app = await deploy('timeout', { owned: true, props: { startupTimeoutMillis: 5000 } });
    const run = await start(app, { standIn: { STANDIN_REGISTER: 'never' } });
    await expectExit(run, EXIT_CODES.infrastructure);
    const ann = await jobAnnotations(app);
    expect(ann[ANNOTATIONS.reason]).toBe('StartupTimeout');
    expect(ann[ANNOTATIONS.message]).toMatch(
      /^Timed out starting 2 application workers after 5 s: 2\/2 created, \d running, 0\/2 registered with Zeta/,
    );
    expect(ann[ANNOTATIONS.workersRegistered]).toBe('0');
    expect(run.standInLog().some((e) => e.call === 'submit')).toBe(false);
    await expectNoWorkersLeft(app.namespace, app.appId);
  }),
);

test(
  'the master Pod deleted (its SIGTERM, the deletion in the API): the job is stopped, workers removed, Canceled, exit 2',
  withComponentLogs(async () => {
    const app = await deploy('sigterm', { owned: true });
    const run = await start(app, { standIn: { STANDIN_JOB: 'hang' } });
    await waitForStandIn(run, (e) => e.call === 'submit', 'the job to be submitted');
    // As `kubectl delete pod`: the object gets its deletion timestamp (kwok finishes it), then the kubelet's SIGTERM.
    await adminHttp().call('DELETE', `/api/v1/namespaces/${app.namespace}/pods/${app.masterPod.metadata!.name}`, {
      gracePeriodSeconds: 30,
    });
    run.child.kill('SIGTERM');
    await expectExit(run, EXIT_CODES.canceled);
    expect(
      run
        .standInLog()
        .filter((e) => e.call === 'stop')
        .map((e) => e.jobId),
    ).toEqual([app.spec.jobId]);
    expect(run.standInLog().some((e) => e.call === 'sigterm')).toBe(true); // the engine was stopped last
    const ann = await jobAnnotations(app);
    expect(ann[ANNOTATIONS.phase]).toBe('Canceled');
    expect(ann[ANNOTATIONS.reason]).toBe('Terminated');
    expect(ann[ANNOTATIONS.zetaJobStatus]).toBe('CANCELED');
    await expectNoWorkersLeft(app.namespace, app.appId);
  }),
);

test(
  'SIGTERM with nothing in the API saying why (the node shutting down): Killed, Failed, exit 3 — not a cancel',
  withComponentLogs(async () => {
    const app = await deploy('killed', { owned: true });
    const run = await start(app, { standIn: { STANDIN_JOB: 'hang' } });
    await waitForStandIn(run, (e) => e.call === 'submit', 'the job to be submitted');
    run.child.kill('SIGTERM');
    await expectExit(run, EXIT_CODES.infrastructure);
    const ann = await jobAnnotations(app);
    expect(ann[ANNOTATIONS.phase]).toBe('Failed');
    expect(ann[ANNOTATIONS.reason]).toBe('Killed');
    await expectNoWorkersLeft(app.namespace, app.appId);
  }),
);

test(
  'cancel on the Job (the cancel-requested annotation) reaches the runtime through its watch on its own Job: stopped, workers removed, Canceled, exit 2',
  withComponentLogs(async () => {
    const app = await deploy('cancelann', { owned: true });
    const run = await start(app, { standIn: { STANDIN_JOB: 'hang' } });
    await waitForStandIn(run, (e) => e.call === 'submit', 'the job to be submitted');
    // As another client would: the runtime's Role allows watch on its own Job by name only.
    await adminHttp().call(
      'PATCH',
      `/apis/batch/v1/namespaces/${app.namespace}/jobs/${app.appId}`,
      { metadata: { annotations: { [ANNOTATIONS.cancelRequested]: 'true' } } },
      { contentType: 'application/merge-patch+json' },
    );
    await expectExit(run, EXIT_CODES.canceled);
    expect(
      run
        .standInLog()
        .filter((e) => e.call === 'stop')
        .map((e) => e.jobId),
    ).toEqual([app.spec.jobId]);
    const ann = await jobAnnotations(app);
    expect(ann[ANNOTATIONS.phase]).toBe('Canceled');
    expect(ann[ANNOTATIONS.reason]).toBe('Terminated');
    expect(ann[ANNOTATIONS.message]).toBe('cancel requested');
    expect(run.output()).not.toMatch(/forbidden/i);
    await expectNoWorkersLeft(app.namespace, app.appId);
  }),
);

test(
  'the watch connection is cut mid-run and a worker is deleted while it is down: the deletion is not missed',
  withComponentLogs(async () => {
    const server = new URL(clusterInfo().server);
    const proxy = await TcpProxy.start(server.hostname, Number(server.port));
    try {
      const app = await deploy('cut', { owned: true });
      // The stand-in watches the API directly; told not to fail the job on a lost worker, it leaves
      // the detection to the runtime alone.
      const run = await start(app, {
        apiServer: proxy.url,
        standIn: { STANDIN_JOB: 'hang', STANDIN_FAIL_ON_LOSS: 'false' },
        extraEnv: { SEATUNNEL_APP_LOG_LEVEL: 'debug' },
      });
      await waitForStandIn(run, (e) => e.call === 'submit', 'the job to be submitted');
      const before = proxy.accepted;
      proxy.block();
      const victim = `${app.appId}-worker-1`;
      await adminHttp().call('DELETE', `/api/v1/namespaces/${app.namespace}/pods/${victim}`);
      await expectNoWorkersLeftNamed(app, victim);
      // the runtime noticed the broken watch and kept retrying while the proxy refused
      await waitForOutput(run, /(watching worker Pods failed; retrying[^]*){3}/);
      proxy.unblock();
      await expectExit(run, EXIT_CODES.infrastructure);
      expect(proxy.accepted).toBeGreaterThan(before);
      // The deletion arrived through the watch resumed from the last resourceVersion: the only
      // list before the loss was detected is the initial one (the periodic re-list is 30 s away).
      const beforeLoss = run.output().split(/event WorkerLost/)[0];
      expect(beforeLoss.match(/listed worker Pods/g)).toHaveLength(1);
      const ann = await jobAnnotations(app);
      expect(ann[ANNOTATIONS.reason]).toBe('WorkerLost');
      expect(ann[ANNOTATIONS.message]).toMatch(new RegExp(`^worker ${victim} (was deleted|is being deleted)`));
      await expectNoWorkersLeft(app.namespace, app.appId);
    } finally {
      await proxy.close();
    }
  }),
);

test(
  'the API server restarts mid-run: the runtime re-lists after 410 Gone, keeps watching, and still detects a lost worker',
  withComponentLogs(async () => {
    const app = await deploy('restart', { owned: true });
    const run = await start(app, { standIn: { STANDIN_JOB: 'hang', STANDIN_FAIL_ON_LOSS: 'false' } });
    await waitForStandIn(run, (e) => e.call === 'submit', 'the job to be submitted');
    await restartApiServer();
    // the old resourceVersion is expired after the restart: the runtime must re-list, not give up
    await waitForOutput(run, /watch resourceVersion expired \(410 Gone\); re-listing worker Pods/);
    expect(run.child.exitCode).toBeNull();
    const victim = `${app.appId}-worker-2`;
    await adminHttp().call('DELETE', `/api/v1/namespaces/${app.namespace}/pods/${victim}`);
    await expectExit(run, EXIT_CODES.infrastructure);
    const ann = await jobAnnotations(app);
    expect(ann[ANNOTATIONS.reason]).toBe('WorkerLost');
    expect(ann[ANNOTATIONS.message]).toMatch(new RegExp(`^worker ${victim} (was deleted|is being deleted)`));
    expect(run.standInLog().filter((e) => e.call === 'stop')).toHaveLength(1);
    await expectNoWorkersLeft(app.namespace, app.appId);
  }),
);

test(
  'invalid settings: exit 4 before anything starts, every problem named, the failure recorded on the Job',
  withComponentLogs(async () => {
    const app = await deploy('badsettings', { owned: true });
    const run = await start(app, { editSettings: (s) => ({ ...s, workerCount: 0, jobId: 'x' }) });
    await expectExit(run, EXIT_CODES.configuration);
    expect(run.output()).toMatch(/runtime.json workerCount: expected a whole number from 1 to 1000, got 0/);
    expect(run.output()).toMatch(/runtime.json jobId: expected a positive 63-bit integer/);
    expect(run.standInLog()).toEqual([]); // the engine was never started
    const ann = await jobAnnotations(app);
    expect(ann[ANNOTATIONS.phase]).toBe('Failed');
    expect(ann[ANNOTATIONS.reason]).toBe('InvalidSettings');
    expect((await jobEvents(app)).map((e) => e.reason)).toEqual(['Failed']);
    expect(await workerPods(app.namespace, app.appId)).toEqual([]);
  }),
);

describe('with a ResourceQuota', () => {
  const quotaNs = useTestNamespace('runtime-quota');

  test(
    'a worker refused by quota fails the application at once with the API message',
    withComponentLogs(async () => {
      await adminHttp().call('POST', `/api/v1/namespaces/${quotaNs.name}/resourcequotas`, {
        apiVersion: 'v1',
        kind: 'ResourceQuota',
        metadata: { name: 'pods' },
        spec: { hard: { pods: '2' } },
      });
      // Quota admission enforces a quota it has seen: wait until the quota controller has counted
      // it (its status set), so the API server's own view has it too. Right after an earlier test
      // restarted the API server, workers were once admitted past a quota created a moment before.
      await waitFor(
        async () => {
          const q = await adminHttp().call<{
            status?: { hard?: Record<string, string>; used?: Record<string, string> };
          }>('GET', `/api/v1/namespaces/${quotaNs.name}/resourcequotas/pods`);
          return q.status?.hard?.pods === '2' && q.status.used?.pods !== undefined;
        },
        { description: 'the quota controller to count the ResourceQuota', timeoutMs: 60_000 },
      );
      const app = await deployApplication(quotaNs.name, 'quota', {
        owned: true,
        props: { workerCount: 3, startupTimeoutMillis: 600_000 },
      });
      track(app);
      const run = await startRuntime(app);
      track(app, run);
      await expectExit(run, EXIT_CODES.infrastructure);
      const ann = await jobAnnotations(app);
      expect(ann[ANNOTATIONS.reason]).toBe('WorkerCreateRefused');
      expect(ann[ANNOTATIONS.message]).toMatch(/exceeded quota: pods/);
      expect(run.standInLog().some((e) => e.call === 'submit')).toBe(false);
      await expectNoWorkersLeft(app.namespace, app.appId);
    }),
  );
});

async function waitForOutput(run: RuntimeRun, re: RegExp, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!re.test(run.output())) {
    if (run.child.exitCode !== null)
      throw new Error(`the runtime exited (${run.child.exitCode}) before its output matched ${re}:\n${run.output()}`);
    if (Date.now() > deadline)
      throw new Error(`the runtime's output did not match ${re} within ${timeoutMs} ms:\n${run.output()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function expectNoWorkersLeftNamed(app: Deployed, name: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (!(await workerPods(app.namespace, app.appId)).some((p) => p.metadata!.name === name)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${name} was not deleted`);
}

test(
  "the job config arrives exactly as given: $$, $(SEATUNNEL_POD_NAME) and $${X} survive the kubelet's expansion",
  withComponentLogs(async () => {
    const app = await deploy('dollars', { props: { jobConfig: DOLLAR_JOB_CONFIG, workerCount: 1, env: {} } });
    const run = await start(app);
    await expectExit(run, EXIT_CODES.succeeded);
    const submit = run.standInLog().find((e) => e.call === 'submit')!;
    // The text the runtime parsed is the -c text: every value as written, nothing expanded.
    expect((submit.config as { env: Record<string, unknown> }).env).toMatchObject({
      a: '$$',
      b: '$(SEATUNNEL_POD_NAME)',
      c: '$${X}',
      d: '€$é',
      e: '$(',
    });
  }),
);

test(
  'a look-alike worker (right name, owner reference to the master, application labels) is not adopted; the runtime fails and leaves it alone',
  withComponentLogs(async () => {
    const app = await deploy('lookalike', { props: { workerCount: 1 } });
    const name = `${app.appId}-worker-1`;
    const master = app.masterPod.metadata!;
    // Made by someone else with Pod create rights, before the runtime's create.
    await adminHttp().call('POST', `/api/v1/namespaces/${app.namespace}/pods`, {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        name,
        labels: { ...app.plan.workerTemplate.template!.metadata!.labels },
        ownerReferences: [
          {
            apiVersion: 'v1',
            kind: 'Pod',
            name: master.name,
            uid: master.uid,
            controller: false,
            blockOwnerDeletion: false,
          },
        ],
      },
      spec: { containers: [{ name: 'seatunnel', image: 'attacker:latest' }], automountServiceAccountToken: false },
    });
    const before = await adminHttp().call<Pod>('GET', `/api/v1/namespaces/${app.namespace}/pods/${name}`);
    const run = await start(app);
    await expectExit(run, EXIT_CODES.infrastructure);
    expect(run.output()).toMatch(/WorkerCreateRefused/);
    expect((await jobAnnotations(app))[ANNOTATIONS.message]).toMatch(/this runtime did not create/);
    expect(run.standInLog().some((e) => e.call === 'submit')).toBe(false);
    // Not deleted by the runtime's cleanup either: it is not the runtime's Pod.
    const after = await adminHttp().call<Pod>('GET', `/api/v1/namespaces/${app.namespace}/pods/${name}`);
    expect(after.metadata!.uid).toBe(before.metadata!.uid);
    expect(after.metadata!.deletionTimestamp).toBeUndefined();
    await adminHttp().call('DELETE', `/api/v1/namespaces/${app.namespace}/pods/${name}`, {
      apiVersion: 'v1',
      kind: 'DeleteOptions',
      gracePeriodSeconds: 0,
    });
  }),
);
