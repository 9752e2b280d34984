// resolveApplication: typed props → ApplicationSpec, applying every default and checking every
// rule. All problems are collected and thrown together as one ConfigurationError, before any
// file is written or any API call is made.

import { parse as parseYaml } from 'yaml';
import { parseHocon } from '../hocon';
import {
  APP_ID_MAX, derivedApplicationId, derivedJobId, MAX_LONG, randomApplicationId, randomJobId,
} from './ids';
import { IssueCollector, type ValidationIssue, type ValueSource } from './issues';
import {
  absolutePathProblem, configMapKeyProblem, cpuMillicores, dns1123LabelProblem, dns1123SubdomainProblem,
  envVarNameProblem, imageReferenceProblem, labelValueProblem, qualifiedNameProblem,
} from './k8s-syntax';
import { isOptionDef, OPTIONS } from './options';
import type {
  ConfigMapEntryProps, EnvFromProps, EnvValueProps, ImagePullPolicy, PodRole, RuntimeFileProps,
  SeaTunnelApplicationProps, SecretEntryProps, TolerationProps,
} from './props';
import {
  PATHS, type ApplicationSpec, type EnvFromSpec, type EnvVarSpec, type JobConfigSpec, type MountedObject,
  type RuntimeFileSpec, type Toleration,
} from './spec';
import { RESERVED_ENV_NAMES } from './reserved';

export const PACKAGE_VERSION = '0.1.0';
export const DEFAULT_RUNTIME_IMAGE = `seatunnel-app-runtime:${PACKAGE_VERSION}`;

/** Largest job config carried inline in the master's environment; bigger ones belong in a mounted file. */
export const MAX_INLINE_JOB_CONFIG_BYTES = 256 * 1024;
const MAX_OWNED_OBJECT_BYTES = 1024 * 1024;

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

type Props = SeaTunnelApplicationProps;
type PropName = keyof Props;

/** The application ID's own rule (used for `--id` too). */
export function applicationIdProblem(id: string): string | undefined {
  const p = dns1123LabelProblem(id);
  if (p) return p;
  if (id.length > APP_ID_MAX) return `must be at most ${APP_ID_MAX} characters so that worker Pod names fit (has ${id.length})`;
  return undefined;
}

const RESERVED_LABEL_PREFIX = 'seatunnel.apache.org/';
const RESERVED_LABELS = new Set([
  'app.kubernetes.io/name', 'app.kubernetes.io/instance', 'app.kubernetes.io/component', 'app.kubernetes.io/managed-by',
  'controller-uid', 'job-name', 'batch.kubernetes.io/controller-uid', 'batch.kubernetes.io/job-name',
]);

export function resolveApplication(props: Props, ctx: ResolveContext = {}): ApplicationSpec {
  const issues = new IssueCollector();
  const r = new Resolver(props, ctx, issues);
  const spec = r.resolve();
  issues.throwIfAny();
  return spec as ApplicationSpec;
}

/**
 * Like resolveApplication, but returns the problems instead of throwing (for callers that merge
 * them with problems of their own). `spec` is only complete when `issues` is empty.
 */
export function resolveDetailed(props: Props, ctx: ResolveContext = {}): { spec: ApplicationSpec; issues: readonly ValidationIssue[] } {
  const issues = new IssueCollector();
  const spec = new Resolver(props, ctx, issues).resolve() as ApplicationSpec;
  return { spec, issues: issues.issues };
}

class Resolver {
  constructor(
    private readonly props: Props,
    private readonly ctx: ResolveContext,
    private readonly issues: IssueCollector,
  ) {}

  /** Name of an option (or a sub-path of it) in the style the user wrote it. */
  private key(prop: PropName, sub?: string): string {
    const def = OPTIONS[prop];
    if (this.ctx.keyStyle === 'file' && isOptionDef(def)) {
      const base = def.key.replace(/\.<[^>]+>$/, '');
      return sub ? `${base}.${sub}` : base;
    }
    return sub ? `${prop}.${sub}` : prop;
  }

  private fail(prop: PropName, value: unknown, rule: string, sub?: string): void {
    this.issues.add({ key: this.key(prop, sub), value, rule, source: this.ctx.sourceOf?.(prop) });
  }

  private check(prop: PropName, value: unknown, problem: string | undefined, sub?: string): boolean {
    if (problem) this.fail(prop, value, problem, sub);
    return !problem;
  }

  private int(prop: PropName, fallback: number, min: number, max: number, unit = ''): number {
    const v = this.props[prop] as unknown;
    if (v === undefined) return fallback;
    if (typeof v !== 'number' || !Number.isInteger(v)) {
      this.fail(prop, v, 'must be an integer');
      return fallback;
    }
    if (v < min || v > max) this.fail(prop, v, `must be between ${min} and ${max}${unit}`);
    return v;
  }

  private bool(prop: PropName, fallback: boolean): boolean {
    const v = this.props[prop] as unknown;
    if (v === undefined) return fallback;
    if (typeof v !== 'boolean') {
      this.fail(prop, v, 'must be true or false');
      return fallback;
    }
    return v;
  }

  private str(prop: PropName, fallback: string, problem?: (s: string) => string | undefined): string {
    const v = this.props[prop] as unknown;
    if (v === undefined) return fallback;
    if (typeof v !== 'string') {
      this.fail(prop, v, 'must be a string');
      return fallback;
    }
    if (problem) this.check(prop, v, problem(v));
    return v;
  }

  /**
   * The master's ServiceAccount: the one the user names, or `<appId>-runtime` generated for the
   * application. Never `default`: the runtime Role would then go to every Pod of the namespace
   * that runs as `default`.
   */
  private serviceAccount(appId: string): { serviceAccount: string; serviceAccountGenerated: boolean } {
    const named = this.optionalName('serviceAccount');
    if (named === 'default') {
      this.fail('serviceAccount', named, 'must not be "default": the runtime Role would be granted to every Pod that runs as default; leave it unset (a ServiceAccount is generated for the application) or name a dedicated one');
    }
    return named ? { serviceAccount: named, serviceAccountGenerated: false } : { serviceAccount: `${appId}-runtime`, serviceAccountGenerated: true };
  }

  private optionalName(prop: PropName): string | undefined {
    const v = this.props[prop] as unknown;
    if (v === undefined) return undefined;
    if (typeof v !== 'string') {
      this.fail(prop, v, 'must be a string');
      return undefined;
    }
    this.check(prop, v, dns1123SubdomainProblem(v));
    return v;
  }

  private pullPolicy(prop: PropName): ImagePullPolicy {
    const v = this.props[prop] as unknown;
    if (v === undefined) return 'IfNotPresent';
    if (v !== 'Always' && v !== 'IfNotPresent' && v !== 'Never') {
      this.fail(prop, v, 'must be one of Always, IfNotPresent, Never (case-sensitive)');
      return 'IfNotPresent';
    }
    return v;
  }

  private cores(prop: PropName): number {
    const v = this.props[prop] as unknown;
    if (v === undefined) return 1000;
    const milli = typeof v === 'number' ? cpuMillicores(v) : undefined;
    if (milli === undefined) {
      this.fail(prop, v, 'must be a positive number of cores with at most three decimals (e.g. 1, 2, 0.5)');
      return 1000;
    }
    if (milli > 256_000) this.fail(prop, v, 'must be at most 256 cores');
    return milli;
  }

  private long(prop: PropName): string | undefined {
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

  private stringMap(prop: PropName, kind: 'label' | 'annotation' | 'selector', role?: PodRole): Record<string, string> {
    const v = this.props[prop] as unknown;
    if (v === undefined) return {};
    if (typeof v !== 'object' || v === null || Array.isArray(v)) {
      this.fail(prop, v, 'must be an object of string keys and values');
      return {};
    }
    const out: Record<string, string> = {};
    let size = 0;
    for (const [k, val] of Object.entries(v as Record<string, unknown>)) {
      if (typeof val !== 'string') {
        this.fail(prop, val, 'values must be strings', k);
        continue;
      }
      const keyProblem = qualifiedNameProblem(k);
      if (keyProblem) {
        this.fail(prop, k, keyProblem, k);
        continue;
      }
      if (kind === 'label' && (k.startsWith(RESERVED_LABEL_PREFIX) || RESERVED_LABELS.has(k))) {
        this.fail(prop, k, `the label key is reserved (set by this tool${role === 'master' || !role ? ' or by the Job controller' : ''}); choose another key`, k);
        continue;
      }
      if (kind !== 'annotation') {
        const vp = labelValueProblem(val);
        if (vp) {
          this.fail(prop, val, vp, k);
          continue;
        }
      }
      size += k.length + val.length;
      out[k] = val;
    }
    if (kind === 'annotation' && size > 256 * 1024) this.fail(prop, `${size} bytes`, 'annotations must total at most 256 KiB');
    return out;
  }

  private tolerations(prop: PropName): Toleration[] {
    const v = this.props[prop] as unknown;
    if (v === undefined) return [];
    if (!Array.isArray(v)) {
      this.fail(prop, v, 'must be a list of tolerations');
      return [];
    }
    const out: Toleration[] = [];
    (v as TolerationProps[]).forEach((t, i) => {
      const sub = `[${i}]`;
      const operator = t.operator ?? 'Equal';
      let ok = true;
      const bad = (value: unknown, rule: string) => {
        this.fail(prop, value, rule, sub);
        ok = false;
      };
      if (operator !== 'Equal' && operator !== 'Exists') bad(t.operator, 'operator must be Equal or Exists');
      if (t.key !== undefined && t.key !== '') {
        const kp = qualifiedNameProblem(t.key);
        if (kp) bad(t.key, `key ${kp}`);
      } else if (operator !== 'Exists') bad(t, 'a toleration without a key must use operator Exists');
      if (operator === 'Exists' && t.value) bad(t.value, 'operator Exists must not have a value');
      if (t.value) {
        const vp = labelValueProblem(t.value);
        if (vp) bad(t.value, vp.replace('label value', 'value'));
      }
      if (t.effect !== undefined && !['NoSchedule', 'PreferNoSchedule', 'NoExecute'].includes(t.effect)) {
        bad(t.effect, 'effect must be NoSchedule, PreferNoSchedule or NoExecute');
      }
      if (t.tolerationSeconds !== undefined) {
        if (!Number.isInteger(t.tolerationSeconds) || t.tolerationSeconds < 0) bad(t.tolerationSeconds, 'toleration-seconds must be a non-negative integer');
        if (t.effect !== 'NoExecute') bad(t.tolerationSeconds, 'toleration-seconds is only valid with effect NoExecute');
      }
      if (!ok) return;
      out.push({
        ...(t.key ? { key: t.key } : {}),
        operator,
        ...(t.value ? { value: t.value } : {}),
        ...(t.effect ? { effect: t.effect } : {}),
        ...(t.tolerationSeconds !== undefined ? { tolerationSeconds: t.tolerationSeconds } : {}),
      });
    });
    return out;
  }

  private mountedObjects(
    prop: 'configMaps' | 'secrets',
    appId: string,
    defaultRoles: PodRole[],
    reservedNames: Set<string>,
  ): MountedObject[] {
    const v = this.props[prop] as unknown;
    if (v === undefined) return [];
    if (typeof v !== 'object' || v === null || Array.isArray(v)) {
      this.fail(prop, v, 'must be an object keyed by entry name');
      return [];
    }
    const what = prop === 'configMaps' ? 'ConfigMap' : 'Secret';
    const out: MountedObject[] = [];
    for (const [entry, raw] of Object.entries(v as Record<string, ConfigMapEntryProps | SecretEntryProps>)) {
      const before = this.issues.issues.length;
      const sub = (s?: string) => (s ? `${entry}.${s}` : entry);
      const entryProblem = dns1123LabelProblem(entry);
      if (entryProblem || entry.length > 50) {
        this.fail(prop, entry, `entry names become object and volume names: ${entryProblem ?? 'must be at most 50 characters'}`, sub());
        continue;
      }
      if (raw.ref !== undefined && raw.data !== undefined) this.fail(prop, raw, `set either ref (an existing ${what}) or data (a ${what} the application owns), not both`, sub());
      if (raw.ref === undefined && raw.data === undefined) this.fail(prop, raw, `needs ref (an existing ${what}) or data (a ${what} the application owns)`, sub());
      if (raw.ref !== undefined) this.check(prop, raw.ref, dns1123SubdomainProblem(raw.ref), sub('ref'));
      if (raw.name !== undefined) {
        if (raw.ref !== undefined) this.fail(prop, raw.name, 'name is only for a created object (data); a reference is named by ref', sub('name'));
        this.check(prop, raw.name, dns1123SubdomainProblem(raw.name), sub('name'));
      }
      let dataBytes = 0;
      for (const [k, val] of Object.entries(raw.data ?? {})) {
        this.check(prop, k, configMapKeyProblem(k), sub(`data."${k}"`));
        if (typeof val !== 'string') this.fail(prop, val, 'values must be strings', sub(`data."${k}"`));
        else dataBytes += Buffer.byteLength(val) + k.length;
      }
      if (dataBytes > MAX_OWNED_OBJECT_BYTES) this.fail(prop, `${dataBytes} bytes`, `a ${what} holds at most 1 MiB`, sub('data'));
      const mounts = Object.entries(raw.mounts ?? {}).map(([key, path]) => ({ key, path }));
      for (const m of mounts) {
        this.check(prop, m.key, configMapKeyProblem(m.key), sub(`mounts."${m.key}"`));
        this.check(prop, m.path, typeof m.path === 'string' ? absolutePathProblem(m.path) : 'must be a string', sub(`mounts."${m.key}"`));
        if (raw.data !== undefined && !(m.key in raw.data)) {
          this.fail(prop, m.key, `mounts a key that data does not define (keys: ${Object.keys(raw.data).join(', ') || 'none'})`, sub(`mounts."${m.key}"`));
        }
      }
      const roles = raw.roles === undefined ? defaultRoles : [...raw.roles];
      if (roles.length === 0 || roles.some((r) => r !== 'master' && r !== 'worker')) {
        this.fail(prop, raw.roles, 'roles must be a non-empty list of "master" and/or "worker"', sub('roles'));
      }
      const name = raw.ref ?? raw.name ?? `${appId}-${entry}`;
      if (raw.ref === undefined && reservedNames.has(name)) {
        this.fail(prop, name, `the name is used by an object this tool generates (${[...reservedNames].join(', ')}); set another name`, sub('name'));
      }
      if (raw.ref === undefined && !raw.name && name.length > 253) this.fail(prop, name, 'the derived name is longer than 253 characters; set name', sub());
      if (this.issues.issues.length > before) continue;
      out.push({
        entry,
        name,
        owned: raw.ref === undefined,
        ...(raw.data !== undefined ? { data: { ...raw.data } } : {}),
        mounts,
        roles: [...new Set(roles)],
      });
    }
    return out;
  }

  private envVars(): EnvVarSpec[] {
    const v = this.props.env as unknown;
    if (v === undefined) return [];
    if (typeof v !== 'object' || v === null || Array.isArray(v)) {
      this.fail('env', v, 'must be an object keyed by variable name');
      return [];
    }
    const out: EnvVarSpec[] = [];
    for (const [name, raw] of Object.entries(v as Record<string, EnvValueProps>)) {
      const np = envVarNameProblem(name);
      if (np) {
        this.fail('env', name, np, name);
        continue;
      }
      if (RESERVED_ENV_NAMES.has(name)) {
        this.fail('env', name, 'the variable is set by this tool for the runtime; choose another name', name);
        continue;
      }
      if (typeof raw === 'string') {
        out.push({ name, value: raw });
        continue;
      }
      const o = raw as Record<string, unknown>;
      const forms = ['value', 'secret', 'configmap'].filter((f) => o[f] !== undefined);
      if (forms.length !== 1) {
        this.fail('env', raw, 'must be a string, or exactly one of { value }, { secret, key }, { configmap, key }', name);
        continue;
      }
      if (forms[0] === 'value') {
        out.push({ name, value: String(o.value) });
        continue;
      }
      const source = String(o[forms[0]]);
      const key = o.key;
      let ok = this.check('env', source, dns1123SubdomainProblem(source), `${name}.${forms[0]}`);
      if (typeof key !== 'string') {
        this.fail('env', key, `a ${forms[0]} source needs key (the key to read)`, `${name}.key`);
        ok = false;
      } else ok = this.check('env', key, configMapKeyProblem(key), `${name}.key`) && ok;
      if (!ok) continue;
      const optional = o.optional === true;
      out.push(forms[0] === 'secret'
        ? { name, secret: source, key: key as string, optional }
        : { name, configmap: source, key: key as string, optional });
    }
    return out;
  }

  private envFrom(): EnvFromSpec[] {
    const v = this.props.envFrom as unknown;
    if (v === undefined) return [];
    if (typeof v !== 'object' || v === null || Array.isArray(v)) {
      this.fail('envFrom', v, 'must be an object keyed by entry name');
      return [];
    }
    const out: EnvFromSpec[] = [];
    for (const [entry, raw] of Object.entries(v as Record<string, EnvFromProps>)) {
      if ((raw.secret === undefined) === (raw.configmap === undefined)) {
        this.fail('envFrom', raw, 'set exactly one of secret and configmap', entry);
        continue;
      }
      const kind = raw.secret !== undefined ? 'secret' : 'configmap';
      const name = (raw.secret ?? raw.configmap) as string;
      if (!this.check('envFrom', name, dns1123SubdomainProblem(name), `${entry}.${kind}`)) continue;
      if (raw.prefix !== undefined && raw.prefix !== '' && envVarNameProblem(raw.prefix)) {
        this.fail('envFrom', raw.prefix, 'prefix must be a valid start of an environment variable name', `${entry}.prefix`);
        continue;
      }
      out.push({ entry, kind, name, ...(raw.prefix ? { prefix: raw.prefix } : {}), optional: raw.optional === true });
    }
    return out;
  }

  private runtimeFile(name: 'engine' | 'hazelcast' | 'jvmOptions' | 'log4j2'): RuntimeFileSpec {
    const f: RuntimeFileProps | undefined = this.props.runtimeFiles?.[name];
    const sub = name === 'jvmOptions' ? 'jvm-options' : name;
    if (f === undefined) return { mode: 'generated' };
    if (f.enabled === false) {
      if (f.content !== undefined || f.file !== undefined) this.fail('runtimeFiles', f, 'a disabled runtime file cannot also supply content or file', sub);
      return { mode: 'disabled' };
    }
    if (f.content !== undefined && f.file !== undefined) {
      this.fail('runtimeFiles', f, 'set either content or file, not both', sub);
      return { mode: 'generated' };
    }
    let content: string | undefined = f.content;
    let origin = 'inline content';
    if (f.file !== undefined) {
      origin = f.file;
      if (!this.ctx.readFile) {
        this.fail('runtimeFiles', f.file, 'files can only be read where a file reader is available; pass content instead', `${sub}.file`);
        return { mode: 'generated' };
      }
      try {
        content = this.ctx.readFile(f.file);
      } catch (e) {
        this.fail('runtimeFiles', f.file, `cannot be read: ${(e as Error).message}`, `${sub}.file`);
        return { mode: 'generated' };
      }
    }
    if (content === undefined) return { mode: 'generated' };
    if (name === 'engine' || name === 'hazelcast') {
      try {
        const doc = parseYaml(content) as unknown;
        if (doc !== null && (typeof doc !== 'object' || Array.isArray(doc))) throw new Error('the top level must be a mapping');
      } catch (e) {
        this.fail('runtimeFiles', origin, `is not valid YAML: ${(e as Error).message.split('\n')[0]}`, sub);
      }
    }
    return { mode: 'supplied', content, origin };
  }

  private jobConfig(mounted: MountedObject[]): JobConfigSpec | undefined {
    const text = this.props.jobConfig;
    const file = this.props.jobConfigFile;
    if (text !== undefined && file !== undefined) {
      this.fail('jobConfigFile', file, 'a job config (-c) and kubernetes.job-config-file were both given; choose one (the mounted file would make -c silently unused)');
      return undefined;
    }
    if (file !== undefined) {
      if (!this.check('jobConfigFile', file, absolutePathProblem(file))) return undefined;
      const onMaster = mounted.filter((m) => m.roles.includes('master')).flatMap((m) => m.mounts.map((x) => x.path));
      if (!onMaster.includes(file)) {
        this.fail('jobConfigFile', file, `must be the path of a key mounted on the master by a kubernetes.configmap.<entry> or kubernetes.secret.<entry> (mounted on the master: ${onMaster.join(', ') || 'none'})`);
        return undefined;
      }
      return { kind: 'file', path: file };
    }
    if (text === undefined) {
      this.issues.add({ key: this.ctx.keyStyle === 'file' ? '-c' : 'jobConfig', rule: 'a job config is required: pass -c job.conf, or set kubernetes.job-config-file to a mounted file' });
      return undefined;
    }
    if (typeof text !== 'string' || text.trim() === '') {
      this.issues.add({ key: this.ctx.keyStyle === 'file' ? '-c' : 'jobConfig', value: text, rule: 'the job config must not be empty' });
      return undefined;
    }
    const bytes = Buffer.byteLength(text);
    if (bytes > MAX_INLINE_JOB_CONFIG_BYTES) {
      this.issues.add({
        key: this.ctx.keyStyle === 'file' ? '-c' : 'jobConfig', value: `${bytes} bytes`,
        rule: `an inline job config is carried in the master's environment and may be at most ${MAX_INLINE_JOB_CONFIG_BYTES / 1024} KiB; mount it with kubernetes.configmap.<entry> and set kubernetes.job-config-file`,
      });
      return undefined;
    }
    const problem = jobConfigProblem(text);
    if (problem) {
      this.issues.add({ key: this.ctx.keyStyle === 'file' ? '-c' : 'jobConfig', rule: problem });
      return undefined;
    }
    return { kind: 'inline', text };
  }

  resolve(): Partial<ApplicationSpec> {
    const p = this.props;
    const name = this.str('name', 'seatunnel');
    const namespace = this.str('namespace', 'default', dns1123LabelProblem);
    const runId = this.str('runId', '');
    let appId: string;
    if (p.applicationId !== undefined) {
      appId = this.str('applicationId', 'invalid', applicationIdProblem);
    } else if (this.ctx.ids === 'random') {
      appId = randomApplicationId(name, this.ctx.random);
    } else {
      appId = derivedApplicationId(name, namespace, runId);
    }
    const explicitJobId = this.long('jobId');
    const jobId = explicitJobId ?? (this.ctx.ids === 'random' ? randomJobId(this.ctx.random) : derivedJobId(appId));
    const restoreJobId = this.long('restoreJobId');
    if (restoreJobId !== undefined && restoreJobId === jobId) {
      this.fail('restoreJobId', restoreJobId, 'must differ from the job ID: a restore starts a new job from the old job\'s checkpoint');
    }

    let image = '';
    if (p.image === undefined) this.fail('image', undefined, 'is required: the image with the SeaTunnel distribution and the job\'s connectors');
    else image = this.str('image', '', imageReferenceProblem);

    const pullSecrets: string[] = [];
    if (p.imagePullSecrets !== undefined) {
      if (!Array.isArray(p.imagePullSecrets)) this.fail('imagePullSecrets', p.imagePullSecrets, 'must be a list of Secret names');
      else {
        p.imagePullSecrets.forEach((s, i) => {
          if (typeof s !== 'string' || s.trim() === '') this.fail('imagePullSecrets', s, 'entries must be non-empty Secret names', `[${i}]`);
          else if (this.check('imagePullSecrets', s, dns1123SubdomainProblem(s), `[${i}]`) && !pullSecrets.includes(s)) pullSecrets.push(s);
        });
      }
    }

    const masterMemory = this.int('masterMemoryMb', 1024, 256, 1024 * 1024, ' MiB');
    const workerMemory = this.int('workerMemoryMb', 1024, 256, 1024 * 1024, ' MiB');
    const masterPort = this.int('masterPort', 5801, 1024, 65535);
    const restPort = this.int('masterRestPort', 8080, 1024, 65535);
    const workerPort = this.int('workerPort', 5802, 1024, 65535);
    if (masterPort === restPort) this.fail('masterRestPort', restPort, 'must differ from the master port');

    const haEnabled = this.bool('haEnabled', false);
    const haMasters = this.int('haMasters', 2, 1, 9);
    const haBackup = this.int('haBackupCount', 1, 0, 6);
    if (haEnabled) {
      const before = this.issues.issues.length;
      if (haMasters < 2) this.fail('haMasters', haMasters, 'high availability needs at least 2 masters');
      if (haBackup < 1) this.fail('haBackupCount', haBackup, 'high availability needs backup-count of at least 1, or a lost master loses its partitions');
      if (haBackup >= 1 && haMasters >= 2 && haBackup >= haMasters) this.fail('haBackupCount', haBackup, `must be less than the number of masters (${haMasters})`);
      if (this.issues.issues.length === before) {
        this.fail('haEnabled', true, 'the HA configuration is valid, but HA manifests are not part of this release yet; run without application.ha.enabled');
      }
    }

    const reservedNames = new Set([appId, `${appId}-engine`, `${appId}-worker`]);
    const configMaps = this.mountedObjects('configMaps', appId, ['master', 'worker'], reservedNames);
    const secrets = this.mountedObjects('secrets', appId, ['master'], reservedNames);
    this.checkMountConflicts([...configMaps, ...secrets]);
    const secretRef = this.optionalName('secretRef');
    const checkpointPvc = this.optionalName('checkpointPvc');
    const seatunnelHome = this.str('seatunnelHome', '/opt/seatunnel', absolutePathProblem);

    const runtimeMode = p.runtimeMode ?? 'init-container';
    if (runtimeMode !== 'init-container' && runtimeMode !== 'embedded') this.fail('runtimeMode', runtimeMode, 'must be init-container or embedded');

    const spec: Partial<ApplicationSpec> = {
      appId,
      name,
      namespace,
      jobId,
      ...(restoreJobId !== undefined ? { restoreJobId } : {}),
      image,
      imagePullPolicy: this.pullPolicy('imagePullPolicy'),
      imagePullSecrets: pullSecrets,
      ...this.serviceAccount(appId),
      seatunnelHome,
      master: {
        cpuMillicores: this.cores('masterCpuCores'),
        memoryMiB: masterMemory,
        heapMiB: heapMiB(masterMemory),
        labels: this.stringMap('masterLabels', 'label', 'master'),
        annotations: this.stringMap('masterAnnotations', 'annotation'),
        nodeSelector: this.stringMap('masterNodeSelector', 'selector'),
        tolerations: this.tolerations('masterTolerations'),
        port: masterPort,
        restPort,
      },
      worker: {
        count: this.int('workerCount', 1, 1, 1000),
        slots: this.int('workerSlots', 2, 1, 1024),
        cpuMillicores: this.cores('workerCpuCores'),
        memoryMiB: workerMemory,
        heapMiB: heapMiB(workerMemory),
        labels: this.stringMap('workerLabels', 'label', 'worker'),
        annotations: this.stringMap('workerAnnotations', 'annotation'),
        nodeSelector: this.stringMap('workerNodeSelector', 'selector'),
        tolerations: this.tolerations('workerTolerations'),
        port: workerPort,
      },
      startupTimeoutMillis: this.int('startupTimeoutMillis', 120_000, 5_000, 86_400_000, ' ms'),
      finishedJobRetentionSeconds: this.int('finishedJobRetentionSeconds', 86_400, 1, 2_147_483_647, ' s'),
      ...(checkpointPvc ? { checkpointPvc } : {}),
      configMaps,
      secrets,
      ...(secretRef ? { secretRef } : {}),
      env: this.envVars(),
      envFrom: this.envFrom(),
      jobConfig: this.jobConfig([...configMaps, ...secrets]),
      labels: this.stringMap('labels', 'label'),
      annotations: this.stringMap('annotations', 'annotation'),
      runtimeFiles: {
        engine: this.runtimeFile('engine'),
        hazelcast: this.runtimeFile('hazelcast'),
        jvmOptions: this.runtimeFile('jvmOptions'),
        log4j2: this.runtimeFile('log4j2'),
      },
      rbacCreate: this.bool('rbacCreate', true),
      networkPolicyEnabled: this.bool('networkPolicyEnabled', true),
      runtime: {
        mode: runtimeMode,
        image: this.str('runtimeImage', DEFAULT_RUNTIME_IMAGE, imageReferenceProblem),
        imagePullPolicy: this.pullPolicy('runtimeImagePullPolicy'),
      },
      ...(p.kubeconfig !== undefined ? { kubeconfig: this.str('kubeconfig', '') } : {}),
    };
    return spec;
  }

  /** Two mounts at one path, or a mount over a path the tool itself uses, would shadow each other silently. */
  private checkMountConflicts(objects: MountedObject[]): void {
    const reserved = [PATHS.checkpoints, PATHS.secretRef, PATHS.engineConfig, PATHS.workDir, PATHS.runtimeDir];
    for (const role of ['master', 'worker'] as const) {
      const seen = new Map<string, string>();
      for (const o of objects.filter((x) => x.roles.includes(role))) {
        const prop = this.props.configMaps && o.entry in this.props.configMaps ? 'configMaps' : 'secrets';
        for (const m of o.mounts) {
          const where = `${o.entry}.mounts."${m.key}"`;
          const clash = reserved.find((r) => m.path === r || m.path.startsWith(`${r}/`));
          if (clash) this.fail(prop, m.path, `${clash} is used by the application itself; mount elsewhere`, where);
          const other = seen.get(m.path);
          if (other && other !== where) this.fail(prop, m.path, `is also the mount path of ${other} on the ${role}`, where);
          seen.set(m.path, where);
        }
      }
    }
  }
}

/** JVM heap: 75 % of the container memory limit, leaving the rest for off-heap and JVM overhead. */
export function heapMiB(memoryMiB: number): number {
  return Math.max(1, Math.floor((memoryMiB * 3) / 4));
}

/**
 * The job config travels verbatim, but a file that is not HOCON, or that has no source or sink,
 * would only fail inside the Pod minutes later; check its syntax now (placeholders stay unresolved).
 */
export function jobConfigProblem(text: string): string | undefined {
  let tree: Record<string, unknown>;
  try {
    const doc = parseHocon(text, { filename: 'job config' });
    tree = doc.resolve({ env: {}, allowUnresolved: true }) as Record<string, unknown>;
  } catch (e) {
    return `the job config is not valid HOCON: ${(e as Error).message}`;
  }
  const missing = ['source', 'sink'].filter((k) => tree[k] === undefined);
  if (missing.length) return `the job config has no ${missing.join(' and no ')} section; a SeaTunnel job needs env, source and sink`;
  return undefined;
}
