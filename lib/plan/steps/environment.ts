// kubernetes.env.* and kubernetes.env-from.*: the environment of every engine container — the
// master role's Pods (the master; with HA the coordinator and the masters) and the workers, where
// connectors run and read credentials or settings from it (AWS, Hadoop user, time zone, …). The
// per-role forms replace a shared variable or entry by name on their role (model/role-environment.ts).
// On the master the runtime resolves the job config's ${VAR} placeholders with it, and a Zeta
// master has the same environment with HA as without (docs/ha.md). Literals are escaped for the
// kubelet (no $(VAR) expansion): every container receives exactly the configured value. Only the
// main container gets it: the init containers run this tool's own code.
// The worker template is the admission fence's parameter, so what lands here is exactly what a
// stamped worker may carry; the fence's marks list the Secrets and ConfigMaps it names.

import type { Container, EnvFromSource, EnvVar } from 'kubernetes-types/core/v1';
import type { PodRole } from '../../model/props';
import { roleEnvironment } from '../../model/role-environment';
import type { EnvFromSpec, EnvVarSpec } from '../../model/spec';
import { addEnv, kubeletLiteral, mainContainer, podsOfRole } from '../pod';
import type { FeatureStep, PlanDraft } from '../types';

const optional = (o: boolean) => (o ? { optional: true } : {});

export function envVar(e: EnvVarSpec): EnvVar {
  if ('value' in e) return { name: e.name, value: kubeletLiteral(e.value) };
  if ('secret' in e)
    return { name: e.name, valueFrom: { secretKeyRef: { name: e.secret, key: e.key, ...optional(e.optional) } } };
  return { name: e.name, valueFrom: { configMapKeyRef: { name: e.configmap, key: e.key, ...optional(e.optional) } } };
}

export function envFromSource(e: EnvFromSpec): EnvFromSource {
  return {
    ...(e.prefix ? { prefix: e.prefix } : {}),
    ...(e.kind === 'secret'
      ? { secretRef: { name: e.name, ...optional(e.optional) } }
      : { configMapRef: { name: e.name, ...optional(e.optional) } }),
  };
}

function addRoleEnvironment(d: PlanDraft, role: PodRole, c: Container): void {
  const { env, envFrom } = roleEnvironment(d.spec, role);
  addEnv(c, ...env.map(envVar));
  if (envFrom.length) (c.envFrom ??= []).push(...envFrom.map(envFromSource));
}

export const environmentStep: FeatureStep = {
  name: 'environment',
  apply(d: PlanDraft): PlanDraft {
    for (const role of ['master', 'worker'] as const)
      for (const pod of podsOfRole(d, role)) addRoleEnvironment(d, role, mainContainer(pod));
    return d;
  },
};
