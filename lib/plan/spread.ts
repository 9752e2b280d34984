// Where the Pods of one role go relative to each other (docs/ha.md, "Spreading the masters"):
//   * `kubernetes.<role>.spread` becomes pod anti-affinity among the application's own Pods of
//     that role, one term per topology key — what cdk8s-plus's `scheduling.spread()` writes:
//     required (at most one such Pod per domain) or preferred (weight 100). Anti-affinity, not a
//     topology spread constraint, because the guarantee HA needs is "no two masters share a node",
//     which a skew cannot express (3 masters on 2 nodes is skew 1);
//   * the user's topology spread constraints, passed through; one without a labelSelector counts
//     the same Pods.
// The selector is roleSelector: the application ID and the role, so the coordinator (role
// coordinator) and other applications are never counted. Pure: the scheduling step applies it to
// the worker template, the HA step to the masters' StatefulSet.

import type {
  Affinity,
  PodAffinityTerm,
  PodAntiAffinity,
  PodSpec,
  TopologySpreadConstraint,
} from 'kubernetes-types/core/v1';
import type { LabelSelector } from 'kubernetes-types/meta/v1';
import type { ApplicationSpec } from '../model/spec';
import { roleSelector } from './pod';

/** The weight of a preferred spread: Kubernetes' highest, so it counts fully against the scheduler's other scores. */
export const PREFERRED_SPREAD_WEIGHT = 100;

export interface Placement {
  readonly affinity?: Affinity;
  readonly topologySpreadConstraints?: TopologySpreadConstraint[];
}

type Role = 'master' | 'worker';

const ownPods = (spec: ApplicationSpec, role: Role): LabelSelector => ({ matchLabels: roleSelector(spec, role) });

function antiAffinity(spec: ApplicationSpec, role: Role): PodAntiAffinity | undefined {
  const { spread, spreadTopology } = spec[role];
  if (spread === 'none' || spreadTopology.length === 0) return undefined;
  const terms: PodAffinityTerm[] = spreadTopology.map((topologyKey) => ({
    labelSelector: ownPods(spec, role),
    topologyKey,
  }));
  return spread === 'required'
    ? { requiredDuringSchedulingIgnoredDuringExecution: terms }
    : {
        preferredDuringSchedulingIgnoredDuringExecution: terms.map((podAffinityTerm) => ({
          weight: PREFERRED_SPREAD_WEIGHT,
          podAffinityTerm,
        })),
      };
}

/** The affinity and topology spread constraints the Pods of `role` get from the spec. */
export function placement(spec: ApplicationSpec, role: Role): Placement {
  const anti = antiAffinity(spec, role);
  const constraints = spec[role].topologySpreadConstraints.map((c): TopologySpreadConstraint => {
    const copy = JSON.parse(JSON.stringify(c)) as TopologySpreadConstraint;
    return { ...copy, labelSelector: copy.labelSelector ?? ownPods(spec, role) };
  });
  return {
    ...(anti ? { affinity: { podAntiAffinity: anti } } : {}),
    ...(constraints.length ? { topologySpreadConstraints: constraints } : {}),
  };
}

/** Adds the role's placement to `pod`, keeping every affinity term and constraint it already has. */
export function spreadPod(pod: PodSpec, spec: ApplicationSpec, role: Role): void {
  const { affinity, topologySpreadConstraints } = placement(spec, role);
  const add = affinity?.podAntiAffinity;
  if (add) {
    const had = pod.affinity?.podAntiAffinity ?? {};
    const required = [
      ...(had.requiredDuringSchedulingIgnoredDuringExecution ?? []),
      ...(add.requiredDuringSchedulingIgnoredDuringExecution ?? []),
    ];
    const preferred = [
      ...(had.preferredDuringSchedulingIgnoredDuringExecution ?? []),
      ...(add.preferredDuringSchedulingIgnoredDuringExecution ?? []),
    ];
    pod.affinity = {
      ...pod.affinity,
      podAntiAffinity: {
        ...(required.length ? { requiredDuringSchedulingIgnoredDuringExecution: required } : {}),
        ...(preferred.length ? { preferredDuringSchedulingIgnoredDuringExecution: preferred } : {}),
      },
    };
  }
  if (topologySpreadConstraints)
    pod.topologySpreadConstraints = [...(pod.topologySpreadConstraints ?? []), ...topologySpreadConstraints];
}
