import { plan } from '../../support/fixtures';

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
