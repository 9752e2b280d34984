// Where the text of each deployment-file value came from: which host environment variables and
// which command-line overrides were substituted into it. The document is resolved a second time
// with every used variable and every override replaced by a unique marker, and the markers are
// looked up in the result. Markers are strings, as environment values and override values are,
// so the second resolution has the same shape as the first; no value is kept, only names.

import { randomBytes } from 'node:crypto';
import type { HoconDocument } from '../hocon';

export type ValueOrigin =
  { readonly kind: 'env'; readonly name: string } | { readonly kind: 'override'; readonly key: string };

/** Leaf path (`kubernetes.labels.team`, `a.b[0]`) → the origins whose text it contains. */
export type OriginMap = ReadonlyMap<string, readonly ValueOrigin[]>;

export interface TraceInput {
  /** The parsed document, before overrides. */
  readonly base: HoconDocument;
  /** Overrides in command-line order. */
  readonly overrides: ReadonlyArray<readonly [string, string]>;
  /** Names of the environment variables the real resolution used. */
  readonly envUsed: readonly string[];
}

export function traceOrigins(input: TraceInput): OriginMap {
  const origins: ValueOrigin[] = [];
  const nonce = randomBytes(6).toString('hex');
  const marker = (o: ValueOrigin) => `\u0000${nonce}:${origins.push(o) - 1}\u0000`;
  let doc = input.base;
  for (const [key, _value] of input.overrides)
    if (key !== '') doc = doc.withOverride(key, marker({ kind: 'override', key }));
  const env: Record<string, string> = {};
  for (const name of input.envUsed) env[name] = marker({ kind: 'env', name });
  const tree = doc.resolve({ env });
  const found = new RegExp(`\u0000${nonce}:(\\d+)\u0000`, 'g');
  const out = new Map<string, ValueOrigin[]>();
  const walk = (v: unknown, path: string) => {
    if (typeof v === 'string') {
      const hits = [...v.matchAll(found)].map((m) => origins[Number(m[1])]);
      if (hits.length) out.set(path, [...new Set(hits)]);
    } else if (Array.isArray(v)) {
      v.forEach((item, i) => walk(item, `${path}[${i}]`));
    } else if (typeof v === 'object' && v !== null) {
      for (const [k, item] of Object.entries(v)) walk(item, path ? `${path}.${k}` : k);
    }
  };
  walk(tree, '');
  return out;
}
