// kubernetes.config-map: the user's SeaTunnel config directory as a referenced ConfigMap, its
// mounts, the rules the plan writes for the engines, and the overlay of the user's files with the
// invariants of application mode (the pure functions submit, the master and the workers share).

import { parse } from 'yaml';
import { ENGINE_FILES, renderEngineFiles } from '../../../lib/engine/files';
import { overlayUserFiles, USER_FILES_MANIFEST, userFilesManifest, type UserFilesManifest } from '../../../lib/engine/user-files';
import { readDeploymentOptions } from '../../../lib/model/deployment';
import { ENV } from '../../../lib/model/reserved';
import { PATHS } from '../../../lib/model/spec';
import { referencedObjects, runtimeConfigMapProblems } from '../../../lib/submit/references';
import { plan, problems, spec } from '../../support/fixtures';
import { env, main, masterPod, mountAt, volume, workerPod } from './helpers';

const CM = 'seatunnel-config';
const SEATUNNEL_YAML = `seatunnel:
  engine:
    backup-count: 0
    checkpoint:
      interval: 7000
      storage:
        type: hdfs
        plugin-config:
          namespace: /data/checkpoints/
`;
const HAZELCAST_YAML = `hazelcast:
  properties:
    hazelcast.logging.type: log4j2
    hazelcast.max.no.heartbeat.seconds: 300
`;
const LOG4J2 = 'rootLogger.level = DEBUG\n';
const complete = { 'seatunnel.yaml': SEATUNNEL_YAML, 'hazelcast.yaml': HAZELCAST_YAML, 'log4j2.properties': LOG4J2 };

function overlay(files: Record<string, string>, extra: Parameters<typeof spec>[0] = {}) {
  const s = spec({ runtimeConfigMap: CM, workerSlots: 3, ...extra });
  return overlayUserFiles(userFilesManifest(s)!, files, renderEngineFiles(s).files);
}

describe('kubernetes.config-map: the option', () => {
  test('is a known key (no did-you-mean), read as the runtimeConfigMap prop', () => {
    const r = readDeploymentOptions({ deploymentText: `kubernetes { image = x, config-map = ${CM} }` });
    expect(r.issues).toEqual([]);
    expect(r.props.runtimeConfigMap).toBe(CM);
  });

  test('a name that is not a DNS-1123 subdomain is refused', () => {
    expect(problems(() => spec({ runtimeConfigMap: 'Not_A_Name' })).join('\n')).toMatch(/runtimeConfigMap|config-map/);
  });

  test('a ConfigMap entry may not mount into <seatunnel-home>/config while the runtime ConfigMap is there', () => {
    const entry = { configMaps: { extra: { ref: 'x', mounts: { 'a.yaml': '/opt/seatunnel/config/a.yaml' } } } };
    expect(problems(() => spec({ runtimeConfigMap: CM, ...entry })).join('\n')).toMatch(/lies inside \/opt\/seatunnel\/config \(kubernetes\.config-map\)/);
    expect(() => spec(entry)).not.toThrow();
  });
});

describe('kubernetes.config-map: the plan', () => {
  const p = plan({ runtimeConfigMap: CM });

  test('mounted read-only at <seatunnel-home>/config on the master and the workers, never created', () => {
    for (const pod of [masterPod(p), workerPod(p)]) {
      expect(volume(pod, 'seatunnel-config')?.configMap?.name).toBe(CM);
      expect(mountAt(main(pod), '/opt/seatunnel/config')).toMatchObject({ name: 'seatunnel-config', readOnly: true });
    }
    expect(p.configMaps.map((c) => c.metadata.name)).not.toContain(CM);
    expect(plan({ runtimeConfigMap: CM, seatunnelHome: '/srv/st' }).job.spec!.template.spec!.containers[0].volumeMounts).toContainEqual(
      expect.objectContaining({ mountPath: '/srv/st/config' }),
    );
  });

  test('the master is told where it is; a worker init container makes the worker files that Zeta reads', () => {
    expect(env(main(masterPod(p)), ENV.userConfigDir)?.value).toBe('/opt/seatunnel/config');
    const init = workerPod(p).initContainers!.find((c) => c.name === 'engine-files')!;
    expect(init.command!.slice(2)).toEqual(['engine-files', PATHS.engineConfig, '/opt/seatunnel/config', `${PATHS.workDir}/engine`]);
    expect(main(workerPod(p)).command).toContain(`-Dseatunnel.config=${PATHS.workDir}/engine/${ENGINE_FILES.workerEngine}`);
    expect(mountAt(main(workerPod(p)), `${PATHS.workDir}/engine`)).toMatchObject({ readOnly: true });
  });

  test('without it nothing changes: no mount, no init container, no rules', () => {
    const q = plan();
    expect(volume(workerPod(q), 'seatunnel-config')).toBeUndefined();
    expect(workerPod(q).initContainers ?? []).toEqual([]);
    expect(q.configMaps[0].data![USER_FILES_MANIFEST]).toBeUndefined();
  });

  test('the rules cover only generated files: runtime-files supplies or disables the others', () => {
    const rules = (extra: Parameters<typeof spec>[0]) => userFilesManifest(spec({ runtimeConfigMap: CM, ...extra }))!.rules.map((r) => r.target);
    expect(rules({})).toEqual([
      ENGINE_FILES.masterEngine,
      ENGINE_FILES.masterHazelcast,
      ENGINE_FILES.workerEngine,
      ENGINE_FILES.workerHazelcast,
      ENGINE_FILES.log4j2,
    ]);
    expect(rules({ runtimeFiles: { engine: { content: 'seatunnel: {}\n' }, log4j2: { enabled: false } } })).toEqual([
      ENGINE_FILES.masterHazelcast,
      ENGINE_FILES.workerHazelcast,
    ]);
    const manifest = JSON.parse(p.configMaps[0].data![USER_FILES_MANIFEST]) as UserFilesManifest;
    expect(manifest).toMatchObject({ configMap: CM, dir: '/opt/seatunnel/config' });
  });

  test('the ConfigMap is a reference that submit and preflight check', () => {
    expect(referencedObjects(spec({ runtimeConfigMap: CM }))).toContainEqual(
      expect.objectContaining({ option: 'kubernetes.config-map', ref: expect.objectContaining({ kind: 'ConfigMap', name: CM }) }),
    );
  });
});

describe('kubernetes.config-map: user files merged with the invariants', () => {
  test("the user's settings take effect; the invariants are set on top", () => {
    const { files, problems: found } = overlay(complete);
    expect(found).toEqual([]);
    const master = parse(files[ENGINE_FILES.masterEngine]).seatunnel.engine;
    const worker = parse(files[ENGINE_FILES.workerEngine]).seatunnel.engine;
    expect(master.checkpoint.interval).toBe(7000);
    expect(master.checkpoint.storage['plugin-config'].namespace).toBe('/data/checkpoints/');
    expect(master.http).toMatchObject({ 'enable-http': true, port: 8080 });
    expect(worker['slot-service']).toEqual({ 'dynamic-slot': false, 'slot-num': 3 });
    const hz = parse(files[ENGINE_FILES.workerHazelcast]).hazelcast;
    expect(hz.properties['hazelcast.max.no.heartbeat.seconds']).toBe(300);
    expect(hz['cluster-name']).toMatch(/^seatunnel-application-/);
    expect(hz.network.port).toEqual({ 'auto-increment': false, port: 5802 });
    expect(files[ENGINE_FILES.log4j2]).toBe(LOG4J2);
  });

  test('a per-role Hazelcast file wins over hazelcast.yaml', () => {
    const { files } = overlay({ ...complete, 'hazelcast-master.yaml': 'hazelcast:\n  properties:\n    hazelcast.max.no.heartbeat.seconds: 42\n' });
    expect(parse(files[ENGINE_FILES.masterHazelcast]).hazelcast.properties['hazelcast.max.no.heartbeat.seconds']).toBe(42);
    expect(parse(files[ENGINE_FILES.workerHazelcast]).hazelcast.properties['hazelcast.max.no.heartbeat.seconds']).toBe(300);
  });

  test('every missing required file is reported together, naming the ConfigMap', () => {
    const msgs = overlay({ jvm_options: '-Xss1m\n' }).problems.map((p) => p.message);
    expect(msgs).toEqual([
      expect.stringMatching(/ConfigMap seatunnel-config has no "seatunnel\.yaml" \(the engine reads it as seatunnel-master\.yaml/),
      expect.stringMatching(/has no "hazelcast-master\.yaml" or "hazelcast\.yaml"/),
      expect.stringMatching(/has no "seatunnel\.yaml" \(the engine reads it as seatunnel-worker\.yaml/),
      expect.stringMatching(/has no "hazelcast-worker\.yaml" or "hazelcast\.yaml"/),
      expect.stringMatching(/has no "log4j2\.properties"/),
    ]);
    expect(overlay({ 'hazelcast.yaml': HAZELCAST_YAML }, { runtimeFiles: { engine: { enabled: false }, log4j2: { enabled: false } } }).problems).toEqual([]);
  });

  test('an invariant set to another value is refused: ConfigMap, file, key, value and why', () => {
    const msgs = overlay({
      ...complete,
      'seatunnel.yaml': 'seatunnel:\n  engine:\n    backup-count: 2\n    slot-service:\n      dynamic-slot: true\n',
    }).problems.map((p) => p.message);
    expect(msgs).toEqual([
      'kubernetes.config-map: ConfigMap seatunnel-config file seatunnel.yaml: seatunnel.engine.backup-count is 2, but application mode sets it to 0 (one master without HA keeps no partition backups); remove it from the file',
      'kubernetes.config-map: ConfigMap seatunnel-config file seatunnel.yaml: seatunnel.engine.slot-service.dynamic-slot is true, but application mode sets it to false (workers provide fixed slots); remove it from the file',
    ]);
  });

  test('an invariant set to the value application mode uses is accepted', () => {
    expect(overlay({ ...complete, 'seatunnel.yaml': 'seatunnel:\n  engine:\n    backup-count: 0\n    slot-service:\n      slot-num: 3\n' }).problems).toEqual(
      [],
    );
  });

  test("Hazelcast: cluster name and member list are application mode's; other discovery is refused", () => {
    const msgs = overlay({
      ...complete,
      'hazelcast.yaml': 'hazelcast:\n  cluster-name: seatunnel\n  network:\n    join:\n      multicast:\n        enabled: true\n',
    }).problems.map((p) => p.message);
    expect(msgs).toEqual([
      expect.stringMatching(
        /file hazelcast\.yaml: hazelcast\.cluster-name is "seatunnel", but application mode sets it to "seatunnel-application-.*" \(keeps applications apart\)/,
      ),
      expect.stringMatching(/file hazelcast\.yaml: hazelcast\.network\.join\.multicast\.enabled is true, but application mode sets it to false/),
      expect.stringMatching(/file hazelcast\.yaml: hazelcast\.network\.join\.multicast\.enabled: true is refused: members join only by tcp-ip/),
    ]);
  });

  test('a file that is not YAML is named', () => {
    expect(overlay({ ...complete, 'seatunnel.yaml': 'a: [' }).problems[0].message).toMatch(/ConfigMap seatunnel-config file seatunnel\.yaml is not valid YAML/);
  });

  test('submit and preflight report the same problems from the object they read', () => {
    const s = spec({ runtimeConfigMap: CM });
    const ref = { apiVersion: 'v1', kind: 'ConfigMap', namespace: s.namespace, name: CM };
    expect(runtimeConfigMapProblems(s, ref, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: CM }, data: complete })).toEqual([]);
    const found = runtimeConfigMapProblems(s, ref, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: CM }, data: { 'log4j2.properties': LOG4J2 } });
    expect(found.map((p) => p.option)).toEqual(['kubernetes.config-map', 'kubernetes.config-map', 'kubernetes.config-map', 'kubernetes.config-map']);
  });
});

describe('kubernetes.config-map with high availability', () => {
  const REMOTE = `seatunnel:\n  engine:\n    checkpoint:\n      storage:\n        type: hdfs\n        plugin-config:\n          fs.defaultFS: hdfs://namenode:9000\n`;
  const ha = { runtimeConfigMap: CM, haEnabled: true } as const;

  test('the masters complete their engine files as the workers do and run Zeta on them', () => {
    const p = plan({ ...ha, checkpointPvc: 'shared' });
    const masters = p.masters!.spec!.template.spec!;
    const workerInit = workerPod(p).initContainers!.find((c) => c.name === 'engine-files')!;
    expect(masters.initContainers).toEqual([workerInit]);
    expect(volume(masters, 'seatunnel-engine-files')).toEqual({ name: 'seatunnel-engine-files', emptyDir: {} });
    expect(volume(masters, 'seatunnel-config')?.configMap?.name).toBe(CM);
    expect(mountAt(main(masters), `${PATHS.workDir}/engine`)).toMatchObject({ name: 'seatunnel-engine-files', readOnly: true });
    expect(main(masters).command).toContain(`-Dseatunnel.config=${PATHS.workDir}/engine/${ENGINE_FILES.masterEngine}`);
    // Only the runtime reads it, and the masters have none.
    expect(env(main(masters), ENV.userConfigDir)).toBeUndefined();
  });

  test('without it the HA masters read the generated files and have no init container', () => {
    const masters = plan({ haEnabled: true, checkpointPvc: 'shared' }).masters!.spec!.template.spec!;
    expect(masters.initContainers).toBeUndefined();
    expect(main(masters).command).toContain(`-Dseatunnel.config=${PATHS.engineConfig}/${ENGINE_FILES.masterEngine}`);
  });

  test("the checkpoint storage is checked in the ConfigMap's seatunnel.yaml when no shared claim is given", () => {
    const s = spec(ha);
    const ref = { apiVersion: 'v1', kind: 'ConfigMap', namespace: s.namespace, name: CM };
    const check = (seatunnelYaml: string) =>
      runtimeConfigMapProblems(s, ref, {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: CM },
        data: { ...complete, 'seatunnel.yaml': seatunnelYaml },
      }).map((p) => p.message);
    expect(check(REMOTE)).toEqual([]);
    expect(check('seatunnel:\n  engine:\n    checkpoint:\n      interval: 7000\n')).toEqual([
      expect.stringMatching(/^high availability needs checkpoint storage every master reaches: .*in ConfigMap seatunnel-config's seatunnel\.yaml/),
    ]);
    expect(check(REMOTE.replace('hdfs://namenode:9000', 'file:///tmp/cp'))).toEqual([
      expect.stringMatching(/ConfigMap seatunnel-config's seatunnel\.yaml says file:\/\/\/tmp\/cp\)$/),
    ]);
    // A shared claim settles it, whatever the file says.
    expect(
      runtimeConfigMapProblems(spec({ ...ha, checkpointPvc: 'shared' }), ref, {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: CM },
        data: { ...complete, 'seatunnel.yaml': 'seatunnel: {}\n' },
      }),
    ).toEqual([]);
  });
});
