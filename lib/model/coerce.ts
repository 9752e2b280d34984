// Turns raw values from a deployment file or a `-D` override (HOCON values, where `-D` gives
// strings) into the typed shape of SeaTunnelApplicationProps. Shape and type only: rules about
// the values themselves live in rules/ (applied by resolve.ts), so typed props get exactly the
// same checks.

import { isOneOf, POD_ROLES } from './allowed-values';
import { OutOfRangeNumber, type ValidationIssue, type ValueSource } from './issues';

export interface CoerceContext {
  readonly key: string;
  readonly source?: ValueSource;
  report(issue: ValidationIssue): void;
}

export type Coercer<T> = (raw: unknown, ctx: CoerceContext) => T | undefined;

function fail(ctx: CoerceContext, raw: unknown, rule: string): undefined {
  ctx.report({ key: ctx.key, value: raw, rule, source: ctx.source });
  return undefined;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

export const asString: Coercer<string> = (raw, ctx) => {
  if (typeof raw === 'string') return raw;
  if (typeof raw === 'number' || typeof raw === 'bigint' || typeof raw === 'boolean' || raw instanceof OutOfRangeNumber)
    return String(raw);
  return fail(ctx, raw, 'must be a string');
};

export const asInteger: Coercer<number> = (raw, ctx) => {
  if (typeof raw === 'number' && Number.isInteger(raw)) return raw;
  if (typeof raw === 'bigint') return fail(ctx, raw, 'must be an integer within ±2^53');
  if (typeof raw === 'string' && /^\s*[-+]?\d+\s*$/.test(raw)) {
    const n = Number(raw.trim());
    if (Number.isSafeInteger(n)) return n;
  }
  return fail(ctx, raw, 'must be an integer');
};

const FINITE_RULE = `must be a finite number (at most ${Number.MAX_VALUE.toPrecision(2)} in magnitude)`;

export const asNumber: Coercer<number> = (raw, ctx) => {
  if (typeof raw === 'number') return Number.isFinite(raw) ? raw : fail(ctx, raw, FINITE_RULE);
  if (raw instanceof OutOfRangeNumber) return fail(ctx, raw, FINITE_RULE);
  if (typeof raw === 'string' && /^\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*$/.test(raw)) {
    const n = Number(raw.trim());
    return Number.isFinite(n) ? n : fail(ctx, raw, FINITE_RULE);
  }
  return fail(ctx, raw, 'must be a number');
};

/** 63-bit IDs: kept as decimal strings so no digit is lost to floating point. */
export const asLong: Coercer<string> = (raw, ctx) => {
  if (typeof raw === 'bigint') return raw.toString();
  if (typeof raw === 'number') {
    if (Number.isSafeInteger(raw)) return String(raw);
    return fail(
      ctx,
      raw,
      'must be an integer; values above 2^53 must be written as a quoted string to keep every digit',
    );
  }
  if (typeof raw === 'string' && /^\s*[-+]?\d+\s*$/.test(raw)) return raw.trim().replace(/^\+/, '');
  return fail(ctx, raw, 'must be an integer');
};

// HOCON's boolean conversions (true/false/yes/no/on/off).
const TRUE = new Set(['true', 'yes', 'on']);
const FALSE = new Set(['false', 'no', 'off']);

export const asBoolean: Coercer<boolean> = (raw, ctx) => {
  if (typeof raw === 'boolean') return raw;
  if (typeof raw === 'string') {
    const v = raw.trim().toLowerCase();
    if (TRUE.has(v)) return true;
    if (FALSE.has(v)) return false;
  }
  return fail(ctx, raw, 'must be true or false');
};

export function asEnum<T extends string>(values: readonly T[]): Coercer<T> {
  return (raw, ctx) => {
    if (typeof raw === 'string' && (values as readonly string[]).includes(raw)) return raw as T;
    const hint =
      typeof raw === 'string' && values.find((v) => v.toLowerCase() === raw.toLowerCase())
        ? ` (case-sensitive: did you mean "${values.find((v) => v.toLowerCase() === raw.toLowerCase())}"?)`
        : ' (case-sensitive)';
    return fail(ctx, raw, `must be one of ${values.join(', ')}${hint}`);
  };
}

/** A list: a HOCON array, or a comma-separated string (entries trimmed; an empty entry is an error). */
export const asStringList: Coercer<string[]> = (raw, ctx) => {
  if (Array.isArray(raw)) {
    const out: string[] = [];
    raw.forEach((item, i) => {
      const s = asString(item, { ...ctx, key: `${ctx.key}[${i}]` });
      if (s !== undefined) out.push(s.trim());
    });
    return out;
  }
  if (typeof raw === 'string') {
    if (raw.trim() === '') return [];
    const items = raw.split(',').map((s) => s.trim());
    if (items.some((s) => s === ''))
      return fail(ctx, raw, 'is a comma-separated list and must not contain an empty entry');
    return items;
  }
  return fail(ctx, raw, 'must be a list (a HOCON array or a comma-separated string)');
};

/**
 * A string map: a HOCON object, or SeaTunnel's `k:v,k:v` string (split on ",", each item at the
 * first ":", key and value trimmed, the key non-empty, duplicate keys rejected, blank means
 * empty). A value may be empty (`k:`): Kubernetes allows empty label and selector values.
 */
export const asStringMap: Coercer<Record<string, string>> = (raw, ctx) => {
  if (isPlainObject(raw)) {
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(flattenMapKeys(raw))) {
      const s = asString(v, { ...ctx, key: `${ctx.key}.${k}` });
      if (s !== undefined) out[k] = s;
    }
    return out;
  }
  if (typeof raw === 'string') {
    const out: Record<string, string> = {};
    if (raw.trim() === '') return out;
    let ok = true;
    for (const item of raw.split(',')) {
      const colon = item.indexOf(':');
      const k = colon < 0 ? item.trim() : item.slice(0, colon).trim();
      const v = colon < 0 ? '' : item.slice(colon + 1).trim();
      if (colon < 0 || k === '') {
        fail(ctx, raw, `every item must be "key:value" with a non-empty key (bad item ${JSON.stringify(item.trim())})`);
        ok = false;
      } else if (k in out) {
        fail(ctx, raw, `duplicate key "${k}"`);
        ok = false;
      } else {
        out[k] = v;
      }
    }
    return ok ? out : undefined;
  }
  return fail(ctx, raw, 'must be an object or a "key:value,key:value" string');
};

// In HOCON, an unquoted dotted key such as `app.kubernetes.io/team = x` becomes nested objects;
// for label and annotation maps the user meant one key, so nested keys are joined back with ".".
function flattenMapKeys(obj: Record<string, unknown>, prefix = ''): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(obj)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (isPlainObject(v)) Object.assign(out, flattenMapKeys(v, key));
    else out[key] = v;
  }
  return out;
}

const TOLERATION_KEYS = ['key', 'operator', 'value', 'effect', 'toleration-seconds', 'tolerationSeconds'];

/** Tolerations: a HOCON array of objects, or a string "key[=value][:Effect],…" (operator Exists without "="). */
export const asTolerations: Coercer<Array<Record<string, unknown>>> = (raw, ctx) => {
  if (Array.isArray(raw)) {
    const out: Array<Record<string, unknown>> = [];
    raw.forEach((item, i) => {
      const key = `${ctx.key}[${i}]`;
      if (!isPlainObject(item)) {
        fail({ ...ctx, key }, item, 'must be an object with key, operator, value, effect, toleration-seconds');
        return;
      }
      const unknown = Object.keys(item).filter((k) => !TOLERATION_KEYS.includes(k));
      if (unknown.length) {
        fail(
          { ...ctx, key },
          item,
          `unknown field(s) ${unknown.join(', ')}; allowed: key, operator, value, effect, toleration-seconds`,
        );
        return;
      }
      const t: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(item)) {
        if (k === 'toleration-seconds' || k === 'tolerationSeconds') {
          const n = asInteger(v, { ...ctx, key: `${key}.toleration-seconds` });
          if (n !== undefined) t.tolerationSeconds = n;
        } else {
          const s = asString(v, { ...ctx, key: `${key}.${k}` });
          if (s !== undefined) t[k] = s;
        }
      }
      out.push(t);
    });
    return out;
  }
  if (typeof raw === 'string') {
    if (raw.trim() === '') return [];
    const out: Array<Record<string, unknown>> = [];
    for (const item of raw.split(',').map((s) => s.trim())) {
      const m = /^([^=:]*)(?:=([^:]*))?(?::(\w+))?$/.exec(item);
      if (!m || item === '') {
        fail(
          ctx,
          raw,
          `every item must look like "key=value:Effect", "key:Effect" or "key" (bad item ${JSON.stringify(item)})`,
        );
        continue;
      }
      const t: Record<string, unknown> = {};
      if (m[1]) t.key = m[1].trim();
      if (m[2] !== undefined) {
        t.operator = 'Equal';
        t.value = m[2].trim();
      } else {
        t.operator = 'Exists';
      }
      if (m[3]) t.effect = m[3];
      out.push(t);
    }
    return out;
  }
  return fail(ctx, raw, 'must be a list of toleration objects or a "key=value:Effect,…" string');
};

/**
 * An object whose fields are fixed: unknown fields are reported with the allowed ones, each field
 * converted by its own coercer. Used for the entries of option families.
 */
export function asRecord<T>(
  fields: Record<string, { prop: string; coerce: Coercer<unknown> }>,
  what: string,
): Coercer<T> {
  return (raw, ctx) => {
    if (!isPlainObject(raw)) return fail(ctx, raw, `must be an object (${what})`);
    const out: Record<string, unknown> = {};
    let ok = true;
    for (const [k, v] of Object.entries(raw)) {
      const f = fields[k];
      if (!f) {
        fail({ ...ctx, key: `${ctx.key}.${k}` }, v, `unknown field; ${what} accepts ${Object.keys(fields).join(', ')}`);
        ok = false;
        continue;
      }
      const value = f.coerce(v, { ...ctx, key: `${ctx.key}.${k}` });
      if (value === undefined) ok = false;
      else out[f.prop] = value;
    }
    return ok ? (out as T) : undefined;
  };
}

/** An object keyed by user-chosen entry names, each entry converted by `entry`. */
export function asEntries<T>(entry: Coercer<T>): Coercer<Record<string, T>> {
  return (raw, ctx) => {
    if (!isPlainObject(raw)) return fail(ctx, raw, 'must be an object keyed by entry name');
    const out: Record<string, T> = {};
    for (const [name, v] of Object.entries(raw)) {
      const value = entry(v, { ...ctx, key: `${ctx.key}.${name}` });
      if (value !== undefined) out[name] = value;
    }
    return out;
  };
}

/** A map whose values are strings, from a HOCON object (keys kept as written, e.g. file names). */
export const asFileMap: Coercer<Record<string, string>> = (raw, ctx) => {
  if (!isPlainObject(raw)) return fail(ctx, raw, 'must be an object of key = value');
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(flattenMapKeys(raw))) {
    const s = asString(v, { ...ctx, key: `${ctx.key}."${k}"` });
    if (s !== undefined) out[k] = s;
  }
  return out;
};

export const asRoles: Coercer<Array<(typeof POD_ROLES)[number]>> = (raw, ctx) => {
  const list = asStringList(raw, ctx);
  if (!list) return undefined;
  if (!list.every((r) => isOneOf(POD_ROLES, r))) return fail(ctx, raw, 'roles must be "master" and/or "worker"');
  return list;
};

/** An environment variable value: a literal string, or `{ secret, key }` / `{ configmap, key }` / `{ value }`. */
export const asEnvValue: Coercer<unknown> = (raw, ctx) => {
  if (typeof raw === 'string' || typeof raw === 'number' || typeof raw === 'boolean' || typeof raw === 'bigint') {
    return String(raw);
  }
  return asRecord<Record<string, unknown>>(
    {
      value: { prop: 'value', coerce: asString },
      secret: { prop: 'secret', coerce: asString },
      configmap: { prop: 'configmap', coerce: asString },
      key: { prop: 'key', coerce: asString },
      optional: { prop: 'optional', coerce: asBoolean },
    },
    'an environment value: a string, { value }, { secret, key } or { configmap, key }',
  )(raw, ctx);
};

/** A list whose items are each converted by `item`; the whole list fails when any item does. */
function asListOf<T>(item: Coercer<T>, what: string): Coercer<T[]> {
  return (raw, ctx) => {
    if (!Array.isArray(raw)) return fail(ctx, raw, `must be a list of ${what}`);
    const out: T[] = [];
    let ok = true;
    raw.forEach((v, i) => {
      const value = item(v, { ...ctx, key: `${ctx.key}[${i}]` });
      if (value === undefined) ok = false;
      else out.push(value);
    });
    return ok ? out : undefined;
  };
}

/** Fields of an object written as Kubernetes spells them (`maxSkew`) or as deployment-file keys are (`max-skew`). */
function kubernetesFields(
  fields: Record<string, Coercer<unknown>>,
): Record<string, { prop: string; coerce: Coercer<unknown> }> {
  const out: Record<string, { prop: string; coerce: Coercer<unknown> }> = {};
  for (const [prop, coerce] of Object.entries(fields)) {
    out[prop] = { prop, coerce };
    out[prop.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)] = { prop, coerce };
  }
  return out;
}

const asLabelSelector = asRecord(
  kubernetesFields({
    matchLabels: asStringMap,
    matchExpressions: asListOf(
      asRecord(kubernetesFields({ key: asString, operator: asString, values: asStringList }), 'a selector requirement'),
      'selector requirements',
    ),
  }),
  'a label selector',
);

const asTopologySpreadConstraint = asRecord(
  kubernetesFields({
    maxSkew: asInteger,
    topologyKey: asString,
    whenUnsatisfiable: asString,
    labelSelector: asLabelSelector,
    minDomains: asInteger,
    nodeAffinityPolicy: asString,
    nodeTaintsPolicy: asString,
    matchLabelKeys: asStringList,
  }),
  'a topology spread constraint',
);

/**
 * Topology spread constraints: a HOCON array of objects (Kubernetes' field names, or the same in
 * kebab-case), or a `-D` string "topologyKey:maxSkew:whenUnsatisfiable,…".
 */
export const asTopologySpreadConstraints: Coercer<unknown[]> = (raw, ctx) => {
  if (typeof raw !== 'string') return asListOf(asTopologySpreadConstraint, 'topology spread constraints')(raw, ctx);
  if (raw.trim() === '') return [];
  const out: unknown[] = [];
  for (const item of raw.split(',').map((s) => s.trim())) {
    const parts = item.split(':').map((s) => s.trim());
    const maxSkew = parts.length === 3 && /^\d+$/.test(parts[1]) ? Number(parts[1]) : undefined;
    if (maxSkew === undefined || !parts[0] || !parts[2])
      return fail(
        ctx,
        raw,
        `every item must look like "topologyKey:maxSkew:whenUnsatisfiable", e.g. "topology.kubernetes.io/zone:1:DoNotSchedule" (bad item ${JSON.stringify(item)})`,
      );
    out.push({ topologyKey: parts[0], maxSkew, whenUnsatisfiable: parts[2] });
  }
  return out;
};
