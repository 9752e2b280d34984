// Every object of the synthesized example (and of an application using every feature) is
// accepted by a real API server: a server-side dry run with strict field validation.

import { Testing } from 'cdk8s';
import { buildApp } from '../../apps/cdk8s/main';
import { SeaTunnelApplicationChart } from '../../lib/cdk8s/application';
import { buildPlan, allObjects } from '../../lib/plan/build-plan';
import { resolveApplication } from '../../lib/model/resolve';
import { dryRunStrict, useTestNamespace } from '../support/cluster';

const JOB =
  'env { job.mode = "BATCH" }\nsource { FakeSource { plugin_output = "f" } }\nsink { Console { plugin_input = "f" } }\n';

describe('server-side dry run of synthesized objects (fieldValidation=Strict)', () => {
  const ns = useTestNamespace('synth');

  test('the bundled example and the team template applications', async () => {
    const app = buildApp(Testing.app().outdir);
    const objects = app.charts
      .flatMap((c) => c.toJson())
      .map((o) => ({ ...o, metadata: { ...o.metadata, namespace: ns.name } }));
    expect(objects.length).toBeGreaterThan(30);
    const results = await dryRunStrict(objects, { namespace: ns.name, throwOnError: false });
    expect(results.filter((r) => !r.ok).map((r) => `${r.object.kind} ${r.object.metadata.name}: ${r.message}`)).toEqual(
      [],
    );
    expect(results).toHaveLength(objects.length);
  });

  test('an application using every feature, suspended as the CLI creates it', async () => {
    const spec = resolveApplication({
      name: 'kitchen-sink',
      namespace: ns.name,
      image: 'apache/seatunnel:2.3.12',
      jobConfig: JOB,
      imagePullSecrets: ['reg'],
      workerCount: 3,
      workerCpuCores: 0.5,
      checkpointPvc: 'ckpt',
      secretRef: 'legacy',
      masterTolerations: [{ key: 'spot', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 30 }],
      workerTolerations: [{ key: 'dedicated', value: 'st', effect: 'NoSchedule' }],
      masterNodeSelector: { pool: 'a' },
      workerLabels: { w: 'y' },
      masterAnnotations: { 'example.com/a': 'b' },
      configMaps: {
        drivers: { ref: 'jdbc', mounts: { 'a.jar': '/opt/seatunnel/lib/a.jar' } },
        settings: { data: { 'x.properties': 'a=1' }, mounts: { 'x.properties': '/etc/x.properties' } },
      },
      secrets: { db: { data: { password: 'p' }, mounts: { password: '/etc/db/password' } } },
      env: { A: 'a', B: { secret: 'db', key: 'password' } },
      envFrom: { e: { configmap: 'c', prefix: 'C_' } },
    });
    new SeaTunnelApplicationChart(Testing.app(), 'k', { application: { spec } });
    const objects = JSON.parse(JSON.stringify(allObjects(buildPlan(spec, { suspend: true })))) as Array<{
      apiVersion: string;
      kind: string;
      metadata: { name: string };
    }>;
    const results = await dryRunStrict(objects, { namespace: ns.name, throwOnError: false });
    expect(results.filter((r) => !r.ok).map((r) => `${r.object.kind} ${r.object.metadata.name}: ${r.message}`)).toEqual(
      [],
    );
    expect(results).toHaveLength(objects.length);
  });
});
