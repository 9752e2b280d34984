// kubernetes.env.* and kubernetes.env-from.*: the master's environment, which resolves the
// ${VAR} placeholders of the job config inside the Pod. Literals are escaped for the kubelet (no
// $(VAR) expansion): the container receives exactly the configured value.

import type { EnvFromSource, EnvVar } from 'kubernetes-types/core/v1';
import { addEnv, kubeletLiteral, masterContainer } from '../pod';
import type { FeatureStep, PlanDraft } from '../types';

export const environmentStep: FeatureStep = {
  name: 'environment',
  apply(d: PlanDraft): PlanDraft {
    const c = masterContainer(d);
    const vars: EnvVar[] = d.spec.env.map((e) => {
      if ('value' in e) return { name: e.name, value: kubeletLiteral(e.value) };
      if ('secret' in e)
        return {
          name: e.name,
          valueFrom: { secretKeyRef: { name: e.secret, key: e.key, ...(e.optional ? { optional: true } : {}) } },
        };
      return {
        name: e.name,
        valueFrom: { configMapKeyRef: { name: e.configmap, key: e.key, ...(e.optional ? { optional: true } : {}) } },
      };
    });
    addEnv(c, ...vars);
    if (d.spec.envFrom.length) {
      const from: EnvFromSource[] = d.spec.envFrom.map((e) => ({
        ...(e.prefix ? { prefix: e.prefix } : {}),
        ...(e.kind === 'secret'
          ? { secretRef: { name: e.name, ...(e.optional ? { optional: true } : {}) } }
          : { configMapRef: { name: e.name, ...(e.optional ? { optional: true } : {}) } }),
      }));
      (c.envFrom ??= []).push(...from);
    }
    return d;
  },
};
