// Everything mounted into the Pods: ConfigMap and Secret entries (referenced or owned), the whole
// `secretRef` Secret and the checkpoint PVC, with the checks that keep mounts from shadowing each
// other or the paths the application itself uses.

import { isOneOf, POD_ROLES } from '../allowed-values';
import { absolutePathProblem, configMapKeyProblem, dns1123LabelProblem, dns1123SubdomainProblem } from '../k8s-syntax';
import { DEFAULT_ROLES } from '../options';
import type { ConfigMapEntryProps, SecretEntryProps } from '../props';
import { PATHS, type ApplicationSpec, type MountedObject } from '../spec';
import type { PropReader } from './reader';

/** Kubernetes' size limit of one ConfigMap or Secret. */
const MAX_OWNED_OBJECT_BYTES = 1024 * 1024;
/** Entry names become part of object and volume names, which have their own length limits. */
const MAX_ENTRY_NAME = 50;

export type Mounts = Pick<ApplicationSpec, 'configMaps' | 'secrets' | 'secretRef' | 'checkpointPvc'>;

export function resolveMounts(r: PropReader, appId: string): Mounts {
  // Owned objects must not take the names of the objects this tool generates.
  const generatedNames = new Set([appId, `${appId}-engine`, `${appId}-worker`]);
  const configMaps = mountedObjects(r, 'configMaps', appId, generatedNames);
  const secrets = mountedObjects(r, 'secrets', appId, generatedNames);
  checkMountConflicts(r, [...configMaps, ...secrets]);
  const secretRef = r.optionalName('secretRef');
  const checkpointPvc = r.optionalName('checkpointPvc');
  return { configMaps, secrets, ...(secretRef ? { secretRef } : {}), ...(checkpointPvc ? { checkpointPvc } : {}) };
}

function mountedObjects(r: PropReader, prop: 'configMaps' | 'secrets', appId: string, generatedNames: Set<string>): MountedObject[] {
  const v = r.props[prop] as unknown;
  if (v === undefined) return [];
  if (typeof v !== 'object' || v === null || Array.isArray(v)) {
    r.fail(prop, v, 'must be an object keyed by entry name');
    return [];
  }
  const what = prop === 'configMaps' ? 'ConfigMap' : 'Secret';
  const out: MountedObject[] = [];
  for (const [entry, raw] of Object.entries(v as Record<string, ConfigMapEntryProps | SecretEntryProps>)) {
    const before = r.issueCount;
    const sub = (s?: string) => (s ? `${entry}.${s}` : entry);
    const entryProblem = dns1123LabelProblem(entry);
    if (entryProblem || entry.length > MAX_ENTRY_NAME) {
      r.fail(prop, entry, `entry names become object and volume names: ${entryProblem ?? `must be at most ${MAX_ENTRY_NAME} characters`}`, sub());
      continue;
    }
    if (raw.ref !== undefined && raw.data !== undefined) r.fail(prop, raw, `set either ref (an existing ${what}) or data (a ${what} the application owns), not both`, sub());
    if (raw.ref === undefined && raw.data === undefined) r.fail(prop, raw, `needs ref (an existing ${what}) or data (a ${what} the application owns)`, sub());
    if (raw.ref !== undefined) r.check(prop, raw.ref, dns1123SubdomainProblem(raw.ref), sub('ref'));
    if (raw.name !== undefined) {
      if (raw.ref !== undefined) r.fail(prop, raw.name, 'name is only for a created object (data); a reference is named by ref', sub('name'));
      r.check(prop, raw.name, dns1123SubdomainProblem(raw.name), sub('name'));
    }
    let dataBytes = 0;
    for (const [k, val] of Object.entries(raw.data ?? {})) {
      r.check(prop, k, configMapKeyProblem(k), sub(`data."${k}"`));
      if (typeof val !== 'string') r.fail(prop, val, 'values must be strings', sub(`data."${k}"`));
      else dataBytes += Buffer.byteLength(val) + k.length;
    }
    if (dataBytes > MAX_OWNED_OBJECT_BYTES) r.fail(prop, `${dataBytes} bytes`, `a ${what} holds at most 1 MiB`, sub('data'));
    const mounts = Object.entries(raw.mounts ?? {}).map(([key, path]) => ({ key, path }));
    for (const m of mounts) {
      r.check(prop, m.key, configMapKeyProblem(m.key), sub(`mounts."${m.key}"`));
      r.check(prop, m.path, typeof m.path === 'string' ? absolutePathProblem(m.path) : 'must be a string', sub(`mounts."${m.key}"`));
      if (raw.data !== undefined && !(m.key in raw.data)) {
        r.fail(prop, m.key, `mounts a key that data does not define (keys: ${Object.keys(raw.data).join(', ') || 'none'})`, sub(`mounts."${m.key}"`));
      }
    }
    const roles = raw.roles === undefined ? [...DEFAULT_ROLES[prop]] : [...raw.roles];
    if (roles.length === 0 || roles.some((role) => !isOneOf(POD_ROLES, role))) {
      r.fail(prop, raw.roles, 'roles must be a non-empty list of "master" and/or "worker"', sub('roles'));
    }
    const name = raw.ref ?? raw.name ?? `${appId}-${entry}`;
    if (raw.ref === undefined && generatedNames.has(name)) {
      r.fail(prop, name, `the name is used by an object this tool generates (${[...generatedNames].join(', ')}); set another name`, sub('name'));
    }
    if (raw.ref === undefined && !raw.name && name.length > 253) r.fail(prop, name, 'the derived name is longer than 253 characters; set name', sub());
    if (r.issueCount > before) continue;
    out.push({
      entry,
      name,
      owned: raw.ref === undefined,
      ...(raw.data !== undefined ? { data: { ...raw.data } } : {}),
      mounts,
      roles: [...new Set(roles)],
    });
  }
  return out;
}

/** Two mounts at one path, or a mount over a path the tool itself uses, would shadow each other silently. */
function checkMountConflicts(r: PropReader, objects: MountedObject[]): void {
  const reserved = [PATHS.checkpoints, PATHS.secretRef, PATHS.engineConfig, PATHS.workDir, PATHS.runtimeDir];
  for (const role of POD_ROLES) {
    const seen = new Map<string, string>();
    for (const o of objects.filter((x) => x.roles.includes(role))) {
      const prop = r.props.configMaps && o.entry in r.props.configMaps ? 'configMaps' : 'secrets';
      for (const m of o.mounts) {
        const where = `${o.entry}.mounts."${m.key}"`;
        const clash = reserved.find((p) => m.path === p || m.path.startsWith(`${p}/`));
        if (clash) r.fail(prop, m.path, `${clash} is used by the application itself; mount elsewhere`, where);
        const other = seen.get(m.path);
        if (other && other !== where) r.fail(prop, m.path, `is also the mount path of ${other} on the ${role}`, where);
        seen.set(m.path, where);
      }
    }
  }
}
