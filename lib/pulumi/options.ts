// The resource options of every child of the Pulumi component, as pure functions: Pulumi's mock
// monitor never sees resource options, so this is where ordering, ignore-changes and replacement
// behaviour are decided and unit-tested. Type-only imports: nothing here touches the engine.
//
// The graph (one application):
//
//   Job (suspended, skipAwait)  ──uid──►  Role, RoleBinding, NetworkPolicies, ConfigMaps, Secrets,
//                                          Service, PodTemplate (owner reference to the Job)
//                                                   │ all exist
//                                                   ▼
//                                          JobPatch spec.suspend=false (patchForce, skipAwait)

import type { CustomResourceOptions, CustomTimeouts, ProviderResource, Resource } from '@pulumi/pulumi';

/**
 * The Job's `spec.suspend` is owned by the JobPatch once it has run. Without this, an update of
 * the Job (or a `pulumi refresh` followed by `up`) would apply `suspend: true` again, and
 * Kubernetes deletes the running Pods of a Job that is re-suspended. The provider honours the
 * path under server-side apply: it drops the field when another manager owns it, or sends the
 * live value.
 */
export const JOB_IGNORE_CHANGES: readonly string[] = ['spec.suspend'];

export interface ChildOptionsContext {
  /** The component: every child is parented to it (URNs, `pulumi stack --show-urns`, provider inheritance). */
  readonly parent: Resource;
  /** @default - inherited from the component's `provider`/`providers` options, else the default provider */
  readonly provider?: ProviderResource;
  /**
   * Timeouts of the Job (its delete waits until the master Pod is gone) and of the JobPatch.
   * @default - the provider's (10 minutes)
   */
  readonly customTimeouts?: CustomTimeouts;
}

const common = (ctx: ChildOptionsContext): CustomResourceOptions => ({
  parent: ctx.parent,
  ...(ctx.provider ? { provider: ctx.provider } : {}),
});

/**
 * The Job: created first and suspended; `spec.suspend` is never re-applied. Its name is fixed, so
 * a replacement (a change of `spec.template`, which Kubernetes does not allow in place) must
 * delete the old Job before creating the new one.
 */
export function jobOptions(ctx: ChildOptionsContext): CustomResourceOptions {
  return {
    ...common(ctx),
    ignoreChanges: [...JOB_IGNORE_CHANGES],
    deleteBeforeReplace: true,
    ...(ctx.customTimeouts ? { customTimeouts: ctx.customTimeouts } : {}),
  };
}

/**
 * A dependent (Service, owned ConfigMap/Secret, PodTemplate, Role, RoleBinding, NetworkPolicy).
 * Its owner reference reads the Job's uid, which already orders it after the Job; `dependsOn`
 * says so explicitly. When the Job is replaced, the old Job's garbage collection would delete the
 * dependents behind Pulumi's back, so they are replaced with it (`replaceWith`), deleted before
 * they are re-created under the same name.
 */
export function dependentOptions(ctx: ChildOptionsContext, job: Resource): CustomResourceOptions {
  return {
    ...common(ctx),
    dependsOn: [job],
    deleteBeforeReplace: true,
    replaceWith: [job],
  };
}

/**
 * The JobPatch that unsuspends the Job: only once the Job and every dependent exist. A new Job
 * (after a replacement) is created suspended again, so the patch is re-applied with it.
 */
export function startOptions(
  ctx: ChildOptionsContext,
  job: Resource,
  dependents: readonly Resource[],
): CustomResourceOptions {
  return {
    ...common(ctx),
    dependsOn: [job, ...dependents],
    replaceWith: [job],
    ...(ctx.customTimeouts ? { customTimeouts: ctx.customTimeouts } : {}),
  };
}
