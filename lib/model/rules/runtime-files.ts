// The engine's runtime files (seatunnel.yaml, Hazelcast, JVM options, Log4j2): generated, supplied
// (inline or read from a file now, on the submitting host) or disabled in favour of the image's own.

import { parse as parseYaml } from 'yaml';
import type { RuntimeFileProps } from '../props';
import type { RuntimeFileSpec, RuntimeFilesSpec } from '../spec';
import { MAX_OBJECT_DATA_BYTES } from '../k8s-syntax';
import type { PropReader } from './reader';

type RuntimeFileName = keyof RuntimeFilesSpec;

/**
 * How many times each supplied file lands in the `<appId>-engine` ConfigMap: engine, Hazelcast
 * and JVM options once per role, Log4j2 once.
 */
const COPIES: Record<RuntimeFileName, number> = { engine: 2, hazelcast: 2, jvmOptions: 2, log4j2: 1 };
/** Room kept in the engine ConfigMap for what the plan generates around the supplied files. */
export const GENERATED_ENGINE_FILES_ALLOWANCE = 64 * 1024;

export function resolveRuntimeFiles(r: PropReader): RuntimeFilesSpec {
  const files: RuntimeFilesSpec = {
    engine: runtimeFile(r, 'engine'),
    hazelcast: runtimeFile(r, 'hazelcast'),
    jvmOptions: runtimeFile(r, 'jvmOptions'),
    log4j2: runtimeFile(r, 'log4j2'),
  };
  const supplied = (Object.keys(COPIES) as RuntimeFileName[]).reduce((sum, name) => {
    const f = files[name];
    return sum + (f.mode === 'supplied' ? Buffer.byteLength(f.content) * COPIES[name] : 0);
  }, 0);
  const limit = MAX_OBJECT_DATA_BYTES - GENERATED_ENGINE_FILES_ALLOWANCE;
  if (supplied > limit) {
    r.failWithoutValue(
      'runtimeFiles',
      `the supplied runtime files go into one ConfigMap (engine, hazelcast and jvm-options once per role, log4j2 once), whose data the API server limits to 1 MiB; they come to ${supplied} bytes there, more than the ${limit} bytes left beside the generated files`,
    );
  }
  return files;
}

function runtimeFile(r: PropReader, name: RuntimeFileName): RuntimeFileSpec {
  const f: RuntimeFileProps | undefined = r.props.runtimeFiles?.[name];
  const sub = name === 'jvmOptions' ? 'jvm-options' : name;
  if (f === undefined) return { mode: 'generated' };
  if (f.enabled === false) {
    if (f.content !== undefined || f.file !== undefined)
      r.fail('runtimeFiles', f, 'a disabled runtime file cannot also supply content or file', sub);
    return { mode: 'disabled' };
  }
  if (f.content !== undefined && f.file !== undefined) {
    r.fail('runtimeFiles', f, 'set either content or file, not both', sub);
    return { mode: 'generated' };
  }
  let content: string | undefined = f.content;
  let origin = 'inline content';
  if (f.file !== undefined) {
    origin = f.file;
    if (!r.ctx.readFile) {
      r.fail(
        'runtimeFiles',
        f.file,
        'files can only be read where a file reader is available; pass content instead',
        `${sub}.file`,
      );
      return { mode: 'generated' };
    }
    try {
      content = r.ctx.readFile(f.file);
    } catch (e) {
      r.fail('runtimeFiles', f.file, `cannot be read: ${(e as Error).message}`, `${sub}.file`);
      return { mode: 'generated' };
    }
  }
  if (content === undefined) return { mode: 'generated' };
  if (name === 'jvmOptions')
    for (const flag of jvmOptionFlags(content)) {
      const why = jvmFlagProblem(flag);
      if (why) r.fail('runtimeFiles', `${flag} in ${origin}`, `${flag} is refused: ${why}; remove it`, sub);
    }
  if (name === 'engine' || name === 'hazelcast') {
    try {
      const doc = parseYaml(content) as unknown;
      if (doc !== null && (typeof doc !== 'object' || Array.isArray(doc)))
        throw new Error('the top level must be a mapping');
      if (name === 'hazelcast') checkMemberDiscovery(r, doc, origin);
    } catch (e) {
      r.fail('runtimeFiles', origin, `is not valid YAML: ${(e as Error).message.split('\n')[0]}`, sub);
    }
  }
  return { mode: 'supplied', content, origin };
}

type Yaml = Record<string, unknown>;
const at = (doc: unknown, path: readonly string[]): unknown =>
  path.reduce<unknown>(
    (node, p) => (typeof node === 'object' && node !== null && !Array.isArray(node) ? (node as Yaml)[p] : undefined),
    doc,
  );

/** Hazelcast's join mechanisms other than tcp-ip (the application's only one). */
const OTHER_JOINS = ['auto-detection', 'multicast', 'kubernetes', 'aws', 'gcp', 'azure', 'eureka'] as const;

/**
 * The application's members find each other one way only: tcp-ip to the master's Pod IP, inside
 * the application's NetworkPolicy. Another join mechanism would reach other applications' or
 * other clusters' members; REST on the member ports is set by application mode (the runtime uses it).
 * Returns each offending setting with why it is refused.
 */
export function memberDiscoveryProblems(doc: unknown): Array<{ readonly setting: string; readonly why: string }> {
  const out: Array<{ setting: string; why: string }> = [];
  const joinOnly = 'members join only by tcp-ip to the master';
  const network = at(doc, ['hazelcast', 'network']);
  for (const join of OTHER_JOINS) {
    const enabled = at(network, ['join', join, 'enabled']);
    if (enabled !== undefined && enabled !== false)
      out.push({ setting: `hazelcast.network.join.${join}.enabled: ${JSON.stringify(enabled)}`, why: joinOnly });
  }
  if (at(network, ['join', 'discovery-strategies']) !== undefined)
    out.push({ setting: 'hazelcast.network.join.discovery-strategies', why: joinOnly });
  const advanced = at(doc, ['hazelcast', 'advanced-network', 'enabled']);
  if (advanced !== undefined && advanced !== false)
    out.push({
      setting: `hazelcast.advanced-network.enabled: ${JSON.stringify(advanced)}`,
      why: 'the advanced network has its own join and ports outside the NetworkPolicy',
    });
  const discovery = at(doc, ['hazelcast', 'properties', 'hazelcast.discovery.enabled']);
  if (discovery !== undefined && discovery !== false && discovery !== 'false')
    out.push({
      setting: `hazelcast.properties."hazelcast.discovery.enabled": ${JSON.stringify(discovery)}`,
      why: joinOnly,
    });
  if (at(doc, ['hazelcast', 'import']) !== undefined)
    out.push({
      setting: 'hazelcast.import',
      why: 'an imported file could change member discovery, which application mode fixes',
    });
  if (at(network, ['rest-api']) !== undefined)
    out.push({
      setting: 'hazelcast.network.rest-api',
      why: "application mode sets REST on the member ports itself: the master's for the runtime, a worker's read-only (CLUSTER_READ) for the runtime's /metrics, or none",
    });
  return out;
}

/**
 * Flags of a JVM options file as SeaTunnel's start script reads one (`$(cat file | grep -v '^#')`,
 * unquoted): lines starting with `#` and blank lines dropped, the rest split on whitespace — two
 * flags on one line are two flags, not one the JVM does not recognize.
 */
export function jvmOptionFlags(content: string): string[] {
  return content
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'))
    .flatMap((l) => l.split(/\s+/));
}

/**
 * Why a JVM flag may not be given to Zeta, or undefined. Hazelcast takes any configuration from
 * `hz.` system properties (and HZ_ environment variables, reserved in model/reserved.ts), and a few
 * `hazelcast.` properties reopen what application mode closes: another configuration file, member
 * discovery, the REST endpoint.
 */
export function jvmFlagProblem(flag: string): string | undefined {
  if (/^-Dhz\./i.test(flag))
    return 'hz.* system properties override the Hazelcast configuration, whose member discovery and REST endpoint application mode fixes';
  if (/^-Dhazelcast\.(config|discovery\.|rest\.|http\.)/i.test(flag))
    return 'it changes the Hazelcast configuration file, member discovery or REST endpoint, which application mode fixes';
  return undefined;
}

function checkMemberDiscovery(r: PropReader, doc: unknown, origin: string): void {
  for (const p of memberDiscoveryProblems(doc))
    r.fail(
      'runtimeFiles',
      `${p.setting} in ${origin}`,
      `${p.why}; remove it from the file (member discovery is fixed by application mode)`,
      'hazelcast',
    );
}
