import { plan } from '../../support/fixtures';
import { env, main, masterPod, workerPod } from './helpers';

describe('environment step', () => {
  const p = plan({
    env: {
      LITERAL: 'x',
      FROM_SECRET: { secret: 'db', key: 'password' },
      FROM_CM: { configmap: 'cfg', key: 'k', optional: true },
      VAL: { value: 'v' },
    },
    envFrom: { common: { configmap: 'team-env', prefix: 'TEAM_' }, creds: { secret: 'creds', optional: true } },
  });
  const c = main(masterPod(p));

  test('literal, Secret-key and ConfigMap-key variables on the master', () => {
    expect(env(c, 'LITERAL')).toEqual({ name: 'LITERAL', value: 'x' });
    expect(env(c, 'VAL')).toEqual({ name: 'VAL', value: 'v' });
    expect(env(c, 'FROM_SECRET')).toEqual({
      name: 'FROM_SECRET',
      valueFrom: { secretKeyRef: { name: 'db', key: 'password' } },
    });
    expect(env(c, 'FROM_CM')).toEqual({
      name: 'FROM_CM',
      valueFrom: { configMapKeyRef: { name: 'cfg', key: 'k', optional: true } },
    });
  });

  test('envFrom on the master', () => {
    expect(c.envFrom).toEqual([
      { prefix: 'TEAM_', configMapRef: { name: 'team-env' } },
      { secretRef: { name: 'creds', optional: true } },
    ]);
  });

  test('workers get none of it', () => {
    const w = main(workerPod(p));
    expect(env(w, 'LITERAL')).toBeUndefined();
    expect(w.envFrom).toBeUndefined();
  });
});
