/** Where a configuration value came from; shown in error messages so users know what to fix. */
export type ValueSource =
  | 'deployment file'
  /** `-Dkey=value` or `-ikey=value` (SeaTunnel's two spellings). */
  | 'command-line override'
  | 'command-line flag'
  | 'props'
  | 'team template'
  | 'default';

/** One broken rule: the option, the value received and the rule it broke. */
export interface ValidationIssue {
  readonly key: string;
  readonly value?: unknown;
  readonly rule: string;
  readonly source?: ValueSource;
}

/** A JSON.stringify replacer: bigints (job ids) as their digits, which JSON cannot hold as numbers. */
export const bigintsAsText = (_key: string, v: unknown): unknown => (typeof v === 'bigint' ? v.toString() : v);
/**
 * Stands in for a value that must never be shown (Secret data, or anything that may hold it):
 * only its size is kept, in messages and in `--output json` alike.
 */
export class Redacted {
  constructor(readonly bytes: number) {}

  toString(): string {
    return `<redacted, ${this.bytes} bytes>`;
  }

  toJSON(): string {
    return this.toString();
  }
}

/** The size of a value as it would be written (UTF-8 bytes of the text, or of its JSON). */
function sizeOf(value: unknown): number {
  if (typeof value === 'string') return Buffer.byteLength(value);
  try {
    return Buffer.byteLength(JSON.stringify(value, bigintsAsText) ?? String(value));
  } catch {
    return Buffer.byteLength(String(value));
  }
}

export function redact(value: unknown): Redacted {
  return value instanceof Redacted ? value : new Redacted(sizeOf(value));
}

/**
 * A number literal beyond the range of a double (`1e400`): kept as written, so a message can show
 * what the user typed rather than JavaScript's `Infinity` (which JSON prints as `null`).
 */
export class OutOfRangeNumber {
  constructor(readonly text: string) {}

  toString(): string {
    return this.text;
  }

  toJSON(): string {
    return this.text;
  }
}

// `kubernetes.secret[.<entry>[.<field>…]]` (deployment-file keys) or `secrets[.<entry>…]` (props).
const SECRET_FAMILY = /^(?:kubernetes\.secret|secrets)(?:$|\.([^.]+)(?:$|\.([^.[]+)))/;
/** Fields of a Secret entry that name things rather than carry data; every other field may hold a secret. */
const SECRET_ENTRY_SAFE_FIELDS = new Set(['ref', 'name', 'mounts', 'roles']);

/** True when an issue's value (under `key`) may be or contain Secret data and must be redacted. */
export function isSecretKey(key: string): boolean {
  const m = SECRET_FAMILY.exec(key);
  if (!m) return false;
  const field = m[2];
  return field === undefined || !SECRET_ENTRY_SAFE_FIELDS.has(field);
}

/** The issue as it may be shown: the value of a secret key replaced by its size. */
export function safeIssue(issue: ValidationIssue): ValidationIssue {
  if (!('value' in issue) || issue.value === undefined || issue.value instanceof Redacted || !isSecretKey(issue.key))
    return issue;
  return { ...issue, value: redact(issue.value) };
}

export function describeValue(value: unknown): string {
  if (value === undefined) return '(not set)';
  if (value instanceof Redacted || value instanceof OutOfRangeNumber) return value.toString();
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'bigint') return value.toString();
  // JSON would print NaN and ±Infinity as null.
  if (typeof value === 'number' && !Number.isFinite(value)) return String(value);
  try {
    const text = JSON.stringify(value, bigintsAsText);
    return text.length > 120 ? `${text.slice(0, 117)}...` : text;
  } catch {
    return Object.prototype.toString.call(value);
  }
}

export function formatIssue(issue: ValidationIssue): string {
  const from = issue.source && issue.source !== 'default' ? ` (from ${issue.source})` : '';
  const got = 'value' in issue ? `got ${describeValue(issue.value)}${from}; ` : from ? `${from.trim()}; ` : '';
  return `${issue.key}: ${got}${issue.rule}`;
}

/**
 * Every problem found in one configuration, reported together so a user fixes them in one go.
 * Thrown before any file is written or any API call is made. Values of secret keys are redacted
 * here as well as in the collector, so no door can print them.
 */
export class ConfigurationError extends Error {
  readonly issues: readonly ValidationIssue[];

  constructor(issues: readonly ValidationIssue[], context = 'Invalid SeaTunnel application configuration') {
    const safe = issues.map(safeIssue);
    const lines = safe.map((i) => `  - ${formatIssue(i)}`);
    super(`${context} (${safe.length} problem${safe.length === 1 ? '' : 's'}):\n${lines.join('\n')}`);
    this.name = 'ConfigurationError';
    this.issues = safe;
  }
}

/** Collects issues; `throwIfAny` raises them all at once. */
export class IssueCollector {
  private readonly list: ValidationIssue[] = [];

  add(issue: ValidationIssue): void {
    this.list.push(safeIssue(issue));
  }

  addAll(issues: readonly ValidationIssue[]): void {
    for (const i of issues) this.add(i);
  }

  get issues(): readonly ValidationIssue[] {
    return this.list;
  }

  get empty(): boolean {
    return this.list.length === 0;
  }

  throwIfAny(context?: string): void {
    if (this.list.length > 0) throw new ConfigurationError(this.list, context);
  }
}
