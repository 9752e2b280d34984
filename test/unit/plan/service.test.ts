import { plan } from '../../support/fixtures';

test('headless Service selecting the master, ready or not, named port hazelcast', () => {
  const p = plan({ masterPort: 5901 });
  expect(p.service.metadata.name).toBe(p.spec.appId);
  expect(p.service.spec).toEqual({
    clusterIP: 'None',
    publishNotReadyAddresses: true,
    selector: { 'seatunnel.apache.org/application-id': p.spec.appId, 'seatunnel.apache.org/role': 'master' },
    ports: [{ name: 'hazelcast', port: 5901, targetPort: 5901, protocol: 'TCP' }],
  });
  expect(p.service.metadata.labels!['seatunnel.apache.org/role']).toBe('master');
});
