import { plan } from '../../support/fixtures';
import { main, masterPod, mountAt, volume, workerPod } from './helpers';

test('the checkpoint PVC is mounted read-write on the master only, and never owned', () => {
  const p = plan({ checkpointPvc: 'ckpt' });
  expect(volume(masterPod(p), 'checkpoints')).toEqual({
    name: 'checkpoints',
    persistentVolumeClaim: { claimName: 'ckpt', readOnly: false },
  });
  expect(mountAt(main(masterPod(p)), '/opt/seatunnel/checkpoints')).toEqual({
    name: 'checkpoints',
    mountPath: '/opt/seatunnel/checkpoints',
  });
  expect(volume(workerPod(p), 'checkpoints')).toBeUndefined();
  expect(JSON.stringify([...p.configMaps, ...p.secrets, p.service])).not.toContain('PersistentVolumeClaim');
});

test('no volume without a PVC', () => {
  expect(volume(masterPod(plan()), 'checkpoints')).toBeUndefined();
});
