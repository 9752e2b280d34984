// Everything mounted into the Pods: ConfigMap and Secret entries (referenced or owned), the whole
// `secretRef` Secret and the checkpoint PVC, with the checks that keep mounts from shadowing each
// other or the paths the application itself uses, and owned objects from taking names that are
// not this application's.

import { posix } from 'node:path';
import { isOneOf, POD_ROLES } from '../allowed-values';
import { APP_ID_SUFFIX_HEX, isApplicationId } from '../ids';
import {
  absolutePathProblem,
  configMapKeyProblem,
  dns1123LabelProblem,
  dns1123SubdomainProblem,
  MAX_OBJECT_DATA_BYTES,
  normalFormProblem,
  pathsOverlap,
} from '../k8s-syntax';
import { DEFAULT_ROLES } from '../options';
import type { ConfigMapEntryProps, SecretEntryProps } from '../props';
import { PATHS, runtimeConfigDir, type ApplicationSpec, type MountedObject } from '../spec';
import type { PropReader } from './reader';

/** Entry names become part of object and volume names, which have their own length limits. */
const MAX_ENTRY_NAME = 50;
/** Where the kubelet mounts the ServiceAccount token. */
export const SERVICE_ACCOUNT_TOKEN_DIR = '/var/run/secrets/kubernetes.io/serviceaccount';

/**
 * Suffixes of the objects the plan generates (`names` in lib/plan/pod.ts): an owned ConfigMap or
 * Secret must not take them. A unit test holds this list to the plan's names.
 */
export const GENERATED_NAME_SUFFIXES = ['', '-engine', '-worker', '-runtime', '-master'] as const;

export type Mounts = Pick<
  ApplicationSpec,
  'configMaps' | 'secrets' | 'secretRef' | 'checkpointPvc' | 'runtimeConfigMap'
>;

export function resolveMounts(r: PropReader, appId: string, seatunnelHome: string): Mounts {
  const generatedNames = new Set(GENERATED_NAME_SUFFIXES.map((s) => `${appId}${s}`));
  const configMaps = mountedObjects(r, 'configMaps', appId, generatedNames);
  const secrets = mountedObjects(r, 'secrets', appId, generatedNames);
  checkDuplicateNames(r, 'configMaps', configMaps);
  checkDuplicateNames(r, 'secrets', secrets);
  const runtimeConfigMap = r.optionalName('runtimeConfigMap');
  checkMountConflicts(r, [...configMaps, ...secrets], seatunnelHome, runtimeConfigMap !== undefined);
  const secretRef = r.optionalName('secretRef');
  const checkpointPvc = r.optionalName('checkpointPvc');
  return {
    configMaps,
    secrets,
    ...(secretRef ? { secretRef } : {}),
    ...(checkpointPvc ? { checkpointPvc } : {}),
    ...(runtimeConfigMap ? { runtimeConfigMap } : {}),
  };
}

function mountedObjects(
  r: PropReader,
  prop: 'configMaps' | 'secrets',
  appId: string,
  generatedNames: Set<string>,
): MountedObject[] {
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
      r.fail(
        prop,
        entry,
        `entry names become object and volume names: ${entryProblem ?? `must be at most ${MAX_ENTRY_NAME} characters`}`,
        sub(),
      );
      continue;
    }
    if (raw.ref !== undefined && raw.data !== undefined)
      r.fail(
        prop,
        raw,
        `set either ref (an existing ${what}) or data (a ${what} the application owns), not both`,
        sub(),
      );
    if (raw.ref === undefined && raw.data === undefined)
      r.fail(prop, raw, `needs ref (an existing ${what}) or data (a ${what} the application owns)`, sub());
    if (raw.ref !== undefined) r.check(prop, raw.ref, dns1123SubdomainProblem(raw.ref), sub('ref'));
    if (raw.name !== undefined) {
      if (raw.ref !== undefined)
        r.fail(prop, raw.name, 'name is only for a created object (data); a reference is named by ref', sub('name'));
      r.check(prop, raw.name, dns1123SubdomainProblem(raw.name), sub('name'));
    }
    let dataBytes = 0;
    for (const [k, val] of Object.entries(raw.data ?? {})) {
      r.check(prop, k, configMapKeyProblem(k), sub(`data."${k}"`));
      if (typeof val !== 'string') r.fail(prop, val, 'values must be strings', sub(`data."${k}"`));
      else dataBytes += Buffer.byteLength(val);
    }
    if (dataBytes > MAX_OBJECT_DATA_BYTES) {
      r.failWithoutValue(
        prop,
        `a ${what}'s data may total at most ${MAX_OBJECT_DATA_BYTES} bytes (1 MiB, the API server's limit: the UTF-8 bytes of the values); this one has ${dataBytes}`,
        sub('data'),
      );
    }
    const mounts = Object.entries(raw.mounts ?? {}).map(([key, path]) => ({ key, path }));
    for (const m of mounts) {
      r.check(prop, m.key, configMapKeyProblem(m.key), sub(`mounts."${m.key}"`));
      r.check(
        prop,
        m.path,
        typeof m.path === 'string' ? absolutePathProblem(m.path, false) : 'must be a string',
        sub(`mounts."${m.key}"`),
      );
      if (raw.data !== undefined && !(m.key in raw.data)) {
        r.fail(
          prop,
          m.key,
          `mounts a key that data does not define (keys: ${Object.keys(raw.data).join(', ') || 'none'})`,
          sub(`mounts."${m.key}"`),
        );
      }
    }
    const roles = raw.roles === undefined ? [...DEFAULT_ROLES[prop]] : [...raw.roles];
    if (roles.length === 0 || roles.some((role) => !isOneOf(POD_ROLES, role))) {
      r.fail(prop, raw.roles, 'roles must be a non-empty list of "master" and/or "worker"', sub('roles'));
    }
    const name = raw.ref ?? raw.name ?? `${appId}-${entry}`;
    if (raw.ref === undefined && generatedNames.has(name)) {
      r.fail(
        prop,
        name,
        `the name is used by an object this tool generates (${[...generatedNames].join(', ')}); set another name`,
        sub('name'),
      );
    } else if (raw.ref === undefined && raw.name !== undefined) {
      const problem = ownedNameProblem(raw.name, appId);
      if (problem)
        r.fail(
          prop,
          raw.name,
          `${problem}; leave name unset for "${appId}-${entry}", or use ref to mount an existing ${what}`,
          sub('name'),
        );
    }
    if (raw.ref === undefined && !raw.name && name.length > 253)
      r.fail(prop, name, 'the derived name is longer than 253 characters; set name', sub());
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

/**
 * An owned object is created and deleted with the application, so its name must be the
 * application's: it starts with the readable part of the application ID (as every generated name
 * does), and it is not shaped like another application's objects (`<other-id>-engine`). Names
 * such as `kube-root-ca.crt` or another application's ConfigMap are then out of reach. The
 * readable part, not the whole ID, so a deployment file can name the object before the ID exists.
 */
export function ownedNameProblem(name: string, appId: string): string | undefined {
  const readable = appId.replace(new RegExp(`-[0-9a-f]{${APP_ID_SUFFIX_HEX}}$`), '');
  if (!name.startsWith(`${readable}-`))
    return `an owned object's name must start with "${readable}-" (the application's name, as the generated objects' names do), so it cannot be another object in the namespace`;
  for (const m of name.matchAll(new RegExp(`-[0-9a-f]{${APP_ID_SUFFIX_HEX}}(?=-|$)`, 'g'))) {
    const id = name.slice(0, (m.index ?? 0) + m[0].length);
    if (id !== appId && isApplicationId(id))
      return `has the shape of an object of another application (ID ${id}); an owned object's name must not`;
  }
  return undefined;
}

/** Two entries that create or reference one object would fight over it: a configuration problem, not a plan error. */
function checkDuplicateNames(r: PropReader, prop: 'configMaps' | 'secrets', objects: readonly MountedObject[]): void {
  const seen = new Map<string, MountedObject>();
  for (const o of objects) {
    const other = seen.get(o.name);
    if (other && (o.owned || other.owned)) {
      r.fail(
        prop,
        o.name,
        `is also the name of entry "${other.entry}"${other.owned ? '' : ' (a ref)'}; each owned object needs its own name`,
        o.owned ? `${o.entry}.name` : `${o.entry}.ref`,
      );
    }
    if (!other) seen.set(o.name, o);
  }
}

/** A path the application itself uses, and whether a user's file may sit inside it. */
interface ReservedPath {
  readonly path: string;
  readonly what: string;
  /** Files inside are the user's business (SEATUNNEL_HOME); only mounting over it is refused. */
  readonly insideAllowed?: boolean;
}

function reservedPaths(seatunnelHome: string, runtimeConfigMap: boolean): ReservedPath[] {
  const home = posix.normalize(seatunnelHome || '/');
  return [
    ...(runtimeConfigMap ? [{ path: runtimeConfigDir(home), what: 'kubernetes.config-map' }] : []),
    { path: PATHS.checkpoints, what: 'the checkpoint volume' },
    { path: PATHS.secretRef, what: 'kubernetes.secret-ref' },
    { path: PATHS.engineConfig, what: 'the generated engine files' },
    { path: PATHS.workDir, what: "the runtime's work directory" },
    { path: PATHS.runtimeDir, what: 'Node.js and the runtime' },
    { path: SERVICE_ACCOUNT_TOKEN_DIR, what: 'the ServiceAccount token' },
    { path: home, what: 'SEATUNNEL_HOME, the SeaTunnel distribution', insideAllowed: true },
  ];
}

/**
 * Each mount is one file (subPath). A mount at or above a path the application uses would hide
 * it, one inside would change it, and two mounts where one lies inside the other cannot both be
 * made (a file is not a directory). Paths are compared in normal form, per role.
 */
function checkMountConflicts(
  r: PropReader,
  objects: MountedObject[],
  seatunnelHome: string,
  runtimeConfigMap: boolean,
): void {
  const reserved = reservedPaths(seatunnelHome, runtimeConfigMap);
  for (const role of POD_ROLES) {
    const seen: Array<{ path: string; where: string }> = [];
    for (const o of objects.filter((x) => x.roles.includes(role))) {
      const prop = r.props.configMaps && o.entry in r.props.configMaps ? 'configMaps' : 'secrets';
      for (const m of o.mounts) {
        const where = `${o.entry}.mounts."${m.key}"`;
        const path = posix.normalize(m.path);
        // Path rules hold on every role alike: reported once, on the entry's first role.
        const firstRole = role === o.roles[0];
        if (firstRole) r.check(prop, m.path, normalFormProblem(m.path), where);
        for (const res of firstRole ? reserved : []) {
          const atOrAbove = path === res.path || res.path.startsWith(path === '/' ? '/' : `${path}/`);
          const inside = !atOrAbove && pathsOverlap(path, res.path);
          if (atOrAbove)
            r.fail(prop, m.path, `would hide ${res.path} (${res.what}): a mount must not be at or above it`, where);
          else if (inside && !res.insideAllowed)
            r.fail(
              prop,
              m.path,
              `lies inside ${res.path} (${res.what}), which the application itself uses; mount elsewhere`,
              where,
            );
        }
        const clash = seen.find((s) => s.where !== where && pathsOverlap(s.path, path));
        if (clash) {
          r.fail(
            prop,
            m.path,
            clash.path === path
              ? `is also the mount path of ${clash.where} on the ${role}`
              : `overlaps the mount of ${clash.where} at ${clash.path} on the ${role} (one file cannot lie inside another)`,
            where,
          );
        }
        seen.push({ path, where });
      }
    }
  }
}
