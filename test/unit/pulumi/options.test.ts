// The resource options of the component's children (pure: the mock monitor never sees options).

import type { ProviderResource, Resource } from '@pulumi/pulumi';
import { dependentOptions, JOB_IGNORE_CHANGES, jobOptions, startOptions } from '../../../lib/pulumi/options';

const fake = <T = Resource>(name: string) => ({ name }) as unknown as T;
const component = fake('component');
const job = fake('job');
const deps = ['role', 'rolebinding', 'policy', 'configmap', 'secret', 'service', 'podtemplate'].map((n) => fake(n));

describe('child resource options', () => {
  test('the Job: parented, spec.suspend ignored after creation, deleted before it is replaced', () => {
    expect(jobOptions({ parent: component })).toEqual({
      parent: component,
      ignoreChanges: ['spec.suspend'],
      deleteBeforeReplace: true,
    });
    expect(JOB_IGNORE_CHANGES).toEqual(['spec.suspend']);
  });

  test('a dependent: after the Job, replaced with it (a new Job means new owner references)', () => {
    expect(dependentOptions({ parent: component }, job)).toEqual({
      parent: component,
      dependsOn: [job],
      deleteBeforeReplace: true,
      replaceWith: [job],
    });
  });

  test('the JobPatch: after the Job and every dependent, in creation order; re-applied to a replacement Job', () => {
    const o = startOptions({ parent: component }, job, deps);
    expect(o.dependsOn).toEqual([job, ...deps]);
    expect((o.dependsOn as Resource[]).map((r) => (r as unknown as { name: string }).name)).toEqual([
      'job',
      'role',
      'rolebinding',
      'policy',
      'configmap',
      'secret',
      'service',
      'podtemplate',
    ]);
    expect(o.replaceWith).toEqual([job]);
    expect(o.parent).toBe(component);
    expect(o.ignoreChanges).toBeUndefined();
  });

  test('an explicit provider and timeouts are passed on (timeouts where something waits)', () => {
    const provider = fake<ProviderResource>('provider');
    const customTimeouts = { delete: '20m' };
    const ctx = { parent: component, provider, customTimeouts };
    expect(jobOptions(ctx)).toMatchObject({ provider, customTimeouts });
    expect(startOptions(ctx, job, deps)).toMatchObject({ provider, customTimeouts });
    expect(dependentOptions(ctx, job)).toEqual({
      parent: component,
      provider,
      dependsOn: [job],
      deleteBeforeReplace: true,
      replaceWith: [job],
    });
  });

  test('nothing inherited by accident: no provider key unless one is given; a fresh ignoreChanges array each time', () => {
    expect('provider' in jobOptions({ parent: component })).toBe(false);
    const a = jobOptions({ parent: component });
    a.ignoreChanges!.push('metadata');
    expect(jobOptions({ parent: component }).ignoreChanges).toEqual(['spec.suspend']);
  });
});
