// The application's whole footprint — master Pod (with its init container), N worker Pods and
// every object — as the scheduler and quota count it, after LimitRange defaulting. Pure: preflight
// reads the quotas and limit ranges and judges the footprint against them (quota.ts,
// limit-range.ts). A server-side dry run cannot do this part: quota admission judges one object
// at a time, never "master + N workers together".

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

export interface FootprintProblem {
  readonly check: 'quota' | 'limit-range';
  readonly object: string;
  readonly message: string;
}

/** Parsed quantities of a resource list (unparseable ones left out). */
export function amounts(list: Record<string, string | number> | undefined): Amounts {
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
