// kubernetes.metrics.pod-monitor: the Prometheus operator's PodMonitor of the runtime's /metrics —
// its shape, that its selector picks the runtime's Pod and no other Pod of the application (with
// one local master and with HA), its labels, and that it is a dependent like the others.

import { dependents } from '../../../lib/plan/build-plan';
import { stampMasterPod, stampWorkers } from '../../../lib/plan/stamp';
import type { ApplicationPlan } from '../../../lib/plan/types';
import { plan } from '../../support/fixtures';
import { main, masterPod } from './helpers';

const HA = { haEnabled: true, haMasters: 3, checkpointPvc: 'ckpt' } as const;
const ON = { metricsPodMonitor: true } as const;

const matches = (selector: Record<string, string>, labels: Record<string, string> = {}) =>
  Object.entries(selector).every(([k, v]) => labels[k] === v);

/** Every Pod of the application as it will run, the runtime's first. */
function podsOf(p: ApplicationPlan) {
  return [
    { runtime: true, labels: stampMasterPod(p.job).metadata.labels },
    ...(p.masters ? [{ runtime: false, labels: p.masters.spec!.template.metadata!.labels }] : []),
    ...stampWorkers(p).map((w) => ({ runtime: false, labels: w.metadata.labels })),
  ];
}

describe('the PodMonitor', () => {
  test('absent by default, and with the option off', () => {
    expect(plan().podMonitor).toBeUndefined();
    expect(plan({ metricsPodMonitor: false }).podMonitor).toBeUndefined();
    expect(dependents(plan()).map((o) => o.kind)).not.toContain('PodMonitor');
  });

  test("the operator's v1 object in the application's namespace: the runtime's Pod, its metrics port, /metrics", () => {
    const p = plan({ ...ON, namespace: 'jobs' });
    const appId = p.spec.appId;
    expect(p.podMonitor).toEqual({
      apiVersion: 'monitoring.coreos.com/v1',
      kind: 'PodMonitor',
      metadata: expect.objectContaining({ name: `${appId}-metrics`, namespace: 'jobs' }),
      spec: {
        selector: {
          matchLabels: { 'seatunnel.apache.org/application-id': appId, 'seatunnel.apache.org/role': 'master' },
        },
        podMetricsEndpoints: [{ port: 'metrics', path: '/metrics' }],
      },
    });
    // The port it names is the runtime container's metrics port.
    const ports = main(masterPod(p)).ports ?? [];
    expect(ports.filter((x) => x.name === 'metrics')).toEqual([
      { name: 'metrics', containerPort: 9464, protocol: 'TCP' },
    ]);
  });

  test.each([
    ['one local master', {}],
    ['HA (the coordinator)', HA],
  ])('with %s its selector matches the runtime Pod and no other Pod of the application', (_, extra) => {
    const p = plan({ ...ON, ...extra, workerCount: 2 });
    const selector = p.podMonitor!.spec.selector.matchLabels!;
    const pods = podsOf(p);
    expect(pods.length).toBeGreaterThanOrEqual(3);
    expect(pods.map((pod) => matches(selector, pod.labels))).toEqual(pods.map((pod) => pod.runtime));
  });

  test('the same selector as the metrics NetworkPolicy', () => {
    for (const extra of [{}, HA]) {
      const p = plan({ ...ON, ...extra, metricsScraperPodLabels: { app: 'prometheus' } });
      const policy = p.networkPolicies.find((n) => n.metadata.name === `${p.spec.appId}-metrics`)!;
      expect(p.podMonitor!.spec.selector.matchLabels).toEqual(policy.spec!.podSelector.matchLabels);
    }
  });

  test("the application's labels and annotations, plus kubernetes.metrics.pod-monitor-labels", () => {
    const p = plan({
      ...ON,
      labels: { team: 'data' },
      annotations: { owner: 'a' },
      metricsPodMonitorLabels: { release: 'prometheus' },
    });
    const meta = p.podMonitor!.metadata;
    expect(meta.labels).toEqual({
      ...p.service.metadata.labels,
      'seatunnel.apache.org/role': 'configuration',
      'app.kubernetes.io/component': 'pod-monitor',
      release: 'prometheus',
    });
    expect(meta.annotations).toEqual({ owner: 'a' });
  });

  test('a dependent: created (and owned by the Job) with the others, before the Job', () => {
    const p = plan(ON);
    expect(dependents(p)).toContain(p.podMonitor);
  });
});
