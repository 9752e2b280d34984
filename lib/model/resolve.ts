// resolveApplication: typed props → ApplicationSpec, applying every default and checking every
// rule. Defaults, bounds and allowed values come from the option registry (options.ts); each
// concern's rules live in its own module under rules/. All problems are collected and thrown
// together as one ConfigurationError, before any file is written or any API call is made.

import { IssueCollector, type ValidationIssue } from './issues';
import { checkEngineFileMounts } from './rules/engine-file-mounts';
import { resolveEnvFrom, resolveEnvVars } from './rules/env';
import { checkFenceBudget } from './rules/fence-budget';
import { resolveHighAvailability } from './rules/high-availability';
import { resolveIdentity } from './rules/identity';
import { resolveImages } from './rules/images';
import { resolveJobConfig } from './rules/job-config';
import { resolveStringMap } from './rules/labels';
import { resolveMetrics } from './rules/metrics';
import { resolveMounts } from './rules/mounts';
import { resolveMaster, resolveWorker } from './rules/pod-roles';
import { resolvePodSecurity } from './rules/pod-security';
import { PropReader, type Props, type ResolveContext } from './rules/reader';
import { resolveRuntimeFiles } from './rules/runtime-files';
import { resolveServiceAccount } from './rules/service-account';
import type { ApplicationSpec } from './spec';
import { fileOption } from './options';

export { PACKAGE_VERSION, DEFAULT_RUNTIME_IMAGE } from './version';
export { applicationIdProblem } from './rules/identity';
export { heapMiB } from './rules/pod-roles';
export { jobConfigProblem, MAX_INLINE_JOB_CONFIG_BYTES } from './rules/job-config';
export type { ResolveContext } from './rules/reader';

export function resolveApplication(props: Props, ctx: ResolveContext = {}): ApplicationSpec {
  const issues = new IssueCollector();
  const spec = resolveWith(new PropReader(props, ctx, issues));
  issues.throwIfAny();
  return spec;
}

/**
 * Like resolveApplication, but returns the problems instead of throwing (for callers that merge
 * them with problems of their own). `spec` is only complete when `issues` is empty.
 */
export function resolveDetailed(
  props: Props,
  ctx: ResolveContext = {},
): { spec: ApplicationSpec; issues: readonly ValidationIssue[] } {
  const issues = new IssueCollector();
  const spec = resolveWith(new PropReader(props, ctx, issues));
  return { spec, issues: issues.issues };
}

function resolveWith(r: PropReader): ApplicationSpec {
  const identity = resolveIdentity(r);
  const images = resolveImages(r);
  const master = resolveMaster(r);
  const worker = resolveWorker(r, master);
  const mounts = resolveMounts(r, identity.appId, images.seatunnelHome);
  const jobConfig = resolveJobConfig(r, [...mounts.configMaps, ...mounts.secrets]);
  const runtimeFiles = resolveRuntimeFiles(r);
  checkEngineFileMounts(r, mounts, runtimeFiles, images.seatunnelHome);
  const ha = resolveHighAvailability(r, { checkpointPvc: mounts.checkpointPvc, runtimeFiles });
  const metrics = resolveMetrics(r, master, ha !== undefined);
  const spec: ApplicationSpec = {
    ...identity,
    ...images,
    ...resolveServiceAccount(r, identity.appId),
    master,
    worker,
    ...resolveStartupBudgets(r),
    finishedJobRetentionSeconds: r.int('finishedJobRetentionSeconds'),
    apiOutageToleranceMillis: r.int('apiOutageToleranceMillis'),
    nodeLossTolerationSeconds: r.int('nodeLossTolerationSeconds'),
    ...mounts,
    env: resolveEnvVars(r),
    envFrom: resolveEnvFrom(r),
    // Undefined only when a problem was reported, and then the spec is not used.
    jobConfig: jobConfig as ApplicationSpec['jobConfig'],
    labels: resolveStringMap(r, 'labels', 'label'),
    annotations: resolveStringMap(r, 'annotations', 'annotation'),
    runtimeFiles,
    rbacCreate: r.bool('rbacCreate'),
    networkPolicyEnabled: r.bool('networkPolicyEnabled'),
    podSecurity: resolvePodSecurity(r),
    admissionFence: r.bool('admissionFence'),
    ...(ha ? { ha } : {}),
    ...(metrics ? { metrics } : {}),
    ...(r.props.kubeconfig !== undefined ? { kubeconfig: r.str('kubeconfig') } : {}),
  };
  checkFenceBudget(r, spec);
  return spec;
}

/**
 * The waits for an autoscaler and for image pulls happen inside the startup budget: a wait as long
 * as the budget would never end before the startup timeout does, and the user would see a timeout
 * instead of the reason. A wait the user set must fit; a default one is shortened to half the
 * budget, so that a short startup timeout alone stays valid.
 */
function resolveStartupBudgets(
  r: PropReader,
): Pick<
  ApplicationSpec,
  'startupTimeoutMillis' | 'scaleUpGraceMillis' | 'imagePullRetryMillis' | 'workerJoinTimeoutMillis'
> {
  const startupTimeoutMillis = r.int('startupTimeoutMillis');
  const within = (prop: 'scaleUpGraceMillis' | 'imagePullRetryMillis' | 'workerJoinTimeoutMillis'): number => {
    const value = r.int(prop);
    // A default is shortened to fit the budget, but not below the option's own minimum (runtime.json
    // is checked against it): with the shortest budget the wait then simply never ends before it.
    if (r.props[prop] === undefined)
      return Math.max(fileOption(prop).min ?? 0, Math.min(value, Math.floor(startupTimeoutMillis / 2)));
    if (value >= startupTimeoutMillis)
      r.fail(
        prop,
        value,
        `must be less than ${r.key('startupTimeoutMillis')} (${startupTimeoutMillis} ms): the wait happens inside the startup budget`,
      );
    return value;
  };
  return {
    startupTimeoutMillis,
    scaleUpGraceMillis: within('scaleUpGraceMillis'),
    imagePullRetryMillis: within('imagePullRetryMillis'),
    workerJoinTimeoutMillis: within('workerJoinTimeoutMillis'),
  };
}
