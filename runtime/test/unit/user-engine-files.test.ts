// The engine files a Pod writes at start from kubernetes.config-map: the master's runtime and a
// worker's init container run writeEngineFiles over the mounted engine ConfigMap (generated files
// and user-files.json) and the mounted user ConfigMap.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parse } from 'yaml';
import { ENGINE_FILES } from 'seatunnel-app/internal/engine/files';
import { buildPlan } from 'seatunnel-app/internal/plan/build-plan';
import { spec } from '../../../test/support/fixtures';
import { writeEngineFiles } from '../../src/engine/config-files';
import { RuntimeFailure } from '../../src/outcome';
import { STOCK_CONFIG_2_3_8 } from '../../../test/support/seatunnel-stock-config';

function pod(userFiles: Record<string, string>) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'st-user-files-'));
  const dirs = { engine: path.join(root, 'engine'), user: path.join(root, 'config'), out: path.join(root, 'out') };
  const plan = buildPlan(spec({ runtimeConfigMap: 'seatunnel-config', workerSlots: 4 }));
  const engineCm = plan.configMaps.find((c) => c.metadata.name?.endsWith('-engine'))!;
  for (const [dir, files] of [
    [dirs.engine, engineCm.data!],
    [dirs.user, userFiles],
  ] as const) {
    fs.mkdirSync(dir);
    for (const [name, content] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), content);
  }
  return dirs;
}

const USER = {
  'seatunnel.yaml': 'seatunnel:\n  engine:\n    checkpoint:\n      interval: 30000\n',
  'hazelcast.yaml': 'hazelcast:\n  properties:\n    hazelcast.max.no.heartbeat.seconds: 99\n',
  'log4j2.properties': 'rootLogger.level = WARN\n',
};

test("the master's files: the user's settings, the invariants, the Pod IP completed", () => {
  const d = pod(USER);
  writeEngineFiles(d.engine, d.out, '10.1.2.3', d.user);
  const engine = parse(fs.readFileSync(path.join(d.out, ENGINE_FILES.masterEngine), 'utf8')).seatunnel.engine;
  expect(engine.checkpoint.interval).toBe(30000);
  expect(engine['backup-count']).toBe(0);
  const hz = parse(fs.readFileSync(path.join(d.out, ENGINE_FILES.masterHazelcast), 'utf8')).hazelcast;
  expect(hz.properties['hazelcast.max.no.heartbeat.seconds']).toBe(99);
  expect(hz.network['public-address']).toBe('10.1.2.3:5801');
  expect(fs.readFileSync(path.join(d.out, ENGINE_FILES.log4j2), 'utf8')).toBe(USER['log4j2.properties']);
  const worker = parse(fs.readFileSync(path.join(d.out, ENGINE_FILES.workerEngine), 'utf8')).seatunnel.engine;
  expect(worker['slot-service']).toEqual({ 'dynamic-slot': false, 'slot-num': 4 });
});

test('a ConfigMap changed after submit into a conflict, or missing a file, fails the start with InvalidSettings naming it', () => {
  const d = pod({ ...USER, 'seatunnel.yaml': 'seatunnel:\n  engine:\n    backup-count: 2\n' });
  expect(() => writeEngineFiles(d.engine, d.out, '10.1.2.3', d.user)).toThrow(
    expect.objectContaining({
      reason: 'InvalidSettings',
      message: expect.stringMatching(
        /ConfigMap seatunnel-config file seatunnel\.yaml: seatunnel\.engine\.backup-count is 2/,
      ),
    }),
  );
  const e = pod({ 'seatunnel.yaml': USER['seatunnel.yaml'] });
  let caught: unknown;
  try {
    writeEngineFiles(e.engine, e.out, '10.1.2.3', e.user);
  } catch (x) {
    caught = x;
  }
  expect(caught).toBeInstanceOf(RuntimeFailure);
  expect((caught as Error).message).toMatch(/has no "hazelcast-master\.yaml" or "hazelcast\.yaml"/);
  expect(fs.existsSync(e.out)).toBe(false);
});

test("SeaTunnel's own config directory: written with application mode's values, the replaced defaults returned for the log", () => {
  const d = pod({
    ...STOCK_CONFIG_2_3_8,
    jvm_worker_options: `${STOCK_CONFIG_2_3_8.jvm_worker_options}-Dapp.mark=worker\n`,
  });
  const { notices } = writeEngineFiles(d.engine, d.out, '10.1.2.3', d.user);
  expect(notices.map((n) => `${n.file} ${n.key}`)).toEqual(
    expect.arrayContaining([
      'hazelcast-master.yaml hazelcast.cluster-name',
      'seatunnel.yaml seatunnel.engine.backup-count',
      'jvm_worker_options -Xmx',
    ]),
  );
  const hz = parse(fs.readFileSync(path.join(d.out, ENGINE_FILES.masterHazelcast), 'utf8')).hazelcast;
  expect(hz.network.join['tcp-ip']['member-list']).toEqual(['10.1.2.3:5801']);
  const jvm = fs.readFileSync(path.join(d.out, ENGINE_FILES.workerJvm), 'utf8').trim().split('\n');
  expect(jvm).toContain('-Dapp.mark=worker');
  expect(jvm).not.toContain('-Xmx2g');
  expect(jvm.filter((f) => f.startsWith('-Xmx'))).toHaveLength(1);
});
