// The environment of the engine containers: single variables (literal or from a Secret/ConfigMap
// key) and whole Secrets/ConfigMaps (`envFrom`), shared by every role (`env`, `envFrom`) or for one
// role only (`masterEnv`, `workerEnv`, `masterEnvFrom`, `workerEnvFrom`). The same rules hold for
// every form: reserved names steer the runtime, Node.js, the JVMs or Hazelcast on any role (a
// worker's Zeta reads JAVA_TOOL_OPTIONS and HZ_* as a master's does), so no role may set them.

import { configMapKeyProblem, dns1123SubdomainProblem, envVarNameProblem } from '../k8s-syntax';
import type { EnvFromProps, EnvValueProps } from '../props';
import { reservedEnvPrefixProblem, reservedEnvProblem } from '../reserved';
import type { EnvFromSpec, EnvVarSpec } from '../spec';
import type { PropReader } from './reader';

export type EnvProp = 'env' | 'masterEnv' | 'workerEnv';
export type EnvFromProp = 'envFrom' | 'masterEnvFrom' | 'workerEnvFrom';

/** The value of an entry-keyed prop, or undefined (reported) when it is not an object. */
function entries<T>(r: PropReader, prop: EnvProp | EnvFromProp, what: string): Array<[string, T]> {
  const v = r.props[prop] as unknown;
  if (v === undefined) return [];
  if (typeof v !== 'object' || v === null || Array.isArray(v)) {
    r.fail(prop, v, `must be an object keyed by ${what}`);
    return [];
  }
  return Object.entries(v as Record<string, T>);
}

export function resolveEnvVars(r: PropReader, prop: EnvProp = 'env'): EnvVarSpec[] {
  const out: EnvVarSpec[] = [];
  for (const [name, raw] of entries<EnvValueProps>(r, prop, 'variable name')) {
    const np = envVarNameProblem(name);
    if (np) {
      r.fail(prop, name, np, name);
      continue;
    }
    const reserved = reservedEnvProblem(name);
    if (reserved) {
      r.fail(prop, name, `${reserved}; choose another name`, name);
      continue;
    }
    if (typeof raw === 'string') {
      out.push({ name, value: raw });
      continue;
    }
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
      r.fail(prop, raw, 'must be a string, or exactly one of { value }, { secret, key }, { configmap, key }', name);
      continue;
    }
    const o = raw as Record<string, unknown>;
    const forms = ['value', 'secret', 'configmap'].filter((f) => o[f] !== undefined);
    if (forms.length !== 1) {
      r.fail(prop, raw, 'must be a string, or exactly one of { value }, { secret, key }, { configmap, key }', name);
      continue;
    }
    if (forms[0] === 'value') {
      out.push({ name, value: String(o.value) });
      continue;
    }
    const source = String(o[forms[0]]);
    const key = o.key;
    let ok = r.check(prop, source, dns1123SubdomainProblem(source), `${name}.${forms[0]}`);
    if (typeof key !== 'string') {
      r.fail(prop, key, `a ${forms[0]} source needs key (the key to read)`, `${name}.key`);
      ok = false;
    } else ok = r.check(prop, key, configMapKeyProblem(key), `${name}.key`) && ok;
    if (!ok) continue;
    const optional = o.optional === true;
    out.push(
      forms[0] === 'secret'
        ? { name, secret: source, key: key as string, optional }
        : { name, configmap: source, key: key as string, optional },
    );
  }
  return out;
}

export function resolveEnvFrom(r: PropReader, prop: EnvFromProp = 'envFrom'): EnvFromSpec[] {
  const out: EnvFromSpec[] = [];
  for (const [entry, raw] of entries<EnvFromProps>(r, prop, 'entry name')) {
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
      r.fail(prop, raw, 'must be an object: { secret } or { configmap }, optional prefix and optional', entry);
      continue;
    }
    if ((raw.secret === undefined) === (raw.configmap === undefined)) {
      r.fail(prop, raw, 'set exactly one of secret and configmap', entry);
      continue;
    }
    const kind = raw.secret !== undefined ? 'secret' : 'configmap';
    const name = (raw.secret ?? raw.configmap) as string;
    if (!r.check(prop, name, dns1123SubdomainProblem(name), `${entry}.${kind}`)) continue;
    if (raw.prefix !== undefined && raw.prefix !== '' && envVarNameProblem(raw.prefix)) {
      r.fail(prop, raw.prefix, 'prefix must be a valid start of an environment variable name', `${entry}.prefix`);
      continue;
    }
    // Without a prefix the object's keys become names as they are; which keys it has is only known
    // when the Pod starts, so that case is documented rather than checked.
    const reservedPrefix = raw.prefix ? reservedEnvPrefixProblem(raw.prefix) : undefined;
    if (reservedPrefix) {
      r.fail(prop, raw.prefix, reservedPrefix, `${entry}.prefix`);
      continue;
    }
    out.push({ entry, kind, name, ...(raw.prefix ? { prefix: raw.prefix } : {}), optional: raw.optional === true });
  }
  return out;
}
