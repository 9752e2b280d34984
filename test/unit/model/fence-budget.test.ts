// The model refuses a worker the admission fence's floor could not check (lib/model/rules/fence-budget.ts):
// here the volumes, each checked in its own expression (lib/plan/fence-cel.ts), bounded by the slots.

import { FENCE_REFERENCE_SLOTS } from '../../../lib/model/rules/fence-budget';
import { plan, problems, spec } from '../../support/fixtures';
import { workerPod } from '../plan/helpers';

/** `n` ConfigMap entries, each mounting one file on the workers (and the master). */
const entries = (n: number) =>
  Object.fromEntries(
    Array.from({ length: n }, (_, i) => [
      `e${i}`,
      { ref: `cm${i}`, mounts: { 'a.properties': `/etc/e${i}/a.properties` }, roles: ['master', 'worker'] as const },
    ]),
  );

describe("a worker's volumes and the fence's slots", () => {
  test.each([
    ['without kubernetes.config-map', {}, 10],
    ['with kubernetes.config-map', { runtimeConfigMap: 'engine-files' }, 7],
    [
      'with kubernetes.config-map, runtime embedded',
      { runtimeConfigMap: 'engine-files', runtimeMode: 'embedded' as const },
      8,
    ],
  ])(
    '%s: as many entries as leave the worker at the slots are fine, and the plan has exactly that many volumes',
    (_, extra, n) => {
      const p = plan({ ...extra, configMaps: entries(n) });
      expect(workerPod(p).volumes).toHaveLength(FENCE_REFERENCE_SLOTS.volumes);
      expect(problems(() => spec({ ...extra, configMaps: entries(n + 1) }))).toEqual([
        expect.stringMatching(
          new RegExp(
            `^configMaps / secrets: at most ${n} entries may mount files on the workers .* ${n + 1} do: with admissionFence on`,
          ),
        ),
      ]);
    },
  );

  test('Secret entries count too; entries mounted on the master only, or the fence off, do not', () => {
    const secrets = { s: { ref: 'tls', mounts: { 'ks.jks': '/etc/tls/ks.jks' }, roles: ['worker'] as const } };
    expect(problems(() => spec({ configMaps: entries(10), secrets }))).toHaveLength(1);
    const masterOnly = { m: { ref: 'm', mounts: { x: '/etc/m/x' }, roles: ['master'] as const } };
    expect(() => spec({ configMaps: { ...entries(10), ...masterOnly } })).not.toThrow();
    expect(() => spec({ configMaps: entries(11), admissionFence: false })).not.toThrow();
  });
});
