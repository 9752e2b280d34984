import { kubeletExpand } from '../../../tools/local-stack/kubelet-expansion';
// kubernetes.config-map: the user's SeaTunnel config directory as a referenced ConfigMap, its
// mounts, the rules the plan writes for the engines, and the overlay of the user's files with the
// invariants of application mode (the pure functions submit, the master and the workers share).

import { parse } from 'yaml';
import { classDataArchive, ZETA_LAUNCHER, zetaJavaArgv } from '../../../lib/engine/command';
import { baseJvmOptions, ENGINE_FILES, MASTER_HOST_PLACEHOLDER, renderEngineFiles } from '../../../lib/engine/files';
import {
  overlayUserFiles,
  USER_FILES_MANIFEST,
  userFilesManifest,
  type UserFilesManifest,
} from '../../../lib/engine/user-files';
import { readDeploymentOptions } from '../../../lib/model/deployment';
import { ENV } from '../../../lib/model/reserved';
import { PATHS } from '../../../lib/model/spec';
import { referencedObjects, runtimeConfigMapProblems } from '../../../lib/submit/admit/references';
import { plan, problems, spec } from '../../support/fixtures';
import {
  STOCK_CONFIG_2_3_8,
  STOCK_HAZELCAST_MASTER_YAML,
  STOCK_HAZELCAST_WORKER_YAML,
  STOCK_SEATUNNEL_YAML,
} from '../../support/seatunnel-stock-config';
import { env, main, MASTER_REST, masterPod, mountAt, volume, WORKER_METRICS_REST, workerPod } from './helpers';

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
    expect(problems(() => spec({ runtimeConfigMap: CM, ...entry })).join('\n')).toMatch(
      /lies inside \/opt\/seatunnel\/config \(kubernetes\.config-map\)/,
    );
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
    expect(
      plan({ runtimeConfigMap: CM, seatunnelHome: '/srv/st' }).job.spec!.template.spec!.containers[0].volumeMounts,
    ).toContainEqual(expect.objectContaining({ mountPath: '/srv/st/config' }));
  });

  test('the master is told where it is; a worker init container makes the worker files that Zeta reads', () => {
    expect(env(main(masterPod(p)), ENV.userConfigDir)?.value).toBe('/opt/seatunnel/config');
    const init = workerPod(p).initContainers!.find((c) => c.name === 'engine-files')!;
    expect(init.command!.slice(2)).toEqual([
      'engine-files',
      PATHS.engineConfig,
      '/opt/seatunnel/config',
      `${PATHS.workDir}/engine`,
    ]);
    expect(main(workerPod(p)).command).toContain(
      `-Dseatunnel.config=${PATHS.workDir}/engine/${ENGINE_FILES.workerEngine}`,
    );
    expect(mountAt(main(workerPod(p)), `${PATHS.workDir}/engine`)).toMatchObject({ readOnly: true });
  });

  test('without it nothing changes: no mount, no init container, no rules', () => {
    const q = plan();
    expect(volume(workerPod(q), 'seatunnel-config')).toBeUndefined();
    expect(workerPod(q).initContainers ?? []).toEqual([]);
    expect(q.configMaps[0].data![USER_FILES_MANIFEST]).toBeUndefined();
  });

  test('the rules cover only generated files (runtime-files supplies or disables the others); JVM files unless jvm-options is disabled', () => {
    const rules = (extra: Parameters<typeof spec>[0]) =>
      userFilesManifest(spec({ runtimeConfigMap: CM, ...extra }))!.rules.map((r) => r.target);
    expect(rules({})).toEqual([
      ENGINE_FILES.masterEngine,
      ENGINE_FILES.masterHazelcast,
      ENGINE_FILES.workerEngine,
      ENGINE_FILES.workerHazelcast,
      ENGINE_FILES.masterJvm,
      ENGINE_FILES.workerJvm,
      ENGINE_FILES.log4j2,
    ]);
    expect(
      rules({
        runtimeFiles: {
          engine: { content: 'seatunnel: {}\n' },
          log4j2: { enabled: false },
          jvmOptions: { content: '-Dx=1\n' },
        },
      }),
    ).toEqual([
      ENGINE_FILES.masterHazelcast,
      ENGINE_FILES.workerHazelcast,
      ENGINE_FILES.masterJvm,
      ENGINE_FILES.workerJvm,
    ]);
    expect(rules({ runtimeFiles: { jvmOptions: { enabled: false } } })).not.toContain(ENGINE_FILES.workerJvm);
    const manifest = JSON.parse(p.configMaps[0].data![USER_FILES_MANIFEST]) as UserFilesManifest;
    expect(manifest).toMatchObject({ configMap: CM, dir: '/opt/seatunnel/config' });
  });

  test('the ConfigMap is a reference that submit and preflight check', () => {
    expect(referencedObjects(spec({ runtimeConfigMap: CM }))).toContainEqual(
      expect.objectContaining({
        option: 'kubernetes.config-map',
        ref: expect.objectContaining({ kind: 'ConfigMap', name: CM }),
      }),
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
    const { files } = overlay({
      ...complete,
      'hazelcast-master.yaml': 'hazelcast:\n  properties:\n    hazelcast.max.no.heartbeat.seconds: 42\n',
    });
    expect(parse(files[ENGINE_FILES.masterHazelcast]).hazelcast.properties['hazelcast.max.no.heartbeat.seconds']).toBe(
      42,
    );
    expect(parse(files[ENGINE_FILES.workerHazelcast]).hazelcast.properties['hazelcast.max.no.heartbeat.seconds']).toBe(
      300,
    );
  });

  test('every missing required file is reported together, naming the ConfigMap', () => {
    const msgs = overlay({ jvm_options: '-Xss1m\n' }).problems.map((p) => p.message);
    expect(msgs).toEqual([
      expect.stringMatching(
        /ConfigMap seatunnel-config has no "seatunnel\.yaml" \(the engine reads it as seatunnel-master\.yaml/,
      ),
      expect.stringMatching(/has no "hazelcast-master\.yaml" or "hazelcast\.yaml"/),
      expect.stringMatching(/has no "seatunnel\.yaml" \(the engine reads it as seatunnel-worker\.yaml/),
      expect.stringMatching(/has no "hazelcast-worker\.yaml" or "hazelcast\.yaml"/),
      expect.stringMatching(/has no "log4j2\.properties"/),
    ]);
    expect(
      overlay(
        { 'hazelcast.yaml': HAZELCAST_YAML },
        { runtimeFiles: { engine: { enabled: false }, log4j2: { enabled: false } } },
      ).problems,
    ).toEqual([]);
  });

  test('an invariant set to another value is refused: ConfigMap, file, key, value and why', () => {
    const msgs = overlay({
      ...complete,
      'seatunnel.yaml': 'seatunnel:\n  engine:\n    backup-count: 2\n    slot-service:\n      slot-num: 5\n',
    }).problems.map((p) => p.message);
    expect(msgs).toEqual([
      'kubernetes.config-map: ConfigMap seatunnel-config file seatunnel.yaml: seatunnel.engine.backup-count is 2, but application mode sets it to 0 (one master without HA keeps no partition backups); remove it from the file',
      'kubernetes.config-map: ConfigMap seatunnel-config file seatunnel.yaml: seatunnel.engine.slot-service.slot-num is 5, but application mode sets it to 3 (application.worker.slots); remove it from the file',
    ]);
  });

  test('telemetry turned on in the ConfigMap while application.metrics.enabled is false is refused', () => {
    const msgs = overlay(
      {
        ...complete,
        'seatunnel.yaml': 'seatunnel:\n  engine:\n    telemetry:\n      metric:\n        enabled: true\n',
      },
      { metricsEnabled: false },
    ).problems.map((p) => p.message);
    expect(msgs).toEqual([
      expect.stringMatching(
        /^kubernetes\.config-map: ConfigMap seatunnel-config file seatunnel\.yaml: seatunnel\.engine\.telemetry\.metric\.enabled is true, but application mode sets it to false \(application\.metrics\.enabled: .*\); remove it from the file$/,
      ),
    ]);
  });

  test('an invariant set to the value application mode uses is accepted', () => {
    expect(
      overlay({
        ...complete,
        'seatunnel.yaml': 'seatunnel:\n  engine:\n    backup-count: 0\n    slot-service:\n      slot-num: 3\n',
      }).problems,
    ).toEqual([]);
  });

  test("Hazelcast: cluster name and member list are application mode's; other discovery is refused", () => {
    const msgs = overlay({
      ...complete,
      'hazelcast.yaml':
        'hazelcast:\n  cluster-name: production\n  network:\n    join:\n      multicast:\n        enabled: true\n',
    }).problems.map((p) => p.message);
    expect(msgs).toEqual([
      expect.stringMatching(
        /file hazelcast\.yaml: hazelcast\.cluster-name is "production", but application mode sets it to "seatunnel-application-.*" \(keeps applications apart\)/,
      ),
      expect.stringMatching(
        /file hazelcast\.yaml: hazelcast\.network\.join\.multicast\.enabled is true, but application mode sets it to false/,
      ),
      expect.stringMatching(
        /file hazelcast\.yaml: hazelcast\.network\.join\.multicast\.enabled: true is refused: members join only by tcp-ip/,
      ),
    ]);
  });

  test('a file that is not YAML is named', () => {
    expect(overlay({ ...complete, 'seatunnel.yaml': 'a: [' }).problems[0].message).toMatch(
      /ConfigMap seatunnel-config file seatunnel\.yaml is not valid YAML/,
    );
  });

  test('submit and preflight report the same problems from the object they read', () => {
    const s = spec({ runtimeConfigMap: CM });
    const ref = { apiVersion: 'v1', kind: 'ConfigMap', namespace: s.namespace, name: CM };
    expect(
      runtimeConfigMapProblems(s, ref, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: CM }, data: complete }),
    ).toEqual({
      problems: [],
      notices: [],
    });
    const found = runtimeConfigMapProblems(s, ref, {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: CM },
      data: { 'log4j2.properties': LOG4J2 },
    }).problems;
    expect(found.map((p) => p.option)).toEqual([
      'kubernetes.config-map',
      'kubernetes.config-map',
      'kubernetes.config-map',
      'kubernetes.config-map',
    ]);
  });
});

describe('kubernetes.config-map with high availability', () => {
  const REMOTE = `seatunnel:\n  engine:\n    checkpoint:\n      storage:\n        type: hdfs\n        plugin-config:\n          fs.defaultFS: hdfs://namenode:9000\n`;
  const ha = { runtimeConfigMap: CM, haEnabled: true } as const;

  test('the masters complete their engine files as the workers do and run Zeta on them', () => {
    const p = plan({ ...ha, checkpointPvc: 'shared' });
    const masters = p.masters!.spec!.template.spec!;
    const workerInit = workerPod(p).initContainers!;
    expect(masters.initContainers).toEqual(workerInit);
    // The runtime image has no libc: install-runtime copies Node.js and the bundle, and engine-files
    // runs them in the SeaTunnel image, from the runtime's volume (read-only).
    expect(workerInit.map((c) => [c.name, c.image])).toEqual([
      ['install-runtime', 'seatunnel-app-runtime:0.1.0'],
      ['engine-files', p.spec.image],
    ]);
    expect(workerInit[1].command!.slice(0, 2)).toEqual([
      `${PATHS.runtimeDir}/bin/node`,
      `${PATHS.runtimeDir}/runtime.cjs`,
    ]);
    expect(workerInit[1].volumeMounts).toContainEqual({
      name: 'seatunnel-app-runtime',
      mountPath: PATHS.runtimeDir,
      readOnly: true,
    });
    expect(volume(masters, 'seatunnel-app-runtime')).toEqual({ name: 'seatunnel-app-runtime', emptyDir: {} });
    expect(volume(masters, 'seatunnel-engine-files')).toEqual({ name: 'seatunnel-engine-files', emptyDir: {} });
    expect(volume(masters, 'seatunnel-config')?.configMap?.name).toBe(CM);
    expect(mountAt(main(masters), `${PATHS.workDir}/engine`)).toMatchObject({
      name: 'seatunnel-engine-files',
      readOnly: true,
    });
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
      }).problems.map((p) => p.message);
    expect(check(REMOTE)).toEqual([]);
    expect(check('seatunnel:\n  engine:\n    checkpoint:\n      interval: 7000\n')).toEqual([
      expect.stringMatching(
        /^high availability needs checkpoint storage every master reaches: .*in ConfigMap seatunnel-config's seatunnel\.yaml/,
      ),
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
      }).problems,
    ).toEqual([]);
  });
});

describe("kubernetes.config-map: SeaTunnel 2.3.8's own config directory, unchanged", () => {
  const stock = (extra: Parameters<typeof spec>[0] = {}) => overlay({ ...STOCK_CONFIG_2_3_8 }, extra);

  test('is accepted: its shipped defaults of the keys application mode controls are replaced, each with a notice', () => {
    const { problems: found, notices } = stock();
    expect(found).toEqual([]);
    const at = (file: string, key: string) =>
      notices.filter((n) => n.file === file && n.key === key).map((n) => [n.stock, n.applied]);
    expect(at('seatunnel.yaml', 'seatunnel.engine.backup-count')).toEqual([[1, 0]]);
    expect(at('seatunnel.yaml', 'seatunnel.engine.slot-service.dynamic-slot')).toEqual([[true, false]]);
    expect(at('hazelcast-master.yaml', 'hazelcast.cluster-name')).toEqual([
      ['seatunnel', expect.stringMatching(/^seatunnel-application-/)],
    ]);
    expect(at('hazelcast-master.yaml', 'hazelcast.network.join.tcp-ip.member-list')).toEqual([
      [['localhost:5801', 'localhost:5802'], [`${MASTER_HOST_PLACEHOLDER}:5801`]],
    ]);
    expect(at('hazelcast-worker.yaml', 'hazelcast.network.join.tcp-ip.member-list')).toEqual([
      [['localhost:5801', 'localhost:5802'], []],
    ]);
    // The master's REST block states CLUSTER_READ (Hazelcast's default), which the runtime's /metrics reads.
    expect(at('hazelcast-master.yaml', 'hazelcast.network.rest-api')).toEqual([
      [
        { enabled: true, 'endpoint-groups': { CLUSTER_WRITE: { enabled: true }, DATA: { enabled: true } } },
        MASTER_REST,
      ],
    ]);
    // Telemetry is shipped off; application.metrics.enabled turns it on.
    expect(at('seatunnel.yaml', 'seatunnel.engine.telemetry.metric.enabled')).toEqual([[false, true]]);
    expect(
      stock({ metricsEnabled: false }).notices.filter((n) => n.key === 'seatunnel.engine.telemetry.metric.enabled'),
    ).toEqual([]);
    expect(at('jvm_worker_options', '-Xmx')).toEqual([['-Xmx2g', expect.stringMatching(/^-Xmx\d+m$/)]]);
    expect(at('jvm_master_options', '-XX:MaxMetaspaceSize')).toEqual([
      ['-XX:MaxMetaspaceSize=2g', '-XX:MaxMetaspaceSize=256m'],
    ]);
    // The same notice from both roles' files is listed once.
    expect(new Set(notices.map((n) => n.message)).size).toBe(notices.length);
    expect(notices.find((n) => n.key === 'hazelcast.cluster-name')!.message).toBe(
      `kubernetes.config-map: ConfigMap seatunnel-config file hazelcast-master.yaml: hazelcast.cluster-name is "seatunnel", SeaTunnel's shipped default; application mode applies "${notices.find((n) => n.key === 'hazelcast.cluster-name')!.applied as string}" instead (keeps applications apart)`,
    );
    expect(notices.find((n) => n.file === 'hazelcast-master.yaml' && n.key.endsWith('member-list'))!.message).toContain(
      '["<master Pod IP>:5801"]',
    );
  });

  test("the engines run with application mode's values and the rest of the user's files", () => {
    const { files } = stock();
    const master = parse(files[ENGINE_FILES.masterEngine]).seatunnel.engine;
    expect(master['backup-count']).toBe(0);
    expect(master.checkpoint.storage['plugin-config']['fs.defaultFS']).toBe('file:///tmp/');
    expect(master['history-job-expire-minutes']).toBe(1440);
    const hzMaster = parse(files[ENGINE_FILES.masterHazelcast]).hazelcast;
    const hzWorker = parse(files[ENGINE_FILES.workerHazelcast]).hazelcast;
    expect(hzMaster.network['rest-api'].enabled).toBe(true);
    expect(hzWorker.network['rest-api']).toEqual(WORKER_METRICS_REST);
    expect(master.telemetry.metric.enabled).toBe(true);
    expect(hzWorker.network.port).toEqual({ 'auto-increment': false, port: 5802 });
    expect(hzWorker.properties['hazelcast.heartbeat.interval.seconds']).toBe(2);
    expect(files[ENGINE_FILES.log4j2]).toBe(STOCK_CONFIG_2_3_8['log4j2.properties']);
    // The role's JVM file: generated heap and metaspace, then the distribution's other flags.
    expect(files[ENGINE_FILES.workerJvm].trim().split('\n')).toEqual([
      ...baseJvmOptions(spec({ runtimeConfigMap: CM, workerSlots: 3 }), 'worker'),
      '-XX:+HeapDumpOnOutOfMemoryError',
      '-XX:HeapDumpPath=/tmp/seatunnel/dump/zeta-server',
      '-XX:+UseG1GC',
    ]);
    // Files no engine reads are ignored (they stay mounted in <seatunnel-home>/config as they are).
    expect(Object.keys(files).sort()).toEqual(
      [
        ENGINE_FILES.masterEngine,
        ENGINE_FILES.workerEngine,
        ENGINE_FILES.masterHazelcast,
        ENGINE_FILES.workerHazelcast,
        ENGINE_FILES.masterJvm,
        ENGINE_FILES.workerJvm,
        ENGINE_FILES.log4j2,
      ].sort(),
    );
  });

  test("hazelcast.yaml alone (before 2.3.6): its port 5801 and REST are the master's; the worker gets its own, with notices", () => {
    const files = { ...STOCK_CONFIG_2_3_8 };
    delete (files as Record<string, string>)['hazelcast-master.yaml'];
    delete (files as Record<string, string>)['hazelcast-worker.yaml'];
    const out = overlay(files);
    expect(out.problems).toEqual([]);
    const keys = out.notices
      .filter((n) => n.file === 'hazelcast.yaml')
      .map((n) => `${n.key}=${JSON.stringify(n.applied)}`);
    expect(keys).toEqual(
      expect.arrayContaining([
        'hazelcast.network.port.port=5802',
        `hazelcast.network.rest-api=${JSON.stringify(WORKER_METRICS_REST)}`,
        'hazelcast.network.join.tcp-ip.member-list=[]',
      ]),
    );
    expect(keys).not.toContain('hazelcast.network.port.port=5801');
  });

  test('with a checkpoint claim the shipped /tmp namespace gives way to the claim; a chosen namespace stays', () => {
    const pvc = stock({ checkpointPvc: 'cp' });
    expect(
      parse(pvc.files[ENGINE_FILES.masterEngine]).seatunnel.engine.checkpoint.storage['plugin-config'].namespace,
    ).toBe(`${PATHS.checkpoints}/`);
    expect(pvc.notices.map((n) => n.key)).toContain('seatunnel.engine.checkpoint.storage.plugin-config.namespace');
    // Without a claim the shipped directory is the generated one: no notice.
    expect(stock().notices.map((n) => n.key)).not.toContain(
      'seatunnel.engine.checkpoint.storage.plugin-config.namespace',
    );
    const chosen = overlay({ ...STOCK_CONFIG_2_3_8, 'seatunnel.yaml': SEATUNNEL_YAML }, { checkpointPvc: 'cp' });
    expect(
      parse(chosen.files[ENGINE_FILES.masterEngine]).seatunnel.engine.checkpoint.storage['plugin-config'].namespace,
    ).toBe('/data/checkpoints/');
  });

  test('a value the user chose that conflicts stays refused, naming file, key, value and why', () => {
    const msgs = overlay({
      ...STOCK_CONFIG_2_3_8,
      'seatunnel.yaml': STOCK_SEATUNNEL_YAML.replace('backup-count: 1', 'backup-count: 2'),
      'hazelcast-master.yaml': STOCK_HAZELCAST_MASTER_YAML.replace(
        'cluster-name: seatunnel',
        'cluster-name: production',
      ).replace('DATA:', 'HEALTH_CHECK:'),
      'hazelcast-worker.yaml': STOCK_HAZELCAST_WORKER_YAML.replace('port: 5802', 'port: 5810'),
    }).problems.map((p) => p.message);
    expect(msgs).toEqual([
      'kubernetes.config-map: ConfigMap seatunnel-config file seatunnel.yaml: seatunnel.engine.backup-count is 2, but application mode sets it to 0 (one master without HA keeps no partition backups); remove it from the file',
      expect.stringMatching(
        /file hazelcast-master\.yaml: hazelcast\.cluster-name is "production", but application mode sets it to "seatunnel-application-/,
      ),
      expect.stringMatching(/file hazelcast-master\.yaml: hazelcast\.network\.rest-api is refused/),
      'kubernetes.config-map: ConfigMap seatunnel-config file hazelcast-worker.yaml: hazelcast.network.port.port is 5810, but application mode sets it to 5802 (application.worker.port); remove it from the file',
    ]);
  });

  test('HA: the shipped backup-count 1 is what HA applies (no notice); its local checkpoint storage is refused without a shared claim', () => {
    const s = spec({ runtimeConfigMap: CM, haEnabled: true });
    const ref = { apiVersion: 'v1', kind: 'ConfigMap', namespace: s.namespace, name: CM };
    const found = runtimeConfigMapProblems(s, ref, {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: CM },
      data: { ...STOCK_CONFIG_2_3_8 },
    });
    expect(found.problems.map((p) => p.message)).toEqual([
      expect.stringMatching(/^high availability needs checkpoint storage every master reaches/),
    ]);
    expect(found.notices.map((n) => n.message).join('\n')).not.toMatch(/backup-count/);
  });
});

describe('kubernetes.config-map: JVM options files', () => {
  const jvm = (role: 'master' | 'worker', content: string, extra: Parameters<typeof spec>[0] = {}) => {
    const out = overlay({ ...complete, [`jvm_${role}_options`]: content }, extra);
    return {
      ...out,
      flags: out.files[role === 'master' ? ENGINE_FILES.masterJvm : ENGINE_FILES.workerJvm]?.trim().split('\n'),
    };
  };
  const s = spec({ runtimeConfigMap: CM, workerSlots: 3 });

  test("the role's file, else jvm_options, is read: comments and blank lines dropped, a line split as the start script splits it", () => {
    const out = jvm('worker', '# mine\n\n-Dapp.flag=on   -Xss2m\n-XX:+PrintCommandLineFlags\n');
    expect(out.problems).toEqual([]);
    expect(out.flags).toEqual([
      ...baseJvmOptions(s, 'worker'),
      '-Dapp.flag=on',
      '-Xss2m',
      '-XX:+PrintCommandLineFlags',
    ]);
    // No master file: the master keeps the generated flags (its file is not made from the ConfigMap).
    expect(out.files[ENGINE_FILES.masterJvm]).toBeUndefined();
    const shared = overlay({ ...complete, jvm_options: '-Dshared=1\n' }).files;
    expect(shared[ENGINE_FILES.masterJvm]).toContain('-Dshared=1');
    expect(shared[ENGINE_FILES.workerJvm]).toContain('-Dshared=1');
  });

  test('kubernetes.runtime-files.jvm-options comes after the file (the explicit option wins); disabled, nothing is read', () => {
    const out = jvm('worker', '-Dapp.flag=file\n', {
      runtimeFiles: { jvmOptions: { content: '-Dapp.flag=option\n' } },
    });
    expect(out.flags.slice(-2)).toEqual(['-Dapp.flag=file', '-Dapp.flag=option']);
    expect(
      jvm('worker', '-Dapp.flag=file\n', { runtimeFiles: { jvmOptions: { enabled: false } } }).flags,
    ).toBeUndefined();
  });

  test('Hazelcast overrides in a JVM options file of the ConfigMap are refused (issue 27, item 10)', () => {
    const out = jvm('worker', '-Dhz.network.join.multicast.enabled=true\n-Dhazelcast.discovery.enabled=true\n-Dok=1\n');
    expect(out.problems.map((p) => p.message)).toEqual([
      expect.stringMatching(
        /jvm_worker_options: -Dhz\.network\.join\.multicast\.enabled=true is refused: hz\.\* system properties/,
      ),
      expect.stringMatching(/jvm_worker_options: -Dhazelcast\.discovery\.enabled=true is refused: .*member discovery/),
    ]);
  });

  test('a Hazelcast file of the ConfigMap that imports another is refused (issue 27, item 10)', () => {
    const out = overlay({ ...complete, 'hazelcast.yaml': `${HAZELCAST_YAML}  import:\n    - extra.yaml\n` });
    expect(out.problems.map((p) => p.message).join('\n')).toMatch(/hazelcast\.import is refused/);
  });

  test('a heap flag the user chose is refused (memory-mb sizes heap and Pod); so are the properties of the command line', () => {
    const out = jvm(
      'master',
      '-Xmx3g\n-XX:MaxRAMPercentage=90\n-Dseatunnel.config=/elsewhere.yaml\n-XX:MaxMetaspaceSize=512m\n',
    );
    expect(out.problems.map((p) => p.message)).toEqual([
      `kubernetes.config-map: ConfigMap seatunnel-config file jvm_master_options: -Xmx3g is refused: application mode sizes the heap from application.master.memory-mb (-Xms${s.master.heapMiB}m -Xmx${s.master.heapMiB}m), which also sets the Pod's memory limit; remove the line and set application.master.memory-mb instead`,
      expect.stringMatching(/jvm_master_options: -XX:MaxRAMPercentage=90 is refused: application mode sizes the heap/),
      expect.stringMatching(
        /jvm_master_options: -Dseatunnel\.config=\/elsewhere\.yaml is refused: application mode sets seatunnel\.config on the Zeta command line/,
      ),
    ]);
    // A metaspace cap of the user's own is kept, after the generated one (the last wins).
    expect(out.flags.slice(-1)).toEqual(['-XX:MaxMetaspaceSize=512m']);
  });

  test('the Zeta command reads the completed file: a launcher puts its flags in front of the other arguments', () => {
    const p = plan({ runtimeConfigMap: CM });
    // As the kubelet hands it to the container (it expands `$`, which the plan escapes).
    const cmd = main(workerPod(p)).command!.map((a) => kubeletExpand(a, {}));
    const archive = classDataArchive(p.spec.seatunnelHome);
    expect(cmd.slice(0, 6)).toEqual([
      '/bin/sh',
      '-c',
      ZETA_LAUNCHER,
      `${PATHS.workDir}/engine/${ENGINE_FILES.workerJvm}`,
      archive,
      'java',
    ]);
    expect(cmd.some((a) => a.startsWith('-Xmx'))).toBe(false);
    expect(zetaJavaArgv(cmd)[0]).toBe('java');
    // Without the ConfigMap the flags stay on the command line: the launcher gets no file.
    const plain = main(workerPod(plan())).command!.map((a) => kubeletExpand(a, {}));
    expect(plain.slice(0, 6)).toEqual(['/bin/sh', '-c', ZETA_LAUNCHER, '', archive, 'java']);
    expect(zetaJavaArgv(plain).some((a) => a.startsWith('-Xmx'))).toBe(true);
    const noFile = main(
      workerPod(plan({ runtimeConfigMap: CM, runtimeFiles: { jvmOptions: { enabled: false } } })),
    ).command!;
    expect(noFile.slice(3, 6)).toEqual(['', archive, 'java']);
  });
});
