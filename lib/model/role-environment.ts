// The environment one role's engine containers get: the shared `kubernetes.env.*` /
// `kubernetes.env-from.*`, with the role's own forms (`kubernetes.<role>.env.*`,
// `kubernetes.<role>.env-from.*`) replacing a shared variable or entry of the same name in place
// and adding the rest after it. In place, because the order of envFrom sources decides which wins
// when two hold the same key.

import type { PodRole } from './props';
import type { ApplicationSpec, EnvFromSpec, EnvVarSpec } from './spec';

export interface RoleEnvironment {
  readonly env: readonly EnvVarSpec[];
  readonly envFrom: readonly EnvFromSpec[];
}

function overlay<T>(shared: readonly T[], own: readonly T[], id: (t: T) => string): T[] {
  const ownById = new Map(own.map((o) => [id(o), o]));
  const sharedIds = new Set(shared.map(id));
  return [...shared.map((s) => ownById.get(id(s)) ?? s), ...own.filter((o) => !sharedIds.has(id(o)))];
}

export function roleEnvironment(spec: ApplicationSpec, role: PodRole): RoleEnvironment {
  const own = spec[role];
  return {
    env: overlay(spec.env, own.env, (e) => e.name),
    envFrom: overlay(spec.envFrom, own.envFrom, (e) => e.entry),
  };
}

/** The option that set `e` on `role`'s Pods (for messages): the role's own form, or the shared one. */
export function envOption(spec: ApplicationSpec, role: PodRole, e: EnvVarSpec | EnvFromSpec): string {
  const own = 'entry' in e ? spec[role].envFrom.includes(e) : spec[role].env.includes(e);
  const name = 'entry' in e ? `env-from.${e.entry}` : `env.${e.name}`;
  return own ? `kubernetes.${role}.${name}` : `kubernetes.${name}`;
}
