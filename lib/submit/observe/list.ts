// list: every application of a namespace (or of all namespaces) with the status `status --id`
// would print for it, from a constant number of list calls whatever the number of applications:
// the Jobs this tool made, the Pods with an application-id label and, only when some application
// waits for its master Pod, the events about Jobs — each read page by page (limit/continue), then
// joined here and derived one by one by `applicationStatus`, the function `status` uses.

import type { Job } from 'kubernetes-types/batch/v1';
import type { Event, Pod } from 'kubernetes-types/core/v1';
import { isStatus } from '../../kube/errors';
import { query, resourceOf } from '../../kube/resources';
import type { Kube } from '../../kube';
import { LABELS, MANAGED_BY } from '../../model/reserved';
import { applicationStatus, jobEventsSelector, needsEvents, type StatusReport } from './status';
import type { ApplicationStatus } from './statuses';

/** Objects per page: a page of 500 Pods stays far below the transport's body cap. */
export const DEFAULT_PAGE_SIZE = 500;

export interface ListScope {
  /** undefined: all namespaces. */
  readonly namespace?: string;
  /** A label selector the user adds (kubectl syntax); combined with the application label. */
  readonly selector?: string;
  readonly pageSize?: number;
}

export interface ListFilter {
  /** Keep only these statuses (empty or undefined: all). */
  readonly statuses?: ReadonlySet<ApplicationStatus>;
  /**
   * Report Pods whose Job does not exist (default true). Off with a label selector: it applies to
   * the Jobs, so a Pod without a listed Job may belong to one the selector left out.
   */
  readonly jobless?: boolean;
}

/** What was read, by kind; the join and the derivation are pure (`deriveList`). */
export interface ListObservation {
  readonly jobs: readonly Job[];
  readonly pods: readonly Pod[];
  /** Events about Jobs; undefined when no application needed them. */
  readonly events?: readonly Event[];
  /** When it was read (ms since the epoch); see StatusObservation.readAt. */
  readonly readAt?: number;
}

/** The Jobs' selector: this tool's Jobs of an application, and the user's selector if any. */
export function jobSelector(selector?: string): string {
  return [
    `${LABELS.managedBy}=${MANAGED_BY}`,
    LABELS.applicationId,
    ...(selector?.trim() ? [selector.trim()] : []),
  ].join(',');
}

/** The Pods' selector: every Pod `status --id` could see for some application (its application-id label). */
export const POD_SELECTOR = LABELS.applicationId;

const keyOf = (namespace: string | undefined, id: string) => `${namespace ?? ''}/${id}`;

function groupBy<T>(items: readonly T[], key: (t: T) => string | undefined): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    if (k === undefined) continue;
    const group = groups.get(k);
    if (group) group.push(item);
    else groups.set(k, [item]);
  }
  return groups;
}

/** The Pods of each application, by namespace/application ID. */
function podsByApplication(pods: readonly Pod[]): Map<string, Pod[]> {
  return groupBy(pods, (p) => {
    const id = p.metadata?.labels?.[LABELS.applicationId];
    return id ? keyOf(p.metadata?.namespace, id) : undefined;
  });
}

/**
 * The reports of every application observed, sorted by namespace then ID. An application is a Job;
 * Pods with an application-id label and no Job are reported too (UNKNOWN, as status says for them),
 * unless `filter.jobless` is false.
 */
export function deriveList(obs: ListObservation, filter: ListFilter = {}): StatusReport[] {
  const podsByApp = podsByApplication(obs.pods);
  const eventsByJob = groupBy(obs.events ?? [], (e) =>
    e.involvedObject?.kind === 'Job' && e.involvedObject.name
      ? keyOf(e.involvedObject.namespace ?? e.metadata?.namespace, e.involvedObject.name)
      : undefined,
  );
  const reports: StatusReport[] = [];
  const seen = new Set<string>();
  for (const job of obs.jobs) {
    const id = job.metadata?.name;
    const namespace = job.metadata?.namespace ?? '';
    if (!id) continue;
    const k = keyOf(namespace, id);
    seen.add(k);
    reports.push(applicationStatus(id, namespace, job, podsByApp.get(k) ?? [], eventsByJob.get(k), obs.readAt));
  }
  for (const [k, pods] of filter.jobless === false ? [] : podsByApp) {
    if (seen.has(k)) continue;
    const namespace = pods[0].metadata?.namespace ?? '';
    reports.push(applicationStatus(pods[0].metadata!.labels![LABELS.applicationId], namespace, undefined, pods));
  }
  const wanted = filter.statuses?.size ? filter.statuses : undefined;
  return reports
    .filter((r) => !wanted || wanted.has(r.status))
    .sort((a, b) => a.namespace.localeCompare(b.namespace) || a.applicationId.localeCompare(b.applicationId));
}

/** The collection's path in one namespace, or across all of them. */
function collection(apiVersion: string, kind: string, namespace: string | undefined): string {
  const base = apiVersion.includes('/') ? `/apis/${apiVersion}` : `/api/${apiVersion}`;
  const resource = resourceOf(kind, apiVersion);
  return namespace === undefined
    ? `${base}/${resource}`
    : `${base}/namespaces/${encodeURIComponent(namespace)}/${resource}`;
}

/**
 * Every object of a collection, page by page. The pages of one list are one snapshot (the continue
 * token carries its resourceVersion); when the token has expired (410 Gone: the snapshot left
 * etcd's history) the list starts over once, for a new consistent snapshot.
 */
export async function listAll<T>(
  kube: Kube,
  apiVersion: string,
  kind: string,
  namespace: string | undefined,
  params: { labelSelector?: string; fieldSelector?: string },
  pageSize = DEFAULT_PAGE_SIZE,
): Promise<T[]> {
  for (let attempt = 0; ; attempt++) {
    const items: T[] = [];
    let token: string | undefined;
    try {
      do {
        const page = await kube.call<{ items: T[]; metadata?: { continue?: string } }>({
          method: 'GET',
          path: `${collection(apiVersion, kind, namespace)}${query({ ...params, limit: pageSize, continue: token })}`,
        });
        items.push(...page.items);
        token = page.metadata?.continue || undefined;
      } while (token);
      return items;
    } catch (e) {
      if (attempt === 0 && token !== undefined && isStatus(e, 410)) continue;
      throw e;
    }
  }
}

/** Reads the Jobs and Pods (in parallel), and the Jobs' events only if some application needs them. */
export async function readList(kube: Kube, scope: ListScope): Promise<ListObservation> {
  const size = scope.pageSize ?? DEFAULT_PAGE_SIZE;
  const [jobs, pods] = await Promise.all([
    listAll<Job>(kube, 'batch/v1', 'Job', scope.namespace, { labelSelector: jobSelector(scope.selector) }, size),
    listAll<Pod>(kube, 'v1', 'Pod', scope.namespace, { labelSelector: POD_SELECTOR }, size),
  ]);
  const podsByApp = podsByApplication(pods);
  const waiting = jobs.some((j) =>
    needsEvents(j, podsByApp.get(keyOf(j.metadata?.namespace, j.metadata?.name ?? '')) ?? []),
  );
  // Best effort, as for status: without the events a waiting application is only less specific.
  const events = waiting
    ? await listAll<Event>(kube, 'v1', 'Event', scope.namespace, { fieldSelector: jobEventsSelector() }, size).catch(
        () => undefined,
      )
    : undefined;
  return { jobs, pods, ...(events ? { events } : {}), readAt: Date.now() };
}

export async function listApplications(kube: Kube, scope: ListScope, filter: ListFilter = {}): Promise<StatusReport[]> {
  return deriveList(await readList(kube, scope), { jobless: !scope.selector, ...filter });
}
