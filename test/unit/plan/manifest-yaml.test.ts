// The CLI's synth renders the plan without cdk8s (lib/plan/manifest-yaml.ts); the cdk8s door
// synthesizes the same plan through ApiObjects. The two texts must be the same, byte for byte, for
// every shape of application — else `synth` and `cdk8s synth` would part without anyone noticing.
import { App } from 'cdk8s';
import { SeaTunnelApplicationChart } from '../../../lib/cdk8s/application';
import { synthYaml } from '../../../lib/cli/commands/synth';
import type { SeaTunnelApplicationProps } from '../../../lib/model/props';
import { manifestJson } from '../../../lib/plan/manifest-yaml';
import { DOLLAR_JOB_CONFIG, spec } from '../../support/fixtures';

function cdk8sYaml(extra: Partial<SeaTunnelApplicationProps>): string {
  const s = spec(extra);
  const app = new App({ outdir: '/nonexistent' });
  new SeaTunnelApplicationChart(app, s.appId, { application: { spec: s } });
  return app.synthYaml();
}

const SHAPES: Array<[string, Partial<SeaTunnelApplicationProps>]> = [
  ['the defaults', {}],
  ['a job whose text the kubelet would change ($ escapes)', { jobConfig: DOLLAR_JOB_CONFIG }],
  [
    'HA with metrics, a PodMonitor and scraper selectors',
    {
      haEnabled: true,
      haMasters: 3,
      checkpointPvc: 'ckpt',
      namespace: 'team-a',
      metricsPodMonitor: true,
      metricsPodMonitorLabels: { release: 'prom' },
      metricsScraperNamespaceLabels: { 'kubernetes.io/metadata.name': 'monitoring' },
    },
  ],
  ['metrics off, no RBAC, no NetworkPolicy', { metricsEnabled: false, rbacCreate: false, networkPolicyEnabled: false }],
  [
    'config maps, secrets and environment from both',
    {
      applicationId: 'app-1',
      configMaps: {
        drivers: { ref: 'jdbc', mounts: { 'pg.jar': '/opt/seatunnel/lib/pg.jar' } },
        settings: { data: { 'a.properties': 'x=1', empty: '' }, mounts: { 'a.properties': '/etc/app/a.properties' } },
      },
      secrets: { db: { data: { password: 'p' }, mounts: { password: '/etc/db/password' } } },
      env: { ROWS: '100', PASSWORD: { secret: 'db', key: 'password' }, EMPTY: '' },
    },
  ],
  [
    'labels, annotations, scheduling and spread per role',
    {
      labels: { team: 'data' },
      annotations: { 'example.com/owner': 'alice' },
      workerLabels: { tier: 'worker' },
      masterNodeSelector: { pool: 'stable' },
      workerTolerations: [{ key: 'dedicated', value: 'st', effect: 'NoSchedule' }],
      workerSpread: 'required',
      workerCount: 3,
    },
  ],
  ['a restricted Pod Security profile with a fixed user', { podSecurity: 'restricted', runAsUser: 1000 }],
  ['the runtime embedded in the SeaTunnel image', { runtimeMode: 'embedded' }],
  [
    'a restore, a retention and a runtime config map',
    { restoreJobId: '12345', finishedJobRetentionSeconds: 600, runtimeConfigMap: 'st-config' },
  ],
];

describe('synth without cdk8s', () => {
  test.each(SHAPES)('%s: the same text as the cdk8s door', (_name, extra) => {
    const s = spec(extra);
    expect(synthYaml(s)).toBe(cdk8sYaml(extra));
  });

  test('cdk8s rules it repeats: keys sorted, nulls dropped, empty values dropped in metadata only, identity first', () => {
    const json = manifestJson({
      kind: 'ConfigMap',
      data: { b: '', a: 'x' },
      metadata: { name: 'n', labels: {}, annotations: { z: '1', y: '2' }, finalizers: [] },
      apiVersion: 'v1',
      immutable: null,
      binaryData: {},
    } as never);
    expect(JSON.stringify(json)).toBe(
      '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"annotations":{"y":"2","z":"1"},"name":"n"},"binaryData":{},"data":{"a":"x","b":""}}',
    );
  });
});
