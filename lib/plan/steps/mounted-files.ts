// kubernetes.configmap.<entry>, kubernetes.secret.<entry> and kubernetes.secret-ref: owned
// objects are created from `data`, referenced ones only mounted. Every mounted key is mounted
// alone at its declared path (subPath), on the roles the entry names (`master`: every Pod of the
// master role, the runtime's included — it reads a job file mounted this way).

import type { KeyToPath } from 'kubernetes-types/core/v1';
import type { MountedObject } from '../../model/spec';
import { PATHS } from '../../model/spec';
import { addMount, addVolume, mainContainer, masterRolePods, objectMeta, podsOfRole } from '../pod';
import type { FeatureStep, PlanDraft } from '../types';

export const SECRET_REF_VOLUME = 'seatunnel-secret-ref';

const volumeName = (kind: 'cm' | 'secret', entry: string) => `${kind}-${entry}`;

function mount(d: PlanDraft, o: MountedObject, kind: 'cm' | 'secret'): void {
  if (o.mounts.length === 0) return;
  const items: KeyToPath[] = o.mounts.map((m) => ({ key: m.key, path: m.key }));
  const uniqueItems = items.filter((it, i) => items.findIndex((x) => x.key === it.key) === i);
  for (const pod of o.roles.flatMap((role) => podsOfRole(d, role))) {
    const name = volumeName(kind, o.entry);
    addVolume(
      pod,
      kind === 'cm'
        ? { name, configMap: { name: o.name, items: uniqueItems } }
        : { name, secret: { secretName: o.name, items: uniqueItems, defaultMode: 0o440 } },
    );
    const c = mainContainer(pod);
    for (const m of o.mounts) addMount(c, { name, mountPath: m.path, subPath: m.key, readOnly: true });
  }
}

export const mountedFilesStep: FeatureStep = {
  name: 'mounted-files',
  apply(d: PlanDraft): PlanDraft {
    const spec = d.spec;
    for (const cm of spec.configMaps) {
      if (cm.owned) {
        d.configMaps.push({
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: objectMeta(spec, cm.name, 'configuration', 'configmap'),
          data: { ...cm.data },
        });
      }
      mount(d, cm, 'cm');
    }
    for (const s of spec.secrets) {
      if (s.owned) {
        d.secrets.push({
          apiVersion: 'v1',
          kind: 'Secret',
          type: 'Opaque',
          metadata: objectMeta(spec, s.name, 'configuration', 'secret'),
          stringData: { ...s.data },
        });
      }
      mount(d, s, 'secret');
    }
    const secretName = spec.secretRef;
    if (secretName)
      for (const pod of masterRolePods(d)) {
        addVolume(pod, { name: SECRET_REF_VOLUME, secret: { secretName, defaultMode: 0o440 } });
        addMount(mainContainer(pod), { name: SECRET_REF_VOLUME, mountPath: PATHS.secretRef, readOnly: true });
      }
    return d;
  },
};
