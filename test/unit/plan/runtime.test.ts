import { PATHS } from '../../../lib/model/spec';
import { plan } from '../../support/fixtures';
import { env, main, masterPod, mountAt, volume } from './helpers';

describe('runtime step', () => {
  const p = plan();
  const c = main(masterPod(p));

  test('the master container runs the runtime', () => {
    expect(c.command).toEqual([`${PATHS.runtimeDir}/bin/node`, `${PATHS.runtimeDir}/runtime.cjs`]);
  });

  test('init container copies the runtime from its image into a shared volume', () => {
    const init = masterPod(p).initContainers!;
    expect(init).toHaveLength(1);
    expect(init[0]).toMatchObject({ name: 'install-runtime', image: 'seatunnel-app-runtime:0.1.0' });
    expect(init[0].resources!.requests).toEqual(init[0].resources!.limits);
    // The main container's size: no more room than the Pod takes anyway, and the copy at its speed.
    expect(init[0].resources).toEqual(c.resources);
    expect(volume(masterPod(p), 'seatunnel-app-runtime')).toEqual({ name: 'seatunnel-app-runtime', emptyDir: {} });
    expect(mountAt(c, PATHS.runtimeDir)).toMatchObject({ readOnly: true });
  });

  test('embedded mode needs no init container', () => {
    const q = plan({ runtimeMode: 'embedded' });
    expect(masterPod(q).initContainers).toBeUndefined();
    expect(main(masterPod(q)).command![0]).toBe(`${PATHS.runtimeDir}/bin/node`);
  });

  test('the Pod learns its identity and IP from the downward API', () => {
    expect(env(c, 'SEATUNNEL_POD_NAME')!.valueFrom).toEqual({ fieldRef: { fieldPath: 'metadata.name' } });
    expect(env(c, 'SEATUNNEL_POD_UID')!.valueFrom).toEqual({ fieldRef: { fieldPath: 'metadata.uid' } });
    expect(env(c, 'SEATUNNEL_APPLICATION_MASTER_HOST')!.valueFrom).toEqual({ fieldRef: { fieldPath: 'status.podIP' } });
    expect(env(c, 'SEATUNNEL_APPLICATION_ID')!.value).toBe(p.spec.appId);
  });
});
