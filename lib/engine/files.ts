// The Zeta engine files generated for one application: seatunnel.yaml and Hazelcast member
// files per role, JVM options and a console Log4j2 configuration. Pure: the plan puts them into
// the `<appId>-engine` ConfigMap; the runtime completes the master's files with its Pod IP.

import { isMap, parseDocument, stringify } from 'yaml';
import { HA_TIMINGS } from '../contract/ha-timings';
import { haMasterPodName } from '../model/ids';
import type { ValidationIssue } from '../model/issues';
import { TERMINATION_GRACE_SECONDS } from '../model/reserved';
import { PATHS, type ApplicationSpec, type RuntimeFileSpec } from '../model/spec';
import { jvmOptionFlags } from '../model/rules/runtime-files';
import { memberRestApi } from './member-rest';

export const ENGINE_FILES = {
  masterEngine: 'seatunnel-master.yaml',
  workerEngine: 'seatunnel-worker.yaml',
  masterHazelcast: 'hazelcast-master.yaml',
  workerHazelcast: 'hazelcast-worker.yaml',
  masterJvm: 'jvm_master_options',
  workerJvm: 'jvm_worker_options',
  log4j2: 'log4j2.properties',
  runtime: 'runtime.json',
} as const;

/** Placeholder in hazelcast-master.yaml that the runtime replaces with the master Pod's IP. */
export const MASTER_HOST_PLACEHOLDER = '${SEATUNNEL_APPLICATION_MASTER_HOST}';

export const clusterName = (appId: string) => `seatunnel-application-${appId}`;

/**
 * With HA, every member lists every master by its stable DNS name (StatefulSet Pod
 * `<set>-<i>` under the headless Service `<appId>`): a replaced master comes back under the same
 * name with a new IP, and Hazelcast needs all master addresses in every member list (docs/ha.md).
 * The name ends in `.svc` so that the Pod's DNS search path adds the cluster domain, whatever it is.
 */
export function haMasterAddresses(
  spec: Pick<ApplicationSpec, 'appId' | 'namespace' | 'master'>,
  masters: number,
): string[] {
  return Array.from(
    { length: masters },
    (_, i) => `${haMasterPodName(spec.appId, i)}.${spec.appId}.${spec.namespace}.svc:${spec.master.port}`,
  );
}

/**
 * Hazelcast settings that differ with HA (docs/ha.md, "A replaced master"):
 *   - a frozen master is suspected in 30 s, not 180 s;
 *   - a member whose address stopped answering (its Pod deleted, its network gone) is dropped after
 *     2 connects of 2 s, not 3 of 10 s: before its replacement joins under the same name;
 *   - SIGTERM (a deleted or evicted Pod) leaves the cluster gracefully: the others learn of it
 *     before the StatefulSet's replacement, which comes back under the same DNS name, asks to join.
 *     With Hazelcast's default (terminate), a survivor that has not yet dropped the old member
 *     names it — the newcomer's own address — as the cluster's master, and the newcomer forms a
 *     cluster of its own: a split brain, seen on the real node under load. The wait stays inside
 *     the Pod's termination grace period;
 *   - a split that still happens (a crash, a lost node: no SIGTERM) is merged after 10 s, not
 *     Hazelcast's 300 s: the lone replacement holds no data and joins the others.
 */
const HA_HAZELCAST_PROPERTIES = {
  'hazelcast.max.no.heartbeat.seconds': HA_TIMINGS.heartbeatTimeoutSeconds,
  'hazelcast.socket.connect.timeout.seconds': HA_TIMINGS.memberConnect.timeoutSeconds,
  'hazelcast.connection.monitor.max.faults': HA_TIMINGS.memberConnect.maxFaults,
  'hazelcast.shutdownhook.policy': 'GRACEFUL',
  'hazelcast.graceful.shutdown.max.wait': Math.floor(TERMINATION_GRACE_SECONDS / 2),
  'hazelcast.merge.first.run.delay.seconds': HA_TIMINGS.mergeFirstRunDelaySeconds,
  'hazelcast.merge.next.run.delay.seconds': HA_TIMINGS.mergeNextRunDelaySeconds,
};

type Yaml = Record<string, unknown>;
const isObj = (v: unknown): v is Yaml => typeof v === 'object' && v !== null && !Array.isArray(v);

function deepMerge(base: Yaml, over: Yaml): Yaml {
  const out: Yaml = { ...base };
  for (const [k, v] of Object.entries(over)) out[k] = isObj(v) && isObj(out[k]) ? deepMerge(out[k], v) : v;
  return out;
}

function getPath(doc: Yaml, path: string[]): unknown {
  let cur: unknown = doc;
  for (const p of path) {
    if (!isObj(cur)) return undefined;
    cur = cur[p];
  }
  return cur;
}

function setPath(doc: Yaml, path: string[], value: unknown): void {
  let cur = doc;
  for (const p of path.slice(0, -1)) {
    if (!isObj(cur[p])) cur[p] = {};
    cur = cur[p] as Yaml;
  }
  cur[path[path.length - 1]] = value;
}

/** A key application mode must control: a user's file may not set it to another value. */
export interface Invariant {
  readonly path: readonly string[];
  readonly value: unknown;
  readonly why: string;
}

/** A user's YAML file (supplied or from `kubernetes.config-map`) set an invariant to another value. */
export interface InvariantConflict {
  readonly path: string;
  readonly given: unknown;
  readonly invariant: Invariant;
}

function userYaml(file: RuntimeFileSpec): Yaml {
  if (file.mode !== 'supplied') return {};
  const doc = parseDocument(file.content);
  if (doc.errors.length || (doc.contents !== null && !isMap(doc.contents))) return {};
  return (doc.toJS() as Yaml | null) ?? {};
}

/** `user` deep-merged over `base`, then every invariant set; the user's conflicting values are returned. */
export function mergeWithInvariants(
  base: Yaml,
  user: Yaml,
  invariants: readonly Invariant[],
): { merged: Yaml; conflicts: InvariantConflict[] } {
  const merged = deepMerge(base, user);
  const conflicts: InvariantConflict[] = [];
  for (const e of invariants) {
    const given = getPath(user, [...e.path]);
    if (given !== undefined && JSON.stringify(given) !== JSON.stringify(e.value))
      conflicts.push({ path: e.path.join('.'), given, invariant: e });
    setPath(merged, [...e.path], e.value);
  }
  return { merged, conflicts };
}

function applyEnforced(
  base: Yaml,
  enforced: readonly Invariant[],
  user: Yaml,
  option: string,
  file: string,
  issues: ValidationIssue[],
): Yaml {
  const { merged, conflicts } = mergeWithInvariants(base, user, enforced);
  for (const c of conflicts) {
    issues.push({
      key: `kubernetes.runtime-files.${option}`,
      value: `${c.path}: ${JSON.stringify(c.given)} in ${file}`,
      rule: `application mode sets ${c.path} to ${JSON.stringify(c.invariant.value)} (${c.invariant.why}); remove it from the file`,
    });
  }
  return merged;
}

/** A YAML runtime file for `role`: its defaults, the user's file over them, the invariants over both. */
function yamlFile(
  spec: ApplicationSpec,
  role: 'master' | 'worker',
  option: 'engine' | 'hazelcast',
  defaults: Yaml,
  invariants: readonly Invariant[],
  issues: ValidationIssue[],
): string {
  const supplied = spec.runtimeFiles[option];
  const origin = supplied.mode === 'supplied' ? supplied.origin : '';
  const merged = applyEnforced(defaults, invariants, userYaml(supplied), option, origin, issues);
  return header(option === 'engine' ? 'seatunnel.yaml' : 'hazelcast.yaml', role) + stringify(merged);
}

function engineDefaults(spec: ApplicationSpec): Yaml {
  const namespace = spec.checkpointPvc ? `${PATHS.checkpoints}/` : '/tmp/seatunnel/checkpoint_snapshot/';
  return {
    seatunnel: {
      engine: {
        'history-job-expire-minutes': 1440,
        'backup-count': 0,
        'queue-type': 'blockingqueue',
        'print-execution-info-interval': 60,
        'print-job-metrics-info-interval': 60,
        'slot-service': { 'dynamic-slot': false, 'slot-num': spec.worker.slots },
        checkpoint: {
          interval: 10000,
          timeout: 60000,
          storage: {
            type: 'hdfs',
            'max-retained': 3,
            'plugin-config': { namespace, 'storage.type': 'hdfs', 'fs.defaultFS': 'file:///' },
          },
        },
        http: { 'enable-http': false, port: spec.master.restPort, 'enable-dynamic-port': false },
        telemetry: { metric: { enabled: spec.metrics !== undefined } },
      },
    },
  };
}

/** The keys of seatunnel.yaml that application mode controls for `role`. */
export function engineInvariants(spec: ApplicationSpec, role: 'master' | 'worker'): Invariant[] {
  const enforced: Invariant[] = [
    spec.ha
      ? {
          path: ['seatunnel', 'engine', 'backup-count'],
          value: spec.ha.backupCount,
          why: 'application.ha.backup-count',
        }
      : {
          path: ['seatunnel', 'engine', 'backup-count'],
          value: 0,
          why: 'one master without HA keeps no partition backups',
        },
    {
      path: ['seatunnel', 'engine', 'http', 'enable-http'],
      value: role === 'master',
      why: 'the runtime drives the master through REST v2; workers serve none (their telemetry is on the member port)',
    },
    {
      path: ['seatunnel', 'engine', 'telemetry', 'metric', 'enabled'],
      value: spec.metrics !== undefined,
      why: "application.metrics.enabled: the runtime's /metrics reads every member's telemetry, and the members' REST and the NetworkPolicy are set up for it or not at all; set that option instead",
    },
  ];
  if (role === 'master') {
    enforced.push(
      {
        path: ['seatunnel', 'engine', 'http', 'port'],
        value: spec.master.restPort,
        why: 'application.master.rest-port',
      },
      {
        path: ['seatunnel', 'engine', 'http', 'enable-dynamic-port'],
        value: false,
        why: 'the runtime and the NetworkPolicy expect a fixed port',
      },
    );
  } else {
    enforced.push(
      {
        path: ['seatunnel', 'engine', 'slot-service', 'dynamic-slot'],
        value: false,
        why: 'workers provide fixed slots',
      },
      {
        path: ['seatunnel', 'engine', 'slot-service', 'slot-num'],
        value: spec.worker.slots,
        why: 'application.worker.slots',
      },
    );
  }
  return enforced;
}

function engineFile(spec: ApplicationSpec, role: 'master' | 'worker', issues: ValidationIssue[]): string {
  return yamlFile(spec, role, 'engine', engineDefaults(spec), engineInvariants(spec, role), issues);
}

/** Seconds the Hazelcast master waits before admitting a member that asked to join. */
export const JOIN_WAIT_PROPERTY = 'hazelcast.wait.seconds.before.join';

const HAZELCAST_PROPERTIES = {
  'hazelcast.invocation.max.retry.count': 20,
  'hazelcast.tcp.join.port.try.count': 30,
  'hazelcast.logging.type': 'log4j2',
  'hazelcast.operation.generic.thread.count': 50,
  'hazelcast.heartbeat.failuredetector.type': 'phi-accrual',
  'hazelcast.heartbeat.interval.seconds': 2,
  'hazelcast.max.no.heartbeat.seconds': 180,
  'hazelcast.heartbeat.phiaccrual.failuredetector.threshold': 10,
  'hazelcast.heartbeat.phiaccrual.failuredetector.sample.size': 200,
  'hazelcast.heartbeat.phiaccrual.failuredetector.min.std.dev.millis': 100,
  'hazelcast.phone.home.enabled': false,
  // Hazelcast's master holds a join request back for this long (default 5 s), to admit members
  // that arrive close together in one round. Every member of an application starts at once and
  // no other will ever join, so the wait only delays the workers' registration (docs/performance.md).
  [JOIN_WAIT_PROPERTY]: 0,
};

/**
 * How long a member asks the listed members for a master before it claims the role itself
 * (tcp-ip `connection-timeout-seconds`). Masters of an HA application start together and none is
 * master yet, so each asks for the whole time and the cluster forms only then: 10 s on every start.
 * A master that comes later still finds the master within the first second of asking, and a claim
 * needs every reachable listed master's consent, so a shorter time forms no second cluster.
 * Workers keep 10 s: they never claim the role from a live master, and each failed claim costs
 * up to 10 s of Zeta's own claim timeout.
 */
export const HA_MASTER_JOIN_SECONDS = 2;
const JOIN_SECONDS = 10;

function hazelcastDefaults(spec: ApplicationSpec, role: 'master' | 'worker'): Yaml {
  const port = role === 'master' ? spec.master.port : spec.worker.port;
  return {
    hazelcast: {
      'cluster-name': clusterName(spec.appId),
      network: {
        // A user's file may not set it (lib/model/rules/runtime-files.ts): this block is the one.
        'rest-api': memberRestApi(spec, role),
        join: {
          'auto-detection': { enabled: false },
          multicast: { enabled: false },
          'tcp-ip': {
            enabled: true,
            'connection-timeout-seconds': spec.ha && role === 'master' ? HA_MASTER_JOIN_SECONDS : JOIN_SECONDS,
            'member-list': [],
          },
        },
        port: { 'auto-increment': false, port },
      },
      properties: { ...HAZELCAST_PROPERTIES, ...(spec.ha ? HA_HAZELCAST_PROPERTIES : {}) },
    },
  };
}

/** The keys of a Hazelcast member file that application mode controls for `role`. */
export function hazelcastInvariants(spec: ApplicationSpec, role: 'master' | 'worker'): Invariant[] {
  const port = role === 'master' ? spec.master.port : spec.worker.port;
  // The master lists itself (the runtime fills in its Pod IP). A worker's list stays empty in the
  // file: the runtime stamps the master's address into the worker Pod as ST_DOCKER_MEMBER_LIST,
  // which Zeta uses in place of the tcp-ip member list.
  // With HA every member lists every master by DNS name (the workers' list also travels in
  // ST_DOCKER_MEMBER_LIST, which Zeta prefers to the file).
  const memberList = spec.ha
    ? haMasterAddresses(spec, spec.ha.masters)
    : role === 'master'
      ? [`${MASTER_HOST_PLACEHOLDER}:${spec.master.port}`]
      : [];
  const enforced: Invariant[] = [
    { path: ['hazelcast', 'cluster-name'], value: clusterName(spec.appId), why: 'keeps applications apart' },
    {
      path: ['hazelcast', 'network', 'port', 'port'],
      value: port,
      why: role === 'master' ? 'application.master.port' : 'application.worker.port',
    },
    {
      path: ['hazelcast', 'network', 'port', 'auto-increment'],
      value: false,
      why: 'the Service, probes and NetworkPolicy use the fixed port',
    },
    {
      path: ['hazelcast', 'network', 'join', 'tcp-ip', 'enabled'],
      value: true,
      why: 'members find the master by its Pod IP',
    },
    {
      path: ['hazelcast', 'network', 'join', 'tcp-ip', 'member-list'],
      value: memberList,
      why: spec.ha ? 'every member lists every master' : 'the master is the only member to join',
    },
    {
      path: ['hazelcast', 'network', 'join', 'multicast', 'enabled'],
      value: false,
      why: 'no discovery beyond the application',
    },
    {
      path: ['hazelcast', 'properties', 'hazelcast.phone.home.enabled'],
      value: false,
      why: 'no calls out of the cluster',
    },
  ];
  // Without HA the master's public address is its Pod IP, filled in by the runtime; with HA each
  // master advertises the address it binds (its own Pod IP), which is Hazelcast's default.
  if (role === 'master' && !spec.ha) {
    enforced.push({
      path: ['hazelcast', 'network', 'public-address'],
      value: `${MASTER_HOST_PLACEHOLDER}:${spec.master.port}`,
      why: 'workers join the master Pod IP',
    });
  }
  return enforced;
}

function hazelcastFile(spec: ApplicationSpec, role: 'master' | 'worker', issues: ValidationIssue[]): string {
  return yamlFile(spec, role, 'hazelcast', hazelcastDefaults(spec, role), hazelcastInvariants(spec, role), issues);
}

/** The generated JVM flags of one role; the heap is the spec's (lib/model/rules/pod-roles.ts). */
export function baseJvmOptions(spec: ApplicationSpec, role: 'master' | 'worker'): string[] {
  const heap = role === 'master' ? spec.master.heapMiB : spec.worker.heapMiB;
  return [`-Xms${heap}m`, `-Xmx${heap}m`, '-XX:+UseG1GC', '-XX:+ExitOnOutOfMemoryError', '-XX:MaxMetaspaceSize=256m'];
}

/** The flags kubernetes.runtime-files.jvm-options supplies (appended, so they win). */
export function suppliedJvmOptions(spec: ApplicationSpec): string[] {
  const f = spec.runtimeFiles.jvmOptions;
  return f.mode === 'supplied' ? jvmOptionFlags(f.content) : [];
}

/** JVM flags of one role, one per line. */
export function jvmOptions(spec: ApplicationSpec, role: 'master' | 'worker'): string[] {
  return [...baseJvmOptions(spec, role), ...suppliedJvmOptions(spec)];
}

export const CONSOLE_LOG4J2 = `# Console logging so that \`kubectl logs\` shows the engine's output.
status = warn
name = seatunnel-application
appender.console.type = Console
appender.console.name = consoleStdout
appender.console.target = SYSTEM_OUT
appender.console.layout.type = PatternLayout
appender.console.layout.pattern = %d{yyyy-MM-dd HH:mm:ss,SSS} %-5p [%-30.30c{1.}] [%t] - %m%n
rootLogger.level = INFO
rootLogger.appenderRef.consoleStdout.ref = consoleStdout
logger.hazelcast.name = com.hazelcast
logger.hazelcast.level = WARN
# Zeta 2.3.8 logs every job it is given at INFO ("Parsed config file"), masking only keys named password, username,
# auth or token: a connector's secret_key, an fs.s3a.secret.key or a Kafka JAAS config would be in the master's log.
logger.jobconfig.name = org.apache.seatunnel.core.starter.utils.ConfigBuilder
logger.jobconfig.level = WARN
`;

function header(what: string, role: string): string {
  return `# ${what} for the ${role}, generated by seatunnel-app for this application.\n`;
}

export interface EngineFiles {
  /** File name → content, for the engine ConfigMap. */
  readonly files: Readonly<Record<string, string>>;
  /** Conflicts between a supplied runtime file and what application mode requires. */
  readonly issues: readonly ValidationIssue[];
}

/** Renders every enabled runtime file of the application. */
export function renderEngineFiles(spec: ApplicationSpec): EngineFiles {
  const issues: ValidationIssue[] = [];
  const files: Record<string, string> = {};
  if (spec.runtimeFiles.engine.mode !== 'disabled') {
    files[ENGINE_FILES.masterEngine] = engineFile(spec, 'master', issues);
    files[ENGINE_FILES.workerEngine] = engineFile(spec, 'worker', issues);
  }
  if (spec.runtimeFiles.hazelcast.mode !== 'disabled') {
    files[ENGINE_FILES.masterHazelcast] = hazelcastFile(spec, 'master', issues);
    files[ENGINE_FILES.workerHazelcast] = hazelcastFile(spec, 'worker', issues);
  }
  if (spec.runtimeFiles.jvmOptions.mode !== 'disabled') {
    files[ENGINE_FILES.masterJvm] = `${jvmOptions(spec, 'master').join('\n')}\n`;
    files[ENGINE_FILES.workerJvm] = `${jvmOptions(spec, 'worker').join('\n')}\n`;
  }
  const log = spec.runtimeFiles.log4j2;
  if (log.mode !== 'disabled') files[ENGINE_FILES.log4j2] = log.mode === 'supplied' ? log.content : CONSOLE_LOG4J2;
  // Both roles' files are checked; a conflict in a shared key is reported once.
  const unique = issues.filter((i, n) => issues.findIndex((j) => j.key === i.key && j.rule === i.rule) === n);
  return { files, issues: unique };
}
