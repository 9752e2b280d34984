import { plan } from '../../support/fixtures';
import { masterPod, workerPod } from './helpers';

const NODE_LOSS = (seconds: number) => [
  { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: seconds },
  { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: seconds },
];

test('node selectors and tolerations per role, then the node-loss tolerations', () => {
  const p = plan({
    masterNodeSelector: { pool: 'control' },
    workerNodeSelector: { pool: 'batch' },
    workerTolerations: [{ key: 'dedicated', value: 'st', effect: 'NoSchedule' }],
  });
  expect(masterPod(p).nodeSelector).toEqual({ pool: 'control' });
  expect(masterPod(p).tolerations).toEqual(NODE_LOSS(30));
  expect(workerPod(p).nodeSelector).toEqual({ pool: 'batch' });
  expect(workerPod(p).tolerations).toEqual([
    { key: 'dedicated', operator: 'Equal', value: 'st', effect: 'NoSchedule' },
    ...NODE_LOSS(30),
  ]);
});

test('no node selector when none is configured; the node-loss tolerations always', () => {
  const p = plan();
  expect(masterPod(p).nodeSelector).toBeUndefined();
  expect(workerPod(p).tolerations).toEqual(NODE_LOSS(30));
});

test('kubernetes.node-loss-toleration-seconds sets how long a Pod stays bound to a lost node', () => {
  const p = plan({ nodeLossTolerationSeconds: 120 });
  expect(masterPod(p).tolerations).toEqual(NODE_LOSS(120));
  expect(workerPod(p).tolerations).toEqual(NODE_LOSS(120));
});

test("a user's own toleration for one of the taints wins; the other is still added", () => {
  const own = {
    key: 'node.kubernetes.io/unreachable',
    operator: 'Exists',
    effect: 'NoExecute',
    tolerationSeconds: 600,
  } as const;
  const p = plan({ workerTolerations: [own] });
  expect(workerPod(p).tolerations).toEqual([own, NODE_LOSS(30)[1]]);
});

test('the HA masters and the coordinator get them too', () => {
  const p = plan({ haEnabled: true, haMasters: 3, checkpointPvc: 'ckpt' });
  expect(p.masters!.spec!.template.spec!.tolerations).toEqual(NODE_LOSS(30));
  expect(p.job.spec!.template.spec!.tolerations).toEqual(NODE_LOSS(30));
});
