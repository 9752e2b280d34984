import { plan } from '../../support/fixtures';
import { masterPod, workerPod } from './helpers';

test('node selectors and tolerations per role', () => {
  const p = plan({
    masterNodeSelector: { pool: 'control' },
    workerNodeSelector: { pool: 'batch' },
    workerTolerations: [{ key: 'dedicated', value: 'st', effect: 'NoSchedule' }],
  });
  expect(masterPod(p).nodeSelector).toEqual({ pool: 'control' });
  expect(masterPod(p).tolerations).toBeUndefined();
  expect(workerPod(p).nodeSelector).toEqual({ pool: 'batch' });
  expect(workerPod(p).tolerations).toEqual([
    { key: 'dedicated', operator: 'Equal', value: 'st', effect: 'NoSchedule' },
  ]);
});

test('no scheduling fields when none are configured', () => {
  const p = plan();
  expect(masterPod(p).nodeSelector).toBeUndefined();
  expect(workerPod(p).tolerations).toBeUndefined();
});
