// The plan's objects as YAML, byte for byte what the cdk8s door (lib/cdk8s/application.ts, one
// ApiObject per plan object in an App of one Chart) synthesizes — without loading cdk8s. The CLI's
// `synth` renders with it: cdk8s, constructs and cdk8s's own copy of `yaml` are about 170 files,
// most of a synth process's own time (docs/performance.md). What cdk8s does to plain JSON, and so
// what this repeats: keys sorted at every level, null and undefined dropped, empty arrays and
// objects dropped inside `metadata` only, `apiVersion`, `kind`, `metadata` first; YAML 1.1 with no
// line wrapping; documents joined by `---`. A unit test holds the two outputs equal over every
// shape of application (test/unit/plan/manifest-yaml.test.ts), so a cdk8s upgrade that changes its
// rules fails there, not in a user's diff.

import { stringify } from 'yaml';
import type { KubeObject } from './types';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** cdk8s's sanitizeValue: sorted keys, no null/undefined; optionally no empty arrays/objects. */
function sanitize(value: unknown, dropEmpty: boolean): Json | undefined {
  if (value === null || value === undefined) return undefined;
  if (typeof value !== 'object') return value as Json;
  if (Array.isArray(value)) {
    if (dropEmpty && value.length === 0) return undefined;
    return value.map((v) => sanitize(v, dropEmpty) as Json);
  }
  const out: { [key: string]: Json } = {};
  for (const key of Object.keys(value).sort()) {
    const v = sanitize((value as Record<string, unknown>)[key], dropEmpty);
    if (v !== null && v !== undefined) out[key] = v;
  }
  if (dropEmpty && Object.keys(out).length === 0) return undefined;
  return out;
}

/** One object as cdk8s's ApiObject.toJson gives it. */
export function manifestJson(obj: KubeObject): Record<string, Json> {
  const metadata = sanitize(obj.metadata ?? {}, true);
  const whole = sanitize({ ...obj, ...(metadata === undefined ? {} : { metadata }) }, false) as Record<string, Json>;
  if (metadata === undefined) delete whole.metadata;
  const ordered: Record<string, Json> = {};
  for (const key of ['apiVersion', 'kind', 'metadata', ...Object.keys(whole)])
    if (key in whole && !(key in ordered)) ordered[key] = whole[key];
  return ordered;
}

/** Objects as one multi-document YAML text, as cdk8s's App.synthYaml writes it. */
export function manifestYaml(objects: readonly KubeObject[]): string {
  return objects
    .map((o) => stringify(manifestJson(o), { keepUndefined: true, lineWidth: 0, version: '1.1' }))
    .join('---\n');
}
