// The application's whole footprint — master Pod (with its init container), N worker Pods and
// every object — checked against the namespace's ResourceQuotas and LimitRanges. Pure functions:
// preflight reads the quotas and limit ranges and calls these. A server-side dry run cannot do
// this part: quota admission judges one object at a time, never "master + N workers together".

import type { Container, PodSpec } from 'kubernetes-types/core/v1';
import { parseQuantity } from '../../model/k8s-syntax';

export type Amounts = Record<string, number>;

export interface ContainerResources {
  readonly name: string;
  readonly init: boolean;
  readonly requests: Amounts;
  readonly limits: Amounts;
  /** What LimitRange defaulting filled in, e.g. "limits.cpu from LimitRange x". */
  readonly defaulted: readonly string[];
}

export interface PodResources {
  readonly containers: readonly ContainerResources[];
  /** Effective Pod requests/limits as the scheduler and quota count them. */
  readonly requests: Amounts;
  readonly limits: Amounts;
}

export interface Footprint {
  /** The Job's Pod: the master, or with HA the coordinator. */
  readonly master: PodResources;
  readonly worker: PodResources;
  readonly workers: number;
  /** With HA: the masters' StatefulSet Pods (docs/ha.md). */
  readonly ha?: { readonly masters: number; readonly pod: PodResources };
  /** Sum over the Job's Pod + N workers (+ M masters with HA). */
  readonly requests: Amounts;
  readonly limits: Amounts;
  /** Object counts by quota resource name (pods, services, configmaps, count/jobs.batch, …). */
  readonly objects: Amounts;
}

export interface LimitRangeLike {
  metadata?: { name?: string };
  spec?: {
    limits?: Array<{
      type?: string;
      max?: Record<string, string>;
      min?: Record<string, string>;
      default?: Record<string, string>;
      defaultRequest?: Record<string, string>;
      maxLimitRequestRatio?: Record<string, string>;
    }>;
  };
}

export interface ResourceQuotaLike {
  metadata?: { name?: string };
  spec?: {
    hard?: Record<string, string>;
    scopes?: string[];
    scopeSelector?: { matchExpressions?: Array<{ scopeName: string; operator: string; values?: string[] }> };
  };
  status?: { hard?: Record<string, string>; used?: Record<string, string> };
}

export interface FootprintProblem {
  readonly check: 'quota' | 'limit-range';
  readonly object: string;
  readonly message: string;
}

function amounts(list: Record<string, string | number> | undefined): Amounts {
  const out: Amounts = {};
  for (const [k, v] of Object.entries(list ?? {})) {
    const n = parseQuantity(v);
    if (n !== undefined) out[k] = n;
  }
  return out;
}

const add = (a: Amounts, b: Amounts, times = 1): Amounts => {
  const out = { ...a };
  for (const [k, v] of Object.entries(b)) out[k] = (out[k] ?? 0) + v * times;
  return out;
};
const max = (a: Amounts, b: Amounts): Amounts => {
  const out = { ...a };
  for (const [k, v] of Object.entries(b)) out[k] = Math.max(out[k] ?? 0, v);
  return out;
};

/**
 * LimitRanger's defaulting of one container: a missing limit gets the Container item's `default`;
 * a missing request gets `defaultRequest`, else the (possibly defaulted) limit.
 */
export function defaultedContainer(
  c: Container,
  init: boolean,
  limitRanges: readonly LimitRangeLike[] = [],
): ContainerResources {
  const requests = amounts(c.resources?.requests);
  const limits = amounts(c.resources?.limits);
  const defaulted: string[] = [];
  for (const lr of limitRanges) {
    for (const item of lr.spec?.limits ?? []) {
      if (item.type !== 'Container') continue;
      const from = `LimitRange ${lr.metadata?.name ?? '(unnamed)'}`;
      for (const [k, v] of Object.entries(amounts(item.default))) {
        if (limits[k] === undefined) {
          limits[k] = v;
          defaulted.push(`limits.${k} = ${formatQuantity(k, v)} from ${from}`);
        }
      }
      for (const [k, v] of Object.entries(amounts(item.defaultRequest))) {
        if (requests[k] === undefined) {
          requests[k] = v;
          defaulted.push(`requests.${k} = ${formatQuantity(k, v)} from ${from}`);
        }
      }
    }
  }
  for (const [k, v] of Object.entries(limits)) {
    if (requests[k] === undefined) {
      requests[k] = v;
      defaulted.push(`requests.${k} = its limit`);
    }
  }
  return { name: c.name, init, requests, limits, defaulted };
}

/** Effective Pod resources: max(sum of app containers + sidecars, largest regular init container). */
export function podResources(spec: PodSpec, limitRanges: readonly LimitRangeLike[] = []): PodResources {
  const containers = [
    ...(spec.initContainers ?? []).map((c) => ({
      c: defaultedContainer(c, true, limitRanges),
      sidecar: (c as { restartPolicy?: string }).restartPolicy === 'Always',
    })),
    ...spec.containers.map((c) => ({ c: defaultedContainer(c, false, limitRanges), sidecar: false })),
  ];
  let reqSum: Amounts = {};
  let limSum: Amounts = {};
  let reqInit: Amounts = {};
  let limInit: Amounts = {};
  for (const { c, sidecar } of containers) {
    if (c.init && !sidecar) {
      reqInit = max(reqInit, c.requests);
      limInit = max(limInit, c.limits);
    } else {
      reqSum = add(reqSum, c.requests);
      limSum = add(limSum, c.limits);
    }
  }
  const overhead = amounts(spec.overhead);
  return {
    containers: containers.map((x) => x.c),
    requests: add(max(reqSum, reqInit), overhead),
    limits: add(max(limSum, limInit), overhead),
  };
}

/** The footprint of master + N workers and the application's objects. */
export function applicationFootprint(
  masterSpec: PodSpec,
  workerSpec: PodSpec,
  workers: number,
  objects: { configMaps: number; secrets: number; roles: number; roleBindings: number; networkPolicies: number },
  limitRanges: readonly LimitRangeLike[] = [],
  haMasters?: { readonly spec: PodSpec; readonly count: number },
): Footprint {
  const master = podResources(masterSpec, limitRanges);
  const worker = podResources(workerSpec, limitRanges);
  const ha = haMasters ? { masters: haMasters.count, pod: podResources(haMasters.spec, limitRanges) } : undefined;
  const pods = 1 + workers + (ha?.masters ?? 0);
  const services = ha ? 2 : 1;
  const withMasters = (base: Amounts, list: 'requests' | 'limits') => (ha ? add(base, ha.pod[list], ha.masters) : base);
  return {
    master,
    worker,
    workers,
    ...(ha ? { ha } : {}),
    requests: withMasters(add(master.requests, worker.requests, workers), 'requests'),
    limits: withMasters(add(master.limits, worker.limits, workers), 'limits'),
    objects: {
      pods,
      'count/pods': pods,
      services,
      'count/services': services,
      ...(ha ? { 'count/statefulsets.apps': 1 } : {}),
      configmaps: objects.configMaps,
      'count/configmaps': objects.configMaps,
      secrets: objects.secrets,
      'count/secrets': objects.secrets,
      'count/jobs.batch': 1,
      'count/podtemplates': 1,
      'count/roles.rbac.authorization.k8s.io': objects.roles,
      'count/rolebindings.rbac.authorization.k8s.io': objects.roleBindings,
      'count/networkpolicies.networking.k8s.io': objects.networkPolicies,
    },
  };
}

// ---- formatting ----

const BINARY = [
  ['Ei', 1024 ** 6],
  ['Pi', 1024 ** 5],
  ['Ti', 1024 ** 4],
  ['Gi', 1024 ** 3],
  ['Mi', 1024 ** 2],
  ['Ki', 1024],
] as const;

/** A quantity the way a person reads it: cpu in cores or millicores, memory in binary units. */
export function formatQuantity(resource: string, value: number): string {
  const base = resource.replace(/^(requests|limits)\./, '');
  if (base === 'cpu') {
    const m = Math.round(value * 1000);
    return m % 1000 === 0 ? String(m / 1000) : `${m}m`;
  }
  if (base === 'memory' || base.includes('storage')) {
    for (const [unit, f] of BINARY) if (value >= f && Number.isInteger(value / f)) return `${value / f}${unit}`;
    for (const [unit, f] of BINARY) if (value >= f) return `${(value / f).toFixed(2).replace(/\.?0+$/, '')}${unit}`;
    return String(value);
  }
  return Number.isInteger(value) ? String(value) : value.toFixed(3).replace(/\.?0+$/, '');
}

// ---- ResourceQuota ----

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

// ---- LimitRange ----

export interface LimitRangeReport {
  readonly problems: FootprintProblem[];
  /** Defaults a LimitRange would fill in, and why they do or do not matter. */
  readonly notes: string[];
}

export function checkLimitRanges(limitRanges: readonly LimitRangeLike[], fp: Footprint): LimitRangeReport {
  const problems: FootprintProblem[] = [];
  const notes: string[] = [];
  const seen = new Set<string>();
  const push = (object: string, message: string) => {
    if (seen.has(message)) return;
    seen.add(message);
    problems.push({ check: 'limit-range', object, message });
  };
  for (const lr of limitRanges) {
    const name = lr.metadata?.name ?? '(unnamed)';
    const object = `LimitRange ${name}`;
    for (const item of lr.spec?.limits ?? []) {
      const mx = amounts(item.max);
      const mn = amounts(item.min);
      const ratio = amounts(item.maxLimitRequestRatio);
      const judge = (what: string, requests: Amounts, limits: Amounts, per: string) => {
        for (const [res, v] of Object.entries(mx)) {
          const f = (x: number) => formatQuantity(res, x);
          if (limits[res] === undefined)
            push(
              object,
              `${object}: ${what}: sets no ${res} limit, but the maximum per ${per} is ${f(v)} (a limit is required)`,
            );
          else if (limits[res] > v + 1e-9)
            push(object, `${object}: ${what}: ${res} limit ${f(limits[res])} is above the maximum ${f(v)} per ${per}`);
          else if (requests[res] !== undefined && requests[res] > v + 1e-9)
            push(
              object,
              `${object}: ${what}: ${res} request ${f(requests[res])} is above the maximum ${f(v)} per ${per}`,
            );
        }
        for (const [res, v] of Object.entries(mn)) {
          const f = (x: number) => formatQuantity(res, x);
          if (requests[res] === undefined)
            push(object, `${object}: ${what}: sets no ${res} request, but the minimum per ${per} is ${f(v)}`);
          else if (requests[res] < v - 1e-9)
            push(
              object,
              `${object}: ${what}: ${res} request ${f(requests[res])} is below the minimum ${f(v)} per ${per}`,
            );
          else if (limits[res] !== undefined && limits[res] < v - 1e-9)
            push(object, `${object}: ${what}: ${res} limit ${f(limits[res])} is below the minimum ${f(v)} per ${per}`);
        }
        for (const [res, r] of Object.entries(ratio)) {
          const req = requests[res];
          const lim = limits[res];
          if (lim === undefined) continue;
          if (!req)
            push(
              object,
              `${object}: ${what}: ${res} has a limit but no request, and the limit/request ratio is capped at ${r}`,
            );
          else if (lim / req > r + 1e-9)
            push(
              object,
              `${object}: ${what}: ${res} limit/request ratio ${(lim / req).toFixed(2)} is above the maximum ${r}`,
            );
        }
      };
      if (item.type === 'Container') {
        for (const [role, p] of [
          ['master', fp.master],
          ['worker', fp.worker],
        ] as const) {
          for (const c of p.containers)
            judge(`the ${role} Pod's ${c.init ? 'init ' : ''}container "${c.name}"`, c.requests, c.limits, 'Container');
        }
        const defaults = [
          ...Object.entries(amounts(item.default)).map(([k, v]) => `limit ${k} ${formatQuantity(k, v)}`),
          ...Object.entries(amounts(item.defaultRequest)).map(([k, v]) => `request ${k} ${formatQuantity(k, v)}`),
        ];
        if (defaults.length) {
          const applied = [
            ...fp.master.containers.map((c) => ['master', c] as const),
            ...fp.worker.containers.map((c) => ['worker', c] as const),
          ].flatMap(([role, c]) =>
            c.defaulted
              .filter((d) => d.endsWith(object))
              .map((d) => `${role} container "${c.name}": ${d.replace(` from ${object}`, '')}`),
          );
          notes.push(
            applied.length
              ? `${object} fills in container defaults (${defaults.join(', ')}); applied here: ${applied.join('; ')} (checked after defaulting)`
              : `${object} sets container defaults (${defaults.join(', ')}); none applies: every container of the application sets its own requests and limits`,
          );
        }
      } else if (item.type === 'Pod') {
        for (const [role, p] of [
          ['master', fp.master],
          ['worker', fp.worker],
        ] as const)
          judge(`the ${role} Pod`, p.requests, p.limits, 'Pod');
      }
    }
  }
  return { problems, notes };
}
