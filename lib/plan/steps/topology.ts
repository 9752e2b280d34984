// The master topology's own part (lib/plan/topology): what only one topology has, added once
// the other steps have edited its Pods — with HA the masters' Zeta command and environment, their
// StatefulSet, the REST Service, the coordinator's NetworkPolicy and the masters-desired
// annotation; nothing with one local master. Before pod-security, which hardens what it adds.

import type { FeatureStep, PlanDraft } from '../types';

export const topologyStep: FeatureStep = {
  name: 'topology',
  apply(d: PlanDraft): PlanDraft {
    d.topology.complete(d);
    return d;
  },
};
