// Hazelcast traffic only between the application's own Pods; the master's REST port is not in
// any allow rule, so no other Pod reaches it (the runtime calls it over localhost). Egress is
// left open: connectors reach external systems.

import { LABELS } from '../../model/reserved';
import { names, objectMeta, roleSelector } from '../pod';
import type { FeatureStep, PlanDraft } from '../types';

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
      d.networkPolicies.push({
        apiVersion: 'networking.k8s.io/v1',
        kind: 'NetworkPolicy',
        metadata: objectMeta(spec, name, 'configuration', 'network-policy'),
        spec: {
          podSelector: { matchLabels: roleSelector(spec, role) },
          policyTypes: ['Ingress'],
          ingress: [{ from: [ownPods], ports: [{ protocol: 'TCP', port }] }],
        },
      });
    }
    return d;
  },
};
