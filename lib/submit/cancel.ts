// cancel: delete the application. First the Job, with foreground propagation (its owned objects
// and its master Pod go with it; the master's SIGTERM handling stops the Zeta job and removes the
// workers), then every object this tool made for the application that still exists, found by
// label — the Pods, and the Service, ConfigMaps, Secrets, PodTemplate, Role, RoleBinding and
// NetworkPolicies — so objects applied without owner references (plain `kubectl apply` of
// synthesized YAML, before the runtime adopted them) go too.
//
// Only objects carrying both the application-id label and managed-by=seatunnel-app are touched:
// referenced ConfigMaps/Secrets, the ServiceAccount and the checkpoint PVC never carry them (and
// ServiceAccounts and PVCs are not even listed). Idempotent: a second cancel finds nothing and
// succeeds.

import { LABELS, MANAGED_BY } from '../model/reserved';
import { describeError, describeRef, isStatus, Kube, withRetry, type AnyObject, type ObjectRef } from './kube-api';

/** Kinds of the application's own objects (never ServiceAccounts or PVCs). */
export const OWNED_KINDS: ReadonlyArray<{ apiVersion: string; kind: string }> = [
  { apiVersion: 'v1', kind: 'Service' },
  { apiVersion: 'v1', kind: 'ConfigMap' },
  { apiVersion: 'v1', kind: 'Secret' },
  { apiVersion: 'v1', kind: 'PodTemplate' },
  { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role' },
  { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding' },
  { apiVersion: 'networking.k8s.io/v1', kind: 'NetworkPolicy' },
];

export class NotAnApplicationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NotAnApplicationError';
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

export async function cancelApplication(kube: Kube, namespace: string, applicationId: string): Promise<CancelReport> {
  const jobRef: ObjectRef = { apiVersion: 'batch/v1', kind: 'Job', namespace, name: applicationId };
  const job = await withRetry(() => kube.find<AnyObject>(jobRef, { metadataOnly: true }));
  let jobFound = false;
  if (job) {
    // A mistyped --id must not delete an unrelated Job that happens to have that name.
    if (job.metadata?.labels?.[LABELS.applicationId] !== applicationId) {
      throw new NotAnApplicationError(`Job ${namespace}/${applicationId} is not a SeaTunnel application (it has no label ${LABELS.applicationId}=${applicationId}); nothing was deleted`);
    }
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
    let items: AnyObject[];
    try {
      items = (await withRetry(() => kube.list(apiVersion, kind, namespace, { labelSelector: selector }))).items;
    } catch (e) {
      errors.push(`list ${kind}s with ${selector}: ${describeError(e)}`);
      return;
    }
    await Promise.all(
      items
        .filter((o) => o.metadata?.name && !o.metadata.deletionTimestamp)
        .map(async (o) => {
          const ref: ObjectRef = { apiVersion, kind, namespace, name: o.metadata!.name! };
          try {
            await withRetry(() => kube.delete(ref, { uid: o.metadata?.uid, propagationPolicy: 'Background' }));
            deleted.push(ref);
          } catch (e) {
            if (!isStatus(e, 404) && !isStatus(e, 409)) errors.push(`delete ${describeRef(ref)}: ${describeError(e)}`);
          }
        }),
    );
  });
  await Promise.all([pods, ...others]);
  return { applicationId, namespace, jobFound, deleted, errors };
}
