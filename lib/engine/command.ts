// The command line that starts a Zeta member of one role, from the image's SEATUNNEL_HOME and
// the generated engine files. Workers run it as their container command (from the PodTemplate);
// the runtime in the master Pod runs the master's as a child process. Starting java directly,
// rather than through seatunnel-cluster.sh, keeps every flag visible in the Pod spec and avoids
// the script's differences between SeaTunnel versions.

import type { ApplicationSpec } from '../model/spec';
import { ENGINE_FILES, jvmOptions } from './files';

export const ZETA_MAIN_CLASS = 'org.apache.seatunnel.core.starter.seatunnel.SeaTunnelServer';

/**
 * Module flags for Java 11 and later (those SeaTunnel's start script and Hazelcast ask for). They
 * travel in JDK_JAVA_OPTIONS, which Java 9+ reads and Java 8 ignores: on the command line a Java 8
 * image (SeaTunnel 2.3.x images use one) would refuse to start.
 */
export const JAVA_MODULE_FLAGS = [
  '--add-modules=java.se',
  '--add-exports=java.base/jdk.internal.ref=ALL-UNNAMED',
  '--add-opens=java.base/java.lang=ALL-UNNAMED',
  '--add-opens=java.base/java.net=ALL-UNNAMED',
  '--add-opens=java.base/java.nio=ALL-UNNAMED',
  '--add-opens=java.base/java.util=ALL-UNNAMED',
  '--add-opens=java.base/sun.nio.ch=ALL-UNNAMED',
  '--add-opens=java.management/sun.management=ALL-UNNAMED',
  '--add-opens=jdk.management/com.sun.management.internal=ALL-UNNAMED',
];

/** Environment of every Zeta process. */
export function zetaEnvironment(): Record<string, string> {
  return {
    JDK_JAVA_OPTIONS: JAVA_MODULE_FLAGS.join(' '),
    // Hazelcast's phone-home, also off in the member files; the variable covers a disabled hazelcast file.
    HZ_PHONE_HOME_ENABLED: 'false',
  };
}

export interface ZetaCommandPaths {
  /** Directory holding the engine files for this start (the master's completed copy, or the mounted ConfigMap). */
  readonly configDir: string;
  /** Directory for engine log files (only used by file appenders). */
  readonly logDir: string;
}

export function zetaClasspath(home: string): string {
  return [`${home}/lib/*`, `${home}/starter/logging/*`, `${home}/starter/seatunnel-starter.jar`].join(':');
}

/** Where kubernetes.class-data-sharing looks for the image's archive of the engine's classes. */
export const classDataArchive = (home: string): string => `${home.replace(/\/+$/, '')}/cds/zeta.jsa`;

/**
 * Starts java with what only the container can know: `sh -c LAUNCHER <options file | ''>
 * <archive | ''> java <args…>`.
 *   - The JVM options file's flags go in front of the other arguments. Java 8 (SeaTunnel 2.3.x
 *     images) has no `@argfile`; the file is split on whitespace as SeaTunnel's start script splits
 *     its jvm_*_options (`set -f`: no globbing).
 *   - The class-data sharing archive is used only when the image has it: given a missing archive,
 *     the JVM turns off even its own (the JDK's) sharing, and Java 8 does not know the flag — but its
 *     images have no archive. The file's flags come after it, so a user's `-Xshare:off` wins.
 */
export const ZETA_LAUNCHER =
  'set -f; f=; [ -z "$0" ] || f=$(cat "$0") || exit 1; a=$1; j=$2; shift 2; ' +
  'if [ -n "$a" ] && [ -r "$a" ]; then exec "$j" "-XX:SharedArchiveFile=$a" $f "$@"; fi; exec "$j" $f "$@"';

/**
 * With kubernetes.config-map the JVM flags are the completed options file (the user's flags between
 * the generated and the supplied ones, lib/engine/user-files.ts), which exists only once the
 * member's engine files are written; otherwise they are on the command line.
 */
const jvmFlagsFromFile = (spec: ApplicationSpec) =>
  spec.runtimeConfigMap !== undefined && spec.runtimeFiles.jvmOptions.mode !== 'disabled';

/** The full command line (argv) of a Zeta member of `role`. */
export function zetaCommand(spec: ApplicationSpec, role: 'master' | 'worker', paths: ZetaCommandPaths): string[] {
  const home = spec.seatunnelHome;
  const fromFile = jvmFlagsFromFile(spec);
  const jvm = spec.runtimeFiles.jvmOptions.mode === 'disabled' || fromFile ? [] : jvmOptions(spec, role);
  const engine = role === 'master' ? ENGINE_FILES.masterEngine : ENGINE_FILES.workerEngine;
  const hazelcast = role === 'master' ? ENGINE_FILES.masterHazelcast : ENGINE_FILES.workerHazelcast;
  const props = [
    `-Dseatunnel.home=${home}`,
    `-DSEATUNNEL_HOME=${home}`,
    '-Dhazelcast.logging.type=log4j2',
    `-Dseatunnel.logs.path=${paths.logDir}`,
    `-Dseatunnel.logs.file_name=seatunnel-${role}`,
  ];
  if (spec.runtimeFiles.engine.mode !== 'disabled') props.push(`-Dseatunnel.config=${paths.configDir}/${engine}`);
  if (spec.runtimeFiles.hazelcast.mode !== 'disabled') props.push(`-Dhazelcast.config=${paths.configDir}/${hazelcast}`);
  if (spec.runtimeFiles.log4j2.mode !== 'disabled')
    props.push(`-Dlog4j2.configurationFile=${paths.configDir}/${ENGINE_FILES.log4j2}`);
  const java = ['java', ...jvm, ...props, '-cp', zetaClasspath(home), ZETA_MAIN_CLASS, '-r', role];
  const archive = spec.classDataSharing === 'auto' ? classDataArchive(home) : '';
  if (!fromFile && !archive) return java;
  const file = fromFile
    ? `${paths.configDir}/${role === 'master' ? ENGINE_FILES.masterJvm : ENGINE_FILES.workerJvm}`
    : '';
  return ['/bin/sh', '-c', ZETA_LAUNCHER, file, archive, ...java];
}

/** The java argv of a Zeta command, without its launcher. */
export function zetaJavaArgv(argv: readonly string[]): readonly string[] {
  return argv[1] === '-c' && argv[2] === ZETA_LAUNCHER ? argv.slice(5) : argv;
}
