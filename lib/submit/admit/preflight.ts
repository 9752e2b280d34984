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
//     (lib/submit/admit/server-support.ts).
// Creates nothing.

import { dependents } from '../../plan/build-plan';
import type { ApplicationPlan, KubeObject } from '../../plan/types';
import {
  applicationFootprint,
  checkLimitRanges,
  checkQuotas,
  formatQuantity,
  type Footprint,
  type LimitRangeLike,
  type ResourceQuotaLike,
} from './footprint';
import { describeError, describeRef, groupOf, type Kube, KubeApiError, refOf, resourceOf } from '../../kube';
import { checkAccess, qualified, requiredAccess, type AccessResult } from './permissions';
import {
  describePodSecurity,
  isPodSecurityRefusal,
  podSecurityReport,
  readNamespaceLabels,
  type PodSecurityReport,
} from './pod-security';
import { checkReferences, referencedObjects } from './references';
import { stampMasterPod, stampWorkers, type StampedPod } from '../../plan/stamp';
import type { ServerSupport } from './server-support';
import { FIELD_MANAGER } from '../act/submit';

export type PreflightCheck =
  'server-version' | 'dry-run' | 'quota' | 'limit-range' | 'permission' | 'reference' | 'pod-security';

export interface PreflightProblem {
  readonly check: PreflightCheck;
  /** The object concerned ("ResourceQuota compute", "Secret db", "Pod x-worker-1…3"). */
  readonly object: string;
  readonly message: string;
}

export interface PreflightReport {
  readonly applicationId: string;
  readonly namespace: string;
  /** The API server's version (gitVersion). */
  readonly server: string;
  readonly ok: boolean;
  readonly problems: readonly PreflightProblem[];
  readonly notes: readonly string[];
  /** What the application will run with differently from what its references say (printed as warnings). */
  readonly warnings: readonly string[];
  readonly podSecurity: PodSecurityReport;
  readonly footprint: {
    readonly pods: number;
    readonly workers: number;
    readonly requests: Record<string, string>;
    readonly limits: Record<string, string>;
  };
  readonly checked: {
    readonly dryRunObjects: number;
    readonly dryRunPods: number;
    readonly resourceQuotas: number;
    readonly limitRanges: number;
    readonly permissions: number;
    readonly references: number;
  };
}

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

interface DryRunOutcome {
  readonly label: string;
  readonly kind: string;
  readonly apiVersion: string;
  readonly error?: KubeApiError;
  readonly name?: string;
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

function summarize(fp: Footprint): PreflightReport['footprint'] {
  const fmt = (a: Record<string, number>) =>
    Object.fromEntries(Object.entries(a).map(([k, v]) => [k, formatQuantity(k, v)]));
  return { pods: 1 + fp.workers, workers: fp.workers, requests: fmt(fp.requests), limits: fmt(fp.limits) };
}

/** `server`: the decision from the server's version, read once by the command (lib/cli/connect.ts). */
export async function runPreflight(kube: Kube, plan: ApplicationPlan, server: ServerSupport): Promise<PreflightReport> {
  const spec = plan.spec;
  const ns = spec.namespace;
  const job = { ...plan.job, spec: { ...plan.job.spec!, suspend: true } };
  const deps = dependents(plan);
  // A generated ServiceAccount does not exist before submit, and the API server refuses a Pod whose
  // ServiceAccount is missing: the Pods are dry-run as `default` instead (nothing else in admission
  // depends on which ServiceAccount it is; the ServiceAccount's own dry run covers creating it).
  const asExisting = <T extends StampedPod>(pod: T): T =>
    spec.serviceAccountGenerated ? { ...pod, spec: { ...pod.spec, serviceAccountName: 'default' } } : pod;
  const master = asExisting(stampMasterPod(plan.job));
  const workers = stampWorkers(plan).map(asExisting);
  const required = requiredAccess(plan);

  const [objectRuns, masterRun, workerRuns, references, quotas, limitRanges, access, namespaceLabels] =
    await Promise.all([
      Promise.all([job, ...deps].map((o) => dryRun(kube, o, describeRef(refOf(o))))),
      dryRun(kube, master, `master Pod (from Job ${plan.job.metadata.name})`),
      pool(workers, 16, (w) => dryRun(kube, w, `Pod ${w.metadata.name}`)),
      checkReferences(kube, spec),
      kube.list<ResourceQuotaLike>('v1', 'ResourceQuota', ns).then((l) => l.items),
      kube.list<LimitRangeLike>('v1', 'LimitRange', ns).then((l) => l.items),
      checkAccess(kube, ns, required),
      readNamespaceLabels(kube, ns),
    ]);

  const problems: PreflightProblem[] = [];
  const notes: string[] = [...server.notes];
  if (server.refusal)
    problems.push({ check: 'server-version', object: `Kubernetes ${server.server}`, message: server.refusal });

  // Permissions first: a missing one explains the dry-run refusals it causes.
  const denied = access.filter((a) => !a.allowed);
  for (const a of denied)
    problems.push({ check: 'permission', object: `${a.verb} ${qualified(a)}`, message: permissionMessage(a, ns) });
  const deniedCreate = new Set(denied.filter((a) => a.verb === 'create').map((a) => qualified(a)));

  // Pod Security refusals of the Pods are one problem, with the namespace's level, not one per Pod.
  const podSecurity = podSecurityReport(
    namespaceLabels,
    spec.podSecurity.level,
    [masterRun, ...workerRuns].map((r) => r.error),
  );
  const podSecurityLine = describePodSecurity(
    podSecurity,
    ns,
    'unreadable' in namespaceLabels ? namespaceLabels.unreadable : undefined,
  );
  if (podSecurity.podsPass) notes.push(podSecurityLine);
  else problems.push({ check: 'pod-security', object: `Namespace ${ns}`, message: podSecurityLine });

  const dryRunProblem = (r: DryRunOutcome, label: string, message: string) => {
    if (r.kind === 'Pod' && isPodSecurityRefusal(r.error)) return;
    const res = qualified({ group: groupOf(r.apiVersion), resource: resourceOf(r.kind) });
    // A refusal already explained by a missing create permission is not repeated.
    if (r.error?.status === 403 && deniedCreate.has(res) && /cannot create resource/.test(r.error.detail)) return;
    problems.push({ check: 'dry-run', object: label, message });
  };
  const planRoles = new Set(plan.roles.map((r) => r.metadata.name));
  for (const r of [...objectRuns, masterRun]) {
    if (!r.error) continue;
    // A RoleBinding to the plan's own Role cannot be dry-run before that Role exists (for a caller
    // without `bind`, the API server looks the Role up to check escalation, and answers 404).
    // Creating it will succeed when the Role's own dry run passed: that one proved the caller holds its rules.
    const binding = r.kind === 'RoleBinding' ? plan.roleBindings.find((b) => b.metadata.name === r.name) : undefined;
    if (binding && r.error.status === 404 && planRoles.has(binding.roleRef.name)) {
      notes.push(`${r.label}: not dry-run (its Role is created by submit first); covered by the Role's dry run`);
      continue;
    }
    dryRunProblem(r, r.label, `server-side dry run rejected the ${r.label}: ${describeError(r.error)}`);
  }
  // N identical workers fail identically: one line for all of them.
  const byMessage = new Map<string, DryRunOutcome[]>();
  for (const r of workerRuns) {
    if (!r.error) continue;
    const key = r.error.detail.split(r.name ?? '\0').join('<worker>');
    byMessage.set(key, [...(byMessage.get(key) ?? []), r]);
  }
  for (const group of byMessage.values()) {
    const first = group[0];
    const label =
      group.length === 1
        ? first.label
        : `${group.length} of ${workers.length} worker Pods (${group
            .map((g) => g.name)
            .slice(0, 3)
            .join(', ')}${group.length > 3 ? ', …' : ''})`;
    dryRunProblem(first, label, `server-side dry run rejected ${label}: ${describeError(first.error)}`);
  }

  for (const p of references.problems)
    problems.push({ check: 'reference', object: describeRef(p.ref), message: p.message });

  const fp = applicationFootprint(
    plan.job.spec!.template.spec!,
    plan.workerTemplate.template!.spec!,
    workers.length,
    {
      configMaps: plan.configMaps.length,
      secrets: plan.secrets.length,
      roles: plan.roles.length,
      roleBindings: plan.roleBindings.length,
      networkPolicies: plan.networkPolicies.length,
    },
    limitRanges,
    plan.masters ? { spec: plan.masters.spec!.template.spec!, count: plan.masters.spec!.replicas ?? 1 } : undefined,
  );
  const quotaProblems = checkQuotas(quotas, fp, {
    terminating: plan.job.spec?.activeDeadlineSeconds !== undefined,
    priorityClass: plan.job.spec?.template.spec?.priorityClassName,
  });
  for (const q of quotaProblems) problems.push(q);
  const lr = checkLimitRanges(limitRanges, fp);
  for (const l of lr.problems) problems.push(l);

  notes.push(...lr.notes);
  if (quotas.length === 0) notes.push(`no ResourceQuota in namespace ${ns}`);
  for (const q of quotas)
    if (!q.status?.used)
      notes.push(
        `ResourceQuota ${q.metadata?.name} has no recorded usage yet (its controller has not synced); counted as 0 used`,
      );

  return {
    applicationId: spec.appId,
    namespace: ns,
    server: server.server,
    ok: problems.length === 0,
    problems,
    notes,
    warnings: references.notices.map((n) => n.message),
    podSecurity,
    footprint: summarize(fp),
    checked: {
      dryRunObjects: objectRuns.length,
      dryRunPods: 1 + workerRuns.length,
      resourceQuotas: quotas.length,
      limitRanges: limitRanges.length,
      permissions: access.length,
      references: new Set(referencedObjects(spec).map((r) => `${r.ref.kind}/${r.ref.name}`)).size,
    },
  };
}

function permissionMessage(a: AccessResult, ns: string): string {
  return `missing permission: ${a.verb} ${qualified(a)} in namespace ${ns} (${a.purposes.join('; ')})`;
}
