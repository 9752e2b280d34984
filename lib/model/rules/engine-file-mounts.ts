// SeaTunnel's own files mounted one by one into `<seatunnel-home>/config` by a ConfigMap or Secret
// entry. Application mode starts every engine with the files it generates (`-Dseatunnel.config`,
// `-Dhazelcast.config`, `-Dlog4j2.configurationFile`, JVM flags on the command line), so such a
// mount would be silently ignored. Refused rather than wired: `kubernetes.runtime-files.<file>`
// (one file) and `kubernetes.config-map` (a whole directory) already take these files, merged under
// the invariants; a third way in would need its own rules for roles and per-role files.

import { posix } from 'node:path';
import { runtimeConfigDir, type ApplicationSpec, type MountedObject, type RuntimeFilesSpec } from '../spec';
import type { PropName, PropReader } from './reader';

type RuntimeFileName = keyof RuntimeFilesSpec;

interface EngineFileKind {
  readonly pattern: RegExp;
  /** The runtime-files option that takes this file; none for the client files application mode never uses. */
  readonly option?: RuntimeFileName;
  /**
   * With this option disabled the engine reads its file from `config/` (docs/runtime.md: "the image's
   * own file"), so a mount there does take effect.
   */
  readonly readWhenDisabled: boolean;
}

// The client files first: `hazelcast-client.yaml` also matches `hazelcast*.yaml`.
const KINDS: readonly EngineFileKind[] = [
  { pattern: /^(hazelcast-client\.yaml|log4j2_client\.properties|jvm_client_options)$/, readWhenDisabled: false },
  { pattern: /^seatunnel\.yaml$/, option: 'engine', readWhenDisabled: true },
  { pattern: /^hazelcast.*\.yaml$/, option: 'hazelcast', readWhenDisabled: true },
  { pattern: /^log4j2.*\.properties$/, option: 'log4j2', readWhenDisabled: true },
  // The JVM is started directly, never by seatunnel-cluster.sh: no options file is read from config/.
  { pattern: /^jvm_.*options$/, option: 'jvmOptions', readWhenDisabled: false },
];

const OPTION_SUB: Record<RuntimeFileName, string> = {
  engine: 'engine',
  hazelcast: 'hazelcast',
  jvmOptions: 'jvm-options',
  log4j2: 'log4j2',
};

/** Why a mount of `file` into the config directory would be ignored, or undefined when the engine reads it. */
function ignoredMountProblem(r: PropReader, file: string, runtimeFiles: RuntimeFilesSpec): string | undefined {
  const kind = KINDS.find((k) => k.pattern.test(file));
  if (!kind) return undefined;
  if (!kind.option)
    return `${file} is one of SeaTunnel's client files, which application mode never reads (the runtime drives the engine over REST); remove the mount`;
  if (kind.readWhenDisabled && runtimeFiles[kind.option].mode === 'disabled') return undefined;
  const option = r.key('runtimeFiles', OPTION_SUB[kind.option]);
  return (
    `the engines read ${file} from the files application mode generates, never from the config directory, so this mount would be ignored; ` +
    `supply the file with ${option} (content or file), or mount a whole config directory with ${r.key('runtimeConfigMap')}; ` +
    'either way it is merged under the keys application mode controls (docs/runtime.md)'
  );
}

/**
 * Refuses every ConfigMap or Secret entry mount that puts one of SeaTunnel's engine files into
 * `<seatunnel-home>/config` where nothing would read it. With `kubernetes.config-map` that
 * directory is the ConfigMap's mount, and mounts into it are already refused (rules/mounts.ts).
 */
export function checkEngineFileMounts(
  r: PropReader,
  mounts: Pick<ApplicationSpec, 'configMaps' | 'secrets' | 'runtimeConfigMap'>,
  runtimeFiles: RuntimeFilesSpec,
  seatunnelHome: string,
): void {
  if (mounts.runtimeConfigMap !== undefined) return;
  const configDir = posix.normalize(runtimeConfigDir(posix.normalize(seatunnelHome || '/')));
  const props: ReadonlyArray<readonly [PropName, readonly MountedObject[]]> = [
    ['configMaps', mounts.configMaps],
    ['secrets', mounts.secrets],
  ];
  for (const [prop, objects] of props)
    for (const o of objects)
      for (const m of o.mounts) {
        const path = posix.normalize(m.path);
        if (posix.dirname(path) !== configDir) continue;
        const problem = ignoredMountProblem(r, posix.basename(path), runtimeFiles);
        if (problem) r.fail(prop, m.path, problem, `${o.entry}.mounts."${m.key}"`);
      }
}
