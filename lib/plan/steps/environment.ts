// kubernetes.env.* and kubernetes.env-from.*: the environment of every Pod of the master role. The
// runtime resolves the ${VAR} placeholders of the job config with it, and a Zeta master has the
// same environment with HA as without (docs/ha.md). Literals are escaped for the kubelet (no
// $(VAR) expansion): the container receives exactly the configured value.

import type { EnvFromSource, EnvVar } from 'kubernetes-types/core/v1';
import type { ApplicationSpec } from '../../model/spec';
import { addEnv, kubeletLiteral, mainContainer, masterRolePods } from '../pod';
import type { FeatureStep, PlanDraft } from '../types';

function envVars(spec: ApplicationSpec): EnvVar[] {
  return spec.env.map((e) => {
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
}

function envFrom(spec: ApplicationSpec): EnvFromSource[] {
  return spec.envFrom.map((e) => ({
    ...(e.prefix ? { prefix: e.prefix } : {}),
    ...(e.kind === 'secret'
      ? { secretRef: { name: e.name, ...(e.optional ? { optional: true } : {}) } }
      : { configMapRef: { name: e.name, ...(e.optional ? { optional: true } : {}) } }),
  }));
}

export const environmentStep: FeatureStep = {
  name: 'environment',
  apply(d: PlanDraft): PlanDraft {
    for (const c of masterRolePods(d).map(mainContainer)) {
      addEnv(c, ...envVars(d.spec));
      if (d.spec.envFrom.length) (c.envFrom ??= []).push(...envFrom(d.spec));
    }
    return d;
  },
};
