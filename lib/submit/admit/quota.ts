// ResourceQuota headroom for the application's whole footprint (footprint.ts): what it needs of
// each quota that selects its Pods, beside what the quota has left, and the containers a quota on
// requests or limits would refuse. Pure; quota admission judges one object at a time, so only
// this sees "master + N workers together".

import { parseQuantity } from '../../model/k8s-syntax';
import { amounts, formatQuantity, type Footprint, type FootprintProblem, type PodResources } from './footprint';

export interface ResourceQuotaLike {
  metadata?: { name?: string };
  spec?: {
    hard?: Record<string, string>;
    scopes?: string[];
    scopeSelector?: { matchExpressions?: Array<{ scopeName: string; operator: string; values?: string[] }> };
  };
  status?: { hard?: Record<string, string>; used?: Record<string, string> };
}

/** Which part of the footprint a quota resource name counts; undefined if it counts nothing of ours. */
function demandOf(
  fp: Footprint,
  key: string,
): { total: number; master: number; worker: number; haMaster?: number } | undefined {
  const pick = (list: 'requests' | 'limits', res: string) => ({
    total: fp[list][res] ?? 0,
    master: fp.master[list][res] ?? 0,
    worker: fp.worker[list][res] ?? 0,
    ...(fp.ha ? { haMaster: fp.ha.pod[list][res] ?? 0 } : {}),
  });
  if (key === 'cpu' || key === 'memory' || key === 'ephemeral-storage') return pick('requests', key);
  const m = /^(requests|limits)\.(.+)$/.exec(key);
  if (m && m[2] !== 'storage') return pick(m[1] as 'requests' | 'limits', m[2]);
  if (key === 'pods' || key === 'count/pods') return { total: fp.objects[key], master: 1, worker: 1 };
  if (key in fp.objects) return { total: fp.objects[key], master: 0, worker: 0 };
  return undefined;
}

const POD_RESOURCES = (key: string) =>
  key === 'pods' ||
  key === 'count/pods' ||
  key === 'cpu' ||
  key === 'memory' ||
  key === 'ephemeral-storage' ||
  /^(requests|limits)\./.test(key);

/** Whether a quota's scopes select our Pods: not terminating (no activeDeadlineSeconds), not BestEffort, no priority class. */
export function quotaScopesMatch(
  q: ResourceQuotaLike,
  pod: { terminating: boolean; bestEffort: boolean; priorityClass?: string },
): boolean {
  const scopes = [
    ...(q.spec?.scopes ?? []).map((s) => ({ scopeName: s, operator: 'Exists', values: [] as string[] })),
    ...(q.spec?.scopeSelector?.matchExpressions ?? []),
  ];
  return scopes.every((s) => {
    switch (s.scopeName) {
      case 'Terminating':
        return pod.terminating;
      case 'NotTerminating':
        return !pod.terminating;
      case 'BestEffort':
        return pod.bestEffort;
      case 'NotBestEffort':
        return !pod.bestEffort;
      case 'PriorityClass': {
        const pc = pod.priorityClass;
        if (s.operator === 'Exists') return pc !== undefined;
        if (s.operator === 'DoesNotExist') return pc === undefined;
        if (s.operator === 'In') return pc !== undefined && (s.values ?? []).includes(pc);
        if (s.operator === 'NotIn') return pc === undefined || !(s.values ?? []).includes(pc);
        return false;
      }
      case 'CrossNamespacePodAffinity':
        return false;
      default:
        return false;
    }
  });
}

function breakdown(
  key: string,
  d: { master: number; worker: number; haMaster?: number },
  workers: number,
  haMasters?: number,
): string {
  const f = (v: number) => formatQuantity(key, v);
  const ws = `${workers} worker${workers === 1 ? '' : 's'}`;
  if (haMasters !== undefined) {
    if (key === 'pods' || key === 'count/pods') return `coordinator + ${haMasters} masters + ${ws}`;
    return `coordinator ${f(d.master)} + ${haMasters} masters × ${f(d.haMaster ?? 0)} + ${ws} × ${f(d.worker)}`;
  }
  if (key === 'pods' || key === 'count/pods') return `master + ${ws}`;
  return `master ${f(d.master)} + ${ws} × ${f(d.worker)}`;
}

export function checkQuotas(
  quotas: readonly ResourceQuotaLike[],
  fp: Footprint,
  pods: { terminating: boolean; priorityClass?: string } = { terminating: false },
): FootprintProblem[] {
  const problems: FootprintProblem[] = [];
  const bestEffort = (p: PodResources) =>
    p.containers.every((c) => Object.keys(c.requests).length === 0 && Object.keys(c.limits).length === 0);
  for (const q of quotas) {
    const name = q.metadata?.name ?? '(unnamed)';
    const scoped = (q.spec?.scopes?.length ?? 0) > 0 || (q.spec?.scopeSelector?.matchExpressions?.length ?? 0) > 0;
    const podsMatch = quotaScopesMatch(q, {
      terminating: pods.terminating,
      bestEffort: bestEffort(fp.master) && bestEffort(fp.worker),
      priorityClass: pods.priorityClass,
    });
    const hard = { ...(q.spec?.hard ?? {}), ...(q.status?.hard ?? {}) };
    const used = amounts(q.status?.used);
    for (const [key, hardText] of Object.entries(hard)) {
      if (POD_RESOURCES(key) ? !podsMatch : scoped) continue;
      const limit = parseQuantity(hardText);
      const d = demandOf(fp, key);
      if (limit === undefined || !d || d.total === 0) continue;
      const u = used[key] ?? 0;
      const free = Math.max(0, limit - u);
      if (d.total > free + 1e-9) {
        const f = (v: number) => formatQuantity(key, v);
        problems.push({
          check: 'quota',
          object: `ResourceQuota ${name}`,
          message: `ResourceQuota ${name}: ${key}: the application needs ${f(d.total)}${d.master || d.worker ? ` (${breakdown(key, d, fp.workers, fp.ha?.masters)})` : ''}, but only ${f(free)} of ${f(limit)} is free (${f(u)} used)`,
        });
      }
    }
    // A quota on requests/limits of a resource rejects every container that does not set it.
    if (podsMatch) {
      for (const key of Object.keys(hard)) {
        const m =
          /^(requests|limits)\.(cpu|memory|ephemeral-storage)$/.exec(key) ??
          (key === 'cpu' || key === 'memory' ? [key, 'requests', key] : null);
        if (!m) continue;
        const [, list, res] = m as unknown as [string, 'requests' | 'limits', string];
        for (const [role, p] of [
          ['master', fp.master],
          ['worker', fp.worker],
        ] as const) {
          for (const c of p.containers) {
            if (c[list][res] === undefined) {
              problems.push({
                check: 'quota',
                object: `ResourceQuota ${name}`,
                message: `ResourceQuota ${name} tracks ${key}: the ${role} Pod's container "${c.name}" sets no ${list === 'requests' ? 'request' : 'limit'} for ${res}, so the API server would reject the Pod`,
              });
            }
          }
        }
      }
    }
  }
  return problems;
}
