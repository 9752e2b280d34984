import { plan } from '../../support/fixtures';
import { main, masterPod, mountAt, volume, workerPod } from './helpers';

describe('mounted files step', () => {
  const p = plan({
    applicationId: 'app-1',
    configMaps: {
      drivers: {
        ref: 'jdbc',
        mounts: { 'mysql.jar': '/opt/seatunnel/lib/mysql.jar', 'pg.jar': '/opt/seatunnel/lib/pg.jar' },
      },
      settings: {
        data: { 'a.properties': 'x=1', unmounted: 'y' },
        mounts: { 'a.properties': '/etc/app/a.properties' },
        roles: ['master'],
      },
    },
    secrets: {
      db: { data: { password: 'p' }, mounts: { password: '/etc/db/password' } },
      tls: { ref: 'tls', name: undefined, mounts: { 'ks.jks': '/etc/tls/ks.jks' }, roles: ['master', 'worker'] },
    },
    secretRef: 'legacy',
  });

  test('owned objects are created from data; references are not', () => {
    expect(p.configMaps.map((c) => c.metadata.name)).toEqual(['app-1-engine', 'app-1-settings']);
    expect(p.configMaps[1].data).toEqual({ 'a.properties': 'x=1', unmounted: 'y' });
    // Besides the job config's own Secret (steps/job-config.ts).
    const owned = p.secrets.filter((s) => !s.metadata.name.endsWith('.job-config'));
    expect(owned).toHaveLength(1);
    expect(owned[0]).toMatchObject({
      metadata: { name: 'app-1-db' },
      type: 'Opaque',
      stringData: { password: 'p' },
    });
    expect(p.secrets[0].metadata.labels!['seatunnel.apache.org/role']).toBe('configuration');
  });

  test('each key is mounted alone at its full path with subPath, read-only', () => {
    const c = main(masterPod(p));
    expect(mountAt(c, '/opt/seatunnel/lib/mysql.jar')).toEqual({
      name: 'cm-drivers',
      mountPath: '/opt/seatunnel/lib/mysql.jar',
      subPath: 'mysql.jar',
      readOnly: true,
    });
    expect(mountAt(c, '/etc/app/a.properties')).toMatchObject({ subPath: 'a.properties', readOnly: true });
    expect(volume(masterPod(p), 'cm-drivers')).toEqual({
      name: 'cm-drivers',
      configMap: {
        name: 'jdbc',
        items: [
          { key: 'mysql.jar', path: 'mysql.jar' },
          { key: 'pg.jar', path: 'pg.jar' },
        ],
      },
    });
  });

  test('roles decide which Pods mount: ConfigMaps default to both, Secrets to the master', () => {
    const w = main(workerPod(p));
    expect(mountAt(w, '/opt/seatunnel/lib/mysql.jar')).toBeDefined();
    expect(mountAt(w, '/etc/app/a.properties')).toBeUndefined();
    expect(mountAt(w, '/etc/db/password')).toBeUndefined();
    expect(mountAt(main(masterPod(p)), '/etc/db/password')).toBeDefined();
    expect(mountAt(w, '/etc/tls/ks.jks')).toBeDefined();
  });

  test('secret-ref is mounted whole on the master only', () => {
    expect(mountAt(main(masterPod(p)), '/etc/seatunnel-secret')).toEqual({
      name: 'seatunnel-secret-ref',
      mountPath: '/etc/seatunnel-secret',
      readOnly: true,
    });
    expect(volume(masterPod(p), 'seatunnel-secret-ref')).toMatchObject({ secret: { secretName: 'legacy' } });
    expect(volume(workerPod(p), 'seatunnel-secret-ref')).toBeUndefined();
  });
});
