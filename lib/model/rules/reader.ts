// What every rule module shares: the props being resolved, where to report a problem, and typed
// readers that apply an option's default and bounds from the option registry. A reader reports a
// value of the wrong type or out of bounds and returns a usable fallback, so resolution goes on
// and every problem is reported at once.

import { MAX_LONG } from '../ids';
import type { IssueCollector, ValueSource } from '../issues';
import { cpuMillicores, dns1123SubdomainProblem } from '../k8s-syntax';
import { defaultOf, fileOption, isOptionDef, OPTIONS, optionPath } from '../options';
import type { SeaTunnelApplicationProps } from '../props';

export interface ResolveContext {
  /**
   * `random`: a new application ID and job ID per call (the CLI's submit, like SeaTunnel);
   * `derived`: stable IDs from namespace, name and run ID (synth, cdk8s, Pulumi).
   * @default 'derived'
   */
  readonly ids?: 'random' | 'derived';
  /** Source of randomness for `random` IDs (tests inject a fixed one). */
  readonly random?: (n: number) => Uint8Array;
  /** Reads a runtime file given by path (`runtimeFiles.*.file`); relative paths are resolved by the caller. */
  readonly readFile?: (path: string) => string;
  /** Name options by their deployment-file key (`kubernetes.namespace`) or by prop (`namespace`). @default 'props' */
  readonly keyStyle?: 'file' | 'props';
  /** Where each prop's value came from, for error messages. */
  readonly sourceOf?: (prop: keyof SeaTunnelApplicationProps) => ValueSource | undefined;
}

export type Props = SeaTunnelApplicationProps;
export type PropName = keyof Props;

/** Props whose value is a number, a string or a closed set of strings (what the typed readers read). */
type PropsOf<T> = { [K in PropName]-?: Required<Props>[K] extends T ? K : never }[PropName];

const describeBounds = (min: number, max: number, unit?: string) =>
  `between ${min} and ${max}${unit ? ` ${unit}` : ''}`;

export class PropReader {
  constructor(
    readonly props: Props,
    readonly ctx: ResolveContext,
    private readonly issues: IssueCollector,
  ) {}

  /** How many problems have been reported so far; a rule compares counts to learn whether its own checks failed. */
  get issueCount(): number {
    return this.issues.issues.length;
  }

  /** Name of an option (or a sub-path of it) in the style the user wrote it. */
  key(prop: PropName, sub?: string): string {
    const def = OPTIONS[prop];
    const base = this.ctx.keyStyle === 'file' && isOptionDef(def) ? optionPath(def) : prop;
    return sub ? `${base}.${sub}` : base;
  }

  /** The job config comes from `-c` in a deployment-file world, and has no option key. */
  jobConfigKey(): string {
    return this.ctx.keyStyle === 'file' ? '-c' : 'jobConfig';
  }

  fail(prop: PropName, value: unknown, rule: string, sub?: string): void {
    this.issues.add({ key: this.key(prop, sub), value, rule, source: this.ctx.sourceOf?.(prop) });
  }

  /** A problem whose value must not be shown (it may be Secret data); the rule describes it instead. */
  failWithoutValue(prop: PropName, rule: string, sub?: string): void {
    this.issues.add({ key: this.key(prop, sub), rule, source: this.ctx.sourceOf?.(prop) });
  }

  /** A problem that belongs to no single option (e.g. the job config given by `-c`). */
  failWithoutOption(key: string, rule: string, value?: unknown): void {
    this.issues.add(value === undefined ? { key, rule } : { key, value, rule });
  }

  check(prop: PropName, value: unknown, problem: string | undefined, sub?: string): boolean {
    if (problem) this.fail(prop, value, problem, sub);
    return !problem;
  }

  /** An integer option within the registry's bounds. */
  int(prop: PropsOf<number>): number {
    const def = fileOption(prop);
    const fallback = defaultOf(prop);
    const v = this.props[prop] as unknown;
    if (v === undefined) return fallback;
    if (typeof v !== 'number' || !Number.isInteger(v)) {
      this.fail(prop, v, 'must be an integer');
      return fallback;
    }
    const { min = Number.MIN_SAFE_INTEGER, max = Number.MAX_SAFE_INTEGER } = def;
    if (v < min || v > max) this.fail(prop, v, `must be ${describeBounds(min, max, def.unit)}`);
    return v;
  }

  /** A CPU option in cores, returned in millicores. */
  millicores(prop: PropsOf<number>): number {
    const def = fileOption(prop);
    const fallback = defaultOf(prop) * 1000;
    const v = this.props[prop] as unknown;
    if (v === undefined) return fallback;
    if (typeof v === 'number' && !Number.isFinite(v)) {
      this.fail(prop, v, 'must be a finite number of cores');
      return fallback;
    }
    const milli = typeof v === 'number' ? cpuMillicores(v) : undefined;
    if (milli === undefined) {
      this.fail(prop, v, 'must be a positive number of cores with at most three decimals (e.g. 1, 2, 0.5)');
      return fallback;
    }
    if (def.max !== undefined && milli > def.max * 1000) this.fail(prop, v, `must be at most ${def.max} ${def.unit}`);
    return milli;
  }

  bool(prop: PropsOf<boolean>): boolean {
    const fallback = defaultOf(prop);
    const v = this.props[prop] as unknown;
    if (v === undefined) return fallback;
    if (typeof v !== 'boolean') {
      this.fail(prop, v, 'must be true or false');
      return fallback;
    }
    return v;
  }

  /** A string option; without a registry default, an unset option reads as "". */
  str(prop: PropsOf<string>, problem?: (s: string) => string | undefined): string {
    const fallback = (OPTIONS[prop] as { default?: string }).default ?? '';
    const v = this.props[prop] as unknown;
    if (v === undefined) return fallback;
    if (typeof v !== 'string') {
      this.fail(prop, v, 'must be a string');
      return fallback;
    }
    if (problem) this.check(prop, v, problem(v));
    return v;
  }

  /** One of the registry's allowed values. */
  choice<K extends PropsOf<string>>(prop: K): Required<Props>[K] {
    const def = fileOption(prop);
    const fallback = defaultOf(prop);
    const v = this.props[prop] as unknown;
    if (v === undefined) return fallback;
    const values = (def.values ?? []) as readonly unknown[];
    if (!values.includes(v)) {
      this.fail(prop, v, `must be one of ${values.join(', ')} (case-sensitive)`);
      return fallback;
    }
    return v as Required<Props>[K];
  }

  /** The name of an existing object, when given. */
  optionalName(prop: PropsOf<string>): string | undefined {
    const v = this.props[prop] as unknown;
    if (v === undefined) return undefined;
    if (typeof v !== 'string') {
      this.fail(prop, v, 'must be a string');
      return undefined;
    }
    this.check(prop, v, dns1123SubdomainProblem(v));
    return v;
  }

  /** A positive 63-bit integer, as an exact decimal string. */
  long(prop: 'jobId' | 'restoreJobId'): string | undefined {
    const v = this.props[prop] as unknown;
    if (v === undefined) return undefined;
    let n: bigint | undefined;
    if (typeof v === 'bigint') n = v;
    else if (typeof v === 'number' && Number.isSafeInteger(v)) n = BigInt(v);
    else if (typeof v === 'string' && /^\d+$/.test(v.trim())) n = BigInt(v.trim());
    if (n === undefined || (typeof v === 'number' && !Number.isSafeInteger(v))) {
      this.fail(prop, v, 'must be a positive integer (use a string or bigint above 2^53 to keep every digit)');
      return undefined;
    }
    if (n < 1n || n > MAX_LONG) {
      this.fail(prop, v, `must be between 1 and ${MAX_LONG} (a positive 63-bit integer)`);
      return undefined;
    }
    return n.toString();
  }
}
