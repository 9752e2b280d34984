// The runtime's settings: the Pod's identity from the downward API, runtime.json from the engine
// ConfigMap, and the job config. Everything is checked before anything is started or created;
// every problem is reported at once (exit code `configuration`).

import * as path from 'node:path';
import {
  ENGINE_FILES,
  parseHocon,
  HoconError,
  stringifyJson,
  type HoconDocument,
  type HoconObject,
  type HoconValue,
  type IncludeReader,
  fileIncludeReader,
  ENV,
  PATHS,
  runtimeSettingsProblems,
  type RuntimeSettings,
} from 'seatunnel-app/runtime-support';
import { RuntimeFailure } from './outcome';

/** Environment variables that only the runtime reads (test seams and tuning; none is needed in a Pod). */
export const RUNTIME_ENV = {
  /** Host of Zeta's REST API (default 127.0.0.1: the master runs in the same Pod). */
  engineRestHost: 'SEATUNNEL_APP_ENGINE_REST_HOST',
  /** `debug` for more log lines. */
  logLevel: 'SEATUNNEL_APP_LOG_LEVEL',
  /**
   * `off`: the workers' last lines are not read before they are deleted. For the cluster tier,
   * whose fake nodes advertise addresses that do not exist: a Pod log read there would have the
   * API server dial them.
   */
  keepWorkerLogs: 'SEATUNNEL_APP_KEEP_WORKER_LOGS',
  /**
   * `<pattern> <replacement>`: where a worker whose API Pod IP matches is dialled instead (a
   * JavaScript regular expression and its replacement). For the engine tier's local kubelet, whose
   * Pods bind loopback addresses the API cannot show (tools/local-stack/pod-addresses.ts).
   */
  podIpRewrite: 'SEATUNNEL_APP_POD_IP_REWRITE',
} as const;

export interface PodIdentity {
  readonly name: string;
  readonly namespace: string;
  readonly uid: string;
  readonly ip: string;
  /** The address the master advertises (the Pod IP); replaces the placeholder in the engine files. */
  readonly masterHost: string;
}

export interface Settings {
  readonly app: RuntimeSettings;
  readonly pod: PodIdentity;
  readonly engineConfigDir: string;
  readonly workDir: string;
  /** Directory of the completed engine files: `${workDir}/engine`. */
  readonly engineWorkDir: string;
  /**
   * Where Zeta's REST API may be, in order of preference. With `restPath` in runtime.json exactly
   * that one; otherwise REST v2 on `restPort` (2.3.9+) and the Hazelcast REST ("v1") on the master
   * port (2.3.8 and earlier; the generated hazelcast-master.yaml enables it) — the first that
   * answers is used (engine/zeta.ts).
   */
  readonly engineRest: {
    readonly host: string;
    readonly candidates: ReadonlyArray<{ readonly port: number; readonly path: string }>;
  };
  readonly debug: boolean;
  /** Read each worker's last lines before deleting it (default true; RUNTIME_ENV.keepWorkerLogs). */
  readonly keepWorkerLogs?: boolean;
}

export type Env = Readonly<Record<string, string | undefined>>;

export interface SettingsIo {
  readFile(file: string): string;
  /** The names in a directory (the engine home's connectors/); without it nothing is listed. */
  readonly listDir?: (dir: string) => string[];
}

/** Zeta 2.3.8's REST API: Hazelcast REST on the member port. */
export const HAZELCAST_REST_PATH = '/hazelcast/rest/maps';

/**
 * Reads the environment and runtime.json. Throws a RuntimeFailure(InvalidSettings) listing every
 * problem found.
 */
export function loadSettings(env: Env, io: SettingsIo): Settings {
  const problems: string[] = [];
  const need = (name: string): string => {
    const v = env[name];
    if (v === undefined || v === '')
      problems.push(`environment variable ${name} is not set (the plan sets it on the master container)`);
    return v ?? '';
  };
  const pod: PodIdentity = {
    name: need(ENV.podName),
    namespace: need(ENV.podNamespace),
    uid: need(ENV.podUid),
    ip: need(ENV.podIp),
    masterHost: need(ENV.masterHost),
  };
  const appIdEnv = need(ENV.appId);
  const engineConfigDir = need(ENV.engineConfigDir);
  let app: RuntimeSettings | undefined;
  if (engineConfigDir) {
    const file = path.join(engineConfigDir, ENGINE_FILES.runtime);
    let raw: unknown;
    try {
      raw = JSON.parse(io.readFile(file));
    } catch (e) {
      problems.push(`cannot read ${file}: ${(e as Error).message}`);
    }
    if (raw !== undefined) {
      const found = runtimeSettingsProblems(raw);
      problems.push(...found);
      if (found.length === 0) app = raw as RuntimeSettings;
    }
  }
  if (app) {
    if (appIdEnv && app.appId !== appIdEnv)
      problems.push(
        `runtime.json appId ${JSON.stringify(app.appId)} differs from ${ENV.appId}=${JSON.stringify(appIdEnv)}`,
      );
    if (pod.namespace && app.namespace !== pod.namespace)
      problems.push(
        `runtime.json namespace ${JSON.stringify(app.namespace)} differs from the Pod's namespace ${JSON.stringify(pod.namespace)}`,
      );
  }
  if (problems.length > 0 || !app) {
    throw new RuntimeFailure('InvalidSettings', `invalid runtime settings:\n  - ${problems.join('\n  - ')}`);
  }
  // The plan sets it to PATHS.workDir (an emptyDir); a different mount moves the completed engine files.
  const workDir = env[ENV.workDir] || PATHS.workDir;
  return {
    app,
    pod,
    engineConfigDir,
    workDir,
    engineWorkDir: path.join(workDir, 'engine'),
    engineRest: {
      // With HA the masters are elsewhere: their ClusterIP Service, never an override.
      host: app.ha ? app.ha.restHost : env[RUNTIME_ENV.engineRestHost] || '127.0.0.1',
      candidates:
        app.master.restPath !== undefined
          ? [{ port: app.master.restPort, path: app.master.restPath }]
          : [
              { port: app.master.restPort, path: '' },
              { port: app.master.port, path: HAZELCAST_REST_PATH },
            ],
    },
    debug: env[RUNTIME_ENV.logLevel] === 'debug',
    keepWorkerLogs: env[RUNTIME_ENV.keepWorkerLogs] !== 'off',
  };
}

/** How many lost workers may be created again (worker-failure-policy `replace`, HA only); 0 = a loss fails the application. */
export function workerReplacementBudget(app: RuntimeSettings): number {
  return app.ha?.workerFailurePolicy === 'replace' ? app.ha.workerReplacements : 0;
}

/**
 * How often Zeta may restore a pipeline (`job.retry.times`): 0 unless HA may replace lost workers
 * (worker-failure-policy `replace`, worker-replacements > 0). Zeta counts every restore, whatever
 * caused it, and gives none back while its master stays active. Seen on three real nodes: a lost
 * node cost 1 or 2 (a restore that finds too few free slots while the replacement starts counts
 * too), a 60 s partition 1, a 60 s freeze 5 — a restore every ~6 s while the thawed worker still
 * held its old tasks ("TaskGroupLocation … already exists"). With `job.retry.times` equal to
 * worker-replacements (3) the job failed on the third fault. So: four a replacement and four for
 * the faults that replace nothing (16 by default); the replacement budget still bounds how many
 * lost workers are replaced, and a pipeline that fails by itself is still failed after that many
 * restores, seconds apart (Flink's default for a checkpointed job is to restart without limit).
 */
export function engineRestoreBudget(app: RuntimeSettings): number {
  const replacements = workerReplacementBudget(app);
  return replacements > 0 ? 4 * replacements + 4 : 0;
}

/**
 * Application mode never retries inside the engine: losing a worker fails the application, and a
 * new application restores from a checkpoint. Zeta's default `job.retry.times` (3) would instead
 * keep a failed batch job RUNNING (seen with 2.3.8), so the runtime sets it to 0 unless the job
 * config sets it itself. With HA and worker-failure-policy `replace`, Zeta's member-loss recovery
 * is the point: it may restore the pipelines `times` times (engineRestoreBudget).
 */
export function withoutEngineRetries(doc: HoconDocument, env: Env, times = 0): HoconDocument {
  let tree: Record<string, unknown>;
  try {
    tree = doc.resolve({ env, allowUnresolved: true });
  } catch {
    return doc;
  }
  const e = tree.env as Record<string, unknown> | undefined;
  const nested = (e?.job as Record<string, unknown> | undefined)?.retry as Record<string, unknown> | undefined;
  const set = e !== undefined && ('job.retry.times' in e || (nested !== undefined && 'times' in nested));
  return set ? doc : doc.withOverride('env.job.retry.times', times);
}

/**
 * The body Zeta's REST API takes: `source`, `transform` and `sink` as lists of plugin configs with
 * `plugin_name`. Job files usually write them as blocks (`source { FakeSource { … } }`), which
 * SeaTunnel's own client turns into that list; so does this. Lists are kept as written.
 */
export function restJobBody(job: HoconObject): HoconObject {
  const out: HoconObject = { ...job };
  // SeaTunnel reads `env` options by their dotted names (`job.mode`, `job.retry.times`,
  // `checkpoint.interval`); HOCON nests dotted keys, so they are flattened back (seen with 2.3.8:
  // a nested `job.retry.times` was ignored). Plugin options are read through nested lookups and stay.
  if (job.env !== undefined && typeof job.env === 'object' && job.env !== null && !Array.isArray(job.env)) {
    out.env = flattenKeys(job.env);
  }
  for (const section of ['source', 'transform', 'sink']) {
    const v = job[section];
    if (v === undefined || Array.isArray(v)) continue;
    if (typeof v !== 'object' || v === null) {
      // The kind only: the value may have come from a Secret through ${VAR}, and this message
      // ends up in the Job's annotations and Events.
      throw new RuntimeFailure(
        'InvalidJobConfig',
        `the job config's ${section} must be a block of plugins or a list, not ${v === null ? 'null' : `a ${typeof v}`}`,
      );
    }
    out[section] = Object.entries(v).map(([name, cfg]): HoconValue => {
      if (typeof cfg !== 'object' || cfg === null || Array.isArray(cfg)) {
        throw new RuntimeFailure('InvalidJobConfig', `the job config's ${section}.${name} must be a block of options`);
      }
      return { plugin_name: name, ...cfg };
    });
  }
  return out;
}

function flattenKeys(obj: HoconObject, prefix = '', into: HoconObject = {}): HoconObject {
  for (const [k, v] of Object.entries(obj)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (typeof v === 'object' && v !== null && !Array.isArray(v)) flattenKeys(v, key, into);
    else into[key] = v;
  }
  return into;
}

export interface ResolvedJobConfig {
  /** The job config as JSON, numbers exact, keys in source order: the body of /submit-job. */
  readonly json: string;
  /** Environment variables that supplied a value (names only; values are never logged). */
  readonly envUsed: readonly string[];
  /**
   * `${NAME}` written inside a quoted string, where NAME is set in the environment: HOCON keeps it as
   * text, so the connector gets the characters, not the value — almost always a mistake for `url = ${NAME}`.
   * Each as `${NAME} (at path)` (names and paths only, never a value; not `path: …`, which reads as a
   * `password: value` pair and is masked on the Job).
   */
  readonly quotedPlaceholders: readonly string[];
}

/**
 * SeaTunnel's sink-option placeholders (its docs, "Sink Options Placeholders": a multi-table sink's
 * `table = "${table_name}"`): text on purpose, filled from the upstream table by the engine.
 */
const SEATUNNEL_PLACEHOLDERS = new Set([
  'database_name',
  'schema_name',
  'table_name',
  'schema_full_name',
  'table_full_name',
  'primary_key',
  'unique_key',
  'field_names',
]);

/** Every string of `value` holding `${NAME}` with NAME set in `env`, as `${NAME} (at path)`. */
export function quotedPlaceholders(value: unknown, env: Env, at = ''): string[] {
  if (typeof value === 'string')
    return [...value.matchAll(/\$\{([A-Za-z_][A-Za-z0-9_.]*)\}/g)]
      .filter((m) => env[m[1]] !== undefined && !SEATUNNEL_PLACEHOLDERS.has(m[1]))
      .map((m) => `${m[0]} (at ${at || 'the top'})`);
  if (Array.isArray(value)) return value.flatMap((v, i) => quotedPlaceholders(v, env, `${at}[${i}]`));
  if (value !== null && typeof value === 'object')
    return Object.entries(value).flatMap(([k, v]) => quotedPlaceholders(v, env, at ? `${at}.${k}` : k));
  return [];
}

/**
 * Reads the job config (inline from the environment, or from the mounted file), resolves its
 * `${VAR}` placeholders from the master's environment and returns it as JSON. A required
 * placeholder without a value is a configuration failure naming every such variable.
 */
export function resolveJobConfig(app: RuntimeSettings, env: Env, io: SettingsIo): ResolvedJobConfig {
  let text: string;
  let filename: string;
  let readInclude: IncludeReader | undefined;
  if (app.jobConfig.kind === 'inline') {
    const v = env[app.jobConfig.env];
    if (v === undefined || v.trim() === '') {
      throw new RuntimeFailure(
        'InvalidJobConfig',
        `the job config is empty: environment variable ${app.jobConfig.env} is not set`,
      );
    }
    text = v;
    filename = `$${app.jobConfig.env}`;
  } else {
    // The Pod's variable names the same file; a stand-in for the kubelet (tools/local-stack) maps it.
    filename = env[ENV.jobConfigFile] || app.jobConfig.path;
    try {
      text = io.readFile(filename);
    } catch (e) {
      throw new RuntimeFailure(
        'InvalidJobConfig',
        `cannot read the job config file ${filename}: ${(e as Error).message}`,
      );
    }
    readInclude = fileIncludeReader({ baseDir: path.dirname(filename) });
  }
  try {
    const doc = parseHocon(text, { filename, readInclude });
    const report = withoutEngineRetries(doc, env, engineRestoreBudget(app)).resolveWithReport({
      env,
      allowUnresolved: true,
    });
    const missing = report.unresolved.filter((u) => !u.optional);
    if (missing.length > 0) {
      const list = missing.map((u) => `${u.text} (${u.filename ?? filename}:${u.line}:${u.column})`).join(', ');
      const vars = [...new Set(missing.map((u) => u.path))].join(', ');
      throw new RuntimeFailure(
        'InvalidJobConfig',
        `the job config has placeholders without a value: ${list}; set ${vars} in the master's environment (kubernetes.env.* or kubernetes.master.env.*)`,
      );
    }
    return {
      json: stringifyJson(restJobBody(report.value)),
      envUsed: report.envUsed,
      quotedPlaceholders: quotedPlaceholders(report.value, env),
    };
  } catch (e) {
    if (e instanceof RuntimeFailure) throw e;
    if (e instanceof HoconError)
      throw new RuntimeFailure('InvalidJobConfig', `the job config is not valid HOCON: ${e.message}`);
    throw e;
  }
}
