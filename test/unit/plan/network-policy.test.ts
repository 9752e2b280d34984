import type { NetworkPolicy } from 'kubernetes-types/networking/v1';
import type { ApplicationPlan } from '../../../lib/plan/types';
import { plan } from '../../support/fixtures';

const APP = 'seatunnel.apache.org/application-id';
const ROLE = 'seatunnel.apache.org/role';
const HA = { haEnabled: true, haMasters: 3, checkpointPvc: 'ckpt' } as const;
const policy = (p: ApplicationPlan, suffix: string) =>
  p.networkPolicies.find((n) => n.metadata.name === `${p.spec.appId}-${suffix}`);

describe('network policy step', () => {
  const p = plan({ applicationId: 'app-1' });

  test('master and workers accept Hazelcast only from the application Pods', () => {
    const [master, worker] = p.networkPolicies;
    const fromApp = [{ podSelector: { matchLabels: { 'seatunnel.apache.org/application-id': 'app-1' } } }];
    expect(master.spec).toEqual({
      podSelector: {
        matchLabels: { 'seatunnel.apache.org/application-id': 'app-1', 'seatunnel.apache.org/role': 'master' },
      },
      policyTypes: ['Ingress'],
      ingress: [{ from: fromApp, ports: [{ protocol: 'TCP', port: 5801 }] }],
    });
    expect(worker.spec!.ingress).toEqual([{ from: fromApp, ports: [{ protocol: 'TCP', port: 5802 }] }]);
  });

  test('the REST port is in no allow rule', () => {
    const ports = p.networkPolicies.flatMap((n) => n.spec!.ingress!.flatMap((i) => i.ports!.map((x) => x.port)));
    expect(ports).not.toContain(8080);
  });

  test('can be disabled', () => {
    expect(plan({ networkPolicyEnabled: false }).networkPolicies).toEqual([]);
  });
});

describe('NetworkPolicy for scrapers', () => {
  const scraperRule = (p: ApplicationPlan) => policy(p, 'metrics');

  test('by default no scraper is admitted: no metrics policy, and no allow rule names the metrics port', () => {
    const p = plan();
    expect(scraperRule(p)).toBeUndefined();
    const ports = p.networkPolicies.flatMap((n) => n.spec!.ingress!.flatMap((i) => i.ports!.map((x) => x.port)));
    expect(ports).not.toContain(9464);
  });

  const expected = (
    p: ApplicationPlan,
    role: 'master' | 'coordinator',
    from: NonNullable<NetworkPolicy['spec']>['ingress'],
  ): NetworkPolicy['spec'] => ({
    podSelector: { matchLabels: { [APP]: p.spec.appId, [ROLE]: role } },
    policyTypes: ['Ingress'],
    ingress: from,
  });

  test('namespace and Pod labels: one peer, both must match; the metrics port of the master Pod only', () => {
    const p = plan({
      metricsScraperNamespaceLabels: { 'kubernetes.io/metadata.name': 'monitoring' },
      metricsScraperPodLabels: { 'app.kubernetes.io/name': 'prometheus' },
    });
    expect(scraperRule(p)!.spec).toEqual(
      expected(p, 'master', [
        {
          from: [
            {
              namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'monitoring' } },
              podSelector: { matchLabels: { 'app.kubernetes.io/name': 'prometheus' } },
            },
          ],
          ports: [{ protocol: 'TCP', port: 9464 }],
        },
      ]),
    );
  });

  test('only namespace labels: every Pod of the matching namespaces', () => {
    const p = plan({ metricsScraperNamespaceLabels: { team: 'monitoring' } });
    expect(scraperRule(p)!.spec!.ingress).toEqual([
      {
        from: [{ namespaceSelector: { matchLabels: { team: 'monitoring' } } }],
        ports: [{ protocol: 'TCP', port: 9464 }],
      },
    ]);
  });

  test("only Pod labels: those Pods in the application's namespace", () => {
    const p = plan({ metricsScraperPodLabels: { app: 'prometheus' }, metricsPort: 9100 });
    expect(scraperRule(p)!.spec!.ingress).toEqual([
      { from: [{ podSelector: { matchLabels: { app: 'prometheus' } } }], ports: [{ protocol: 'TCP', port: 9100 }] },
    ]);
    expect(scraperRule(p)!.metadata.namespace).toBe(p.spec.namespace);
  });

  test('the member ports stay closed to scrapers: the other policies are unchanged', () => {
    const without = plan();
    const withScrapers = plan({ metricsScraperPodLabels: { app: 'prometheus' } });
    expect(withScrapers.networkPolicies.filter((n) => !n.metadata.name.endsWith('-metrics'))).toEqual(
      without.networkPolicies,
    );
  });

  test("with HA it admits them to the coordinator's Pod, which its own policy otherwise closes", () => {
    const p = plan({ ...HA, metricsScraperPodLabels: { app: 'prometheus' } });
    expect(scraperRule(p)!.spec).toEqual(
      expected(p, 'coordinator', [
        { from: [{ podSelector: { matchLabels: { app: 'prometheus' } } }], ports: [{ protocol: 'TCP', port: 9464 }] },
      ]),
    );
    expect(policy(p, 'coordinator')!.spec!.ingress).toEqual([]);
  });

  test('none with the NetworkPolicies disabled', () => {
    expect(plan({ networkPolicyEnabled: false, metricsScraperPodLabels: { app: 'p' } }).networkPolicies).toEqual([]);
  });
});

describe("the runtime reaches every member's telemetry at its member port", () => {
  /** Whether a policy admits a Pod with `labels` in the same namespace to `port`. */
  const admits = (n: NetworkPolicy, labels: Record<string, string>, port: number) =>
    n.spec!.ingress!.some(
      (rule) =>
        rule.ports!.some((x) => x.port === port) &&
        rule.from!.some(
          (peer) =>
            !peer.namespaceSelector &&
            Object.entries(peer.podSelector!.matchLabels!).every(([k, v]) => labels[k] === v),
        ),
    );

  test.each([
    ['one local master', {}, 'master'],
    ['HA', HA, 'coordinator'],
  ] as const)('%s: the workers admit the runtime at their member port, the masters at theirs', (_, extra, role) => {
    const p = plan(extra);
    const runtimeLabels = p.job.spec!.template.metadata!.labels!;
    expect(runtimeLabels[ROLE]).toBe(role);
    expect(admits(policy(p, 'worker')!, runtimeLabels, p.spec.worker.port)).toBe(true);
    expect(admits(policy(p, 'master')!, runtimeLabels, p.spec.master.port)).toBe(true);
  });
});
