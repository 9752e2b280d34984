// SeaTunnel's deployment file (`-a deploy.conf`, HOCON) plus `-Dkey=value` overrides and the
// `--job-id` / `--restore-job-id` flags → typed props. Precedence: flags > -D > file > defaults;
// overrides are merged before the file's ${…} substitutions are resolved, as SeaTunnel does.

import { distance } from 'fastest-levenshtein';
import { HoconError, parseHocon } from '../hocon';
import type { CoerceContext } from './coerce';
import { restoreOutOfRangeNumbers } from './exact-numbers';
import { ConfigurationError, IssueCollector, redact, type ValidationIssue, type ValueSource } from './issues';
import { FILE_OPTIONS, optionPath, type OptionDef } from './options';
import { traceOrigins, type OriginMap } from './origins';
import type { SeaTunnelApplicationProps } from './props';

export interface DeploymentInput {
  /** Text of the deployment file; undefined when no `-a` was given. */
  readonly deploymentText?: string;
  /** Its path, for messages and for resolving relative paths inside it. */
  readonly deploymentFile?: string;
  /** `-Dkey=value` overrides in command-line order (a later one wins). */
  readonly overrides?: ReadonlyArray<readonly [string, string]>;
  /** `--job-id` and `--restore-job-id`. */
  readonly jobId?: string;
  readonly restoreJobId?: string;
  /** Text of the job file (`-c`). */
  readonly jobConfig?: string;
  /** Environment for ${VAR} fallbacks in the deployment file (the submitting host's). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /**
   * The deployment file is trusted (the CLI's --trust-deployment-file): host environment
   * variables may go into plain-text places (labels, annotations, ConfigMap data, env literals),
   * with a warning. Otherwise that is an error: a deployment file from a pull request must not
   * carry the CI's environment into objects anyone with `view` reads.
   */
  readonly trusted?: boolean;
  /** Reads files included by the deployment file. */
  readonly readInclude?: (name: string, from: string | undefined) => { text: string; filename: string } | undefined;
}

export interface DeploymentOptions {
  readonly props: Partial<SeaTunnelApplicationProps>;
  /** Where each prop came from, for error messages. */
  readonly sources: ReadonlyMap<keyof SeaTunnelApplicationProps, ValueSource>;
  /** Problems found while reading (unknown keys, wrong types); resolution adds the rest. */
  readonly issues: readonly ValidationIssue[];
  /** Props whose value was present but unusable (so "is required" is not reported twice). */
  readonly rejected: ReadonlySet<keyof SeaTunnelApplicationProps>;
  /** Things that work but deserve the user's attention (they never contain a value). */
  readonly warnings: readonly string[];
}

type Tree = Record<string, unknown>;
const isObject = (v: unknown): v is Tree => typeof v === 'object' && v !== null && !Array.isArray(v);

const BY_PATH = new Map<string, [keyof SeaTunnelApplicationProps, OptionDef]>(
  FILE_OPTIONS.map(([prop, def]) => [optionPath(def), [prop, def]]),
);
const PREFIXES = new Set<string>();
for (const path of BY_PATH.keys()) {
  const parts = path.split('.');
  for (let i = 1; i < parts.length; i++) PREFIXES.add(parts.slice(0, i).join('.'));
}
const JOB_SECTIONS = new Set(['env', 'source', 'transform', 'sink']);

/** A job file given as the deployment file usually fails on its ${VAR} placeholders first; say what happened. */
function jobFileHint(input: DeploymentInput): ValidationIssue[] {
  try {
    const tree = parseHocon(input.deploymentText ?? '').resolve({ env: input.env ?? {}, allowUnresolved: true });
    const sections = Object.keys(tree).filter((k) => JOB_SECTIONS.has(k));
    return sections.length
      ? [
          {
            key: sections[0],
            rule: 'looks like a job config section; pass the job file with -c, the deployment file with -a',
          },
        ]
      : [];
  } catch {
    return [];
  }
}

/** The closest known option key, if it is close enough to be a likely typo. */
export function suggestOption(key: string): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const [, def] of FILE_OPTIONS) {
    const candidate = optionPath(def);
    const d = distance(key, candidate);
    if (d < bestDistance) {
      best = def.key;
      bestDistance = d;
    }
  }
  return best !== undefined && bestDistance <= Math.max(2, Math.floor(key.length / 4)) ? best : undefined;
}

/** Parses `-Dkey=value` (or `key=value`) into a pair; the key must be non-empty. */
export function parseOverride(arg: string): readonly [string, string] | undefined {
  const text = arg.startsWith('-D') ? arg.slice(2) : arg;
  const eq = text.indexOf('=');
  if (eq <= 0) return undefined;
  return [text.slice(0, eq).trim(), text.slice(eq + 1)];
}

export function readDeploymentOptions(input: DeploymentInput): DeploymentOptions {
  const issues = new IssueCollector();
  const file = input.deploymentFile ?? 'deployment file';
  let tree: Tree;
  const overridden = new Set<string>();
  let origins: OriginMap = new Map();
  try {
    const base = parseHocon(input.deploymentText ?? '', { filename: file, readInclude: input.readInclude });
    let doc = base;
    for (const [key, value] of input.overrides ?? []) {
      if (key === '') {
        issues.add({ key: '-D', value, rule: 'an override must look like -Dkey=value or -ikey=value' });
        continue;
      }
      doc = doc.withOverride(key, value);
      overridden.add(key);
    }
    const report = doc.resolveWithReport({ env: input.env ?? {} });
    tree = report.value;
    restoreOutOfRangeNumbers(tree, () => report.toJson());
    if (overridden.size > 0 || report.envUsed.length > 0) {
      origins = traceOrigins({ base, overrides: input.overrides ?? [], envUsed: report.envUsed });
    }
    // An override of a Secret data key is found by its key even if tracing found nothing.
    for (const key of overridden) {
      if (SECRET_DATA_PATH.test(key) && !origins.has(key))
        origins = new Map([...origins, [key, [{ kind: 'override', key }]]]);
    }
  } catch (e) {
    if (e instanceof HoconError) {
      throw new ConfigurationError(
        [{ key: file, rule: e.message }, ...jobFileHint(input)],
        'Cannot read the deployment file',
      );
    }
    throw e;
  }

  const props: Record<string, unknown> = {};
  const rejected = new Set<keyof SeaTunnelApplicationProps>();
  const sources = new Map<keyof SeaTunnelApplicationProps, ValueSource>();
  const sourceOf = (path: string): ValueSource =>
    [...overridden].some((k) => k === path || k.startsWith(`${path}.`) || path.startsWith(`${k}.`))
      ? 'command-line override'
      : 'deployment file';

  const walk = (node: Tree, path: string) => {
    for (const [k, value] of Object.entries(node)) {
      const p = path ? `${path}.${k}` : k;
      const hit = BY_PATH.get(p);
      if (hit) {
        const [prop, def] = hit;
        const source = sourceOf(p);
        const ctx: CoerceContext = { key: def.key.replace(/\.<[^>]+>$/, ''), source, report: (i) => issues.add(i) };
        const coerced = def.coerce(value, ctx);
        if (coerced !== undefined) {
          props[prop] = coerced;
          sources.set(prop, source);
        } else {
          rejected.add(prop);
        }
      } else if (PREFIXES.has(p) && isObject(value)) {
        walk(value, p);
      } else if (path === '') {
        topLevel(k, value);
      } else {
        unknownKey(p, value);
      }
    }
  };

  const unknownKey = (p: string, value: unknown) => {
    const suggestion = suggestOption(p);
    issues.add({
      key: p,
      value: mayShowUnknown(p, value, suggestion) ? value : redact(value),
      source: sourceOf(p),
      rule: `unknown option${suggestion ? `; did you mean ${suggestion}?` : ''} (see docs/options.md)`,
    });
  };

  // Keys outside application/kubernetes are allowed as substitution helpers (`ns = prod` then
  // `kubernetes.namespace = ${ns}`), except ones that are clearly a mistake.
  const topLevel = (k: string, value: unknown) => {
    if (k === 'application' || k === 'kubernetes') {
      issues.add({ key: k, value, rule: 'must be an object of options' });
    } else if (JOB_SECTIONS.has(k)) {
      issues.add({
        key: k,
        rule: 'looks like a job config section; pass the job file with -c, the deployment file with -a',
      });
    } else if (distance(k, 'kubernetes') <= 3 || distance(k, 'application') <= 3) {
      issues.add({
        key: k,
        rule: `unknown top-level key; did you mean ${distance(k, 'kubernetes') <= 3 ? 'kubernetes' : 'application'}?`,
      });
    }
  };

  walk(tree, '');

  const flag = (prop: 'jobId' | 'restoreJobId', flagName: string, value: string | undefined) => {
    if (value === undefined) return;
    if (!/^\d+$/.test(value.trim())) {
      issues.add({ key: flagName, value, rule: 'must be a positive integer', source: 'command-line flag' });
      rejected.add(prop);
      return;
    }
    props[prop] = value.trim();
    sources.set(prop, 'command-line flag');
  };
  flag('jobId', '--job-id', input.jobId);
  flag('restoreJobId', '--restore-job-id', input.restoreJobId);
  if (input.jobConfig !== undefined) props.jobConfig = input.jobConfig;

  const warnings: string[] = [];
  checkOrigins(origins, issues, warnings, input.trusted === true);
  return { props, sources, issues: issues.issues, rejected, warnings };
}

/**
 * The value of an unknown option is shown when it is a scalar whose key does not look like it
 * holds a secret: an object may be a misspelt `kubernetes.secret.<entry>` with its data.
 */
function mayShowUnknown(key: string, value: unknown, suggestion: string | undefined): boolean {
  const scalar = typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
  const secretLike = /secret|passw|token|credential/i;
  return scalar && !secretLike.test(key) && !(suggestion !== undefined && secretLike.test(suggestion));
}

/** Leaf paths whose text lands in plain-text objects (labels, annotations, ConfigMaps, env literals). */
const PLAIN_TEXT_PATHS: ReadonlyArray<[RegExp, string]> = [
  [/^kubernetes\.(?:master\.|worker\.)?labels(?:$|\.)/, 'labels'],
  [/^kubernetes\.(?:master\.|worker\.)?annotations(?:$|\.)/, 'annotations'],
  [/^kubernetes\.configmap\.[^.]+\.data(?:$|\.)/, 'ConfigMap data'],
  [/^kubernetes\.(?:master\.|worker\.)?env\.[^.]+(?:\.value)?$/, 'environment variable values'],
];
const SECRET_DATA_PATH = /^kubernetes\.secret\.[^.]+\.data(?:$|\.)/;

/**
 * Secret data must not come from the command line (visible in `ps` and shell history); host
 * environment variables substituted into plain-text places, where a `${DB_PASSWORD}` would be
 * readable by anyone who can read the objects, are refused — unless the deployment file is
 * trusted, and then named in a warning.
 */
function checkOrigins(origins: OriginMap, issues: IssueCollector, warnings: string[], trusted: boolean): void {
  const envTargets = new Map<string, Set<string>>();
  for (const [path, from] of origins) {
    if (SECRET_DATA_PATH.test(path)) {
      const overrides = from.flatMap((o) => (o.kind === 'override' ? [o.key] : []));
      if (overrides.length) {
        issues.add({
          key: path,
          source: 'command-line override',
          rule: `Secret data must not come from a command-line override (${overrides.map((k) => `-D${k}`).join(', ')}): command lines are visible to other users of the host and kept in shell history; put it in the deployment file, or mount an existing Secret with ref or kubernetes.secret-ref`,
        });
      }
      continue;
    }
    const place = PLAIN_TEXT_PATHS.find(([re]) => re.test(path));
    if (!place) continue;
    for (const o of from) {
      if (o.kind !== 'env') continue;
      const targets = envTargets.get(o.name) ?? new Set<string>();
      targets.add(path);
      envTargets.set(o.name, targets);
    }
  }
  for (const [name, paths] of envTargets) {
    if (!trusted) {
      for (const key of paths)
        issues.add({
          key,
          source: 'deployment file',
          rule: `the host environment variable ${name} is substituted here; a host environment variable may not go into labels, annotations, ConfigMap data or env literals, which anyone who can read the objects reads: for a secret use kubernetes.secret.<entry> or an env value { secret = …, key = … }; if the deployment file is yours, trust it with --trust-deployment-file`,
        });
      continue;
    }
    warnings.push(
      `the host environment variable ${name} is substituted into ${[...paths].join(', ')}, which ${paths.size === 1 ? 'is' : 'are'} stored in plain text in the generated objects; for a secret use kubernetes.secret.<entry> or an env value { secret = …, key = … }`,
    );
  }
}
