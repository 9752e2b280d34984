// `kubernetes.config-map`: the user's own SeaTunnel config directory (a ConfigMap mounted at
// `<seatunnel-home>/config`) takes the place of the generated defaults, and application mode's
// invariants are applied on top. The plan writes the rules (which user file feeds which engine
// file, and the invariants of each) into the engine ConfigMap as `user-files.json`; the same pure
// functions check the ConfigMap before submit and produce each engine's files when it starts.

import { isMap, parseDocument, stringify } from 'yaml';
import { memberDiscoveryProblems } from '../model/rules/runtime-files';
import { runtimeConfigDir, type ApplicationSpec, type RuntimeFileSpec } from '../model/spec';
import { ENGINE_FILES, engineInvariants, hazelcastInvariants, mergeWithInvariants, type Invariant } from './files';

export const USER_FILES_MANIFEST = 'user-files.json';

export interface UserFileRule {
  /** The engine file it becomes (a name in the engine ConfigMap). */
  readonly target: string;
  /** Names in the user's ConfigMap, most specific first; the first present is used. */
  readonly from: readonly string[];
  /** yaml: merged under the invariants; replace: used as is. */
  readonly kind: 'yaml' | 'replace';
  readonly invariants: readonly Invariant[];
  /** The engine cannot start in application mode without it. */
  readonly required: boolean;
  /** A Hazelcast member file: member discovery is fixed by application mode. */
  readonly hazelcast?: boolean;
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
  if (generated(f.log4j2)) rules.push({ target: ENGINE_FILES.log4j2, from: ['log4j2.properties'], kind: 'replace', invariants: [], required: true });
  return { configMap: spec.runtimeConfigMap, dir: runtimeConfigDir(spec.seatunnelHome), rules };
}

/** One reason a user file cannot be used, naming the ConfigMap, the file and (for a key) why. */
export interface UserFileProblem {
  readonly file?: string;
  readonly message: string;
}

const DOC_HEADER = (m: UserFilesManifest, source: string, target: string) =>
  `# ${target}: ${source} of ConfigMap ${m.configMap}, with the keys application mode controls applied by seatunnel-app.\n`;

/**
 * The engine file `rule.target` made from the user's file `userContent` (named `source`) and the
 * generated file: YAML is merged over the generated defaults and the invariants are set again;
 * Log4j2 is used as is. (JVM options files are not read: the engine's flags are on its command
 * line, from application.*.memory-mb and kubernetes.runtime-files.jvm-options.) Conflicting invariants and refused discovery settings come back as problems.
 */
export function overlayUserFile(
  m: UserFilesManifest,
  rule: UserFileRule,
  source: string,
  userContent: string,
  generatedContent: string,
): { content: string; problems: UserFileProblem[] } {
  const where = `kubernetes.config-map: ConfigMap ${m.configMap} file ${source}`;
  if (rule.kind === 'replace') return { content: userContent, problems: [] };
  const doc = parseDocument(userContent);
  if (doc.errors.length || (doc.contents !== null && !isMap(doc.contents))) {
    const why = doc.errors[0]?.message.split('\n')[0] ?? 'the top level must be a mapping';
    return { content: generatedContent, problems: [{ file: source, message: `${where} is not valid YAML: ${why}` }] };
  }
  const user = (doc.toJS() as Record<string, unknown> | null) ?? {};
  const base = (parseDocument(generatedContent).toJS() as Record<string, unknown> | null) ?? {};
  const { merged, conflicts } = mergeWithInvariants(base, user, rule.invariants);
  const problems: UserFileProblem[] = conflicts.map((c) => ({
    file: source,
    message: `${where}: ${c.path} is ${JSON.stringify(c.given)}, but application mode sets it to ${JSON.stringify(c.invariant.value)} (${c.invariant.why}); remove it from the file`,
  }));
  if (rule.hazelcast) {
    for (const p of memberDiscoveryProblems(user))
      problems.push({
        file: source,
        message: `${where}: ${p.setting} is refused: ${p.why}; remove it from the file (member discovery is fixed by application mode)`,
      });
  }
  return { content: DOC_HEADER(m, source, rule.target) + stringify(merged), problems };
}

/**
 * Every engine file the manifest makes from `userFiles` (name → content of the user's ConfigMap),
 * with every problem: missing required files and conflicting keys. A problem reported for the
 * same file and message by both roles is listed once.
 */
export function overlayUserFiles(
  m: UserFilesManifest,
  userFiles: Readonly<Record<string, string>>,
  generatedFiles: Readonly<Record<string, string>>,
): { files: Record<string, string>; problems: UserFileProblem[] } {
  const files: Record<string, string> = {};
  const problems: UserFileProblem[] = [];
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
  }
  const unique = problems.filter((p, i) => problems.findIndex((q) => q.message === p.message) === i);
  return { files, problems: unique };
}
