// Objects the application references but never creates, changes or deletes: ConfigMaps and
// Secrets (`ref` entries, secret-ref, env and env-from sources, image pull secrets), the
// ServiceAccount and the checkpoint PVC. Submit and preflight check that each exists — and that
// every key the Pods read from it is there — before anything is created, and report every
// problem at once: a missing object otherwise surfaces only as a Pod stuck in
// CreateContainerConfigError or ContainerCreating.

import { ENGINE_FILES, renderEngineFiles } from '../../engine/files';
import { overlayUserFiles, userFilesManifest } from '../../engine/user-files';
import { checkpointFs, checkpointStorageRule, isSharedFs } from '../../model/rules/high-availability';
import { POD_ROLES } from '../../model/allowed-values';
import { envOption, roleEnvironment } from '../../model/role-environment';
import type { ApplicationSpec } from '../../model/spec';
import { describeError, isStatus, type Kube, type AnyObject, type ObjectRef } from '../../kube';

export interface Reference {
  readonly ref: ObjectRef;
  /** The option that names it, e.g. kubernetes.env.DB_PASSWORD. */
  readonly option: string;
  /** Keys the Pods read from it (ConfigMap/Secret). */
  readonly keys: readonly string[];
  /** `optional = true` sources may be missing. */
  readonly optional: boolean;
}

export interface ReferenceProblem {
  readonly ref: ObjectRef;
  readonly option: string;
  readonly message: string;
}

/** Something submit and preflight print as a warning, without refusing (e.g. a shipped default replaced). */
export type ReferenceNotice = ReferenceProblem;

export interface ReferenceCheck {
  readonly problems: ReferenceProblem[];
  readonly notices: ReferenceNotice[];
}

/** Every object the application references, in option order. */
export function referencedObjects(spec: ApplicationSpec): Reference[] {
  const ns = spec.namespace;
  const ownedConfigMaps = new Set(spec.configMaps.filter((c) => c.owned).map((c) => c.name));
  const ownedSecrets = new Set(spec.secrets.filter((s) => s.owned).map((s) => s.name));
  const cm = (name: string): ObjectRef => ({ apiVersion: 'v1', kind: 'ConfigMap', namespace: ns, name });
  const secret = (name: string): ObjectRef => ({ apiVersion: 'v1', kind: 'Secret', namespace: ns, name });
  const refs: Reference[] = spec.serviceAccountGenerated
    ? []
    : [
        {
          ref: { apiVersion: 'v1', kind: 'ServiceAccount', namespace: ns, name: spec.serviceAccount },
          option: 'kubernetes.service-account',
          keys: [],
          optional: false,
        },
      ];
  for (const c of spec.configMaps) {
    if (!c.owned)
      refs.push({
        ref: cm(c.name),
        option: `kubernetes.configmap.${c.entry}`,
        keys: c.mounts.map((m) => m.key),
        optional: false,
      });
  }
  for (const s of spec.secrets) {
    if (!s.owned)
      refs.push({
        ref: secret(s.name),
        option: `kubernetes.secret.${s.entry}`,
        keys: s.mounts.map((m) => m.key),
        optional: false,
      });
  }
  if (spec.secretRef)
    refs.push({ ref: secret(spec.secretRef), option: 'kubernetes.secret-ref', keys: [], optional: false });
  // Each role's environment as its Pods get it (a shared source a role replaces is not read there),
  // named by the option that set it; a source both roles read is checked once.
  const seen = new Set<string>();
  const add = (r: Reference) => {
    const id = `${r.option}\0${r.ref.kind}/${r.ref.name}`;
    if (!seen.has(id)) refs.push(r);
    seen.add(id);
  };
  for (const role of POD_ROLES) {
    const { env, envFrom } = roleEnvironment(spec, role);
    for (const e of env) {
      const option = envOption(spec, role, e);
      if ('secret' in e && !ownedSecrets.has(e.secret))
        add({ ref: secret(e.secret), option, keys: [e.key], optional: e.optional });
      if ('configmap' in e && !ownedConfigMaps.has(e.configmap))
        add({ ref: cm(e.configmap), option, keys: [e.key], optional: e.optional });
    }
    for (const e of envFrom) {
      const owned = e.kind === 'secret' ? ownedSecrets.has(e.name) : ownedConfigMaps.has(e.name);
      if (!owned)
        add({
          ref: e.kind === 'secret' ? secret(e.name) : cm(e.name),
          option: envOption(spec, role, e),
          keys: [],
          optional: e.optional,
        });
    }
  }
  for (const name of spec.imagePullSecrets)
    refs.push({ ref: secret(name), option: 'kubernetes.image-pull-secrets', keys: [], optional: false });
  if (spec.runtimeConfigMap)
    refs.push({ ref: cm(spec.runtimeConfigMap), option: 'kubernetes.config-map', keys: [], optional: false });
  if (spec.checkpointPvc) {
    refs.push({
      ref: { apiVersion: 'v1', kind: 'PersistentVolumeClaim', namespace: ns, name: spec.checkpointPvc },
      option: 'kubernetes.checkpoint-pvc',
      keys: [],
      optional: false,
    });
  }
  return refs;
}

const keyOf = (r: ObjectRef) => `${r.kind}/${r.name}`;

function keysIn(obj: AnyObject): Set<string> {
  const data = (obj.data ?? {}) as Record<string, unknown>;
  const binary = (obj.binaryData ?? {}) as Record<string, unknown>;
  return new Set([...Object.keys(data), ...Object.keys(binary)]);
}

/**
 * With HA every master (and the coordinator) mounts the checkpoint PVC, on whatever node it runs:
 * only ReadWriteMany allows that. Undefined when the claim is fine.
 */
export function haClaimProblem(claim: AnyObject, masters: number): string | undefined {
  const modes = ((claim.spec as { accessModes?: string[] } | undefined)?.accessModes ?? []).filter(
    (m) => typeof m === 'string',
  );
  if (modes.includes('ReadWriteMany')) return undefined;
  return `has access modes ${modes.join(', ') || 'none'}: high availability needs ReadWriteMany, because ${masters} masters and the coordinator mount it, possibly on different nodes (a ReadWriteOnce volume attaches to one node only)`;
}

/**
 * Reads each referenced object once (in parallel) and returns every problem: missing objects,
 * missing keys, objects the caller may not read, a Lost PVC; and the notices to print. Throws only for errors that say
 * nothing about the object (the API server failing), so the caller does not proceed blind.
 */
export async function checkReferences(kube: Kube, spec: ApplicationSpec): Promise<ReferenceCheck> {
  const refs = referencedObjects(spec);
  const unique = new Map<string, ObjectRef>();
  for (const r of refs) unique.set(keyOf(r.ref), r.ref);
  const fetched = new Map<string, { obj?: AnyObject; error?: unknown }>();
  await Promise.all(
    [...unique].map(async ([k, ref]) => {
      try {
        // Secrets and ConfigMaps are read whole to check their keys (values are never printed);
        // the ServiceAccount and the PVC only as metadata.
        const withKeys = ref.kind === 'ConfigMap' || ref.kind === 'Secret';
        fetched.set(k, {
          obj: await kube.find(ref, { metadataOnly: !withKeys && ref.kind !== 'PersistentVolumeClaim' }),
        });
      } catch (error) {
        fetched.set(k, { error });
      }
    }),
  );
  const fatal = [...fetched.values()].find((f) => f.error !== undefined && !isStatus(f.error, 403));
  if (fatal) throw fatal.error;
  const problems: ReferenceProblem[] = [];
  const notices: ReferenceNotice[] = [];
  for (const r of refs) {
    const f = fetched.get(keyOf(r.ref))!;
    const what = `${r.ref.kind} ${r.ref.name}`;
    if (f.error !== undefined) {
      // A submitter Role without `get` on Secrets (submitterRules({ preProvisioned: true })) cannot
      // read them: the kubelet checks them when the Pods start, as it always does.
      const unreadable = r.ref.kind === 'Secret' && isStatus(f.error, 403);
      (unreadable ? notices : problems).push({
        ref: r.ref,
        option: r.option,
        message: unreadable
          ? `${r.option}: ${what} was not checked (this account may not read Secrets); the Pods will not start if it or a key is missing`
          : `${r.option}: cannot check ${what} in namespace ${r.ref.namespace}: ${describeError(f.error)}`,
      });
      continue;
    }
    if (!f.obj) {
      if (!r.optional)
        problems.push({
          ref: r.ref,
          option: r.option,
          message: `${r.option}: ${what} not found in namespace ${r.ref.namespace}`,
        });
      continue;
    }
    if (r.keys.length) {
      const present = keysIn(f.obj);
      const missing = r.keys.filter((key) => !present.has(key));
      if (missing.length && !r.optional) {
        problems.push({
          ref: r.ref,
          option: r.option,
          message: `${r.option}: ${what} has no key ${missing.map((m) => `"${m}"`).join(', ')} (keys: ${[...present].sort().join(', ') || 'none'})`,
        });
      }
    }
    if (r.option === 'kubernetes.config-map') {
      const found = runtimeConfigMapProblems(spec, r.ref, f.obj);
      problems.push(...found.problems);
      notices.push(...found.notices);
    }
    if (r.ref.kind === 'PersistentVolumeClaim' && (f.obj.status as { phase?: string } | undefined)?.phase === 'Lost') {
      problems.push({ ref: r.ref, option: r.option, message: `${r.option}: ${what} is Lost (its volume is gone)` });
    }
    if (r.ref.kind === 'PersistentVolumeClaim' && spec.ha) {
      const problem = haClaimProblem(f.obj, spec.ha.masters);
      if (problem) problems.push({ ref: r.ref, option: r.option, message: `${r.option}: ${what} ${problem}` });
    }
  }
  return { problems, notices };
}

/**
 * kubernetes.config-map: the files the engines will read must be there, and none may contradict
 * application mode — the same overlay the Pods run at start, applied now to the ConfigMap's data.
 * The notices name SeaTunnel's shipped defaults that application mode replaces.
 */
export function runtimeConfigMapProblems(spec: ApplicationSpec, ref: ObjectRef, obj: AnyObject): ReferenceCheck {
  const manifest = userFilesManifest(spec);
  if (!manifest) return { problems: [], notices: [] };
  const data = (obj.data ?? {}) as Record<string, string>;
  const generated = renderEngineFiles(spec).files;
  const { files, problems, notices } = overlayUserFiles(manifest, data, generated);
  const found = problems.map((p) => ({ ref, option: 'kubernetes.config-map', message: p.message }));
  // HA with the user's seatunnel.yaml and no shared claim: its checkpoint storage must be remote.
  const engine = files[ENGINE_FILES.masterEngine] ?? generated[ENGINE_FILES.masterEngine] ?? '';
  if (spec.ha && !spec.checkpointPvc && !isSharedFs(checkpointFs(engine))) {
    found.push({
      ref,
      option: 'kubernetes.config-map',
      message: checkpointStorageRule(checkpointFs(engine), `ConfigMap ${manifest.configMap}'s seatunnel.yaml`),
    });
  }
  return {
    problems: found,
    notices: notices.map((n) => ({ ref, option: 'kubernetes.config-map', message: n.message })),
  };
}
