// Prometheus' text exposition format (version 0.0.4), as much of it as /metrics needs: our own
// families rendered, and the members' telemetry re-served — every sample labelled with the member
// it came from, and each family's HELP and TYPE once however many members report it (the format
// allows one of each per family, its samples together).

export interface Family {
  readonly name: string;
  help?: string;
  type?: string;
  /** Sample lines as written (`name{labels} value [timestamp]`). */
  readonly samples: string[];
}

export type Labels = Readonly<Record<string, string>>;

/** A label value, escaped as the format wants it. */
export function escapeLabelValue(v: string): string {
  return v.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
}

const escapeHelp = (v: string) => v.replace(/\\/g, '\\\\').replace(/\n/g, '\\n');

function labelText(labels: ReadonlyArray<readonly [string, string]>): string {
  return labels.length === 0 ? '' : `{${labels.map(([k, v]) => `${k}="${v}"`).join(',')}}`;
}

/** One sample line of our own: `value` must be finite (a gauge we cannot tell is left out instead). */
export function sample(name: string, labels: Labels, value: number): string {
  const pairs = Object.entries(labels).map(([k, v]) => [k, escapeLabelValue(v)] as const);
  return `${name}${labelText(pairs)} ${Number.isInteger(value) ? value : value.toString()}`;
}

export function render(families: readonly Family[]): string {
  const out: string[] = [];
  for (const f of families) {
    if (f.samples.length === 0) continue;
    if (f.help !== undefined) out.push(`# HELP ${f.name} ${escapeHelp(f.help)}`);
    if (f.type !== undefined) out.push(`# TYPE ${f.name} ${f.type}`);
    out.push(...f.samples);
  }
  return out.length ? `${out.join('\n')}\n` : '';
}

const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*/;
const SAMPLE_VALUE = /^[+-]?(?:\d+\.?\d*(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?|Inf|NaN)(?:\s+-?\d+)?$/;

/**
 * Splits an exposition into its families. A sample belongs to the family announced before it when
 * its name is the family's or the family's with a suffix (`_sum`, `_count`, `_bucket`, `_total`…);
 * otherwise it starts an untyped family of its own. Lines that are not samples are dropped.
 */
export function parseFamilies(text: string): Family[] {
  const families: Family[] = [];
  let current: Family | undefined;
  const family = (name: string): Family => {
    if (current?.name === name) return current;
    current = { name, samples: [] };
    families.push(current);
    return current;
  };
  for (const raw of text.split('\n')) {
    const line = raw.trimEnd();
    if (line === '') continue;
    const meta = /^#\s+(HELP|TYPE)\s+([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\s(.*))?$/.exec(line);
    if (meta) {
      const f = family(meta[2]);
      if (meta[1] === 'HELP') f.help ??= (meta[3] ?? '').replace(/\\n/g, '\n').replace(/\\\\/g, '\\');
      else f.type ??= (meta[3] ?? '').trim();
      continue;
    }
    if (line.startsWith('#')) continue;
    const name = METRIC_NAME.exec(line)?.[0];
    if (!name) continue;
    const owner = current && (name === current.name || name.startsWith(`${current.name}_`)) ? current : family(name);
    owner.samples.push(line);
  }
  return families;
}

/**
 * The sample with `labels` first; a label of the sample with one of the same names is kept as
 * `exported_<name>` (as Prometheus keeps a target's clashing label). Undefined for a line that is
 * not a well-formed sample.
 */
export function withLabels(line: string, labels: Labels): string | undefined {
  const name = METRIC_NAME.exec(line)?.[0];
  if (!name) return undefined;
  let i = name.length;
  const theirs: Array<[string, string]> = [];
  if (line[i] === '{') {
    i++;
    for (;;) {
      while (line[i] === ' ' || line[i] === ',') i++;
      if (line[i] === '}') break;
      const key = /^[a-zA-Z_][a-zA-Z0-9_]*/.exec(line.slice(i))?.[0];
      if (!key) return undefined;
      i += key.length;
      while (line[i] === ' ') i++;
      if (line[i] !== '=' || line[i + 1] !== '"') return undefined;
      i += 2;
      let value = '';
      while (i < line.length && line[i] !== '"') {
        if (line[i] === '\\') value += line[i++];
        value += line[i++];
      }
      if (line[i] !== '"') return undefined;
      i++;
      theirs.push([key, value]);
    }
    i++;
  }
  const rest = line.slice(i).trim();
  // One unparsable line would fail the whole scrape: only `value [timestamp]` passes.
  if (!SAMPLE_VALUE.test(rest)) return undefined;
  const ours = Object.entries(labels).map(([k, v]) => [k, escapeLabelValue(v)] as const);
  const kept = theirs.map(([k, v]) => [k in labels ? `exported_${k}` : k, v] as const);
  return `${name}${labelText([...ours, ...kept])} ${rest}`;
}

/**
 * The families of several sources as one exposition: a family's samples together under one HELP
 * and TYPE (the first source's), every sample with its source's labels.
 */
export function mergeFamilies(
  sources: ReadonlyArray<{ readonly families: Family[]; readonly labels: Labels }>,
): Family[] {
  const merged = new Map<string, Family>();
  for (const { families, labels } of sources) {
    for (const f of families) {
      let into = merged.get(f.name);
      if (!into) {
        into = { name: f.name, help: f.help, type: f.type, samples: [] };
        merged.set(f.name, into);
      }
      for (const line of f.samples) {
        const labelled = withLabels(line, labels);
        if (labelled !== undefined) into.samples.push(labelled);
      }
    }
  }
  return [...merged.values()];
}
