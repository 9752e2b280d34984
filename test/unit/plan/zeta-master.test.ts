import { plan } from '../../support/fixtures';
import { main, masterPod } from './helpers';

const HA = { haEnabled: true, haMasters: 2, haBackupCount: 1, checkpointPvc: 'ckpt' } as const;
/** The TCP startup probe: every 5 s, as many times as the startup timeout allows. */
const startup = (port: number, failureThreshold: number) => ({
  tcpSocket: { port },
  periodSeconds: 5,
  timeoutSeconds: 2,
  failureThreshold,
});

describe('zeta-master step', () => {
  test('one local master: TCP probes on the master port; the startup budget is the startup timeout after the workers’ head start', () => {
    // The runtime starts Zeta up to LOCAL_MASTER_START_DELAY_MS (40 s) after the container: 120 s + 40 s at 5 s a probe.
    const c = main(masterPod(plan({ startupTimeoutMillis: 120000 })));
    // The same container serves the runtime's /metrics (metrics.test.ts).
    expect(c.ports).toEqual([
      { name: 'hazelcast', containerPort: 5801, protocol: 'TCP' },
      { name: 'metrics', containerPort: 9464, protocol: 'TCP' },
    ]);
    expect(c.startupProbe).toEqual(startup(5801, 32));
    expect(c.readinessProbe).toEqual({
      tcpSocket: { port: 5801 },
      periodSeconds: 10,
      timeoutSeconds: 2,
      failureThreshold: 3,
    });
    expect(c.livenessProbe).toEqual(c.readinessProbe);
    expect(main(masterPod(plan({ startupTimeoutMillis: 7000 }))).startupProbe!.failureThreshold).toBe(10);
    expect(main(masterPod(plan({ startupTimeoutMillis: 5000, masterPort: 6000 }))).startupProbe).toEqual(
      startup(6000, 9),
    );
  });

  test("with HA the masters expose the port and the same startup budget, the coordinator neither (Hazelcast's health: high-availability.test.ts)", () => {
    const p = plan({ ...HA, startupTimeoutMillis: 7000, masterPort: 6000 });
    const master = main(p.masters!.spec!.template.spec!);
    expect(master.ports).toEqual([{ name: 'hazelcast', containerPort: 6000, protocol: 'TCP' }]);
    expect(master.startupProbe).toEqual(startup(6000, 2));
    expect(master.readinessProbe!.httpGet!.port).toBe(6000);
    const coordinator = main(masterPod(p));
    for (const key of ['startupProbe', 'readinessProbe', 'livenessProbe'] as const) {
      expect(coordinator[key]).toBeUndefined();
    }
    expect(coordinator.ports!.map((port) => port.name)).toEqual(['metrics']);
  });
});
