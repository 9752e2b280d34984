// The HA timings only work in one order (lib/contract/ha-timings.ts): a frozen master is killed
// by its probe before the heartbeat timeout drops it, a dropped member is merged back before the
// coordinator gives up on the engine. And what the plan writes — probes, engine files, runtime.json —
// is those timings, not copies of them.
import { parse } from 'yaml';
import { HA_TIMINGS, haWindows, LOCAL_ENGINE_UNREACHABLE_MILLIS } from '../../../lib/contract';
import { ENGINE_FILES } from '../../../lib/engine/files';
import { plan } from '../../support/fixtures';

const HA = { haEnabled: true, haMasters: 3, checkpointPvc: 'ckpt' } as const;

test('probe kill < heartbeat timeout < merge < the coordinator’s tolerance', () => {
  const w = haWindows();
  expect(w.probeKillMs).toBeLessThan(w.heartbeatMs);
  expect(w.heartbeatMs).toBeLessThan(w.mergeMs);
  expect(w.mergeMs).toBeLessThan(w.toleranceMs);
});

test('the order check fails when a timing is moved out of order', () => {
  const slowProbe = { ...HA_TIMINGS, liveness: { ...HA_TIMINGS.liveness, failureThreshold: 20 } };
  const w = haWindows(slowProbe);
  expect(w.probeKillMs).toBeGreaterThan(w.heartbeatMs);
});

describe('an HA plan writes the timings, not copies of them', () => {
  const p = plan(HA);
  const engine = p.configMaps.find((c) => c.metadata.name.endsWith('-engine'))!.data!;

  test('the masters’ probes', () => {
    const c = p.masters!.spec!.template.spec!.containers[0];
    expect(c.livenessProbe).toMatchObject(HA_TIMINGS.liveness);
    expect(c.readinessProbe).toMatchObject(HA_TIMINGS.readiness);
  });

  test('Hazelcast’s heartbeat timeout and merge delays on every member', () => {
    for (const file of [ENGINE_FILES.masterHazelcast, ENGINE_FILES.workerHazelcast]) {
      const props = parse(engine[file]).hazelcast.properties;
      expect(props['hazelcast.max.no.heartbeat.seconds']).toBe(HA_TIMINGS.heartbeatTimeoutSeconds);
      expect(props['hazelcast.merge.first.run.delay.seconds']).toBe(HA_TIMINGS.mergeFirstRunDelaySeconds);
      expect(props['hazelcast.merge.next.run.delay.seconds']).toBe(HA_TIMINGS.mergeNextRunDelaySeconds);
      expect(props['hazelcast.socket.connect.timeout.seconds']).toBe(HA_TIMINGS.memberConnect.timeoutSeconds);
      expect(props['hazelcast.connection.monitor.max.faults']).toBe(HA_TIMINGS.memberConnect.maxFaults);
    }
  });

  test('a vanished member is dropped by its failed connects well before its replacement can join (StatefulSet: seconds)', () => {
    const { timeoutSeconds, maxFaults } = HA_TIMINGS.memberConnect;
    // Measured on real nodes: the replacement of a deleted master asked to join 7 s after the deletion.
    expect(timeoutSeconds * maxFaults).toBeLessThanOrEqual(4);
  });

  test('runtime.json carries the tolerance to the coordinator; without HA the local one', () => {
    expect(JSON.parse(engine[ENGINE_FILES.runtime]).engineUnreachableMillis).toBe(HA_TIMINGS.engineUnreachableMillis);
    const local = plan().configMaps.find((c) => c.metadata.name.endsWith('-engine'))!.data!;
    expect(JSON.parse(local[ENGINE_FILES.runtime]).engineUnreachableMillis).toBe(LOCAL_ENGINE_UNREACHABLE_MILLIS);
  });
});
