// The runtime's one Prometheus endpoint (docs/metrics.md): a container port named `metrics` on the
// runtime's container and the `prometheus.io/*` annotations that annotation-based scrape configs
// follow, on the runtime's Pod only — the Job's Pod, with HA the coordinator. The members' own
// telemetry is served again there, so no member port is ever a scrape target. Who may connect is
// the network-policy step's.

import { METRICS_PATH } from '../../contract';
import { runtimeContainer } from '../pod';
import type { FeatureStep, PlanDraft } from '../types';

export const METRICS_PORT_NAME = 'metrics';

export const metricsStep: FeatureStep = {
  name: 'metrics',
  apply(d: PlanDraft): PlanDraft {
    const metrics = d.spec.metrics;
    if (!metrics) return d;
    const c = runtimeContainer(d);
    (c.ports ??= []).push({ name: METRICS_PORT_NAME, containerPort: metrics.port, protocol: 'TCP' });
    const meta = (d.topology.jobPod.metadata ??= {});
    // The user's kubernetes.master.annotations are already there, and a key they set wins.
    meta.annotations = {
      'prometheus.io/scrape': 'true',
      'prometheus.io/port': String(metrics.port),
      'prometheus.io/path': METRICS_PATH,
      ...meta.annotations,
    };
    return d;
  },
};
