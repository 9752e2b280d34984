// Where a role's Pods go relative to each other: the spread (anti-affinity among the role's own
// Pods, lib/plan/spread.ts) and the topology spread constraints passed through to Kubernetes,
// checked as the API server checks them, so a bad one is refused before anything is sent.

import { isOneOf, NODE_INCLUSION_POLICIES, SELECTOR_OPERATORS, WHEN_UNSATISFIABLE } from '../allowed-values';
import { labelValueProblem, qualifiedNameProblem } from '../k8s-syntax';
import { defaultOf } from '../options';
import type { LabelSelectorProps, PodRole, TopologySpreadConstraintProps } from '../props';
import { LABELS } from '../reserved';
import type { RoleSpec, TopologySpreadConstraint } from '../spec';
import type { PropReader } from './reader';

const ROLE_PROPS = {
  master: {
    spread: 'masterSpread',
    topology: 'masterSpreadTopology',
    constraints: 'masterTopologySpreadConstraints',
  },
  worker: {
    spread: 'workerSpread',
    topology: 'workerSpreadTopology',
    constraints: 'workerTopologySpreadConstraints',
  },
} as const;

type ConstraintsProp = (typeof ROLE_PROPS)[PodRole]['constraints'];
type TopologyProp = (typeof ROLE_PROPS)[PodRole]['topology'];

/** The label keys of the selector the plan uses when a constraint has none (lib/plan/pod.ts roleSelector). */
const ROLE_SELECTOR_KEYS: readonly string[] = [LABELS.applicationId, LABELS.role];

const MAX_INT32 = 2_147_483_647;
const listed = (values: readonly string[]) => values.join(' or ');

export function resolveSpread(
  r: PropReader,
  role: PodRole,
): Pick<RoleSpec, 'spread' | 'spreadTopology' | 'topologySpreadConstraints'> {
  const props = ROLE_PROPS[role];
  const spread = r.choice(props.spread);
  const spreadTopology = resolveTopology(r, props.topology);
  const given = r.props[props.topology] as unknown;
  if (spread !== 'none' && Array.isArray(given) && given.length === 0)
    r.fail(props.topology, given, `must name at least one node label when ${r.key(props.spread)} is ${spread}`);
  return { spread, spreadTopology, topologySpreadConstraints: resolveConstraints(r, props.constraints) };
}

function resolveTopology(r: PropReader, prop: TopologyProp): string[] {
  const v = r.props[prop] as unknown;
  if (v === undefined) return [...defaultOf(prop)];
  if (!Array.isArray(v)) {
    r.fail(prop, v, 'must be a list of node label keys');
    return [];
  }
  const out: string[] = [];
  v.forEach((key: unknown, i) => {
    const problem =
      typeof key !== 'string'
        ? 'must be a node label key (a string)'
        : (qualifiedNameProblem(key) ?? (out.includes(key) ? 'is listed twice' : undefined));
    if (problem) r.fail(prop, key, problem, `[${i}]`);
    else out.push(key as string);
  });
  return out;
}

function resolveConstraints(r: PropReader, prop: ConstraintsProp): TopologySpreadConstraint[] {
  const v = r.props[prop] as unknown;
  if (v === undefined) return [];
  if (!Array.isArray(v)) {
    r.fail(prop, v, 'must be a list of topology spread constraints');
    return [];
  }
  const out: TopologySpreadConstraint[] = [];
  (v as TopologySpreadConstraintProps[]).forEach((c, i) => {
    const before = r.issueCount;
    const bad = (value: unknown, rule: string) => r.fail(prop, value, rule, `[${i}]`);
    if (typeof c !== 'object' || c === null) {
      bad(c, 'must be an object with maxSkew, topologyKey and whenUnsatisfiable');
      return;
    }
    if (!Number.isInteger(c.maxSkew) || c.maxSkew < 1 || c.maxSkew > MAX_INT32)
      bad(c.maxSkew, 'maxSkew must be an integer of at least 1');
    if (typeof c.topologyKey !== 'string') bad(c.topologyKey, 'topologyKey must be set to a node label key');
    else {
      const p = qualifiedNameProblem(c.topologyKey);
      if (p) bad(c.topologyKey, `topologyKey ${p}`);
    }
    if (!isOneOf(WHEN_UNSATISFIABLE, c.whenUnsatisfiable))
      bad(c.whenUnsatisfiable, `whenUnsatisfiable must be ${listed(WHEN_UNSATISFIABLE)}`);
    if (c.minDomains !== undefined) {
      if (!Number.isInteger(c.minDomains) || c.minDomains < 1 || c.minDomains > MAX_INT32)
        bad(c.minDomains, 'minDomains must be an integer of at least 1');
      else if (c.whenUnsatisfiable !== 'DoNotSchedule')
        bad(c.minDomains, 'minDomains is only valid with whenUnsatisfiable DoNotSchedule');
    }
    for (const field of ['nodeAffinityPolicy', 'nodeTaintsPolicy'] as const)
      if (c[field] !== undefined && !isOneOf(NODE_INCLUSION_POLICIES, c[field]))
        bad(c[field], `${field} must be ${listed(NODE_INCLUSION_POLICIES)}`);
    for (const [value, rule] of selectorProblems(c.labelSelector)) bad(value, rule);
    const selectorKeys = c.labelSelector ? selectorLabelKeys(c.labelSelector) : ROLE_SELECTOR_KEYS;
    for (const key of c.matchLabelKeys ?? []) {
      const p = qualifiedNameProblem(key);
      if (p) bad(key, `matchLabelKeys ${p}`);
      else if (selectorKeys.includes(key))
        bad(key, `matchLabelKeys must not name a key the labelSelector already has (${key})`);
    }
    const twin = out.find((o) => o.topologyKey === c.topologyKey && o.whenUnsatisfiable === c.whenUnsatisfiable);
    if (twin)
      bad(
        `${c.topologyKey} ${c.whenUnsatisfiable}`,
        'two constraints with the same topologyKey and whenUnsatisfiable (Kubernetes allows one)',
      );
    if (r.issueCount === before) out.push(copyConstraint(c));
  });
  return out;
}

/** The problems of a label selector, each as [value, rule]. */
function selectorProblems(selector: LabelSelectorProps | undefined): Array<[unknown, string]> {
  if (selector === undefined) return [];
  const found: Array<[unknown, string]> = [];
  for (const [k, v] of Object.entries(selector.matchLabels ?? {})) {
    const p = qualifiedNameProblem(k) ?? (typeof v === 'string' ? labelValueProblem(v) : 'must be a string');
    if (p) found.push([`${k}: ${String(v)}`, `labelSelector.matchLabels ${p}`]);
  }
  for (const e of selector.matchExpressions ?? []) {
    const where = `labelSelector.matchExpressions (key ${JSON.stringify(e.key)})`;
    const keyProblem = typeof e.key === 'string' ? qualifiedNameProblem(e.key) : 'key must be a string';
    if (keyProblem) found.push([e.key, `${where}: ${keyProblem}`]);
    if (!isOneOf(SELECTOR_OPERATORS, e.operator))
      found.push([e.operator, `${where}: operator must be ${listed(SELECTOR_OPERATORS)}`]);
    const values = e.values ?? [];
    if ((e.operator === 'In' || e.operator === 'NotIn') && values.length === 0)
      found.push([e.values, `${where}: operator ${e.operator} needs at least one value`]);
    if ((e.operator === 'Exists' || e.operator === 'DoesNotExist') && values.length > 0)
      found.push([e.values, `${where}: operator ${e.operator} takes no values`]);
    for (const value of values) {
      const p = labelValueProblem(value);
      if (p) found.push([value, `${where}: ${p}`]);
    }
  }
  return found;
}

const selectorLabelKeys = (s: LabelSelectorProps): string[] => [
  ...Object.keys(s.matchLabels ?? {}),
  ...(s.matchExpressions ?? []).map((e) => e.key),
];

/** A copy with only the API's fields, in the API's order. */
function copyConstraint(c: TopologySpreadConstraintProps): TopologySpreadConstraint {
  const selector = c.labelSelector;
  return {
    maxSkew: c.maxSkew,
    topologyKey: c.topologyKey,
    whenUnsatisfiable: c.whenUnsatisfiable,
    ...(selector
      ? {
          labelSelector: {
            ...(selector.matchLabels ? { matchLabels: { ...selector.matchLabels } } : {}),
            ...(selector.matchExpressions
              ? {
                  matchExpressions: selector.matchExpressions.map((e) => ({
                    key: e.key,
                    operator: e.operator,
                    ...(e.values ? { values: [...e.values] } : {}),
                  })),
                }
              : {}),
          },
        }
      : {}),
    ...(c.minDomains !== undefined ? { minDomains: c.minDomains } : {}),
    ...(c.nodeAffinityPolicy ? { nodeAffinityPolicy: c.nodeAffinityPolicy } : {}),
    ...(c.nodeTaintsPolicy ? { nodeTaintsPolicy: c.nodeTaintsPolicy } : {}),
    ...(c.matchLabelKeys?.length ? { matchLabelKeys: [...c.matchLabelKeys] } : {}),
  };
}
