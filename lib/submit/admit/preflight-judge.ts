// preflight's judgement, pure: from the plan and what preflight read from the API server (the
// facts, lib/submit/admit/preflight.ts) to every problem, every note and the verdict. The reads
// and the rules are apart so that each rule is tested as a row of a table
// (test/unit/submit/preflight-judge.test.ts), as status's mapping is (deriveStatus).
//
// The rules, in the order their problems are reported:
//   server-version  the server's version is below the supported range (lib/submit/admit/server-support.ts)
//   served-api      a kind of the plan the server does not serve (the PodMonitor's CRD; served-apis.ts):
//                   one sentence, and its dry run's refusal is not repeated
//   permission      each SelfSubjectAccessReview denied, with what submit, status or cancel needs it for
//   pod-security    a Pod Security refusal of the master or a worker: one problem, with the namespace's level
//   dry-run         each other refusal of a server-side dry run, except those a missing create
//                   permission already explains, and a RoleBinding to the plan's own Role (a note);
//                   identical refusals of N workers are one problem
//   reference       each missing referenced object or key (lib/submit/admit/references.ts)
//   quota           ResourceQuota headroom for the whole footprint (lib/submit/admit/quota.ts)
//   limit-range     LimitRange bounds after defaulting (lib/submit/admit/limit-range.ts)
// The verdict: ok when there is no problem.

import type { ApplicationPlan } from '../../plan/types';
import { describeError, describeRef, groupOf, type KubeApiError, resourceOf } from '../../kube';
import { applicationFootprint, formatQuantity, type Footprint, type LimitRangeLike } from './footprint';
import { checkLimitRanges } from './limit-range';
import { checkQuotas, type ResourceQuotaLike } from './quota';
import { qualified, type AccessResult } from './permissions';
import {
  describePodSecurity,
  isPodSecurityRefusal,
  podSecurityReport,
  type NamespaceLabels,
  type PodSecurityReport,
} from './pod-security';
import { referencedObjects, type ReferenceCheck } from './references';
import type { UnservedKind } from './served-apis';
import type { ServerSupport } from './server-support';

export type PreflightCheck =
  'server-version' | 'served-api' | 'dry-run' | 'quota' | 'limit-range' | 'permission' | 'reference' | 'pod-security';

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
  /** Every image the application's Pods run (init containers included): the nodes must be able to pull them. */
  readonly images: readonly string[];
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

/** The answer to one server-side dry run. */
export interface DryRunOutcome {
  /** How the object is named in a problem ("Job ns/x", "master Pod (from Job x)", "Pod x-worker-1"). */
  readonly label: string;
  readonly kind: string;
  readonly apiVersion: string;
  /** The refusal; undefined when the dry run passed. */
  readonly error?: KubeApiError;
  /** The object's name, with a refusal. */
  readonly name?: string;
}

/** Everything preflight reads, and the server's version the command read before it. */
export interface PreflightFacts {
  /** What the server's version means for this application (lib/cli/connect.ts reads it once). */
  readonly server: ServerSupport;
  /** The suspended Job and every dependent, in the plan's order. */
  readonly objectRuns: readonly DryRunOutcome[];
  readonly masterRun: DryRunOutcome;
  /** One per stamped worker Pod, in worker order. */
  readonly workerRuns: readonly DryRunOutcome[];
  readonly references: ReferenceCheck;
  readonly quotas: readonly ResourceQuotaLike[];
  readonly limitRanges: readonly LimitRangeLike[];
  readonly access: readonly AccessResult[];
  readonly namespaceLabels: NamespaceLabels;
  /** Kinds of the plan the server does not serve (absent: all served). */
  readonly unserved?: readonly UnservedKind[];
}

interface Findings {
  readonly problems: readonly PreflightProblem[];
  readonly notes: readonly string[];
}

function serverFindings(server: ServerSupport): Findings {
  return {
    problems: server.refusal
      ? [{ check: 'server-version', object: `Kubernetes ${server.server}`, message: server.refusal }]
      : [],
    notes: server.notes,
  };
}

function servedApiFindings(unserved: readonly UnservedKind[]): Findings {
  return {
    problems: unserved.map((u) => ({ check: 'served-api', object: `${u.apiVersion} ${u.kind}`, message: u.message })),
    notes: [],
  };
}

// Permissions come first: a missing one explains the dry-run refusals it causes.
function permissionFindings(access: readonly AccessResult[], ns: string): Findings {
  return {
    problems: access
      .filter((a) => !a.allowed)
      .map((a) => ({
        check: 'permission',
        object: `${a.verb} ${qualified(a)}`,
        message: `missing permission: ${a.verb} ${qualified(a)} in namespace ${ns} (${a.purposes.join('; ')})`,
      })),
    notes: [],
  };
}

// Pod Security refusals of the Pods are one problem, with the namespace's level, not one per Pod.
function podSecurityFindings(report: PodSecurityReport, labels: NamespaceLabels, ns: string): Findings {
  const line = describePodSecurity(report, ns, 'unreadable' in labels ? labels.unreadable : undefined);
  return report.podsPass
    ? { problems: [], notes: [line] }
    : { problems: [{ check: 'pod-security', object: `Namespace ${ns}`, message: line }], notes: [] };
}

/**
 * A namespace that enforces no Pod Security level lets whoever may create Pods there — the
 * submitter Role may — run a privileged Pod with the node's root filesystem (docs/security.md).
 */
function podSecurityWarnings(report: PodSecurityReport, ns: string): string[] {
  const none = report.source === 'no-label' || report.enforce === 'privileged';
  if (!none) return [];
  return [
    `namespace ${ns} enforces no Pod Security level of its own (${report.source === 'no-label' ? 'no' : '"privileged" in its'} pod-security.kubernetes.io/enforce label): anyone who may create Pods there, as the submitter Role may, can run a privileged Pod with the node's root filesystem, unless the cluster's default level forbids it; label it pod-security.kubernetes.io/enforce=baseline (applicationNamespace() makes such a namespace)`,
  ];
}

/** The label of a group of workers refused alike: "3 of 5 worker Pods (a-worker-1, a-worker-2, a-worker-4)". */
function workersLabel(group: readonly DryRunOutcome[], workers: number): string {
  if (group.length === 1) return group[0].label;
  const names = group.map((g) => g.name).slice(0, 3);
  return `${group.length} of ${workers} worker Pods (${names.join(', ')}${group.length > 3 ? ', …' : ''})`;
}

function dryRunFindings(plan: ApplicationPlan, facts: PreflightFacts): Findings {
  const problems: PreflightProblem[] = [];
  const notes: string[] = [];
  const deniedCreate = new Set(facts.access.filter((a) => !a.allowed && a.verb === 'create').map(qualified));
  const report = (r: DryRunOutcome, label: string, message: string) => {
    if (r.kind === 'Pod' && isPodSecurityRefusal(r.error)) return;
    const res = qualified({ group: groupOf(r.apiVersion), resource: resourceOf(r.kind) });
    // A refusal already explained by a missing create permission is not repeated.
    if (r.error?.status === 403 && deniedCreate.has(res) && /cannot create resource/.test(r.error.detail)) return;
    problems.push({ check: 'dry-run', object: label, message });
  };
  const planRoles = new Set(plan.roles.map((r) => r.metadata.name));
  // A kind the server does not serve is one served-api problem, not a 404 of its dry run too.
  const unserved = new Set((facts.unserved ?? []).map((u) => u.kind));
  for (const r of [...facts.objectRuns, facts.masterRun]) {
    if (!r.error || unserved.has(r.kind)) continue;
    // A RoleBinding to the plan's own Role cannot be dry-run before that Role exists (for a caller
    // without `bind`, the API server looks the Role up to check escalation, and answers 404).
    // Creating it will succeed when the Role's own dry run passed: that one proved the caller holds its rules.
    const binding = r.kind === 'RoleBinding' ? plan.roleBindings.find((b) => b.metadata.name === r.name) : undefined;
    if (binding && r.error.status === 404 && planRoles.has(binding.roleRef.name)) {
      notes.push(`${r.label}: not dry-run (its Role is created by submit first); covered by the Role's dry run`);
      continue;
    }
    report(r, r.label, `server-side dry run rejected the ${r.label}: ${describeError(r.error)}`);
  }
  // N identical workers fail identically: one line for all of them.
  const byMessage = new Map<string, DryRunOutcome[]>();
  for (const r of facts.workerRuns) {
    if (!r.error) continue;
    const key = r.error.detail.split(r.name ?? '\0').join('<worker>');
    byMessage.set(key, [...(byMessage.get(key) ?? []), r]);
  }
  for (const group of byMessage.values()) {
    const label = workersLabel(group, facts.workerRuns.length);
    report(group[0], label, `server-side dry run rejected ${label}: ${describeError(group[0].error)}`);
  }
  return { problems, notes };
}

function referenceFindings(references: ReferenceCheck): Findings {
  return {
    problems: references.problems.map((p) => ({ check: 'reference', object: describeRef(p.ref), message: p.message })),
    notes: [],
  };
}

/** Master + N workers (+ the HA masters) and the application's objects, after LimitRange defaulting. */
function footprintOf(plan: ApplicationPlan, workers: number, limitRanges: readonly LimitRangeLike[]): Footprint {
  return applicationFootprint(
    plan.job.spec!.template.spec!,
    plan.workerTemplate.template!.spec!,
    workers,
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
}

function footprintFindings(plan: ApplicationPlan, fp: Footprint, facts: PreflightFacts): Findings {
  const { quotas, limitRanges } = facts;
  const quotaProblems = checkQuotas(quotas, fp, {
    terminating: plan.job.spec?.activeDeadlineSeconds !== undefined,
    priorityClass: plan.job.spec?.template.spec?.priorityClassName,
  });
  const lr = checkLimitRanges(limitRanges, fp);
  const notes = [...lr.notes];
  if (quotas.length === 0) notes.push(`no ResourceQuota in namespace ${plan.spec.namespace}`);
  for (const q of quotas)
    if (!q.status?.used)
      notes.push(
        `ResourceQuota ${q.metadata?.name} has no recorded usage yet (its controller has not synced); counted as 0 used`,
      );
  return { problems: [...quotaProblems, ...lr.problems], notes };
}

function summarize(fp: Footprint): PreflightReport['footprint'] {
  const fmt = (a: Record<string, number>) =>
    Object.fromEntries(Object.entries(a).map(([k, v]) => [k, formatQuantity(k, v)]));
  return { pods: 1 + fp.workers, workers: fp.workers, requests: fmt(fp.requests), limits: fmt(fp.limits) };
}

/** The pure judgement: every problem and note the facts show, and whether the application may go. */
export function judgePreflight(plan: ApplicationPlan, facts: PreflightFacts): PreflightReport {
  const spec = plan.spec;
  const ns = spec.namespace;
  const podSecurity = podSecurityReport(
    facts.namespaceLabels,
    spec.podSecurity.level,
    [facts.masterRun, ...facts.workerRuns].map((r) => r.error),
  );
  const fp = footprintOf(plan, facts.workerRuns.length, facts.limitRanges);
  const findings = [
    serverFindings(facts.server),
    servedApiFindings(facts.unserved ?? []),
    permissionFindings(facts.access, ns),
    podSecurityFindings(podSecurity, facts.namespaceLabels, ns),
    dryRunFindings(plan, facts),
    referenceFindings(facts.references),
    footprintFindings(plan, fp, facts),
  ];
  const problems = findings.flatMap((f) => f.problems);
  return {
    applicationId: spec.appId,
    namespace: ns,
    server: facts.server.server,
    ok: problems.length === 0,
    problems,
    notes: findings.flatMap((f) => f.notes),
    warnings: [...facts.references.notices.map((n) => n.message), ...podSecurityWarnings(podSecurity, ns)],
    podSecurity,
    images: applicationImages(plan),
    footprint: summarize(fp),
    checked: {
      dryRunObjects: facts.objectRuns.length,
      dryRunPods: 1 + facts.workerRuns.length,
      resourceQuotas: facts.quotas.length,
      limitRanges: facts.limitRanges.length,
      permissions: facts.access.length,
      references: new Set(referencedObjects(spec).map((r) => `${r.ref.kind}/${r.ref.name}`)).size,
    },
  };
}

/** The images of the Job Pod, the workers and (with HA) the masters, each once. */
export function applicationImages(plan: ApplicationPlan): string[] {
  const specs = [plan.job.spec?.template.spec, plan.workerTemplate.template?.spec, plan.masters?.spec?.template.spec];
  const images = specs.flatMap((s) => [...(s?.initContainers ?? []), ...(s?.containers ?? [])].map((c) => c.image));
  return [...new Set(images.filter((i): i is string => Boolean(i)))];
}
