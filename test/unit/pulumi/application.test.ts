// The Pulumi component under the engine's mock monitor: every resource it registers, with its
// inputs. (Resource options never reach the mocks; options.test.ts tests them directly.)

import type { Job } from 'kubernetes-types/batch/v1';
import type * as k8sModule from '@pulumi/kubernetes';
import type * as applicationModule from '../../../lib/pulumi/application';
import { ConfigurationError } from '../../../lib/model/issues';
import { resolveApplication } from '../../../lib/model/resolve';
import { buildPlan, dependents, jobOwnerReference } from '../../../lib/plan/build-plan';
import type { KubeObject } from '../../../lib/plan/types';
import { props } from '../../support/fixtures';
import { installMocks, isSecretValue, mockJobUid, unwrapSecrets, type MockedPulumi } from './mocks';

let m: MockedPulumi;
let lib: typeof applicationModule;
let k8s: typeof k8sModule;

beforeAll(async () => {
  m = await installMocks();
  // Loaded only now: the mocks must be in place before the modules under test are.
  /* eslint-disable @typescript-eslint/no-require-imports */
  lib = require('../../../lib/pulumi/application');
  k8s = require('@pulumi/kubernetes');
  /* eslint-enable @typescript-eslint/no-require-imports */
});

/** Constructs the component and waits until the mock monitor has seen every child. */
async function deploy(
  name: string,
  args: applicationModule.SeaTunnelApplicationArgs | applicationModule.ResolvedSeaTunnelApplicationArgs,
  opts = {},
) {
  const before = m.registered.length;
  const app = new lib.SeaTunnelApplication(name, args, opts);
  const urns = await Promise.all([app, app.job, ...app.dependents, app.start].map((r) => m.value(r.urn)));
  await m.value(app.jobName);
  return { app, urns, registered: m.registered.slice(before) };
}

/** An application with every kind of dependent: RBAC, policies, the PodMonitor, owned ConfigMap and Secret. */
const full = props({
  name: 'full',
  namespace: 'jobs',
  configMaps: {
    settings: { data: { 'x.properties': 'a=1' }, mounts: { 'x.properties': '/etc/x.properties' } },
    drivers: { ref: 'jdbc' },
  },
  secrets: { db: { data: { password: 's3cret' }, mounts: { password: '/etc/db/password' } } },
  env: { A: 'a', B: { secret: 'db', key: 'password' } },
  // A custom resource too (apiextensions.CustomResource).
  metricsPodMonitor: true,
});

describe('SeaTunnelApplication (Pulumi) under mocks', () => {
  test('registers the component, the suspended Job, every dependent and the JobPatch, in that order', async () => {
    const { app, urns, registered } = await deploy('full', full);
    const plan = app.plan;
    const deps = dependents(plan);
    const typeOf = (o: KubeObject) =>
      `kubernetes:${o.apiVersion.includes('/') ? o.apiVersion : `core/${o.apiVersion}`}:${o.kind}`;
    const seen = registered.map((r) => `${r.type} ${r.name}`);
    // The SDK registers a resource only once its inputs (the Job's uid) and its dependsOn are
    // resolved: the Job comes right after the component, the JobPatch after every dependent.
    expect(seen[0]).toBe('seatunnel:kubernetes:Application full');
    expect(seen[1]).toBe(`kubernetes:batch/v1:Job Job-${plan.job.metadata.name}`);
    expect(seen[seen.length - 1]).toBe(`kubernetes:batch/v1:JobPatch JobPatch-${plan.job.metadata.name}`);
    expect(seen.slice(2, -1).sort()).toEqual(deps.map((o) => `${typeOf(o)} ${o.kind}-${o.metadata.name}`).sort());
    // `dependents` lists them in the plan's creation order.
    expect(urns.slice(2, -1)).toEqual(
      deps.map((o) => expect.stringMatching(new RegExp(`::${o.kind}-${o.metadata.name}$`))),
    );
    expect(deps.map((o) => o.kind)).toEqual([
      'ServiceAccount',
      'Role',
      'RoleBinding',
      'NetworkPolicy',
      'NetworkPolicy',
      'PodMonitor',
      'ConfigMap',
      'ConfigMap',
      'Secret',
      'Secret', // the job config (lib/plan/steps/job-config.ts)
      'Service',
      'PodTemplate',
    ]);
    // Children are parented to the component: its type is in their URNs.
    for (const urn of urns.slice(1)) expect(urn).toContain('seatunnel:kubernetes:Application$kubernetes:');
    // The component carries no inputs (they could hold secret data).
    expect(registered[0].inputs).toEqual({});
    expect(registered[0].custom).toBe(false);
  });

  test("the Job: the plan's Job, suspended, not awaited, deleted in the background, no owner", async () => {
    const { app, registered } = await deploy('job', props({ name: 'job-check' }));
    const job = registered.find((r) => r.type === 'kubernetes:batch/v1:Job')!.inputs as Job;
    expect(job.apiVersion).toBe('batch/v1');
    expect(job.kind).toBe('Job');
    expect(job.metadata?.name).toBe(app.spec.appId);
    expect(job.metadata?.namespace).toBe('default');
    expect(job.metadata?.ownerReferences).toBeUndefined();
    expect(job.metadata?.annotations).toEqual({
      ...app.plan.job.metadata.annotations,
      'pulumi.com/skipAwait': 'true',
      'pulumi.com/deletionPropagationPolicy': 'background',
    });
    expect(job.spec?.suspend).toBe(true);
    const { suspend: _s, ...rest } = job.spec!;
    const { suspend: _p, ...planned } = JSON.parse(JSON.stringify(app.plan.job.spec));
    expect(rest).toEqual(planned);
  });

  test("every dependent: the plan's object, owner-referenced to the Job's uid (controller false, blockOwnerDeletion false)", async () => {
    const { app, registered } = await deploy('deps', { ...full, name: 'deps' });
    const jobName = app.plan.job.metadata.name;
    const byName = new Map(registered.map((r) => [r.name, r]));
    const expectedOwner = jobOwnerReference(jobName, mockJobUid(jobName));
    expect(expectedOwner).toEqual({
      apiVersion: 'batch/v1',
      kind: 'Job',
      name: jobName,
      uid: `uid-${jobName}`,
      controller: false,
      blockOwnerDeletion: false,
    });
    for (const o of dependents(app.plan)) {
      const r = byName.get(`${o.kind}-${o.metadata.name}`);
      expect(r).toBeDefined();
      const inputs = unwrapSecrets(r!.inputs) as KubeObject;
      expect(inputs.metadata.ownerReferences).toEqual([expectedOwner]);
      const { ownerReferences: _o, ...metadata } = inputs.metadata;
      expect({ ...inputs, metadata }).toEqual(JSON.parse(JSON.stringify(o)));
      expect(metadata.namespace).toBe('jobs');
    }
  });

  test('Secret data is a Pulumi secret; nothing else is', async () => {
    const { app, registered } = await deploy('secrets', { ...full, name: 'secrets' });
    const secrets = registered.filter((r) => r.type === 'kubernetes:core/v1:Secret');
    // The owned Secret and the job config's: both Pulumi secrets.
    expect(secrets).toHaveLength(2);
    for (const s of secrets) expect(isSecretValue(s.inputs.stringData)).toBe(true);
    const db = secrets.find((s) => (s.inputs.metadata as { name: string }).name.endsWith('-db'))!;
    expect((db.inputs.stringData as { value: unknown }).value).toEqual({ password: 's3cret' });
    expect(app.plan.secrets.find((s) => s.metadata.name.endsWith('-db'))!.stringData).toEqual({ password: 's3cret' });
    const config = registered.filter((r) => r.type === 'kubernetes:core/v1:ConfigMap');
    for (const c of config) expect(isSecretValue(c.inputs.data)).toBe(false);
    // The state of the Secret (its outputs) is secret too.
    const secret = app.dependents.find((d) => d instanceof k8s.core.v1.Secret) as k8sModule.core.v1.Secret;
    expect(await m.isSecret(secret.stringData)).toBe(true);
  });

  test('the JobPatch unsuspends the same Job, forced and not awaited', async () => {
    const { app, registered } = await deploy('patch', props({ name: 'patch-check', namespace: 'etl' }));
    const patch = registered.find((r) => r.type === 'kubernetes:batch/v1:JobPatch')!.inputs;
    expect(patch).toEqual({
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: {
        name: app.spec.appId,
        namespace: 'etl',
        annotations: { 'pulumi.com/patchForce': 'true', 'pulumi.com/skipAwait': 'true' },
      },
      spec: { suspend: false },
    });
  });

  test('outputs: application ID, Zeta job ID, namespace, Job name', async () => {
    const { app } = await deploy('outputs', props({ name: 'outputs', namespace: 'etl', jobId: '9007199254740993' }));
    expect(await m.value(app.applicationId)).toBe(app.spec.appId);
    expect(await m.value(app.applicationId)).toMatch(/^outputs-[0-9a-f]{12}$/);
    expect(await m.value(app.jobId)).toBe('9007199254740993');
    expect(await m.value(app.namespace)).toBe('etl');
    expect(await m.value(app.jobName)).toBe(app.spec.appId);
  });

  test('a resolved spec is used as is (no second resolution, same IDs)', async () => {
    const spec = resolveApplication(props({ name: 'resolved', runId: 'r1' }), { ids: 'derived' });
    const { app, registered } = await deploy('resolved', { spec });
    expect(app.spec).toBe(spec);
    expect(registered.find((r) => r.type === 'kubernetes:batch/v1:Job')!.name).toBe(`Job-${spec.appId}`);
    expect(app.plan).toEqual(buildPlan(spec, { suspend: true }));
  });

  test("names are deterministic: the plan's, never autonamed", async () => {
    const { app, registered } = await deploy(
      'names',
      props({ name: 'names', rbacCreate: false, networkPolicyEnabled: false }),
    );
    const custom = registered.filter((r) => r.custom);
    expect(custom.map((r) => r.type)).toEqual([
      'kubernetes:batch/v1:Job',
      'kubernetes:core/v1:ConfigMap',
      'kubernetes:core/v1:ServiceAccount',
      'kubernetes:core/v1:Service',
      'kubernetes:core/v1:Secret',
      'kubernetes:core/v1:PodTemplate',
      'kubernetes:batch/v1:JobPatch',
    ]);
    for (const r of custom)
      expect((r.inputs.metadata as { name: string }).name).toMatch(new RegExp(`^${app.spec.appId}`));
  });

  test('a provider reaches every child: given in the args, or to the component as usual', async () => {
    const provider = new k8s.Provider('cluster-b', { kubeconfig: 'unused' });
    await m.value(provider.urn);
    const viaArgs = await deploy('provider', { ...props({ name: 'provider' }), provider });
    const viaOpts = await deploy('providers', props({ name: 'providers' }), { providers: [provider] });
    for (const { registered } of [viaArgs, viaOpts]) {
      const custom = registered.filter((x) => x.custom);
      expect(custom).toHaveLength(11); // Job, ServiceAccount, Role, RoleBinding, 2 NetworkPolicies, ConfigMap, Service, the job config's Secret, PodTemplate, JobPatch
      for (const r of custom) expect(r.provider).toMatch(/::cluster-b::/);
    }
  });

  test('the component hands each child the options of lib/pulumi/options (seen in-process by a transformation)', async () => {
    const seen = new Map<string, { type: string; opts: import('@pulumi/pulumi').CustomResourceOptions }>();
    const record = (a: { type: string; name: string; opts: import('@pulumi/pulumi').CustomResourceOptions }) => {
      seen.set(a.name, { type: a.type, opts: a.opts });
      return undefined;
    };
    const { app } = await deploy('options', { ...full, name: 'options' }, { transformations: [record] });
    const jobName = app.plan.job.metadata.name;
    const job = seen.get(`Job-${jobName}`)!;
    expect(job.opts).toMatchObject({ parent: app, ignoreChanges: ['spec.suspend'], deleteBeforeReplace: true });
    for (const o of dependents(app.plan)) {
      const d = seen.get(`${o.kind}-${o.metadata.name}`)!;
      expect(d.opts.parent).toBe(app);
      expect(d.opts.dependsOn).toEqual([app.job]);
      expect(d.opts.replaceWith).toEqual([app.job]);
    }
    const start = seen.get(`JobPatch-${jobName}`)!;
    expect(start.type).toBe('kubernetes:batch/v1:JobPatch');
    expect(start.opts.dependsOn).toEqual([app.job, ...app.dependents]);
    expect(start.opts.replaceWith).toEqual([app.job]);
  });

  test('fails before registering anything (not even the component) when the application is invalid', () => {
    const before = m.registered.length;
    let error: unknown;
    try {
      new lib.SeaTunnelApplication('bad', props({ workerCount: 0, namespace: 'NO' }));
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigurationError);
    expect((error as Error).message).toMatch(/namespace: got "NO"[\s\S]*workerCount: got 0/);
    expect(m.registered.length).toBe(before);
  });
});
