// What every Pod that runs a Zeta master member exposes: the Hazelcast port and the probes that
// watch the member. The startup budget is application.startup-timeout-millis; readiness and
// liveness are the master topology's (TCP with one local master, Hazelcast's HTTP health with HA).

import { mainContainer, zetaMasterPods } from '../pod';
import type { FeatureStep, PlanDraft } from '../types';

const STARTUP_PROBE_PERIOD_SECONDS = 5;

export const zetaMasterStep: FeatureStep = {
  name: 'zeta-master',
  apply(d: PlanDraft): PlanDraft {
    const spec = d.spec;
    for (const pod of zetaMasterPods(d)) {
      const c = mainContainer(pod);
      c.ports = [{ name: 'hazelcast', containerPort: spec.master.port, protocol: 'TCP' }];
      c.startupProbe = {
        tcpSocket: { port: spec.master.port },
        periodSeconds: STARTUP_PROBE_PERIOD_SECONDS,
        timeoutSeconds: 2,
        failureThreshold: Math.max(
          1,
          Math.ceil(
            (spec.startupTimeoutMillis + d.topology.zetaMasterStartDelayMs) / (STARTUP_PROBE_PERIOD_SECONDS * 1000),
          ),
        ),
      };
      c.readinessProbe = { ...d.topology.zetaMasterHealth.readinessProbe };
      c.livenessProbe = { ...d.topology.zetaMasterHealth.livenessProbe };
    }
    return d;
  },
};
