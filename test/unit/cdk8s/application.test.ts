import { Testing } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildApp } from '../../../apps/cdk8s/main';
import { SeaTunnelApplication, SeaTunnelApplicationChart } from '../../../lib/cdk8s/application';
import { loadApplication } from '../../../lib/model/load';
import { allObjects } from '../../../lib/plan/build-plan';
import { kubeSchemaValidator } from '../../support/k8s-schema';
import { JOB_CONFIG, props } from '../../support/fixtures';

const examples = join(__dirname, '..', '..', '..', 'apps', 'examples');
const exampleSpec = () =>
  loadApplication({
    deploymentText: readFileSync(join(examples, 'deploy.conf'), 'utf8'),
    jobConfig: readFileSync(join(examples, 'job.conf'), 'utf8'),
  });

/** An application that uses every feature, so schema validation covers every generated field. */
const kitchenSink = props({
  namespace: 'jobs',
  imagePullSecrets: ['reg'],
  serviceAccount: 'runner',
  workerCount: 3,
  workerCpuCores: 0.5,
  masterLabels: { m: 'x' },
  workerLabels: { w: 'y' },
  masterAnnotations: { 'example.com/a': 'b' },
  workerAnnotations: { c: 'd' },
  masterNodeSelector: { pool: 'a' },
  workerNodeSelector: { pool: 'b' },
  masterTolerations: [{ key: 'spot', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 30 }],
  workerTolerations: [{ key: 'dedicated', value: 'st', effect: 'NoSchedule' }],
  configMaps: {
    drivers: { ref: 'jdbc', mounts: { 'a.jar': '/opt/seatunnel/lib/a.jar' } },
    settings: { data: { 'x.properties': 'a=1' }, mounts: { 'x.properties': '/etc/x.properties' } },
  },
  secrets: { db: { data: { password: 'p' }, mounts: { password: '/etc/db/password' } } },
  secretRef: 'legacy',
  env: { A: 'a', B: { secret: 'db', key: 'password' }, C: { configmap: 'c', key: 'k', optional: true } },
  envFrom: { e: { secret: 's', prefix: 'S_' } },
  checkpointPvc: 'ckpt',
  runtimeConfigMap: 'seatunnel-config',
  labels: { team: 'data' },
  annotations: { owner: 'ops' },
  restoreJobId: '42',
});

describe('SeaTunnelApplication construct', () => {
  test('snapshot of the bundled example', () => {
    const chart = Testing.chart();
    new SeaTunnelApplication(chart, 'example', { spec: exampleSpec() });
    expect(Testing.synth(chart)).toMatchSnapshot();
  });

  test('synthesizes exactly the plan, dependents first, the Job unsuspended for kubectl', () => {
    const chart = Testing.chart();
    const app = new SeaTunnelApplication(chart, 'orders', props());
    const out = Testing.synth(chart);
    expect(out).toEqual(JSON.parse(JSON.stringify(allObjects(app.plan))));
    expect(out[out.length - 1].kind).toBe('Job');
    expect(out[out.length - 1].spec.suspend).toBe(false);
    expect(app.applicationId).toBe(app.spec.appId);
    expect(app.jobId).toBe(app.spec.jobId);
  });

  test("kubernetes.metrics.pod-monitor: the PodMonitor as an ApiObject, exactly the plan's, before the Job", () => {
    const chart = Testing.chart();
    const app = new SeaTunnelApplication(chart, 'orders', props({ metricsPodMonitor: true }));
    const out = Testing.synth(chart);
    const monitors = out.filter((o) => o.kind === 'PodMonitor');
    expect(monitors).toEqual([JSON.parse(JSON.stringify(app.plan.podMonitor))]);
    expect(monitors[0].apiVersion).toBe('monitoring.coreos.com/v1');
    expect(out.indexOf(monitors[0])).toBeLessThan(out.findIndex((o) => o.kind === 'Job'));
    const plain = Testing.chart();
    new SeaTunnelApplication(plain, 'orders', props());
    expect(Testing.synth(plain).map((o) => o.kind)).not.toContain('PodMonitor');
  });

  test('suspend: true for tools that start the Job themselves', () => {
    const chart = Testing.chart();
    const app = new SeaTunnelApplication(chart, 'orders', { ...props(), suspend: true });
    expect(app.plan.job.spec!.suspend).toBe(true);
  });

  test('invalid props throw at construction, with every problem', () => {
    const chart = Testing.chart();
    expect(() => new SeaTunnelApplication(chart, 'bad', props({ workerCount: 0, namespace: 'NO' }))).toThrow(
      /namespace: got "NO"; must consist[\s\S]*workerCount: got 0; must be between 1 and 1000/,
    );
  });

  test('stable across synths (derived IDs): no GitOps churn', () => {
    const a = Testing.synth(new SeaTunnelApplicationChart(Testing.app(), 'x', { application: props() }));
    const b = Testing.synth(new SeaTunnelApplicationChart(Testing.app(), 'x', { application: props() }));
    expect(a).toEqual(b);
  });

  test('cdk8s-plus selectors for the master and worker Pods', () => {
    const chart = Testing.chart();
    const app = new SeaTunnelApplication(chart, 'orders', props({ namespace: 'jobs' }));
    const policy = new kplus.NetworkPolicy(chart, 'db-egress', { selector: app.workerPods() });
    policy.addEgressRule(kplus.NetworkPolicyIpBlock.ipv4(chart, 'db', '10.1.2.3/32'), [
      kplus.NetworkPolicyPort.tcp(5432),
    ]);
    const np = Testing.synth(chart).find((o) => o.kind === 'NetworkPolicy' && o.metadata.name.includes('db-egress'));
    expect(np.spec.podSelector.matchLabels).toEqual({
      'seatunnel.apache.org/application-id': app.applicationId,
      'seatunnel.apache.org/role': 'worker',
    });
  });
});

describe('schema validation of every synthesized object (Kubernetes OpenAPI, closed objects)', () => {
  const validator = kubeSchemaValidator();

  test('the validator catches a misspelled field and a wrong type', () => {
    const chart = Testing.chart();
    const app = new SeaTunnelApplication(chart, 'orders', props());
    const job = JSON.parse(JSON.stringify(app.plan.job));
    job.spec.suspnd = true;
    job.spec.template.spec.containers[0].resources.limits.cpu = { many: 1 };
    const errors = validator.validate(job);
    expect(errors.join('\n')).toMatch(/must NOT have additional properties 'suspnd'/);
    expect(errors.length).toBeGreaterThanOrEqual(2);
  });

  test.each([
    [
      'the bundled example',
      () => {
        const a = Testing.app();
        new SeaTunnelApplicationChart(a, 'e', { application: { spec: exampleSpec() } });
        return a;
      },
    ],
    [
      'an application using every feature',
      () => {
        const a = Testing.app();
        new SeaTunnelApplicationChart(a, 'k', { application: kitchenSink });
        return a;
      },
    ],
    ['the team template applications', () => buildApp(Testing.app().outdir)],
    [
      'embedded runtime, no RBAC, no policies, disabled runtime files',
      () => {
        const a = Testing.app();
        new SeaTunnelApplicationChart(a, 'm', {
          application: props({
            runtimeMode: 'embedded',
            rbacCreate: false,
            networkPolicyEnabled: false,
            runtimeFiles: { log4j2: { enabled: false }, engine: { enabled: false } },
          }),
        });
        return a;
      },
    ],
  ])('%s', (_name, make) => {
    const app = make();
    const objects = app.charts.flatMap((c) => c.toJson());
    expect(objects.length).toBeGreaterThanOrEqual(4);
    const errors = objects.flatMap((o) => validator.validate(o));
    expect(errors).toEqual([]);
  });

  test('the cdk8s app synthesizes the example and three team applications, one chart each', () => {
    const app = buildApp(Testing.app().outdir);
    expect(app.charts).toHaveLength(4);
    const names = app.charts.map((c) => c.toJson().find((o: { kind: string }) => o.kind === 'Job').metadata.name);
    expect(names.map((n: string) => n.replace(/-[0-9a-f]{12}$/, ''))).toEqual([
      'fake-to-console',
      'orders',
      'payments',
      'clicks',
    ]);
  });
});

test('the job config in JOB_CONFIG fixture is a valid job', () => {
  expect(JOB_CONFIG).toContain('source');
});
