// The headless Service: selects the master Pod (ready or not); discovery itself uses the Pod IP.

import { names, objectMeta, roleSelector } from '../pod';
import type { FeatureStep, PlanDraft } from '../types';

export const serviceStep: FeatureStep = {
  name: 'service',
  apply(d: PlanDraft): PlanDraft {
    const spec = d.spec;
    d.service = {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: objectMeta(spec, names.service(spec), 'master', 'master'),
      spec: {
        clusterIP: 'None',
        publishNotReadyAddresses: true,
        selector: roleSelector(spec, 'master'),
        ports: [{ name: 'hazelcast', port: spec.master.port, targetPort: spec.master.port, protocol: 'TCP' }],
      },
    };
    return d;
  },
};
