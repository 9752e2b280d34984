// Team templates: a platform team defines defaults once; each team derives applications (or
// narrower templates) that override only what they need.
//
// Merge semantics (parent = template, child = what is derived from it):
//   - single values (image, namespace, counts, flags, …): the child's value wins;
//   - string maps (labels, annotations, node selectors): merged key by key, the child wins per key;
//   - lists (imagePullSecrets, tolerations, topology spread constraints): the child's items are
//     added after the parent's, duplicates dropped; a spread topology is one setting, not a list
//     of grants, so the child's replaces the parent's;
//   - entry maps (configMaps, secrets, env, envFrom and their per-role forms) and runtimeFiles: merged by entry name; an
//     entry the child names replaces the parent's entry of that name whole (entries are units);
//   - locked props: a child that sets a locked prop to a different value is rejected, and so is
//     a child that reaches the same thing through another prop (LOCK_COVERS).

import { IssueCollector, bigintsAsText, describeValue, isSecretKey, redact } from './issues';
import { isOptionDef, OPTIONS } from './options';
import type { SeaTunnelApplicationProps } from './props';

type Props = SeaTunnelApplicationProps;
type PropName = keyof Props;

const STRING_MAPS: readonly PropName[] = [
  'labels',
  'annotations',
  'masterLabels',
  'workerLabels',
  'masterAnnotations',
  'workerAnnotations',
  'masterNodeSelector',
  'workerNodeSelector',
  'metricsScraperNamespaceLabels',
  'metricsScraperPodLabels',
  'metricsPodMonitorLabels',
];
const LISTS: readonly PropName[] = [
  'imagePullSecrets',
  'masterTolerations',
  'workerTolerations',
  'masterTopologySpreadConstraints',
  'workerTopologySpreadConstraints',
];
const ENTRY_MAPS: readonly PropName[] = [
  'configMaps',
  'secrets',
  'env',
  'envFrom',
  'masterEnv',
  'workerEnv',
  'masterEnvFrom',
  'workerEnvFrom',
  'runtimeFiles',
];

/**
 * Props that decide the same thing as a locked prop, so a lock covers them too:
 *  - `image` chooses the code the Pods run; `runtimeImage` runs in the same Pods (init container);
 *  - a key of `labels` / `annotations` is on every object; the per-role maps could override it
 *    on the Pods, so they may not set a key the locked map has (to a different value);
 *  - a variable of `env` (an entry of `envFrom`) is on every engine container; the per-role forms
 *    replace it by name on their role's Pods, so the same holds for them.
 */
const LOCK_COVERS: Partial<Record<PropName, readonly PropName[]>> = {
  image: ['runtimeImage'],
  labels: ['masterLabels', 'workerLabels'],
  annotations: ['masterAnnotations', 'workerAnnotations'],
  env: ['masterEnv', 'workerEnv'],
  envFrom: ['masterEnvFrom', 'workerEnvFrom'],
};

const registryDefault = (prop: PropName): unknown => {
  const def = OPTIONS[prop];
  return isOptionDef(def) ? def.default : undefined;
};

/** Defaults a template may carry: anything but the per-job identity. */
export type TemplateDefaults = Partial<Omit<Props, 'applicationId' | 'jobId' | 'restoreJobId' | 'jobConfig'>>;

export interface TeamTemplateOptions {
  /** A name used in error messages, e.g. "platform". @default 'team template' */
  readonly name?: string;
  /** Props that derived templates and applications may not change. @default - none */
  readonly locked?: readonly PropName[];
}

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a, bigintsAsText) === JSON.stringify(b, bigintsAsText);

/** Merges `child` over `parent` with the semantics described at the top of this file. */
export function mergeProps<T extends Partial<Props>>(parent: Partial<Props>, child: T): T & Partial<Props> {
  const out: Record<string, unknown> = { ...parent };
  for (const [k, v] of Object.entries(child) as Array<[PropName, unknown]>) {
    if (v === undefined) continue;
    const p = parent[k] as unknown;
    if (p !== undefined && STRING_MAPS.includes(k)) {
      out[k] = { ...(p as object), ...(v as object) };
    } else if (p !== undefined && LISTS.includes(k)) {
      const merged = [...(p as unknown[])];
      for (const item of v as unknown[]) if (!merged.some((m) => sameJson(m, item))) merged.push(item);
      out[k] = merged;
    } else if (p !== undefined && ENTRY_MAPS.includes(k)) {
      out[k] = { ...(p as object), ...(v as object) };
    } else {
      out[k] = v;
    }
  }
  return out as T & Partial<Props>;
}

export class TeamTemplate {
  readonly defaults: TemplateDefaults;
  readonly name: string;
  readonly locked: readonly PropName[];

  constructor(defaults: TemplateDefaults, options: TeamTemplateOptions = {}) {
    this.defaults = defaults;
    this.name = options.name ?? 'team template';
    this.locked = options.locked ?? [];
  }

  /** A narrower template (e.g. one team's) that keeps this template's locks and adds its own. */
  extend(defaults: TemplateDefaults, options: TeamTemplateOptions = {}): TeamTemplate {
    this.checkLocks(defaults);
    return new TeamTemplate(mergeProps(this.defaults, defaults), {
      name: options.name ?? this.name,
      locked: [...new Set([...this.locked, ...(options.locked ?? [])])],
    });
  }

  /** The props of one application derived from this template. */
  application(props: Partial<Props>): Props {
    this.checkLocks(props);
    return mergeProps(this.defaults, props) as Props;
  }

  private checkLocks(child: Partial<Props>): void {
    const issues = new IssueCollector();
    const shown = (k: PropName, v: unknown) => (isSecretKey(k) ? redact(v) : v);
    for (const k of this.locked) {
      const locked = this.defaults[k as keyof TemplateDefaults];
      const v = child[k];
      if (v !== undefined) {
        const merged = mergeProps(this.defaults, { [k]: v })[k];
        if (!sameJson(merged, locked)) {
          issues.add({
            key: k,
            value: v,
            source: 'props',
            rule: `is locked by ${this.name} (value ${describeValue(shown(k, locked))}); ask the platform team to change it`,
          });
        }
      }
      for (const other of LOCK_COVERS[k] ?? []) {
        const ov = child[other];
        if (ov === undefined || this.locked.includes(other)) continue;
        if (STRING_MAPS.includes(k) || ENTRY_MAPS.includes(k)) {
          const lockedMap = (locked ?? {}) as Record<string, unknown>;
          const clash = Object.entries(ov as Record<string, unknown>).filter(
            ([key, val]) => key in lockedMap && !sameJson(lockedMap[key], val),
          );
          for (const [key, val] of clash) {
            issues.add({
              key: `${other}.${key}`,
              value: val,
              source: 'props',
              rule: `${k}.${key} is locked by ${this.name} (value ${describeValue(lockedMap[key])}); ${other} may not override it`,
            });
          }
        } else if (!sameJson(ov, this.defaults[other as keyof TemplateDefaults] ?? registryDefault(other))) {
          issues.add({
            key: other,
            value: ov,
            source: 'props',
            rule: `${k} is locked by ${this.name}, and ${other} would run other code in the same Pods; ask the platform team to change it`,
          });
        }
      }
    }
    issues.throwIfAny(`Not allowed by ${this.name}`);
  }
}
