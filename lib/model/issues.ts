/** Where a configuration value came from; shown in error messages so users know what to fix. */
export type ValueSource = 'deployment file' | '-D override' | 'command-line flag' | 'props' | 'team template' | 'default';

/** One broken rule: the option, the value received and the rule it broke. */
export interface ValidationIssue {
  readonly key: string;
  readonly value?: unknown;
  readonly rule: string;
  readonly source?: ValueSource;
}

/** A JSON.stringify replacer: bigints (job ids) as their digits, which JSON cannot hold as numbers. */
export const bigintsAsText = (_key: string, v: unknown): unknown => (typeof v === 'bigint' ? v.toString() : v);

export function describeValue(value: unknown): string {
  if (value === undefined) return '(not set)';
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'bigint') return value.toString();
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
 * Thrown before any file is written or any API call is made.
 */
export class ConfigurationError extends Error {
  readonly issues: readonly ValidationIssue[];

  constructor(issues: readonly ValidationIssue[], context = 'Invalid SeaTunnel application configuration') {
    const lines = issues.map((i) => `  - ${formatIssue(i)}`);
    super(`${context} (${issues.length} problem${issues.length === 1 ? '' : 's'}):\n${lines.join('\n')}`);
    this.name = 'ConfigurationError';
    this.issues = issues;
  }
}

/** Collects issues; `throwIfAny` raises them all at once. */
export class IssueCollector {
  private readonly list: ValidationIssue[] = [];

  add(issue: ValidationIssue): void {
    this.list.push(issue);
  }

  addAll(issues: readonly ValidationIssue[]): void {
    for (const i of issues) this.list.push(i);
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
