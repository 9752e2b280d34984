// runtime.json's check takes its bounds from the option registry: the runtime refuses exactly what
// the model would have refused, so the two cannot drift apart.
import { HA_LIMITS, OPTIONS, type OptionDef } from '../../../lib/model/options';
import { runtimeSettingsProblems, RUNTIME_SETTINGS_VERSION } from '../../../lib/contract';
import { runtimeSettings } from '../../../lib/plan/runtime-settings';
import { plan } from '../../support/fixtures';

const ha = runtimeSettings(plan({ haEnabled: true, haMasters: 3, checkpointPvc: 'ckpt' }).spec);
type Json = Record<string, unknown>;

/** runtime.json field path → the option whose bounds it has. */
const FIELDS: Array<[path: string, prop: keyof typeof OPTIONS]> = [
  ['workerCount', 'workerCount'],
  ['workerSlots', 'workerSlots'],
  ['startupTimeoutMillis', 'startupTimeoutMillis'],
  ['scaleUpGraceMillis', 'scaleUpGraceMillis'],
  ['imagePullRetryMillis', 'imagePullRetryMillis'],
  ['workerJoinTimeoutMillis', 'workerJoinTimeoutMillis'],
  ['apiOutageToleranceMillis', 'apiOutageToleranceMillis'],
  ['ha.workerReplacements', 'haWorkerReplacements'],
  ['ha.coordinatorRestarts', 'haCoordinatorRestarts'],
  ['ha.masters', 'haMasters'],
];

function withValue(path: string, value: number): Json {
  const copy = JSON.parse(JSON.stringify(ha)) as Json;
  const keys = path.split('.');
  let cur = copy;
  for (const k of keys.slice(0, -1)) cur = cur[k] as Json;
  cur[keys[keys.length - 1]] = value;
  // One member address per master.
  if (path === 'ha.masters')
    (copy.ha as Json).masterAddresses = Array.from({ length: value }, (_, i) => `app-master-${i}.app.ns.svc:5801`);
  return copy;
}

test('what the plan writes passes', () => {
  expect(ha.version).toBe(RUNTIME_SETTINGS_VERSION);
  expect(runtimeSettingsProblems(ha)).toEqual([]);
});

test.each(FIELDS)('%s: the bounds of %s, from the registry', (path, prop) => {
  const def = OPTIONS[prop] as OptionDef;
  const min = prop === 'haMasters' ? HA_LIMITS.minMasters : def.min!;
  expect(runtimeSettingsProblems(withValue(path, def.max!))).toEqual([]);
  expect(runtimeSettingsProblems(withValue(path, min))).toEqual([]);
  expect(runtimeSettingsProblems(withValue(path, def.max! + 1))).toEqual([
    `runtime.json ${path}: expected a whole number from ${min} to ${def.max}, got ${def.max! + 1}`,
  ]);
  expect(runtimeSettingsProblems(withValue(path, min - 1))).toHaveLength(1);
});

test('a runtime.json of another version is refused, naming both', () => {
  expect(runtimeSettingsProblems({ ...ha, version: 1 })).toContain(
    `runtime.json version: this runtime reads version ${RUNTIME_SETTINGS_VERSION}, got 1 (runtime image and generator differ)`,
  );
});
