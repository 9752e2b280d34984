// kubernetes.metrics.pod-monitor: the Prometheus operator's PodMonitor (monitoring.coreos.com/v1)
// for the runtime's one /metrics endpoint (docs/metrics.md), so that a Prometheus the operator
// manages finds it without annotation-based discovery. It selects exactly the runtime's Pod (the
// Job's; with HA the coordinator) by the labels the metrics NetworkPolicy selects it by, and names
// the container port the metrics step added. No namespaceSelector: the operator then looks in the
// PodMonitor's own namespace, the application's. Owned by the Job like every other dependent.

import { names, objectMeta, runtimePodSelector } from '../pod';
import type { FeatureStep, PlanDraft } from '../types';
import { METRICS_PATH } from '../../contract';
import { METRICS_PORT_NAME } from './metrics';

export const POD_MONITOR_API_VERSION = 'monitoring.coreos.com/v1';

export const podMonitorStep: FeatureStep = {
  name: 'pod-monitor',
  apply(d: PlanDraft): PlanDraft {
    const podMonitor = d.spec.metrics?.podMonitor;
    if (!podMonitor) return d;
    const meta = objectMeta(d.spec, names.podMonitor(d.spec), 'configuration', 'pod-monitor');
    d.podMonitor = {
      apiVersion: POD_MONITOR_API_VERSION,
      kind: 'PodMonitor',
      // The model refuses reserved keys in the user's labels, so these cannot hide it from cancel.
      metadata: { ...meta, labels: { ...meta.labels, ...podMonitor.labels } },
      spec: {
        selector: { matchLabels: runtimePodSelector(d) },
        podMetricsEndpoints: [{ port: METRICS_PORT_NAME, path: METRICS_PATH }],
      },
    };
    return d;
  },
};
