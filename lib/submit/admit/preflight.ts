// preflight (and submit --dry-run): everything that would stop the application, found before
// anything starts and reported at once — the launchers that create workers from inside a running
// master only find these at run time, one by one:
//   - server-side dry run (dryRun=All, fieldValidation=Strict) of the Job, every dependent, the
//     master Pod the Job controller will create, and the N worker Pods stamped from the template
//     (schema, admission, Pod Security, webhooks, per-object quota and LimitRange admission);
//   - ResourceQuota headroom for the whole footprint (master + N workers + init container, and
//     every object), which no per-object admission can judge;
//   - LimitRange compatibility (min, max, maxLimitRequestRatio, after defaulting);
//   - the caller's permissions (SelfSubjectAccessReview for everything submit, its rollback,
//     status and cancel need);
//   - referenced ConfigMaps, Secrets, ServiceAccount and PVC (and the keys read from them);
//   - the namespace's enforced Pod Security level and whether the Pods pass it;
//   - the server's version: refused below the supported range, and what an older one changes
//     (lib/submit/admit/server-support.ts);
//   - the extension APIs the plan's kinds need (the PodMonitor's CRD; lib/submit/admit/served-apis.ts).
// Creates nothing. This module reads (gatherPreflight); the judgement from what it read is pure
// (judgePreflight, lib/submit/admit/preflight-judge.ts).

import { dependents } from '../../plan/build-plan';
import { stampMasterPod, stampWorkers, type StampedPod } from '../../plan/stamp';
import type { ApplicationPlan, KubeObject } from '../../plan/types';
import { describeRef, type Kube, KubeApiError, refOf } from '../../kube';
import { FIELD_MANAGER } from '../act/submit';
import type { LimitRangeLike } from './footprint';
import { checkAccess, requiredAccess } from './permissions';
import { readNamespaceLabels } from './pod-security';
import { judgePreflight, type DryRunOutcome, type PreflightFacts, type PreflightReport } from './preflight-judge';
import type { ResourceQuotaLike } from './quota';
import { checkReferences } from './references';
import { unservedKinds } from './served-apis';
import type { ServerSupport } from './server-support';

/** Runs `fn` over `items` with at most `limit` in flight. */
async function pool<T, R>(items: readonly T[], limit: number, fn: (t: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

async function dryRun(kube: Kube, obj: KubeObject | StampedPod, label: string): Promise<DryRunOutcome> {
  try {
    await kube.create(obj, obj.metadata.namespace, { dryRun: true, fieldManager: FIELD_MANAGER });
    return { label, kind: obj.kind, apiVersion: obj.apiVersion };
  } catch (e) {
    // No answer at all says nothing about the application: fail the preflight run itself.
    if (!(e instanceof KubeApiError) || e.status === 0) throw e;
    return { label, kind: obj.kind, apiVersion: obj.apiVersion, error: e, name: obj.metadata.name };
  }
}

/** Every read of preflight, all at once: the dry runs, the references, quotas, limit ranges, permissions, the namespace. */
export async function gatherPreflight(kube: Kube, plan: ApplicationPlan): Promise<Omit<PreflightFacts, 'server'>> {
  const spec = plan.spec;
  const ns = spec.namespace;
  const job = { ...plan.job, spec: { ...plan.job.spec!, suspend: true } };
  // A generated ServiceAccount does not exist before submit, and the API server refuses a Pod whose
  // ServiceAccount is missing: the Pods are dry-run as `default` instead (nothing else in admission
  // depends on which ServiceAccount it is; the ServiceAccount's own dry run covers creating it).
  const asExisting = <T extends StampedPod>(pod: T): T =>
    spec.serviceAccountGenerated ? { ...pod, spec: { ...pod.spec, serviceAccountName: 'default' } } : pod;
  const master = asExisting(stampMasterPod(plan.job));
  const workers = stampWorkers(plan).map(asExisting);

  const [objectRuns, masterRun, workerRuns, references, quotas, limitRanges, access, namespaceLabels, unserved] =
    await Promise.all([
      Promise.all([job, ...dependents(plan)].map((o) => dryRun(kube, o, describeRef(refOf(o))))),
      dryRun(kube, master, `master Pod (from Job ${plan.job.metadata.name})`),
      pool(workers, 16, (w) => dryRun(kube, w, `Pod ${w.metadata.name}`)),
      checkReferences(kube, spec),
      kube.list<ResourceQuotaLike>('v1', 'ResourceQuota', ns).then((l) => l.items),
      kube.list<LimitRangeLike>('v1', 'LimitRange', ns).then((l) => l.items),
      checkAccess(kube, ns, requiredAccess(plan)),
      readNamespaceLabels(kube, ns),
      unservedKinds(kube, plan),
    ]);
  return { objectRuns, masterRun, workerRuns, references, quotas, limitRanges, access, namespaceLabels, unserved };
}

/** `server`: the decision from the server's version, read once by the command (lib/cli/connect.ts). */
export async function runPreflight(kube: Kube, plan: ApplicationPlan, server: ServerSupport): Promise<PreflightReport> {
  return judgePreflight(plan, { server, ...(await gatherPreflight(kube, plan)) });
}
