// application.metrics.* and kubernetes.metrics.*: defaults, the runtime Pod's port rule, the
// scraper selectors, and every message naming the option, the value and the rule.

import { ConfigurationError } from '../../../lib/model/issues';
import { loadApplication } from '../../../lib/model/load';
import { JOB_CONFIG, problems, spec } from '../../support/fixtures';

const load = (text: string, overrides: Array<[string, string]> = []) =>
  loadApplication({
    deploymentText: `kubernetes.image = "apache/seatunnel:2.3.8"\n${text}`,
    deploymentFile: 'deploy.conf',
    jobConfig: JOB_CONFIG,
    overrides,
  });

/** The whole message a user sees, one line per problem. */
function messages(fn: () => unknown): string[] {
  try {
    fn();
  } catch (e) {
    if (!(e instanceof ConfigurationError)) throw e;
    return e.message.split('\n').slice(1);
  }
  throw new Error('expected a ConfigurationError');
}

const HA = { haEnabled: true, checkpointPvc: 'ckpt' } as const;

describe('defaults', () => {
  test('on, at port 9464, admitting no scraper', () => {
    expect(spec().metrics).toEqual({ port: 9464 });
  });

  test('off: no metrics in the spec', () => {
    expect(spec({ metricsEnabled: false }).metrics).toBeUndefined();
  });

  test('from the deployment file and from -D', () => {
    expect(load('application.metrics { enabled = true, port = 9100 }').metrics).toEqual({ port: 9100 });
    expect(load('', [['application.metrics.enabled', 'false']]).metrics).toBeUndefined();
    expect(
      load('', [
        ['kubernetes.metrics.scraper-namespace-labels', 'team:monitoring'],
        ['kubernetes.metrics.scraper-pod-labels', 'app.kubernetes.io/name:prometheus'],
      ]).metrics,
    ).toEqual({
      port: 9464,
      scrapers: {
        namespaceLabels: { team: 'monitoring' },
        podLabels: { 'app.kubernetes.io/name': 'prometheus' },
      },
    });
  });
});

describe("the port of the runtime's Pod", () => {
  test.each([
    ['application.master.port', 5801],
    ['application.master.rest-port', 8080],
  ])('without HA it must differ from %s, which is in the same Pod', (key, value) => {
    expect(messages(() => load(`application.metrics.port = ${value}`))).toEqual([
      `  - application.metrics.port: got ${value} (from deployment file); must differ from ${key} (${value}): both are ports of the master Pod, where the runtime serves /metrics`,
    ]);
  });

  test('the worker port is in no Pod of the runtime: the same number is allowed', () => {
    expect(spec({ metricsPort: 5802 }).metrics?.port).toBe(5802);
  });

  test('with HA the coordinator runs no Zeta member: the master ports are free for it', () => {
    expect(spec({ ...HA, metricsPort: 5801 }).metrics?.port).toBe(5801);
  });

  test('bounds like the other ports', () => {
    expect(problems(() => spec({ metricsPort: 80 }))).toEqual(['metricsPort: must be between 1024 and 65535']);
  });

  test('switched off, the port is not checked against the others', () => {
    expect(spec({ metricsEnabled: false, metricsPort: 5801 }).metrics).toBeUndefined();
  });
});

describe('scraper selectors', () => {
  test('only namespace labels, only Pod labels', () => {
    expect(spec({ metricsScraperNamespaceLabels: { team: 'monitoring' } }).metrics?.scrapers).toEqual({
      namespaceLabels: { team: 'monitoring' },
    });
    expect(spec({ metricsScraperPodLabels: { app: 'prometheus' } }).metrics?.scrapers).toEqual({
      podLabels: { app: 'prometheus' },
    });
  });

  test('checked like a node selector: key and value syntax', () => {
    expect(messages(() => load('kubernetes.metrics.scraper-pod-labels { "bad key!" = x }'))).toEqual([
      expect.stringMatching(/^ {2}- kubernetes\.metrics\.scraper-pod-labels\.bad key!: got "bad key!" .*; .+/),
    ]);
    expect(messages(() => load('kubernetes.metrics.scraper-namespace-labels { team = "a b" }'))).toEqual([
      expect.stringMatching(/^ {2}- kubernetes\.metrics\.scraper-namespace-labels\.team: got "a b" .*; .+/),
    ]);
  });

  test('an empty selector is refused: Kubernetes reads it as "everything"', () => {
    expect(messages(() => load('kubernetes.metrics.scraper-namespace-labels {}'))).toEqual([
      '  - kubernetes.metrics.scraper-namespace-labels: got "{}" (from deployment file); must name at least one label: an empty selector admits every namespace',
    ]);
    expect(problems(() => spec({ metricsScraperPodLabels: {} }))).toEqual([
      'metricsScraperPodLabels: must name at least one label: an empty selector admits every Pod in the namespace',
    ]);
  });

  test('refused while metrics are off, naming the option, its value and the switch', () => {
    expect(
      messages(() =>
        load(`application.metrics.enabled = false
kubernetes.metrics.scraper-pod-labels { app = prometheus }`),
      ),
    ).toEqual([
      `  - kubernetes.metrics.scraper-pod-labels: got {"app":"prometheus"} (from deployment file); admits scrapers to the runtime's /metrics, which application.metrics.enabled = false turns off; remove it or enable metrics`,
    ]);
    expect(
      problems(() => spec({ metricsEnabled: false, metricsScraperNamespaceLabels: { team: 'monitoring' } })),
    ).toEqual([
      "metricsScraperNamespaceLabels: admits scrapers to the runtime's /metrics, which metricsEnabled = false turns off; remove it or enable metrics",
    ]);
  });
});

describe('the PodMonitor', () => {
  test('off by default; on from the deployment file, -D and typed props', () => {
    expect(spec().metrics?.podMonitor).toBeUndefined();
    expect(load('kubernetes.metrics.pod-monitor = true').metrics?.podMonitor).toEqual({ labels: {} });
    expect(
      load('', [
        ['kubernetes.metrics.pod-monitor', 'true'],
        ['kubernetes.metrics.pod-monitor-labels', 'release:prometheus'],
      ]).metrics?.podMonitor,
    ).toEqual({ labels: { release: 'prometheus' } });
    expect(spec({ metricsPodMonitor: true, metricsPodMonitorLabels: { team: 'data' } }).metrics?.podMonitor).toEqual({
      labels: { team: 'data' },
    });
  });

  test('refused while metrics are off, naming the option, its value and the switch', () => {
    expect(
      messages(() =>
        load(`application.metrics.enabled = false
kubernetes.metrics.pod-monitor = true`),
      ),
    ).toEqual([
      "  - kubernetes.metrics.pod-monitor: got true (from deployment file); a PodMonitor scrapes the runtime's /metrics, which application.metrics.enabled = false turns off; remove it or enable metrics",
    ]);
    expect(problems(() => spec({ metricsEnabled: false, metricsPodMonitor: true }))).toEqual([
      "metricsPodMonitor: a PodMonitor scrapes the runtime's /metrics, which metricsEnabled = false turns off; remove it or enable metrics",
    ]);
  });

  test('its labels without the PodMonitor are refused', () => {
    expect(messages(() => load('kubernetes.metrics.pod-monitor-labels { release = prometheus }'))).toEqual([
      '  - kubernetes.metrics.pod-monitor-labels: got {"release":"prometheus"} (from deployment file); labels the PodMonitor, which kubernetes.metrics.pod-monitor = false does not create; remove it or enable the PodMonitor',
    ]);
  });

  test('its labels are checked as object labels: syntax, reserved keys, the application-wide ones', () => {
    const on = 'kubernetes.metrics.pod-monitor = true\n';
    expect(messages(() => load(`${on}kubernetes.metrics.pod-monitor-labels { "bad key!" = x }`))).toEqual([
      expect.stringMatching(/^ {2}- kubernetes\.metrics\.pod-monitor-labels\.bad key!: got "bad key!" .*; .+/),
    ]);
    expect(
      messages(() =>
        load(`${on}kubernetes.metrics.pod-monitor-labels { "seatunnel.apache.org/application-id" = other }`),
      ),
    ).toEqual([expect.stringMatching(/pod-monitor-labels\.seatunnel\.apache\.org\/application-id: .*reserved/)]);
    expect(
      problems(() => spec({ metricsPodMonitor: true, metricsPodMonitorLabels: { 'app.kubernetes.io/version': '1' } })),
    ).toEqual([
      'metricsPodMonitorLabels.app.kubernetes.io/version: the label is the same on every object of the application: set it in labels',
    ]);
  });
});
