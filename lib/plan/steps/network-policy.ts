// Hazelcast traffic only between the application's own Pods; the master's REST port is not in
// any allow rule, so no other Pod reaches it (the runtime calls it over localhost). The runtime
// reads every member's telemetry at its member port as one of those Pods. Scrapers the user names
// reach the runtime's /metrics port and nothing else (docs/metrics.md): never a member port, whose
// Hazelcast client protocol controls jobs. Egress is left open: connectors reach external systems.

import type { NetworkPolicyPeer } from 'kubernetes-types/networking/v1';
import { LABELS } from '../../model/reserved';
import type { ApplicationSpec, MetricsScrapers } from '../../model/spec';
import { names, objectMeta, roleSelector, runtimePodSelector } from '../pod';
import type { FeatureStep, NetworkPolicy, PlanDraft } from '../types';

export const networkPolicyStep: FeatureStep = {
  name: 'network-policy',
  apply(d: PlanDraft): PlanDraft {
    const spec = d.spec;
    if (!spec.networkPolicyEnabled) return d;
    const ownPods = { podSelector: { matchLabels: { [LABELS.applicationId]: spec.appId } } };
    for (const [role, name, port] of [
      ['master', names.masterPolicy(spec), spec.master.port],
      ['worker', names.workerPolicy(spec), spec.worker.port],
    ] as const) {
      d.networkPolicies.push(
        policy(spec, name, roleSelector(spec, role), [{ from: [ownPods], ports: [{ protocol: 'TCP', port }] }]),
      );
    }
    const scrapers = spec.metrics?.scrapers;
    if (spec.metrics && scrapers) {
      d.networkPolicies.push(
        policy(spec, names.metricsPolicy(spec), runtimePodSelector(d), [
          { from: [scraperPeer(scrapers)], ports: [{ protocol: 'TCP', port: spec.metrics.port }] },
        ]),
      );
    }
    return d;
  },
};

function policy(
  spec: ApplicationSpec,
  name: string,
  podLabels: Record<string, string>,
  ingress: NonNullable<NetworkPolicy['spec']>['ingress'],
): NetworkPolicy & PlanDraft['networkPolicies'][number] {
  return {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'NetworkPolicy',
    metadata: objectMeta(spec, name, 'configuration', 'network-policy'),
    spec: { podSelector: { matchLabels: podLabels }, policyTypes: ['Ingress'], ingress },
  };
}

/**
 * One peer, so both selectors must match. Without namespace labels a podSelector alone means the
 * policy's own namespace; without Pod labels a namespaceSelector alone means every Pod there.
 */
export function scraperPeer(scrapers: MetricsScrapers): NetworkPolicyPeer {
  return {
    ...(scrapers.namespaceLabels ? { namespaceSelector: { matchLabels: { ...scrapers.namespaceLabels } } } : {}),
    ...(scrapers.podLabels ? { podSelector: { matchLabels: { ...scrapers.podLabels } } } : {}),
  };
}
