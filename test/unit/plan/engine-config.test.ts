import { parse } from 'yaml';
import { ENGINE_FILES, HA_MASTER_JOIN_SECONDS, JOIN_WAIT_PROPERTY } from '../../../lib/engine/files';
import { PATHS } from '../../../lib/model/spec';
import { plan, problems } from '../../support/fixtures';
import { env, main, MASTER_REST, mountAt, workerPod, masterPod, WORKER_METRICS_REST } from './helpers';

const engineCm = (p: ReturnType<typeof plan>) =>
  p.configMaps.find((c) => c.metadata.name === `${p.spec.appId}-engine`)!;
const yaml = (p: ReturnType<typeof plan>, file: string) => parse(engineCm(p).data![file]);

describe('engine config step', () => {
  const p = plan({ workerSlots: 3, workerCount: 4 });

  test('cluster name unique to the application, fixed ports, phone-home off', () => {
    for (const f of [ENGINE_FILES.masterHazelcast, ENGINE_FILES.workerHazelcast]) {
      const hz = yaml(p, f).hazelcast;
      expect(hz['cluster-name']).toBe(`seatunnel-application-${p.spec.appId}`);
      expect(hz.network.port['auto-increment']).toBe(false);
      expect(hz.network.join.multicast.enabled).toBe(false);
      expect(hz.properties['hazelcast.phone.home.enabled']).toBe(false);
    }
    expect(yaml(p, ENGINE_FILES.masterHazelcast).hazelcast.network.port.port).toBe(5801);
    expect(yaml(p, ENGINE_FILES.workerHazelcast).hazelcast.network.port.port).toBe(5802);
  });

  test("the master admits a member that asks to join at once, not after Hazelcast's 5 s; a value the user chose stays", () => {
    for (const q of [p, plan({ haEnabled: true, haMasters: 2, haBackupCount: 1, checkpointPvc: 'ckpt' })]) {
      for (const f of [ENGINE_FILES.masterHazelcast, ENGINE_FILES.workerHazelcast]) {
        expect(yaml(q, f).hazelcast.properties[JOIN_WAIT_PROPERTY]).toBe(0);
      }
    }
    const chosen = plan({
      runtimeFiles: { hazelcast: { content: `hazelcast:\n  properties:\n    ${JOIN_WAIT_PROPERTY}: 3\n` } },
    });
    expect(yaml(chosen, ENGINE_FILES.masterHazelcast).hazelcast.properties[JOIN_WAIT_PROPERTY]).toBe(3);
  });

  test('HA masters ask for a master for 2 s before they claim the role, not 10 s; workers and a lone master keep 10 s; a value the user chose stays', () => {
    const timeout = (q: ReturnType<typeof plan>, f: string) =>
      yaml(q, f).hazelcast.network.join['tcp-ip']['connection-timeout-seconds'];
    const ha = plan({ haEnabled: true, haMasters: 3, haBackupCount: 1, checkpointPvc: 'ckpt' });
    expect(HA_MASTER_JOIN_SECONDS).toBe(2);
    expect(timeout(ha, ENGINE_FILES.masterHazelcast)).toBe(2);
    expect(timeout(ha, ENGINE_FILES.workerHazelcast)).toBe(10);
    expect(timeout(p, ENGINE_FILES.masterHazelcast)).toBe(10);
    expect(timeout(p, ENGINE_FILES.workerHazelcast)).toBe(10);
    const chosen = plan({
      haEnabled: true,
      haMasters: 2,
      haBackupCount: 1,
      checkpointPvc: 'ckpt',
      runtimeFiles: {
        hazelcast: {
          content: 'hazelcast:\n  network:\n    join:\n      tcp-ip:\n        connection-timeout-seconds: 7\n',
        },
      },
    });
    expect(timeout(chosen, ENGINE_FILES.masterHazelcast)).toBe(7);
  });

  test('backup-count 0; fixed slots on workers; REST v2 on the master only', () => {
    const master = yaml(p, ENGINE_FILES.masterEngine).seatunnel.engine;
    const worker = yaml(p, ENGINE_FILES.workerEngine).seatunnel.engine;
    expect(master['backup-count']).toBe(0);
    expect(worker['backup-count']).toBe(0);
    expect(worker['slot-service']).toEqual({ 'dynamic-slot': false, 'slot-num': 3 });
    expect(master.http).toEqual({ 'enable-http': true, port: 8080, 'enable-dynamic-port': false });
    expect(worker.http['enable-http']).toBe(false);
  });

  test('heap at 75 % of the memory limit in the JVM options and the worker command', () => {
    const q = plan({ workerMemoryMb: 2048, masterMemoryMb: 4096 });
    expect(engineCm(q).data![ENGINE_FILES.workerJvm]).toContain('-Xmx1536m');
    expect(engineCm(q).data![ENGINE_FILES.masterJvm]).toContain('-Xmx3072m');
    expect(main(workerPod(q)).command).toContain('-Xmx1536m');
  });

  test('console logging', () => {
    expect(engineCm(p).data![ENGINE_FILES.log4j2]).toMatch(/appender\.console\.type = Console/);
  });

  test("Zeta's INFO dump of each job config (secrets it does not mask) is not logged", () => {
    const log4j2 = engineCm(p).data![ENGINE_FILES.log4j2];
    const name = /^logger\.(\w+)\.name = org\.apache\.seatunnel\.core\.starter\.utils\.ConfigBuilder$/m.exec(
      log4j2,
    )?.[1];
    expect(name).toBeDefined();
    expect(log4j2).toMatch(new RegExp(`^logger\\.${name}\\.level = (WARN|ERROR|OFF)$`, 'm'));
  });

  test('mounted read-only on master and workers; the worker runs Zeta as a worker', () => {
    for (const pod of [masterPod(p), workerPod(p)])
      expect(mountAt(main(pod), PATHS.engineConfig)).toMatchObject({ readOnly: true });
    const cmd = main(workerPod(p)).command!;
    expect(cmd.slice(-3)).toEqual(['org.apache.seatunnel.core.starter.seatunnel.SeaTunnelServer', '-r', 'worker']);
    expect(cmd).toContain(`-Dhazelcast.config=${PATHS.engineConfig}/${ENGINE_FILES.workerHazelcast}`);
    expect(env(main(workerPod(p)), 'SEATUNNEL_APPLICATION_MASTER_ADDRESS')).toEqual({
      name: 'SEATUNNEL_APPLICATION_MASTER_ADDRESS',
      value: '',
    });
  });

  test('runtime.json carries the runtime settings and no secret', () => {
    const settings = JSON.parse(engineCm(p).data![ENGINE_FILES.runtime]);
    expect(settings).toMatchObject({
      appId: p.spec.appId,
      jobId: p.spec.jobId,
      workerCount: 4,
      workerSlots: 3,
      workerTemplate: `${p.spec.appId}-worker`,
      jobConfig: { kind: 'file', path: '/etc/seatunnel-app/job/job.conf' },
    });
    expect(settings.master.command.slice(-2)).toEqual(['-r', 'master']);
    expect(JSON.stringify(settings)).not.toContain('FakeSource');
  });

  test('a supplied engine file is merged under the enforced keys', () => {
    const q = plan({
      runtimeFiles: {
        engine: {
          content: 'seatunnel:\n  engine:\n    checkpoint:\n      interval: 5000\n    history-job-expire-minutes: 10\n',
        },
      },
    });
    const master = yaml(q, ENGINE_FILES.masterEngine).seatunnel.engine;
    expect(master.checkpoint.interval).toBe(5000);
    expect(master.checkpoint.storage.type).toBe('hdfs');
    expect(master['history-job-expire-minutes']).toBe(10);
    expect(master['backup-count']).toBe(0);
  });

  test('a supplied file that contradicts application mode is rejected, naming the key', () => {
    expect(
      problems(() => plan({ runtimeFiles: { engine: { content: 'seatunnel:\n  engine:\n    backup-count: 1\n' } } })),
    ).toEqual([
      'kubernetes.runtime-files.engine: application mode sets seatunnel.engine.backup-count to 0 (one master without HA keeps no partition backups); remove it from the file',
    ]);
    expect(
      problems(() => plan({ runtimeFiles: { hazelcast: { content: 'hazelcast:\n  cluster-name: shared\n' } } }))[0],
    ).toMatch(/hazelcast\.cluster-name to "seatunnel-application-/);
  });

  test("telemetry is application mode's: a supplied seatunnel.yaml cannot flip it either way", () => {
    const telemetry = (on: boolean) => ({
      engine: { content: `seatunnel:\n  engine:\n    telemetry:\n      metric:\n        enabled: ${on}\n` },
    });
    const why =
      "application.metrics.enabled: the runtime's /metrics reads every member's telemetry, and the members' REST and the NetworkPolicy are set up for it or not at all; set that option instead";
    expect(problems(() => plan({ runtimeFiles: telemetry(false) }))).toEqual([
      `kubernetes.runtime-files.engine: application mode sets seatunnel.engine.telemetry.metric.enabled to true (${why}); remove it from the file`,
    ]);
    expect(problems(() => plan({ metricsEnabled: false, runtimeFiles: telemetry(true) }))).toEqual([
      `kubernetes.runtime-files.engine: application mode sets seatunnel.engine.telemetry.metric.enabled to false (${why}); remove it from the file`,
    ]);
    // The same value as the option is no contradiction.
    expect(() => plan({ runtimeFiles: telemetry(true) })).not.toThrow();
  });

  test('disabled files are not generated and not passed to the JVM', () => {
    const q = plan({ runtimeFiles: { log4j2: { enabled: false }, jvmOptions: { enabled: false } } });
    expect(engineCm(q).data![ENGINE_FILES.log4j2]).toBeUndefined();
    expect(engineCm(q).data![ENGINE_FILES.workerJvm]).toBeUndefined();
    const cmd = main(workerPod(q)).command!;
    expect(cmd.some((a) => a.startsWith('-Dlog4j2.configurationFile'))).toBe(false);
    expect(cmd.some((a) => a.startsWith('-Xmx'))).toBe(false);
  });

  test('a checkpoint PVC becomes the default checkpoint namespace', () => {
    const q = plan({ checkpointPvc: 'ckpt' });
    expect(yaml(q, ENGINE_FILES.masterEngine).seatunnel.engine.checkpoint.storage['plugin-config'].namespace).toBe(
      '/opt/seatunnel/checkpoints/',
    );
  });
});

describe('Zeta process environment', () => {
  const p = plan();

  test('module flags travel in JDK_JAVA_OPTIONS (Java 8 images ignore it), never on the command line', () => {
    const w = main(workerPod(p));
    expect(env(w, 'JDK_JAVA_OPTIONS')!.value).toContain('--add-opens=java.base/java.lang=ALL-UNNAMED');
    expect(w.command!.some((a) => a.startsWith('--add-'))).toBe(false);
    const settings = JSON.parse(engineCm(p).data![ENGINE_FILES.runtime]);
    expect(settings.master.env.JDK_JAVA_OPTIONS).toContain('--add-opens');
    expect(settings.master.command.some((a: string) => a.startsWith('--add-'))).toBe(false);
  });

  test('phone-home is off for both roles', () => {
    expect(env(main(workerPod(p)), 'HZ_PHONE_HOME_ENABLED')!.value).toBe('false');
    expect(JSON.parse(engineCm(p).data![ENGINE_FILES.runtime]).master.env.HZ_PHONE_HOME_ENABLED).toBe('false');
  });

  test('REST v1 (SeaTunnel 2.3.x) on the master member port; workers serve only CLUSTER_READ (telemetry), and nothing with metrics off', () => {
    expect(yaml(p, ENGINE_FILES.masterHazelcast).hazelcast.network['rest-api']).toEqual(MASTER_REST);
    expect(yaml(p, ENGINE_FILES.workerHazelcast).hazelcast.network['rest-api']).toEqual(WORKER_METRICS_REST);
    const off = plan({ metricsEnabled: false });
    expect(yaml(off, ENGINE_FILES.masterHazelcast).hazelcast.network['rest-api']).toEqual(MASTER_REST);
    expect(yaml(off, ENGINE_FILES.workerHazelcast).hazelcast.network['rest-api']).toEqual({ enabled: false });
  });

  test("Zeta's telemetry follows application.metrics.enabled on both roles; REST v2 stays off on workers", () => {
    const telemetry = (q: ReturnType<typeof plan>, f: string) => yaml(q, f).seatunnel.engine.telemetry.metric.enabled;
    for (const f of [ENGINE_FILES.masterEngine, ENGINE_FILES.workerEngine]) {
      expect(telemetry(p, f)).toBe(true);
      expect(telemetry(plan({ metricsEnabled: false }), f)).toBe(false);
    }
    expect(yaml(p, ENGINE_FILES.workerEngine).seatunnel.engine.http['enable-http']).toBe(false);
  });

  test('the user cannot shadow them', () => {
    expect(problems(() => plan({ env: { JDK_JAVA_OPTIONS: '-Dx' } }))).toEqual([
      'env.JDK_JAVA_OPTIONS: the variable is set by this tool for the runtime; choose another name',
    ]);
  });

  test("a writable work directory on the master role's Pods: the completed engine files, Zeta's logs", () => {
    expect(mountAt(main(masterPod(p)), PATHS.workDir)).toEqual({
      name: 'seatunnel-app-work',
      mountPath: PATHS.workDir,
    });
    expect(masterPod(p).volumes).toContainEqual({ name: 'seatunnel-app-work', emptyDir: {} });
    expect(mountAt(main(workerPod(p)), PATHS.workDir)).toBeUndefined();
  });
});
