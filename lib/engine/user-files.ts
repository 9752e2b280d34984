// `kubernetes.config-map`: the user's own SeaTunnel config directory (a ConfigMap mounted at
// `<seatunnel-home>/config`) takes the place of the generated defaults, and application mode's
// invariants are applied on top. The plan writes the rules (which user file feeds which engine
// file, and the invariants of each) into the engine ConfigMap as `user-files.json`; the same pure
// functions check the ConfigMap before submit and produce each engine's files when it starts.

import { isMap, parseDocument, stringify } from 'yaml';
import { jvmFlagProblem, jvmOptionFlags, memberDiscoveryProblems } from '../model/rules/runtime-files';
import { runtimeConfigDir, type ApplicationSpec, type RuntimeFileSpec } from '../model/spec';
import {
  baseJvmOptions,
  ENGINE_FILES,
  engineInvariants,
  hazelcastInvariants,
  MASTER_HOST_PLACEHOLDER,
  mergeWithInvariants,
  suppliedJvmOptions,
  type Invariant,
} from './files';
import { keyPath, sameValue, STOCK_JVM_REPLACED, STOCK_YAML_VALUES, valueAt, withoutKey } from './stock-files';

export const USER_FILES_MANIFEST = 'user-files.json';

export interface UserFileRule {
  /** The engine file it becomes (a name in the engine ConfigMap). */
  readonly target: string;
  /** Names in the user's ConfigMap, most specific first; the first present is used. */
  readonly from: readonly string[];
  /** yaml: merged under the invariants; replace: used as is; jvm: JVM flags between the generated and the supplied ones. */
  readonly kind: 'yaml' | 'replace' | 'jvm';
  readonly invariants: readonly Invariant[];
  /** The engine cannot start in application mode without it. */
  readonly required: boolean;
  /** A Hazelcast member file: member discovery is fixed by application mode. */
  readonly hazelcast?: boolean;
  /** A JVM options file: the flags it goes between, and the option that sizes the heap. */
  readonly jvm?: {
    readonly base: readonly string[];
    readonly supplied: readonly string[];
    readonly heapOption: string;
  };
}

export interface UserFilesManifest {
  readonly configMap: string;
  /** Where the ConfigMap is mounted in every Pod. */
  readonly dir: string;
  readonly rules: readonly UserFileRule[];
}

const generated = (f: RuntimeFileSpec) => f.mode === 'generated';

/**
 * The rules for the runtime files that are in generated mode: a file that `kubernetes.runtime-files`
 * supplies or disables is not read from the ConfigMap (the explicit option wins).
 */
export function userFilesManifest(spec: ApplicationSpec): UserFilesManifest | undefined {
  if (!spec.runtimeConfigMap) return undefined;
  const rules: UserFileRule[] = [];
  const f = spec.runtimeFiles;
  for (const role of ['master', 'worker'] as const) {
    if (generated(f.engine))
      rules.push({
        target: role === 'master' ? ENGINE_FILES.masterEngine : ENGINE_FILES.workerEngine,
        from: ['seatunnel.yaml'],
        kind: 'yaml',
        invariants: engineInvariants(spec, role),
        required: true,
      });
    if (generated(f.hazelcast))
      rules.push({
        target: role === 'master' ? ENGINE_FILES.masterHazelcast : ENGINE_FILES.workerHazelcast,
        // SeaTunnel 2.3.6+ reads a file per role in separated mode, earlier versions hazelcast.yaml.
        from: [`hazelcast-${role}.yaml`, 'hazelcast.yaml'],
        kind: 'yaml',
        invariants: hazelcastInvariants(spec, role),
        required: true,
        hazelcast: true,
      });
  }
  // SeaTunnel's start script reads jvm_master_options / jvm_worker_options for the roles (2.3.6+),
  // earlier versions jvm_options. Supplied kubernetes.runtime-files.jvm-options flags come after
  // the file's (the explicit option wins); a disabled one leaves the JVM's own defaults.
  if (f.jvmOptions.mode !== 'disabled') {
    for (const role of ['master', 'worker'] as const)
      rules.push({
        target: role === 'master' ? ENGINE_FILES.masterJvm : ENGINE_FILES.workerJvm,
        from: [`jvm_${role}_options`, 'jvm_options'],
        kind: 'jvm',
        invariants: [],
        required: false,
        jvm: {
          base: baseJvmOptions(spec, role),
          supplied: suppliedJvmOptions(spec),
          heapOption: `application.${role}.memory-mb`,
        },
      });
  }
  if (generated(f.log4j2))
    rules.push({
      target: ENGINE_FILES.log4j2,
      from: ['log4j2.properties'],
      kind: 'replace',
      invariants: [],
      required: true,
    });
  return { configMap: spec.runtimeConfigMap, dir: runtimeConfigDir(spec.seatunnelHome), rules };
}

/** One reason a user file cannot be used, naming the ConfigMap, the file and (for a key) why. */
export interface UserFileProblem {
  readonly file?: string;
  readonly message: string;
}

/** A value SeaTunnel ships in the file that application mode replaced with its own. */
export interface UserFileNotice {
  readonly file: string;
  readonly key: string;
  readonly stock: unknown;
  readonly applied: unknown;
  /** Why application mode controls the key, where an invariant says so. */
  readonly why?: string;
  readonly message: string;
}

export interface UserFileOverlay {
  readonly content: string;
  readonly problems: UserFileProblem[];
  readonly notices: UserFileNotice[];
}

const DOC_HEADER = (m: UserFilesManifest, source: string, target: string) =>
  `# ${target}: ${source} of ConfigMap ${m.configMap}, with the keys application mode controls applied by seatunnel-app.\n`;

const where = (m: UserFilesManifest, source: string) =>
  `kubernetes.config-map: ConfigMap ${m.configMap} file ${source}`;

/** A value as a message shows it: the master's address is known only when its Pod runs. */
const shown = (v: unknown) => JSON.stringify(v).split(MASTER_HOST_PLACEHOLDER).join('<master Pod IP>');

function notice(
  m: UserFilesManifest,
  source: string,
  key: string,
  stock: unknown,
  applied: unknown,
  why?: string,
): UserFileNotice {
  const show = (v: unknown) => (typeof v === 'string' && v.startsWith('-') ? v : shown(v));
  return {
    file: source,
    key,
    stock,
    applied,
    ...(why ? { why } : {}),
    message: `${where(m, source)}: ${key} is ${show(stock)}, SeaTunnel's shipped default; application mode applies ${applied === undefined ? 'none' : show(applied)} instead${why ? ` (${why})` : ''}`,
  };
}

/**
 * The engine file `rule.target` made from the user's file `userContent` (named `source`) and the
 * generated file: YAML is merged over the generated defaults and the invariants are set again;
 * Log4j2 is used as is; JVM flags go between the generated and the supplied ones. Values SeaTunnel
 * ships for keys application mode controls are replaced (notices); conflicting values the user
 * chose, and refused discovery settings, come back as problems.
 */
export function overlayUserFile(
  m: UserFilesManifest,
  rule: UserFileRule,
  source: string,
  userContent: string,
  generatedContent: string,
): UserFileOverlay {
  if (rule.kind === 'replace') return { content: userContent, problems: [], notices: [] };
  if (rule.kind === 'jvm') return overlayJvmOptions(m, rule, source, userContent);
  const doc = parseDocument(userContent);
  if (doc.errors.length || (doc.contents !== null && !isMap(doc.contents))) {
    const why = doc.errors[0]?.message.split('\n')[0] ?? 'the top level must be a mapping';
    return {
      content: generatedContent,
      problems: [{ file: source, message: `${where(m, source)} is not valid YAML: ${why}` }],
      notices: [],
    };
  }
  let user = (doc.toJS() as Record<string, unknown> | null) ?? {};
  const base = (parseDocument(generatedContent).toJS() as Record<string, unknown> | null) ?? {};
  // The distribution's values of the keys application mode controls are set aside before the
  // merge: the generated value or the invariant then applies, and the notice says which.
  const stockKeys = Object.entries(STOCK_YAML_VALUES[source] ?? {}).filter(([key, stock]) =>
    sameValue(valueAt(user, keyPath(key)), stock),
  );
  for (const [key] of stockKeys) user = withoutKey(user, keyPath(key));
  const { merged, conflicts } = mergeWithInvariants(base, user, rule.invariants);
  const notices: UserFileNotice[] = [];
  for (const [key, stock] of stockKeys) {
    const applied = valueAt(merged, keyPath(key));
    if (sameValue(applied, stock)) continue;
    notices.push(notice(m, source, key, stock, applied, rule.invariants.find((e) => e.path.join('.') === key)?.why));
  }
  const problems: UserFileProblem[] = conflicts.map((c) => ({
    file: source,
    message: `${where(m, source)}: ${c.path} is ${JSON.stringify(c.given)}, but application mode sets it to ${JSON.stringify(c.invariant.value)} (${c.invariant.why}); remove it from the file`,
  }));
  if (rule.hazelcast) {
    for (const p of memberDiscoveryProblems(user))
      problems.push({
        file: source,
        message: `${where(m, source)}: ${p.setting} is refused: ${p.why}; remove it from the file (member discovery is fixed by application mode)`,
      });
  }
  return { content: DOC_HEADER(m, source, rule.target) + stringify(merged), problems, notices };
}

/** Flags that set the heap: application mode sizes it from memory-mb, which is also the Pod's memory limit. */
const HEAP_FLAG =
  /^(-Xm[sx]|-XX:(MaxHeapSize|InitialHeapSize|MinHeapSize|MaxRAM|(Max|Initial|Min)RAMPercentage|(Max|Initial|Min)RAMFraction)=)/;
/** System properties on the Zeta command line (lib/engine/command.ts), which come after the file's flags. */
const COMMAND_PROPERTY =
  /^-D(seatunnel\.config|hazelcast\.config|log4j2\.configurationFile|seatunnel\.home|SEATUNNEL_HOME|seatunnel\.logs\.path)=/;

/** `-Xmx2g` → `-Xmx`; `-XX:MaxMetaspaceSize=2g` → `-XX:MaxMetaspaceSize=`. */
const flagName = (flag: string) => /^(-X(ms|mx|mn|ss)|-XX:[^=]+=|-D[^=]+=)/.exec(flag)?.[1] ?? flag;

/**
 * A JVM options file of the ConfigMap, read as SeaTunnel's start script reads it: `#` lines
 * dropped, the rest split on whitespace. The Zeta JVM gets the generated flags, then the file's,
 * then kubernetes.runtime-files.jvm-options (for the JVM the last of a repeated flag wins). The
 * distribution's heap and metaspace lines give way to the generated ones; another heap flag is
 * refused (memory-mb sizes heap and Pod together), as are the properties the command line sets.
 */
function overlayJvmOptions(
  m: UserFilesManifest,
  rule: UserFileRule,
  source: string,
  userContent: string,
): UserFileOverlay {
  const jvm = rule.jvm!;
  const kept: string[] = [];
  const problems: UserFileProblem[] = [];
  const notices: UserFileNotice[] = [];
  const heapWhy = `the heap follows ${jvm.heapOption}, which also sets the Pod's memory limit`;
  for (const flag of jvmOptionFlags(userContent)) {
    const generated = jvm.base.find((b) => flagName(b) === flagName(flag));
    if (STOCK_JVM_REPLACED.includes(flag)) {
      if (generated !== flag)
        notices.push(
          notice(
            m,
            source,
            flagName(flag).replace(/=$/, ''),
            flag,
            generated,
            HEAP_FLAG.test(flag) ? heapWhy : undefined,
          ),
        );
    } else if (HEAP_FLAG.test(flag)) {
      problems.push({
        file: source,
        message: `${where(m, source)}: ${flag} is refused: application mode sizes the heap from ${jvm.heapOption} (${jvm.base.filter((b) => HEAP_FLAG.test(b)).join(' ')}), which also sets the Pod's memory limit; remove the line and set ${jvm.heapOption} instead`,
      });
    } else if (jvmFlagProblem(flag) && !COMMAND_PROPERTY.test(flag)) {
      problems.push({
        file: source,
        message: `${where(m, source)}: ${flag} is refused: ${jvmFlagProblem(flag)}; remove the line`,
      });
    } else if (COMMAND_PROPERTY.test(flag)) {
      problems.push({
        file: source,
        message: `${where(m, source)}: ${flag} is refused: application mode sets ${flagName(flag).slice(2, -1)} on the Zeta command line (its engine files and paths); remove the line`,
      });
    } else kept.push(flag);
  }
  const content = [...jvm.base, ...kept, ...jvm.supplied].join('\n') + '\n';
  return { content, problems, notices };
}

/**
 * Every engine file the manifest makes from `userFiles` (name → content of the user's ConfigMap),
 * with every problem (missing required files, conflicting keys) and every notice (shipped
 * defaults replaced). Files the rules do not name are not read. A problem or notice that both
 * roles report for the same file is listed once.
 */
export function overlayUserFiles(
  m: UserFilesManifest,
  userFiles: Readonly<Record<string, string>>,
  generatedFiles: Readonly<Record<string, string>>,
): { files: Record<string, string>; problems: UserFileProblem[]; notices: UserFileNotice[] } {
  const files: Record<string, string> = {};
  const problems: UserFileProblem[] = [];
  const notices: UserFileNotice[] = [];
  for (const rule of m.rules) {
    const source = rule.from.find((n) => n in userFiles);
    if (source === undefined) {
      if (rule.required)
        problems.push({
          message: `kubernetes.config-map: ConfigMap ${m.configMap} has no ${rule.from.map((n) => `"${n}"`).join(' or ')} (the engine reads it as ${rule.target}; supply or disable it with kubernetes.runtime-files to do without)`,
        });
      continue;
    }
    const out = overlayUserFile(m, rule, source, userFiles[source], generatedFiles[rule.target] ?? '');
    files[rule.target] = out.content;
    problems.push(...out.problems);
    notices.push(...out.notices);
  }
  const uniqueProblems = problems.filter((p, i) => problems.findIndex((q) => q.message === p.message) === i);
  // One notice per file, key and applied value; the master's engine file has no invariant for
  // some keys the workers' has (dynamic-slot), and the one that says why is kept.
  const byKey = new Map<string, UserFileNotice>();
  for (const n of notices) {
    const k = `${n.file}\0${n.key}\0${JSON.stringify(n.applied)}`;
    const kept = byKey.get(k);
    if (!kept || (!kept.why && n.why)) byKey.set(k, n);
  }
  return { files, problems: uniqueProblems, notices: [...byKey.values()] };
}
