// application.metrics.* and kubernetes.metrics.*: Zeta's telemetry on every member, and the one
// `/metrics` of the runtime's Pod that serves it again (docs/metrics.md). A scraper is admitted to
// that port only, and only when the user names it: the member ports speak Hazelcast's client
// protocol, which controls jobs without authentication.

import { LABELS } from '../reserved';
import type { MasterSpec, MetricsScrapers, MetricsSpec } from '../spec';
import { resolveStringMap } from './labels';
import type { PropReader } from './reader';

const SCRAPER_PROPS = ['metricsScraperNamespaceLabels', 'metricsScraperPodLabels'] as const;

export function resolveMetrics(
  r: PropReader,
  master: Pick<MasterSpec, 'port' | 'restPort'>,
  haEnabled: boolean,
): MetricsSpec | undefined {
  const enabled = r.bool('metricsEnabled');
  const port = r.int('metricsPort');
  const [namespaceLabels, podLabels] = SCRAPER_PROPS.map((prop) => scraperLabels(r, prop));
  const podMonitor = resolvePodMonitor(r);
  if (!enabled) {
    for (const prop of SCRAPER_PROPS)
      if (r.props[prop] !== undefined)
        r.fail(
          prop,
          r.props[prop],
          `admits scrapers to the runtime's /metrics, which ${r.key('metricsEnabled')} = false turns off; remove it or enable metrics`,
        );
    if (podMonitor)
      r.fail(
        'metricsPodMonitor',
        true,
        `a PodMonitor scrapes the runtime's /metrics, which ${r.key('metricsEnabled')} = false turns off; remove it or enable metrics`,
      );
    return undefined;
  }
  // Without HA the runtime shares its Pod with the Zeta master; the coordinator runs no Zeta.
  if (!haEnabled) {
    for (const other of ['masterPort', 'masterRestPort'] as const) {
      const value = other === 'masterPort' ? master.port : master.restPort;
      if (port === value)
        r.fail(
          'metricsPort',
          port,
          `must differ from ${r.key(other)} (${value}): both are ports of the master Pod, where the runtime serves /metrics`,
        );
    }
  }
  const scrapers: MetricsScrapers = {
    ...(namespaceLabels ? { namespaceLabels } : {}),
    ...(podLabels ? { podLabels } : {}),
  };
  return { port, ...(namespaceLabels || podLabels ? { scrapers } : {}), ...(podMonitor ? { podMonitor } : {}) };
}

/**
 * kubernetes.metrics.pod-monitor and its labels. The labels are the PodMonitor's own, checked as
 * object labels: a reserved key would hide it from cancel, and part-of and version are the same
 * on every object of the application (kubernetes.labels sets them).
 */
function resolvePodMonitor(r: PropReader): MetricsSpec['podMonitor'] {
  const on = r.bool('metricsPodMonitor');
  const labels = resolveStringMap(r, 'metricsPodMonitorLabels', 'label');
  for (const key of [LABELS.partOf, LABELS.version])
    if (key in labels)
      r.fail(
        'metricsPodMonitorLabels',
        key,
        `the label is the same on every object of the application: set it in ${r.key('labels')}`,
        key,
      );
  if (!on && r.props.metricsPodMonitorLabels !== undefined)
    r.fail(
      'metricsPodMonitorLabels',
      r.props.metricsPodMonitorLabels,
      `labels the PodMonitor, which ${r.key('metricsPodMonitor')} = false does not create; remove it or enable the PodMonitor`,
    );
  return on ? { labels } : undefined;
}

/** A scraper selector as given; an empty one is refused, as Kubernetes reads it as "every namespace" or "every Pod". */
function scraperLabels(r: PropReader, prop: (typeof SCRAPER_PROPS)[number]): Record<string, string> | undefined {
  if (r.props[prop] === undefined) return undefined;
  const labels = resolveStringMap(r, prop, 'selector');
  const what = prop === 'metricsScraperNamespaceLabels' ? 'namespace' : 'Pod in the namespace';
  if (isEmptyObject(r.props[prop]))
    r.fail(prop, '{}', `must name at least one label: an empty selector admits every ${what}`);
  return labels;
}

const isEmptyObject = (v: unknown) =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && Object.keys(v).length === 0;
