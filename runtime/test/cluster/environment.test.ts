// The user's environment (kubernetes.env.*, env-from and their per-role forms) on every engine
// container, against a real control plane (issue 26, item 2):
//   * a local master: the runtime (its real bundle, as the application's ServiceAccount) creates the
//     workers behind the admission fence; each worker Pod as the API server stores it carries the
//     shared and the worker-only environment — a literal, a Secret key, a ConfigMap and a Secret
//     whole — and none of the master-only; the environment the kubelet builds from it (its $(VAR)
//     expansion applied) holds every value verbatim, `$` included. The master's side is observed in
//     the processes themselves: the runtime resolves `${PLAIN}` of the job config to the verbatim
//     value, and the engine it starts (the stand-in, in place of Zeta) inherits the same values;
//   * HA: the masters' Pods, made by the StatefulSet controller, and the coordinator's carry the
//     shared and the master-only environment, and none of the worker-only.
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Pod } from 'kubernetes-types/core/v1';
import { LABELS } from 'seatunnel-app/internal/model/reserved';
import { ADMISSION_FENCE_POLICY } from 'seatunnel-app/internal/plan/admission-fence';
import { stampWorker } from 'seatunnel-app/internal/plan/stamp';
import {
  adminHttp,
  clusterInfo,
  mintServiceAccountToken,
  tokenHttp,
  useTestNamespace,
  waitFor,
  withComponentLogs,
} from '../../../test/support/cluster';
import { createPod, installFence, removeFence } from '../../../test/support/cluster/fence';
import { createSharedClaim } from '../../../tools/local-stack/shared-claim';
import {
  deployApplication,
  masterEnvironment,
  SERVICE_ACCOUNT,
  startRuntime,
  waitForExit,
  waitForStandIn,
  workerPods,
} from '../support/application';
import { cleanUpEachApplication } from '../support/cleanup';

const ns = useTestNamespace('env');
const track = cleanUpEachApplication();

/** Cluster-scoped volumes the file created. */
const volumes: string[] = [];
afterAll(async () => {
  await removeFence(ns.name);
  for (const v of volumes)
    await adminHttp().call('DELETE', `/api/v1/persistentvolumes/${v}`, undefined, { accept: [404] });
});

/** What the kubelet would expand if the plan did not escape it: `$(VAR)` of defined variables, `$$`, a trailing `$`. */
const DOLLAR = 'a$(SEATUNNEL_POD_NAME)b$$c$(HOME)$';
const DB_PASSWORD = 'not-a-real-password$(HOME)';
/** ConfigMap values: envFrom values are never expanded by the kubelet, `$` or not. */
const TEAM = { REGION: 'eu-west-1', COST: '$(HOME)$$x' };
const AWS = { ACCESS_KEY_ID: 'AKIAEXAMPLE', SECRET_ACCESS_KEY: 'example$$secret' };

const JOB = `env { job.mode = "BATCH", parallelism = 1, note = \${PLAIN} }
source { FakeSource { result_table_name = "fake", row.num = \${ROWS}, schema { fields { name = string } } } }
sink { Console { source_table_name = "fake" } }
`;

const ENV_PROPS = {
  jobConfig: JOB,
  env: { ROWS: '16', PLAIN: DOLLAR, DB_PASSWORD: { secret: 'db', key: 'password' } },
  envFrom: { team: { configmap: 'team-env', prefix: 'TEAM_' } },
  masterEnv: { ONLY_MASTER: 'm$$' },
  workerEnv: { ONLY_WORKERS: 'w$(HOME)' },
  workerEnvFrom: { aws: { secret: 'aws-creds', prefix: 'AWS_' } },
};

/** Every variable the user configured, as a container of `role` must see it. */
function expected(role: 'master' | 'worker'): Record<string, string | undefined> {
  return {
    ROWS: '16',
    PLAIN: DOLLAR,
    DB_PASSWORD,
    TEAM_REGION: TEAM.REGION,
    TEAM_COST: TEAM.COST,
    ONLY_MASTER: role === 'master' ? 'm$$' : undefined,
    ONLY_WORKERS: role === 'worker' ? 'w$(HOME)' : undefined,
    AWS_ACCESS_KEY_ID: role === 'worker' ? AWS.ACCESS_KEY_ID : undefined,
    AWS_SECRET_ACCESS_KEY: role === 'worker' ? AWS.SECRET_ACCESS_KEY : undefined,
  };
}

const pick = (env: Record<string, string>, names: readonly string[]) =>
  Object.fromEntries(names.map((n) => [n, env[n]]));
const sha256 = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex');

beforeAll(async () => {
  const admin = adminHttp();
  const base = `/api/v1/namespaces/${ns.name}`;
  await admin.call('POST', `${base}/configmaps`, { metadata: { name: 'team-env' }, data: TEAM });
  await admin.call('POST', `${base}/secrets`, { metadata: { name: 'db' }, stringData: { password: DB_PASSWORD } });
  await admin.call('POST', `${base}/secrets`, { metadata: { name: 'aws-creds' }, stringData: AWS });
});

test(
  'local master: the runtime creates workers behind the fence with the shared and the worker-only environment, verbatim; the master resolves and passes on the same values',
  withComponentLogs(async () => {
    const app = await deployApplication(ns.name, 'env-local', { owned: true, props: ENV_PROPS });
    track(app);
    // The fence on: wait until it refuses a worker whose user environment differs from the template.
    await installFence(ns.name);
    const runtime = tokenHttp(await mintServiceAccountToken(ns.name, SERVICE_ACCOUNT));
    const probe = stampWorker(
      {
        template: app.plan.workerTemplate,
        appId: app.appId,
        namespace: ns.name,
        master: { name: app.masterPod.metadata!.name!, uid: app.masterPod.metadata!.uid! },
        masterHost: '10.0.0.1',
        masterPort: 5801,
      },
      99,
    );
    const main = probe.spec!.containers.find((c) => c.name === 'seatunnel')!;
    main.env = main.env!.map((e) => (e.name === 'ONLY_WORKERS' ? { name: e.name, value: 'changed' } : e));
    await waitFor(async () => (await createPod(runtime, ns.name, probe)).message.includes(ADMISSION_FENCE_POLICY), {
      description: 'the admission fence to refuse a worker whose environment differs from the template',
    });

    const names = Object.keys(expected('master'));
    const run = await startRuntime(app, { standIn: { STANDIN_JOB: 'hang', STANDIN_REPORT_ENV: names.join(',') } });
    track(app, run);
    const submit = await waitForStandIn(run, (e) => e.call === 'submit', 'the job to be submitted');

    // The workers as the runtime created them (the fence admitted them): the template's environment.
    const workers = await workerPods(ns.name, app.appId);
    expect(workers).toHaveLength(app.spec.worker.count);
    const templateEnv = app.plan.workerTemplate.template!.spec!.containers[0];
    for (const pod of workers) {
      const c = pod.spec!.containers.find((x) => x.name === 'seatunnel')!;
      expect(c.envFrom).toEqual(templateEnv.envFrom);
      expect(c.env!.filter((e) => names.includes(e.name))).toEqual(
        templateEnv.env!.filter((e) => names.includes(e.name)),
      );
      expect(pick(await masterEnvironment(pod), names)).toEqual(expected('worker'));
    }

    // The master: ${PLAIN} resolved verbatim by the runtime; the engine it started got every value.
    expect((submit.config as { env: Record<string, unknown> }).env.note).toBe(DOLLAR);
    const started = run.standInLog().find((e) => e.call === 'started')!;
    const want = expected('master');
    expect(started.envDigests).toEqual(
      Object.fromEntries(names.map((n) => [n, want[n] === undefined ? null : sha256(want[n])])),
    );
    expect(run.output()).not.toContain('not-a-real-password');

    await run.finish();
    expect(await waitForExit(run)).toBe(0);
  }),
);

test(
  'HA: the masters made by the StatefulSet controller and the coordinator carry the shared and the master-only environment, verbatim',
  withComponentLogs(async () => {
    // The coordinator and the masters mount the checkpoint claim: bound, or nothing is scheduled.
    volumes.push(
      await createSharedClaim(adminHttp(), ns.name, 'ckpt', fs.mkdtempSync(path.join(clusterInfo().dir, 'env-ckpt-'))),
    );
    const app = await deployApplication(ns.name, 'env-ha', {
      owned: true,
      props: { ...ENV_PROPS, haEnabled: true, checkpointPvc: 'ckpt' },
    });
    track(app);
    const masters = app.spec.ha!.masters;
    const selector = encodeURIComponent(`${LABELS.applicationId}=${app.appId},${LABELS.role}=master`);
    const pods = await waitFor(
      async () => {
        const list = await adminHttp().call<{ items: Pod[] }>(
          'GET',
          `/api/v1/namespaces/${ns.name}/pods?labelSelector=${selector}`,
        );
        return list.items.length === masters ? list.items : undefined;
      },
      { description: `the ${masters} master Pods from the StatefulSet controller` },
    );
    const names = Object.keys(expected('master'));
    for (const pod of [...pods, app.masterPod]) {
      expect(pick(await masterEnvironment(pod), names)).toEqual(expected('master'));
    }
    expect(pods.map((p) => p.metadata!.ownerReferences?.[0]?.kind)).toEqual(Array(masters).fill('StatefulSet'));
  }),
);
