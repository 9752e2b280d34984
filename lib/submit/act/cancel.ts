// cancel: delete the application. First the Job, with foreground propagation (its owned objects
// and its master Pod go with it; the master's SIGTERM handling stops the Zeta job and removes the
// workers), then every object this tool made for the application that still exists, by label —
// the Pods, ServiceAccount, ConfigMaps, Secrets, PodTemplate, Role, RoleBinding and NetworkPolicies,
// with one deletecollection each, and the Services, StatefulSet and PodMonitor by name — so objects applied without owner
// references (plain `kubectl apply` of synthesized YAML) go too. Deleting by label, never listing,
// keeps `list secrets` (which would read every Secret of the namespace) out of the submitter Role.
//
// Only objects carrying both the application-id label and managed-by=seatunnel-app are touched:
// referenced ConfigMaps/Secrets, a named ServiceAccount and the checkpoint PVC never carry them.
// Idempotent: a second cancel finds nothing and succeeds.

import { haMasterSetName, podMonitorName } from '../../model/ids';
import { LABELS, MANAGED_BY } from '../../model/reserved';
import { ANNOTATIONS } from '../../contract';
import { describeError, isStatus, type Kube, withRetry, type AnyObject, type ObjectRef } from '../../kube';
import { readBeside } from './read-beside';
import { POD_MONITOR_API_VERSION } from '../../plan/steps/pod-monitor';
import {
  ALL_DEPENDENT_KINDS,
  type DependentKind,
  OPTIONAL_KINDS,
  RBAC_KINDS,
  REMOVAL,
} from '../../plan/submitter-access';
import { RESOURCES } from '../../kube/resources';

/** Kinds of the application's own objects removed by label (the rest by name: REMOVAL in submitter-access.ts). */
export const OWNED_KINDS: ReadonlyArray<{ apiVersion: string; kind: string }> = ALL_DEPENDENT_KINDS.filter(
  (kind) => REMOVAL[kind] === 'label',
).map((kind) => ({ apiVersion: apiVersionOf(kind), kind }));

function apiVersionOf(kind: string): string {
  const { group } = RESOURCES[kind];
  return group ? `${group}/v1` : 'v1';
}

export class NotAnApplicationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NotAnApplicationError';
  }
}

/**
 * A mistyped --id must not touch an unrelated Job that happens to have that name. The Job's Pod
 * template carries the application-id label too, and that copy cannot change once the Job has
 * started (Kubernetes refuses updates of a started Job's template): a runtime that changed the
 * label on the Job itself (possible where the admission fence is not installed) cannot make the
 * application impossible to cancel.
 */
function requireApplicationJob(
  job: AnyObject,
  namespace: string,
  applicationId: string,
  action: 'changed' | 'deleted',
): void {
  const template = (job.spec as { template?: { metadata?: { labels?: Record<string, string> } } } | undefined)
    ?.template;
  const labelled = (labels: Record<string, string> | undefined) => labels?.[LABELS.applicationId] === applicationId;
  if (!labelled(job.metadata?.labels) && !labelled(template?.metadata?.labels)) {
    throw new NotAnApplicationError(
      `Job ${namespace}/${applicationId} is not a SeaTunnel application (it has no label ${LABELS.applicationId}=${applicationId}); nothing was ${action}`,
    );
  }
}

export function applicationSelector(applicationId: string): string {
  return `${LABELS.applicationId}=${applicationId},${LABELS.managedBy}=${MANAGED_BY}`;
}

export interface CancelReport {
  readonly applicationId: string;
  readonly namespace: string;
  /** False when the Job did not exist (already cancelled, expired, or never there). */
  readonly jobFound: boolean;
  /** Leftovers deleted explicitly (besides the Job and the Pods). */
  readonly deleted: readonly ObjectRef[];
  /** Problems removing leftovers; the Job's deletion itself was accepted. */
  readonly errors: readonly string[];
}

export interface GracefulStop {
  /** How long to wait for the runtime to stop the job and remove the workers. */
  readonly timeoutMs: number;
  readonly pollMs?: number;
  readonly sleep?: (ms: number) => Promise<void>;
}

/** What the graceful part of `cancel --savepoint` achieved. */
export interface GracefulStopReport {
  /** The runtime ended the application before the Job was deleted. */
  readonly stopped: boolean;
  /** The phase the runtime recorded last. */
  readonly phase?: string;
  readonly zetaStatus?: string;
}

/**
 * `cancel --savepoint`: asks the runtime (through an annotation on the Job) to stop the job with
 * a savepoint, which keeps a streaming job's checkpoints for a later restore, and to remove the
 * workers; waits for the master to finish, up to `timeoutMs`. The caller then deletes the Job as a
 * plain cancel does. A Job that is missing or already finished needs no stop.
 */
export async function requestGracefulStop(
  kube: Kube,
  namespace: string,
  applicationId: string,
  opts: GracefulStop,
): Promise<GracefulStopReport> {
  const jobRef: ObjectRef = { apiVersion: 'batch/v1', kind: 'Job', namespace, name: applicationId };
  const sleep = opts.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const read = () => withRetry(() => kube.find<AnyObject>(jobRef));
  const finished = (job: AnyObject | undefined) => {
    const conditions =
      (job?.status as { conditions?: Array<{ type: string; status: string }> } | undefined)?.conditions ?? [];
    const phase = job?.metadata?.annotations?.[ANNOTATIONS.phase];
    return (
      !job ||
      conditions.some(
        (c) => ['Complete', 'Failed', 'FailureTarget', 'SuccessCriteriaMet'].includes(c.type) && c.status === 'True',
      ) ||
      ['Succeeded', 'Failed', 'Canceled'].includes(phase ?? '')
    );
  };
  const job = await read();
  if (!job) return { stopped: false };
  requireApplicationJob(job, namespace, applicationId, 'changed');
  if (finished(job)) return { stopped: true, phase: job.metadata?.annotations?.[ANNOTATIONS.phase] };
  await withRetry(() =>
    kube.mergePatch(jobRef, { metadata: { annotations: { [ANNOTATIONS.cancelRequested]: 'savepoint' } } }),
  );
  const deadline = Date.now() + opts.timeoutMs;
  for (;;) {
    const now = await read();
    if (finished(now)) {
      return {
        stopped: true,
        phase: now?.metadata?.annotations?.[ANNOTATIONS.phase],
        zetaStatus: now?.metadata?.annotations?.[ANNOTATIONS.zetaJobStatus],
      };
    }
    if (Date.now() >= deadline) return { stopped: false, phase: now?.metadata?.annotations?.[ANNOTATIONS.phase] };
    await sleep(opts.pollMs ?? 500);
  }
}

/**
 * `writesWaitFor`: nothing is deleted before it settles, and its rejection is thrown as is; the
 * first read (the Job) goes out beside it (read-beside.ts). The CLI's server-version check.
 */
export async function cancelApplication(
  kube: Kube,
  namespace: string,
  applicationId: string,
  opts: { writesWaitFor?: Promise<unknown> } = {},
): Promise<CancelReport> {
  const jobRef: ObjectRef = { apiVersion: 'batch/v1', kind: 'Job', namespace, name: applicationId };
  // The whole Job, not its metadata alone: requireApplicationJob also reads its Pod template's labels.
  const job = await readBeside(opts.writesWaitFor, () => withRetry(() => kube.find<AnyObject>(jobRef)));
  let jobFound = false;
  if (job) {
    requireApplicationJob(job, namespace, applicationId, 'deleted');
    try {
      // The uid precondition: exactly the Job just read, never one re-created under the same name since.
      await withRetry(() => kube.delete(jobRef, { uid: job.metadata?.uid, propagationPolicy: 'Foreground' }));
      jobFound = true;
    } catch (e) {
      if (!isStatus(e, 404)) throw e;
    }
  }
  const selector = applicationSelector(applicationId);
  const deleted: ObjectRef[] = [];
  const errors: string[] = [];
  const pods = withRetry(() => kube.deleteCollection('v1', 'Pod', namespace, selector)).catch((e) => {
    errors.push(`delete Pods with ${selector}: ${describeError(e)}`);
  });
  const others = OWNED_KINDS.map(async ({ apiVersion, kind }) => {
    try {
      // The answer lists what was deleted (names only are used: it may hold Secret data).
      const gone = await withRetry(() => kube.deleteCollection(apiVersion, kind, namespace, selector));
      for (const o of (gone.items ?? []) as AnyObject[]) {
        if (o.metadata?.name) deleted.push({ apiVersion, kind, namespace, name: o.metadata.name });
      }
    } catch (e) {
      // An application submitted with kubernetes.rbac.create=false and a named ServiceAccount has
      // none of these, and a submitter Role for such namespaces may not touch them
      // (submitterRules({ preProvisioned: true })): its 403 is no leftover.
      if (isStatus(e, 403) && RBAC_KINDS.has(kind as DependentKind)) return;
      errors.push(`delete ${kind}s with ${selector}: ${describeError(e)}`);
    }
  });
  // By name, for kinds without deletecollection in the submitter Role: the Service, and with HA
  // the REST Service and the masters' StatefulSet (owned by the Job once the runtime adopted them;
  // on the kubectl apply path perhaps not yet), and the PodMonitor (kubernetes.metrics.pod-monitor;
  // the runtime never adopts it).
  const named = [
    { apiVersion: 'v1', kind: 'Service', name: applicationId },
    { apiVersion: 'v1', kind: 'Service', name: `${applicationId}-rest` },
    { apiVersion: 'apps/v1', kind: 'StatefulSet', name: haMasterSetName(applicationId) },
    { apiVersion: POD_MONITOR_API_VERSION, kind: 'PodMonitor', name: podMonitorName(applicationId) },
  ].map((o) =>
    deleteOwnedByName(kube, { ...o, namespace }, applicationId).then(
      (ref) => {
        if (ref) deleted.push(ref);
      },
      (e) => {
        // A cluster without the CRD answers 404 (no leftover), and a submitter Role without
        // podmonitors (submitterRules() unless asked) 403: it made no PodMonitor either.
        if (isStatus(e, 403) && OPTIONAL_KINDS.has(o.kind as DependentKind)) return;
        errors.push(`delete ${o.kind} ${namespace}/${o.name}: ${describeError(e)}`);
      },
    ),
  );
  await Promise.all([pods, ...named, ...others]);
  return { applicationId, namespace, jobFound, deleted, errors };
}

/** An object of the application found by its name; deleted only if it carries the application's labels. */
async function deleteOwnedByName(kube: Kube, ref: ObjectRef, applicationId: string): Promise<ObjectRef | undefined> {
  const svc = await withRetry(() => kube.find<AnyObject>(ref, { metadataOnly: true }));
  const labels = svc?.metadata?.labels ?? {};
  if (
    !svc ||
    svc.metadata?.deletionTimestamp ||
    labels[LABELS.applicationId] !== applicationId ||
    labels[LABELS.managedBy] !== MANAGED_BY
  )
    return undefined;
  try {
    await withRetry(() => kube.delete(ref, { uid: svc.metadata?.uid, propagationPolicy: 'Background' }));
    return ref;
  } catch (e) {
    if (isStatus(e, 404) || isStatus(e, 409)) return undefined;
    throw e;
  }
}
