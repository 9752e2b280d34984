// Parity: what `pulumi up` sends (the component's inputs, under mocks) is what `cdk8s synth`
// writes, object for object, once the adapter-specific parts are normalised away:
//   - metadata.ownerReferences (Pulumi only: the Job's uid is known only at apply time),
//   - pulumi.com/* annotations (Pulumi only: skipAwait on the Job),
//   - the Job's spec.suspend (Pulumi creates it suspended and unsuspends it with a JobPatch;
//     kubectl users get it unsuspended, last in the file),
//   - Pulumi secret wrappers around Secret data (unwrapped, after checking they are there).
// The Pulumi side is built the way a stack builds it: from stack config (lib/pulumi/stack-config).

import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Testing, type App } from 'cdk8s';
import { parseAllDocuments } from 'yaml';
import { buildApp } from '../../../apps/cdk8s/main';
import { TEAM_TEMPLATES } from '../../../apps/pulumi/templates';
import { teamApplications } from '../../../apps/examples/team/template';
import { SeaTunnelApplicationChart } from '../../../lib/cdk8s/application';
import { packageRoot } from '../../../lib/cli/io';
import { main } from '../../../lib/cli/main';
import type { SeaTunnelApplicationProps } from '../../../lib/model/props';
import type { ApplicationSpec } from '../../../lib/model/spec';
import type * as applicationModule from '../../../lib/pulumi/application';
import { applicationFromStackConfig, type StackJobConfig } from '../../../lib/pulumi/stack-config';
import { installMocks, isSecretValue, mockJobUid, unwrapSecrets, type MockedPulumi, type Registered } from './mocks';

type Obj = {
  kind: string;
  metadata: { name: string; namespace?: string; annotations?: Record<string, string>; ownerReferences?: unknown[] };
  spec?: Record<string, unknown>;
} & Record<string, unknown>;

let m: MockedPulumi;
let lib: typeof applicationModule;

beforeAll(async () => {
  m = await installMocks('seatunnel-jobs', 'parity');
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  lib = require('../../../lib/pulumi/application');
});

/** Strips what only one adapter adds (see the top of this file). */
function normalise(o: Obj): Obj {
  const copy = JSON.parse(JSON.stringify(o)) as Obj;
  delete copy.metadata.ownerReferences;
  if (copy.metadata.annotations) {
    for (const k of Object.keys(copy.metadata.annotations))
      if (k.startsWith('pulumi.com/')) delete copy.metadata.annotations[k];
    if (Object.keys(copy.metadata.annotations).length === 0) delete copy.metadata.annotations;
  }
  if (copy.kind === 'Job') delete copy.spec!.suspend;
  return copy;
}

const byKey = (objects: Obj[]) =>
  Object.fromEntries(objects.map((o) => [`${o.kind} ${o.metadata.namespace}/${o.metadata.name}`, o]));

/** The Pulumi inputs of one application (JobPatch aside), after checking the Pulumi-only parts. */
async function pulumiObjects(name: string, spec: ApplicationSpec): Promise<{ objects: Obj[]; patch: Registered }> {
  const before = m.registered.length;
  const app = new lib.SeaTunnelApplication(name, { spec });
  await Promise.all([app.job, ...app.dependents, app.start].map((r) => m.value(r.urn)));
  const custom = m.registered.slice(before).filter((r) => r.custom);
  const patch = custom.find((r) => r.type === 'kubernetes:batch/v1:JobPatch')!;
  const objects = custom
    .filter((r) => r !== patch)
    .map((r) => {
      const o = r.inputs as Obj;
      if (o.kind === 'Secret') {
        for (const field of ['data', 'stringData']) if (field in o) expect(isSecretValue(o[field])).toBe(true);
      }
      if (o.kind === 'Job') {
        expect(o.spec!.suspend).toBe(true);
        expect(o.metadata.annotations!['pulumi.com/skipAwait']).toBe('true');
        expect(o.metadata.ownerReferences).toBeUndefined();
      } else {
        expect(o.metadata.ownerReferences).toEqual([
          {
            apiVersion: 'batch/v1',
            kind: 'Job',
            name: spec.appId,
            uid: mockJobUid(spec.appId),
            controller: false,
            blockOwnerDeletion: false,
          },
        ]);
      }
      return unwrapSecrets(o) as Obj;
    });
  return { objects, patch };
}

function cdk8sObjects(app: App, chartIndex: number): Obj[] {
  const objects = app.charts[chartIndex].toJson() as Obj[];
  const job = objects.find((o) => o.kind === 'Job')!;
  expect(job.spec!.suspend).toBe(false);
  for (const o of objects) expect(o.metadata.ownerReferences).toBeUndefined();
  return objects;
}

const root = packageRoot();
const teamJob = (name: keyof typeof teamApplications): StackJobConfig => {
  const { jobConfig: _text, ...application } = teamApplications[name];
  return { template: 'dataTeam', application, jobFile: `apps/examples/team/${name}.conf` };
};

/** The cdk8s app's charts, in order, and the stack config a Pulumi stack would use for each. */
const DOORS: ReadonlyArray<[string, number, StackJobConfig]> = [
  [
    'the bundled example (deployment file + job file)',
    0,
    { deploymentFile: 'apps/examples/deploy.conf', jobFile: 'apps/examples/job.conf' },
  ],
  ['team template application "orders"', 1, teamJob('orders')],
  ['team template application "payments"', 2, teamJob('payments')],
  ['team template application "clicks"', 3, teamJob('clicks')],
];

describe('parity: Pulumi inputs = cdk8s output, after normalisation', () => {
  let cdk8sApp: App;
  beforeAll(() => {
    cdk8sApp = buildApp(Testing.app().outdir);
  });

  test.each(DOORS)('%s', async (_name, chartIndex, config) => {
    const chart = cdk8sApp.charts[chartIndex] as SeaTunnelApplicationChart;
    const spec = applicationFromStackConfig(config, { baseDir: root, templates: TEAM_TEMPLATES });
    // The stack config door resolves to the very application the cdk8s app synthesizes.
    expect(spec).toEqual(chart.application.spec);

    const fromCdk8s = cdk8sObjects(cdk8sApp, chartIndex);
    const { objects: fromPulumi, patch } = await pulumiObjects(`door-${chartIndex}`, spec);
    expect(fromPulumi).toHaveLength(fromCdk8s.length);
    expect(byKey(fromPulumi.map(normalise))).toEqual(byKey(fromCdk8s.map(normalise)));
    expect(patch.inputs).toMatchObject({
      metadata: { name: spec.appId, namespace: spec.namespace },
      spec: { suspend: false },
    });
  });

  test('an application using owned Secrets and ConfigMaps, RBAC, policies and a PodMonitor (typed props on both sides)', async () => {
    const props: SeaTunnelApplicationProps = {
      name: 'kitchen-sink',
      namespace: 'jobs',
      image: 'apache/seatunnel:2.3.12',
      workerCount: 3,
      jobConfig:
        'env { job.mode = "BATCH" }\nsource { FakeSource { plugin_output = "f" } }\nsink { Console { plugin_input = "f" } }\n',
      configMaps: {
        settings: { data: { 'x.properties': 'a=1' }, mounts: { 'x.properties': '/etc/x.properties' } },
        drivers: { ref: 'jdbc' },
      },
      secrets: { db: { data: { password: 'p', user: 'u' }, mounts: { password: '/etc/db/password' } } },
      env: { A: 'a', B: { secret: 'db', key: 'user' } },
      checkpointPvc: 'ckpt',
      secretRef: 'legacy',
      runtimeConfigMap: 'seatunnel-config',
      labels: { team: 'data' },
      annotations: { owner: 'ops' },
      metricsPodMonitor: true,
      metricsPodMonitorLabels: { release: 'prometheus' },
    };
    const app = Testing.app();
    const chart = new SeaTunnelApplicationChart(app, 'kitchen-sink', { application: props });
    const fromCdk8s = cdk8sObjects(app, 0);
    expect(fromCdk8s.map((o) => o.kind).sort()).toEqual([
      'ConfigMap',
      'ConfigMap',
      'Job',
      'NetworkPolicy',
      'NetworkPolicy',
      'PodMonitor',
      'PodTemplate',
      'Role',
      'RoleBinding',
      'Secret',
      'Secret', // the job config's
      'Service',
      'ServiceAccount',
    ]);
    const { objects: fromPulumi } = await pulumiObjects('kitchen-sink', chart.application.spec);
    expect(byKey(fromPulumi.map(normalise))).toEqual(byKey(fromCdk8s.map(normalise)));
    // Both doors take kubernetes.config-map: mounted, never among the objects they create.
    const job = fromPulumi.find((o) => o.kind === 'Job') as unknown as {
      spec: { template: { spec: { volumes: unknown[] } } };
    };
    expect(job.spec.template.spec.volumes).toContainEqual({
      name: 'seatunnel-config',
      configMap: { name: 'seatunnel-config' },
    });
    expect(
      fromPulumi.filter((o) => o.kind === 'ConfigMap').map((o) => (o.metadata as { name: string }).name),
    ).not.toContain('seatunnel-config');
  });

  test('an HA application: the same StatefulSet, REST Service and coordinator Job from both doors', async () => {
    const props: SeaTunnelApplicationProps = {
      name: 'orders-ha',
      namespace: 'jobs',
      image: 'apache/seatunnel:2.3.8',
      workerCount: 2,
      jobConfig:
        'env { job.mode = "STREAMING" }\nsource { FakeSource { plugin_output = "f" } }\nsink { Console { plugin_input = "f" } }\n',
      checkpointPvc: 'ckpt',
      haEnabled: true,
      haMasters: 3,
      haWorkerFailurePolicy: 'replace',
    };
    const app = Testing.app();
    const chart = new SeaTunnelApplicationChart(app, 'orders-ha', { application: props });
    const fromCdk8s = cdk8sObjects(app, 0);
    expect(fromCdk8s.map((o) => o.kind).sort()).toEqual([
      'ConfigMap',
      'Job',
      'NetworkPolicy',
      'NetworkPolicy',
      'NetworkPolicy',
      'PodTemplate',
      'Role',
      'RoleBinding',
      'Secret', // the job config's
      'Service',
      'Service',
      'ServiceAccount',
      'StatefulSet',
    ]);
    const { objects: fromPulumi } = await pulumiObjects('orders-ha', chart.application.spec);
    expect(byKey(fromPulumi.map(normalise))).toEqual(byKey(fromCdk8s.map(normalise)));
    const sts = fromPulumi.find((o) => o.kind === 'StatefulSet')!;
    expect(sts.metadata.annotations?.['pulumi.com/skipAwait']).toBe('true');
  });

  test('spread options: the same masters and worker template from synth (a deployment file), cdk8s and Pulumi (typed props)', async () => {
    const zone = 'topology.kubernetes.io/zone';
    const props: SeaTunnelApplicationProps = {
      name: 'orders-spread',
      namespace: 'jobs',
      image: 'apache/seatunnel:2.3.8',
      workerCount: 3,
      jobConfig:
        'env { job.mode = "STREAMING" }\nsource { FakeSource { plugin_output = "f" } }\nsink { Console { plugin_input = "f" } }\n',
      checkpointPvc: 'ckpt',
      haEnabled: true,
      haMasters: 3,
      masterSpread: 'required',
      masterSpreadTopology: ['kubernetes.io/hostname', zone],
      workerSpread: 'preferred',
      workerTopologySpreadConstraints: [{ maxSkew: 1, topologyKey: zone, whenUnsatisfiable: 'DoNotSchedule' }],
    };
    const dir = mkdtempSync(join(tmpdir(), 'st-parity-'));
    writeFileSync(
      join(dir, 'deploy.conf'),
      `application { name = orders-spread, worker-count = 3, ha { enabled = true, masters = 3 } }
kubernetes {
  namespace = jobs
  image = "apache/seatunnel:2.3.8"
  checkpoint-pvc = ckpt
  master { spread = required, spread-topology = ["kubernetes.io/hostname", "${zone}"] }
  worker.spread = preferred
}`,
    );
    writeFileSync(join(dir, 'job.conf'), props.jobConfig!);
    const silent = { json: false, result: () => {}, line: () => {}, warn: () => {}, error: () => {} };
    const code = await main(
      [
        'synth',
        '-a',
        join(dir, 'deploy.conf'),
        '-c',
        join(dir, 'job.conf'),
        `-Dkubernetes.worker.topology-spread-constraints=${zone}:1:DoNotSchedule`,
        '-o',
        join(dir, 'out'),
      ],
      silent,
    );
    expect(code).toBe(0);
    const [file] = readdirSync(join(dir, 'out'));
    const fromSynth = parseAllDocuments(readFileSync(join(dir, 'out', file), 'utf8')).map((d) => d.toJS() as Obj);

    const app = Testing.app();
    const chart = new SeaTunnelApplicationChart(app, 'orders-spread', { application: props });
    const fromCdk8s = cdk8sObjects(app, 0);
    const { objects: fromPulumi } = await pulumiObjects('orders-spread', chart.application.spec);
    const pick = (objects: Obj[]) =>
      byKey(objects.filter((o) => o.kind === 'StatefulSet' || o.kind === 'PodTemplate').map(normalise));
    expect(Object.keys(pick(fromCdk8s))).toHaveLength(2);
    expect(pick(fromSynth)).toEqual(pick(fromCdk8s));
    expect(pick(fromPulumi)).toEqual(pick(fromCdk8s));
    const sts = fromPulumi.find((o) => o.kind === 'StatefulSet') as unknown as {
      spec: { template: { spec: { affinity: unknown } } };
    };
    expect(sts.spec.template.spec.affinity).toEqual({
      podAntiAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: ['kubernetes.io/hostname', zone].map((topologyKey) => ({
          labelSelector: {
            matchLabels: {
              'seatunnel.apache.org/application-id': chart.application.spec.appId,
              'seatunnel.apache.org/role': 'master',
            },
          },
          topologyKey,
        })),
      },
    });
    const template = fromSynth.find((o) => o.kind === 'PodTemplate') as unknown as {
      template: { spec: { affinity: unknown; topologySpreadConstraints: unknown[] } };
    };
    expect(template.template.spec.affinity).toBeDefined();
    expect(template.template.spec.topologySpreadConstraints).toHaveLength(1);
  });

  test('the normalisation removes only what it says', () => {
    const job: Obj = {
      kind: 'Job',
      metadata: { name: 'j', annotations: { 'pulumi.com/skipAwait': 'true', keep: 'me' }, ownerReferences: [{}] },
      spec: { suspend: true, backoffLimit: 0 },
    };
    expect(normalise(job)).toEqual({
      kind: 'Job',
      metadata: { name: 'j', annotations: { keep: 'me' } },
      spec: { backoffLimit: 0 },
    });
    const cm: Obj = {
      kind: 'ConfigMap',
      metadata: { name: 'c', annotations: { 'pulumi.com/x': 'y' } },
      spec: { suspend: true },
    };
    expect(normalise(cm)).toEqual({ kind: 'ConfigMap', metadata: { name: 'c' }, spec: { suspend: true } });
  });
});
