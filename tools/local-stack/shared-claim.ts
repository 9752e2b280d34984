// A ReadWriteMany PersistentVolumeClaim bound to a local directory, standing in for storage every
// local "Pod" reaches (the HA checkpoint claim). The real PV controller binds the claim to its
// volume; the local kubelet maps the claim's name to the directory (`persistentVolumes`).

import type { KubeHttp } from '../../test/support/kube-http';

/** Creates the volume and the claim; returns the volume's name (cluster-scoped: delete it after). */
export async function createSharedClaim(
  admin: KubeHttp,
  namespace: string,
  claim: string,
  dir: string,
): Promise<string> {
  const volume = `${namespace}-${claim}`;
  await admin.call('POST', '/api/v1/persistentvolumes', {
    apiVersion: 'v1',
    kind: 'PersistentVolume',
    metadata: { name: volume },
    spec: {
      capacity: { storage: '1Gi' },
      accessModes: ['ReadWriteMany'],
      storageClassName: '',
      persistentVolumeReclaimPolicy: 'Retain',
      hostPath: { path: dir },
      claimRef: { namespace, name: claim },
    },
  });
  await admin.call('POST', `/api/v1/namespaces/${encodeURIComponent(namespace)}/persistentvolumeclaims`, {
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: { name: claim },
    spec: {
      accessModes: ['ReadWriteMany'],
      storageClassName: '',
      volumeName: volume,
      resources: { requests: { storage: '1Gi' } },
    },
  });
  return volume;
}
