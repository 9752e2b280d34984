// The pure rules of the local kubelet's data path: which names the cluster DNS stand-in publishes,
// which endpoints the Service proxy sends to, when a probe result flips, and the restart policy.
// (The whole path against the real controllers: test/cluster/local-service-network.test.ts.)
import type { Probe, Service } from 'kubernetes-types/core/v1';
import type { EndpointSlice } from 'kubernetes-types/discovery/v1';
import { clusterHosts, hostsFileText } from '../../../tools/local-stack/cluster-dns';
import { ProbeResult } from '../../../tools/local-stack/container-probes';
import { restartBackoffMs, shouldRestart, terminatedState } from '../../../tools/local-stack/container-status';
import { isProxied, readyBackends } from '../../../tools/local-stack/service-proxy';

const svc = (name: string, spec: Service['spec']): Service => ({
  metadata: { name, namespace: 'ns', uid: `uid-${name}` },
  spec,
});
const slice = (
  service: string,
  endpoints: EndpointSlice['endpoints'],
  ports: EndpointSlice['ports'] = [{ name: 'http', port: 8080 }],
): EndpointSlice => ({
  metadata: { name: `${service}-x`, labels: { 'kubernetes.io/service-name': service } },
  addressType: 'IPv4',
  endpoints,
  ports,
});

describe('cluster DNS stand-in names', () => {
  const headless = svc('peers', { clusterIP: 'None', selector: { app: 'w' } });
  const slices = [
    slice('peers', [
      { addresses: ['10.245.0.2'], hostname: 'w-0', conditions: { ready: true } },
      { addresses: ['10.245.0.3'], hostname: 'w-1', conditions: { ready: false } },
    ]),
  ];

  test('headless: ready endpoints (at their loopback face) by hostname and all together, under every name the search list reaches', () => {
    const hosts = clusterHosts('ns', [headless], slices, () => undefined);
    expect(Object.fromEntries(hosts)).toEqual({
      'w-0.peers.ns.svc.cluster.local': ['127.0.0.2'],
      'w-0.peers.ns.svc': ['127.0.0.2'],
      'w-0.peers.ns': ['127.0.0.2'],
      'w-0.peers': ['127.0.0.2'],
      'peers.ns.svc.cluster.local': ['127.0.0.2'],
      'peers.ns.svc': ['127.0.0.2'],
      'peers.ns': ['127.0.0.2'],
      peers: ['127.0.0.2'],
    });
  });

  test('publishNotReadyAddresses publishes not-ready endpoints too', () => {
    const hosts = clusterHosts(
      'ns',
      [svc('peers', { ...headless.spec, publishNotReadyAddresses: true })],
      slices,
      () => undefined,
    );
    expect(hosts.get('w-1.peers.ns.svc')).toEqual(['127.0.0.3']);
    expect(hosts.get('peers.ns.svc')).toEqual(['127.0.0.2', '127.0.0.3']);
  });

  test('a ClusterIP Service points at its proxy; the short name only for the Pods own namespace', () => {
    const rest = svc('rest', { clusterIP: '10.96.0.9', selector: { app: 'w' } });
    expect(clusterHosts('ns', [rest], [], () => '127.0.2.1').get('rest')).toEqual(['127.0.2.1']);
    const other = clusterHosts('elsewhere', [rest], [], () => '127.0.2.1');
    expect(other.get('rest')).toBeUndefined();
    expect(other.get('rest.ns')).toEqual(['127.0.2.1']);
    expect(clusterHosts('ns', [rest], [], () => undefined).size).toBe(0);
  });

  test('the file keeps the base and has one line per address and name', () => {
    const text = hostsFileText('127.0.0.1 localhost\n', new Map([['a.ns.svc', ['127.0.0.2', '127.0.0.3']]]));
    expect(text.split('\n')).toEqual(
      expect.arrayContaining(['127.0.0.1 localhost', '127.0.0.2 a.ns.svc', '127.0.0.3 a.ns.svc']),
    );
  });
});

describe('Service proxy backends', () => {
  const rest = svc('rest', { clusterIP: '10.96.0.9', ports: [{ name: 'http', port: 80, targetPort: 'web' }] });

  test('only ready endpoints of local Pods (their loopback face), at the slice port of the same name; nil readiness counts as ready', () => {
    const slices = [
      slice(
        'rest',
        [
          { addresses: ['10.245.0.2'], conditions: { ready: true } },
          { addresses: ['10.245.0.3'], conditions: { ready: false } },
          { addresses: ['10.245.0.4'] },
          { addresses: ['10.244.0.7'] },
        ],
        [{ name: 'http', port: 8080 }],
      ),
      slice('other', [{ addresses: ['10.245.0.9'] }]),
    ];
    expect(readyBackends(rest, rest.spec!.ports![0], slices)).toEqual([
      { ip: '127.0.0.2', port: 8080 },
      { ip: '127.0.0.4', port: 8080 },
    ]);
  });

  test('headless and ExternalName Services are not proxied', () => {
    expect(isProxied(rest)).toBe(true);
    expect(isProxied(svc('h', { clusterIP: 'None' }))).toBe(false);
    expect(isProxied(svc('e', { type: 'ExternalName', externalName: 'x.example' }))).toBe(false);
  });
});

describe('probe results and restarts', () => {
  test('a result flips after successThreshold successes or failureThreshold failures in a row', () => {
    const probe: Probe = { successThreshold: 2, failureThreshold: 2 };
    const r = new ProbeResult(probe, false);
    expect([r.record(true), r.ok]).toEqual([false, false]);
    expect([r.record(true), r.ok]).toEqual([true, true]);
    expect([r.record(false), r.ok]).toEqual([false, true]);
    expect([r.record(true), r.record(false), r.ok]).toEqual([false, false, true]);
    expect([r.record(false), r.ok]).toEqual([true, false]);
  });

  test('restart policy, back-off and the terminated state', () => {
    expect([
      shouldRestart(undefined, 0),
      shouldRestart('Always', 0),
      shouldRestart('OnFailure', 0),
      shouldRestart('OnFailure', 1),
      shouldRestart('Never', 1),
    ]).toEqual([true, true, false, true, false]);
    expect([0, 1, 2, 3, 4, 9].map(restartBackoffMs)).toEqual([1000, 2000, 4000, 8000, 10_000, 10_000]);
    expect(terminatedState(null, 'SIGKILL', 's', 'f')).toEqual({
      exitCode: 137,
      reason: 'Error',
      signal: 9,
      startedAt: 's',
      finishedAt: 'f',
    });
  });
});
