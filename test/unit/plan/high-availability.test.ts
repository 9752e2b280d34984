import type { Container, PodSpec } from 'kubernetes-types/core/v1';
import { parse } from 'yaml';
import { ENGINE_FILES } from '../../../lib/engine/files';
import type { ApplicationSpec } from '../../../lib/model/spec';
import { allObjects, buildPlan, dependents, emptyDraft, FEATURE_STEPS } from '../../../lib/plan/build-plan';
import { allPods } from '../../../lib/plan/pod';
import { jobConfigStep } from '../../../lib/plan/steps/job-config';
import { runtimeRules } from '../../../lib/plan/steps/rbac';
import { runtimeStep } from '../../../lib/plan/steps/runtime';
import type { ApplicationPlan, FeatureStep } from '../../../lib/plan/types';
import { plan, spec } from '../../support/fixtures';

const NODE_LOSS_TOLERATIONS = ['node.kubernetes.io/unreachable', 'node.kubernetes.io/not-ready'].map((key) => ({
  key,
  operator: 'Exists',
  effect: 'NoExecute',
  tolerationSeconds: 30,
}));

const HA = { haEnabled: true, haMasters: 3, haBackupCount: 1, checkpointPvc: 'ckpt', namespace: 'team-a' } as const;

const role = 'seatunnel.apache.org/role';
const container = (p: PodSpec): Container => p.containers.find((c) => c.name === 'seatunnel')!;
const envOf = (c: Container): Record<string, string> =>
  Object.fromEntries((c.env ?? []).map((e) => [e.name, e.value ?? '(from)']));

/** What a Pod holds, by name: its main container's variables and mounts, its volumes and init containers. */
function holdings(pod: PodSpec): Set<string> {
  const c = container(pod);
  return new Set([
    ...(c.env ?? []).map((e) => `variable ${e.name}`),
    ...(c.volumeMounts ?? []).map((m) => `mount of ${m.name} at ${m.mountPath}`),
    ...(pod.volumes ?? []).map((v) => `volume ${v.name}`),
    ...(pod.initContainers ?? []).map((i) => `init container ${i.name}`),
  ]);
}

/** What `step` adds to any Pod of the application, run where buildPlan runs it for `s`. */
function addedBy(step: FeatureStep, s: ApplicationSpec): string[] {
  const d = FEATURE_STEPS.slice(0, FEATURE_STEPS.indexOf(step)).reduce((x, earlier) => earlier.apply(x), emptyDraft(s));
  const pods = allPods(d);
  const had = pods.map(holdings);
  step.apply(d);
  return [...new Set(pods.flatMap((pod, i) => [...holdings(pod)].filter((h) => !had[i].has(h))))];
}

describe('without HA nothing changes', () => {
  test('no StatefulSet, no REST Service, the Job Pod is the master, backoffLimit 0', () => {
    const p = plan();
    expect(p.masters).toBeUndefined();
    expect(p.restService).toBeUndefined();
    expect(p.job.spec!.backoffLimit).toBe(0);
    expect(p.job.spec!.template.metadata!.labels![role]).toBe('master');
    expect(allObjects(p).map((o) => o.kind)).not.toContain('StatefulSet');
  });

  test("Hazelcast's own shutdown and merge defaults: the one master leaving is the application ending", () => {
    const hz = parse(
      plan().configMaps.find((c) => c.metadata.name.endsWith('-engine'))!.data![ENGINE_FILES.masterHazelcast],
    ).hazelcast;
    for (const key of [
      'hazelcast.shutdownhook.policy',
      'hazelcast.graceful.shutdown.max.wait',
      'hazelcast.merge.first.run.delay.seconds',
    ]) {
      expect(hz.properties[key]).toBeUndefined();
    }
  });
});

describe('with HA', () => {
  let p: ApplicationPlan;
  beforeAll(() => {
    p = plan(HA);
  });

  test('the masters are a StatefulSet of M Pods under the headless Service, started in parallel', () => {
    const set = p.masters!;
    expect(set.metadata.name).toBe(`${p.spec.appId}-master`);
    expect(set.spec!.replicas).toBe(3);
    expect(set.spec!.podManagementPolicy).toBe('Parallel');
    expect(set.spec!.serviceName).toBe(p.service.metadata.name);
    expect(p.service.spec!.publishNotReadyAddresses).toBe(true);
    expect(set.spec!.selector.matchLabels).toEqual(p.service.spec!.selector);
    expect(set.spec!.template.metadata!.labels![role]).toBe('master');
  });

  describe.each([
    ['the runtime from its init container', HA],
    ['an embedded runtime', { ...HA, runtimeMode: 'embedded' }],
    ['kubernetes.config-map', { ...HA, runtimeConfigMap: 'seatunnel-config' }],
    [
      'a mounted job file',
      {
        ...HA,
        jobConfig: undefined,
        jobConfigFile: '/etc/job/job.conf',
        configMaps: { job: { ref: 'jobs', mounts: { 'job.conf': '/etc/job/job.conf' } } },
      },
    ],
  ] as const)('with %s', (_, options) => {
    const s = spec(options);
    const built = buildPlan(s);
    // With kubernetes.config-map the masters run `engine-files` as the workers do, and its Node.js
    // comes from the runtime image through install-runtime and its volume: by design, and into an
    // init container only (the main container's mounts are still checked).
    const engineFilesStep =
      'runtimeConfigMap' in options ? ['volume seatunnel-app-runtime', 'init container install-runtime'] : [];
    const masters = new Set(
      [...holdings(built.masters!.spec!.template.spec!)].filter((h) => !engineFilesStep.includes(h)),
    );
    const coordinator = holdings(built.job.spec!.template.spec!);

    // Generated from the steps themselves: whatever they add, now or later, is the runtime's alone.
    test.each([runtimeStep, jobConfigStep].map((step) => [step.name, step] as const))(
      'nothing the %s step adds reaches the masters; all of it is on the coordinator',
      (_name, step) => {
        const added = addedBy(step, s);
        expect(added.length).toBeGreaterThan(0);
        expect(added.filter((h) => coordinator.has(h))).toEqual(added);
        expect(added.filter((h) => masters.has(h))).toEqual([]);
      },
    );
  });

  test('the runtime step adds its variables, its volume and its init container (the check above sees them)', () => {
    expect(addedBy(runtimeStep, spec(HA))).toEqual(
      expect.arrayContaining([
        'variable SEATUNNEL_APPLICATION_ID',
        'variable SEATUNNEL_POD_NAME',
        'variable SEATUNNEL_APP_WORK_DIR',
        'volume seatunnel-app-runtime',
        'mount of seatunnel-app-runtime at /opt/seatunnel-app',
        'init container install-runtime',
      ]),
    );
  });

  test("the master role's options reach the masters and the coordinator alike; the size only the masters", () => {
    const q = plan({
      ...HA,
      env: { A: 'a', B: { secret: 'db', key: 'password' } },
      envFrom: { e: { configmap: 'shared', prefix: 'S_' } },
      configMaps: { drivers: { ref: 'jdbc', mounts: { 'a.jar': '/opt/seatunnel/lib/a.jar' } } },
      secretRef: 'legacy',
      masterNodeSelector: { pool: 'a' },
      masterTolerations: [{ key: 'spot', operator: 'Exists' }],
      masterLabels: { m: 'x' },
      masterAnnotations: { 'example.com/a': 'b' },
      imagePullSecrets: ['reg'],
      serviceAccount: 'runner',
      masterCpuCores: 2,
      podSecurity: 'restricted',
      runAsUser: 1000,
    });
    const mastersTemplate = q.masters!.spec!.template;
    const coordinatorTemplate = q.job.spec!.template;
    const [m, co] = [mastersTemplate.spec!, coordinatorTemplate.spec!];
    for (const pod of [m, co]) {
      const c = container(pod);
      expect(envOf(c)).toMatchObject({ A: 'a', B: '(from)' });
      expect(c.envFrom).toEqual([{ prefix: 'S_', configMapRef: { name: 'shared' } }]);
      for (const path of ['/opt/seatunnel/lib/a.jar', '/etc/seatunnel-secret', '/opt/seatunnel/checkpoints']) {
        expect(c.volumeMounts!.map((v) => v.mountPath)).toContain(path);
      }
      expect(pod.nodeSelector).toEqual({ pool: 'a' });
      expect(pod.tolerations).toEqual([{ key: 'spot', operator: 'Exists' }, ...NODE_LOSS_TOLERATIONS]);
      expect(pod.imagePullSecrets).toEqual([{ name: 'reg' }]);
      expect(pod.serviceAccountName).toBe('runner');
      expect(pod.securityContext).toMatchObject({ runAsNonRoot: true, runAsUser: 1000 });
    }
    for (const t of [mastersTemplate, coordinatorTemplate]) expect(t.metadata!.labels!.m).toBe('x');
    expect(mastersTemplate.metadata!.annotations).toEqual({ 'example.com/a': 'b' });
    // The scrape annotations are the coordinator's alone: it serves /metrics (metrics.test.ts).
    expect(coordinatorTemplate.metadata!.annotations).toEqual({
      'example.com/a': 'b',
      'prometheus.io/scrape': 'true',
      'prometheus.io/port': '9464',
      'prometheus.io/path': '/metrics',
    });
    expect(container(m).resources!.limits).toEqual({ cpu: '2', memory: '1024Mi' });
    expect(container(co).resources!.limits).toEqual({ cpu: '250m', memory: '256Mi' });
    expect(co.automountServiceAccountToken).toBe(true);
  });

  test('a master runs Zeta itself from the mounted engine files, restarts in place and holds no API token', () => {
    const pod = p.masters!.spec!.template.spec!;
    const c = container(pod);
    expect(c.command!.slice(-3)).toEqual([
      'org.apache.seatunnel.core.starter.seatunnel.SeaTunnelServer',
      '-r',
      'master',
    ]);
    expect(c.command).toContain(`-Dhazelcast.config=/etc/seatunnel-app/engine/${ENGINE_FILES.masterHazelcast}`);
    expect(pod.restartPolicy).toBe('Always');
    expect(pod.automountServiceAccountToken).toBe(false);
    expect(pod.initContainers).toBeUndefined();
    expect(pod.volumes!.map((v) => v.name)).toEqual(expect.arrayContaining(['seatunnel-engine-config', 'checkpoints']));
    expect(pod.volumes!.map((v) => v.name)).not.toContain('seatunnel-app-runtime');
    const env = envOf(c);
    expect(env.SEATUNNEL_APPLICATION_JOB_CONFIG).toBeUndefined();
    expect(env.SEATUNNEL_APPLICATION_ID).toBeUndefined();
    expect(env.HZ_PHONE_HOME_ENABLED).toBe('false');
    // Ready only once the member has joined: Hazelcast's health endpoint, not a TCP check.
    expect(c.readinessProbe!.httpGet).toEqual({ path: '/hazelcast/health/ready', port: p.spec.master.port });
    // Probed every second: the coordinator waits for every master ready before it submits.
    expect(c.readinessProbe).toMatchObject({ periodSeconds: 1, failureThreshold: 10 });
    // Alive while Hazelcast answers HTTP (a frozen JVM still accepts TCP): killed after about 10 s
    // unanswered, with a 1 s grace, well inside the 30 s heartbeat timeout.
    expect(c.livenessProbe).toEqual({
      httpGet: { path: '/hazelcast/health/node-state', port: p.spec.master.port },
      periodSeconds: 2,
      timeoutSeconds: 2,
      failureThreshold: 5,
      terminationGracePeriodSeconds: 1,
    });
    // The heartbeat timeout the same plan's engine files set for the masters.
    const engine = p.configMaps.find((m) => m.metadata.name === `${p.spec.appId}-engine`)!.data!;
    const heartbeatTimeoutSeconds = Number(
      parse(engine[ENGINE_FILES.masterHazelcast]).hazelcast.properties['hazelcast.max.no.heartbeat.seconds'],
    );
    expect(heartbeatTimeoutSeconds).toBeGreaterThan(0);
    const l = c.livenessProbe!;
    expect(l.periodSeconds! * l.failureThreshold! + l.timeoutSeconds! + l.terminationGracePeriodSeconds!).toBeLessThan(
      heartbeatTimeoutSeconds,
    );
  });

  test('the Job Pod is the coordinator: the runtime, small, no member port or probes, retried unless the runtime ended it', () => {
    const pod = p.job.spec!.template.spec!;
    const c = container(pod);
    expect(p.job.spec!.template.metadata!.labels![role]).toBe('coordinator');
    expect(c.command![1]).toMatch(/runtime\.cjs$/);
    // No member port: only the runtime's /metrics.
    expect(c.ports).toEqual([{ name: 'metrics', containerPort: 9464, protocol: 'TCP' }]);
    expect(c.readinessProbe).toBeUndefined();
    expect(c.resources!.limits).toEqual({ cpu: '250m', memory: '256Mi' });
    expect(envOf(c).SEATUNNEL_APPLICATION_JOB_CONFIG_FILE).toBe('/etc/seatunnel-app/job/job.conf');
    // coordinator-restarts (3) + the last coordinator, which only cleans up.
    expect(p.job.spec!.backoffLimit).toBe(4);
    const rules = p.job.spec!.podFailurePolicy!.rules;
    expect(rules[0]).toEqual({
      action: 'FailJob',
      onExitCodes: { containerName: 'seatunnel', operator: 'In', values: [1, 2, 3, 4, 5] },
    });
    expect(rules[0].onExitCodes!.values).not.toContain(75);
    expect(rules[1]).toEqual({ action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget', status: 'True' }] });
    expect(p.job.metadata.annotations!['seatunnel.apache.org/masters-desired']).toBe('3');
  });

  test('a ClusterIP Service in front of the ready masters is the REST endpoint', () => {
    const s = p.restService!;
    expect(s.metadata.name).toBe(`${p.spec.appId}-rest`);
    expect(s.spec!.type).toBe('ClusterIP');
    expect(s.spec!.clusterIP).toBeUndefined();
    expect(s.spec!.publishNotReadyAddresses).toBeUndefined();
    expect(s.spec!.selector).toEqual(p.service.spec!.selector);
    expect(s.spec!.ports!.map((x) => x.port)).toEqual([p.spec.master.port, p.spec.master.restPort]);
  });

  test('every member lists every master by its stable DNS name; workers get the list at plan time', () => {
    const engine = p.configMaps.find((c) => c.metadata.name === `${p.spec.appId}-engine`)!.data!;
    const names = [0, 1, 2].map((i) => `${p.spec.appId}-master-${i}.${p.spec.appId}.team-a.svc:5801`);
    for (const file of [ENGINE_FILES.masterHazelcast, ENGINE_FILES.workerHazelcast]) {
      const hz = parse(engine[file]).hazelcast;
      expect(hz.network.join['tcp-ip']['member-list']).toEqual(names);
      expect(hz.network['public-address']).toBeUndefined();
      expect(hz.properties['hazelcast.max.no.heartbeat.seconds']).toBe(30);
      // A deleted master leaves before its replacement asks to join; a split that happens anyway merges soon.
      expect(hz.properties).toMatchObject({
        'hazelcast.shutdownhook.policy': 'GRACEFUL',
        'hazelcast.graceful.shutdown.max.wait': 60,
        'hazelcast.merge.first.run.delay.seconds': 10,
        'hazelcast.merge.next.run.delay.seconds': 10,
      });
      expect(hz.properties['hazelcast.graceful.shutdown.max.wait']).toBeLessThan(
        p.masters!.spec!.template.spec!.terminationGracePeriodSeconds!,
      );
    }
    expect(
      parse(engine[ENGINE_FILES.masterHazelcast]).hazelcast.network['rest-api']['endpoint-groups'].HEALTH_CHECK,
    ).toEqual({ enabled: true });
    expect(parse(engine[ENGINE_FILES.masterEngine]).seatunnel.engine['backup-count']).toBe(1);
    expect(envOf(container(p.workerTemplate.template!.spec!)).ST_DOCKER_MEMBER_LIST).toBe(names.join(','));
    const runtime = JSON.parse(engine[ENGINE_FILES.runtime]);
    expect(runtime.ha).toEqual({
      masters: 3,
      statefulSet: `${p.spec.appId}-master`,
      restHost: `${p.spec.appId}-rest.team-a.svc`,
      workerFailurePolicy: 'fail',
      workerReplacements: 3,
      coordinatorRestarts: 3,
      masterAddresses: names,
    });
  });

  test('the StatefulSet and the REST Service are dependents (owned by the Job), created before the Job', () => {
    const kinds = dependents(p).map((o) => `${o.kind}/${o.metadata.name}`);
    expect(kinds).toContain(`StatefulSet/${p.spec.appId}-master`);
    expect(kinds).toContain(`Service/${p.spec.appId}-rest`);
    expect(allObjects(p).at(-1)!.kind).toBe('Job');
  });

  test("the coordinator's Role reads and removes exactly its StatefulSet, and cannot change it", () => {
    // A changed Pod template would have the StatefulSet controller create any Pod (issue 27, item 4).
    const rules = runtimeRules(spec(HA));
    const sts = rules.filter((r) => r.resources?.includes('statefulsets'));
    expect(sts).toEqual([
      {
        apiGroups: ['apps'],
        resources: ['statefulsets'],
        resourceNames: [`${spec(HA).appId}-master`],
        verbs: ['get', 'delete'],
      },
    ]);
    expect(runtimeRules(spec()).some((r) => r.resources?.includes('statefulsets'))).toBe(false);
  });

  test('NetworkPolicies: nothing reaches the coordinator; the masters admit the application', () => {
    const byName = new Map(p.networkPolicies.map((n) => [n.metadata.name, n]));
    const coord = byName.get(`${p.spec.appId}-coordinator`)!;
    expect(coord.spec!.podSelector.matchLabels).toEqual({
      'seatunnel.apache.org/application-id': p.spec.appId,
      [role]: 'coordinator',
    });
    expect(coord.spec!.ingress).toEqual([]);
    const master = byName.get(`${p.spec.appId}-master`)!;
    expect(master.spec!.ingress).toContainEqual({
      from: [
        {
          podSelector: { matchLabels: { 'seatunnel.apache.org/application-id': p.spec.appId, [role]: 'coordinator' } },
        },
      ],
      ports: [{ protocol: 'TCP', port: p.spec.master.restPort }],
    });
  });

  test('the masters inherit the hardening of the master Pod (Pod Security)', () => {
    const hardened = plan({ ...HA, podSecurity: 'restricted' });
    const c = container(hardened.masters!.spec!.template.spec!);
    expect(c.securityContext).toEqual(container(hardened.job.spec!.template.spec!).securityContext);
    expect(c.securityContext!.runAsNonRoot).toBe(true);
  });
});
