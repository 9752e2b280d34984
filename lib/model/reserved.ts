// Names shared by the plan (which sets them), the runtime (which reads them) and the CLI
// (which queries by them). Changing one is a breaking change for running applications.

export const LABELS = {
  applicationId: 'seatunnel.apache.org/application-id',
  role: 'seatunnel.apache.org/role',
  name: 'app.kubernetes.io/name',
  instance: 'app.kubernetes.io/instance',
  component: 'app.kubernetes.io/component',
  managedBy: 'app.kubernetes.io/managed-by',
  version: 'app.kubernetes.io/version',
  partOf: 'app.kubernetes.io/part-of',
} as const;

export const MANAGED_BY = 'seatunnel-app';

/** Values of the role label: SeaTunnel's three, plus the kinds this tool adds. */
/** `coordinator`: with HA, the Job's Pod, which runs the runtime but no Zeta member (docs/ha.md). */
export type RoleLabel = 'master' | 'worker' | 'coordinator' | 'configuration';

// The status annotations, phases and Event reasons are the runtime contract's (lib/contract/vocabulary.ts).

/** Environment variables the plan sets for the runtime and Zeta; users cannot override them. */
export const ENV = {
  seatunnelHome: 'SEATUNNEL_HOME',
  masterHost: 'SEATUNNEL_APPLICATION_MASTER_HOST',
  /** The job config text, verbatim, when it travels inline. */
  jobConfig: 'SEATUNNEL_APPLICATION_JOB_CONFIG',
  /** Path of a mounted job file, when kubernetes.job-config-file is set. */
  jobConfigFile: 'SEATUNNEL_APPLICATION_JOB_CONFIG_FILE',
  appId: 'SEATUNNEL_APPLICATION_ID',
  podName: 'SEATUNNEL_POD_NAME',
  podNamespace: 'SEATUNNEL_POD_NAMESPACE',
  podUid: 'SEATUNNEL_POD_UID',
  podIp: 'SEATUNNEL_POD_IP',
  /** Directory of the generated engine files and runtime.json. */
  engineConfigDir: 'SEATUNNEL_APP_ENGINE_CONFIG',
  /** Where kubernetes.config-map is mounted (set only then). */
  userConfigDir: 'SEATUNNEL_APP_USER_CONFIG_DIR',
  /** Writable directory of the runtime (completed engine files, engine logs). */
  workDir: 'SEATUNNEL_APP_WORK_DIR',
  /** On workers: the master's Hazelcast address, stamped by the runtime. */
  masterAddress: 'SEATUNNEL_APPLICATION_MASTER_ADDRESS',
  /** Zeta's own override of the Hazelcast tcp-ip member list. */
  memberList: 'ST_DOCKER_MEMBER_LIST',
  javaOpts: 'JAVA_OPTS',
  jvmOption: 'JvmOption',
  /** Java 9+ reads it (module flags); Java 8 ignores it. */
  jdkJavaOptions: 'JDK_JAVA_OPTIONS',
  phoneHome: 'HZ_PHONE_HOME_ENABLED',
} as const;

/**
 * Names of the master's environment that users may not set (in literals, Secret/ConfigMap keys or
 * an env-from prefix), because they steer the runtime, Node.js or the Kubernetes client rather
 * than the job. The master's container holds the API token and the resolved job config, so a
 * variable such as SEATUNNEL_APP_ENGINE_REST_HOST would send the job config (secrets included)
 * elsewhere, and NODE_OPTIONS could load code into the runtime.
 */
export const RESERVED_ENV_NAMES: ReadonlySet<string> = new Set([
  ...(Object.values(ENV) as string[]),
  // The Kubernetes client's kubeconfig location (in-cluster config must win in the Pod).
  'KUBECONFIG',
  // OpenSSL configuration can load engines/providers into the runtime's TLS (to the API server).
  'OPENSSL_CONF',
  'OPENSSL_MODULES',
  'OPENSSL_ENGINES',
  // The dynamic loader injects libraries into every process of the container, the runtime included.
  'LD_PRELOAD',
  'LD_AUDIT',
  // The runtime's home: its client reads $HOME/.kube/config before the in-cluster credentials.
  'HOME',
  // Read by every JVM of the container: flags (system properties, agents) beside the generated ones.
  'JAVA_TOOL_OPTIONS',
  '_JAVA_OPTIONS',
]);

/** Prefixes of reserved environment variable names, and why each is reserved. */
export const RESERVED_ENV_PREFIXES: ReadonlyArray<readonly [prefix: string, why: string]> = [
  ['SEATUNNEL_APP_', "the runtime's own settings (e.g. SEATUNNEL_APP_ENGINE_REST_HOST, where it sends the job config)"],
  ['SEATUNNEL_APPLICATION_', 'set by this tool for the runtime and the engine'],
  ['SEATUNNEL_POD_', "set by this tool from the Pod's identity"],
  [
    'NODE_',
    'read by Node.js, which runs the runtime (NODE_OPTIONS, NODE_TLS_REJECT_UNAUTHORIZED, NODE_EXTRA_CA_CERTS, …)',
  ],
  ['KUBERNETES_SERVICE_', "the API server's address, set by the kubelet and read by the runtime's in-cluster client"],
  [
    'HZ_',
    "Hazelcast's configuration overrides (HZ_NETWORK_JOIN_MULTICAST_ENABLED, …), which would reopen the member discovery and REST endpoint application mode fixes",
  ],
];

/** Why `name` is reserved, or undefined when a user may set it. */
export function reservedEnvProblem(name: string): string | undefined {
  if ((Object.values(ENV) as string[]).includes(name)) return 'the variable is set by this tool for the runtime';
  if (RESERVED_ENV_NAMES.has(name))
    return 'the variable is reserved: it steers the runtime, Node.js or the Kubernetes client';
  const hit = RESERVED_ENV_PREFIXES.find(([prefix]) => name.startsWith(prefix));
  return hit ? `names starting with ${hit[0]} are reserved: ${hit[1]}` : undefined;
}

/**
 * Why an env-from `prefix` could produce a reserved name, or undefined. A prefix that starts
 * with a reserved prefix always does; one that is the start of a reserved name or prefix does
 * when the Secret or ConfigMap has a matching key, which cannot be known before the Pod starts.
 */
export function reservedEnvPrefixProblem(prefix: string): string | undefined {
  const own = reservedEnvProblem(prefix);
  if (own) return `the prefix makes reserved names: ${own}`;
  const reachable = [...RESERVED_ENV_NAMES, ...RESERVED_ENV_PREFIXES.map(([p]) => p)].filter((n) =>
    n.startsWith(prefix),
  );
  if (reachable.length)
    return `a key of the object could complete the prefix to a reserved name (${reachable.slice(0, 3).join(', ')}${reachable.length > 3 ? ', …' : ''}); choose a prefix that does not begin a reserved name`;
  return undefined;
}

/** SeaTunnel's grace period for every Pod: enough for the runtime to stop the job and remove the workers. */
export const TERMINATION_GRACE_SECONDS = 120;

/** Annotation and label keys under this prefix belong to this tool (the runtime acts on its annotations). */
export const RESERVED_KEY_PREFIX = 'seatunnel.apache.org/';

/** Exit codes of the runtime (the master container), wired into the Job's podFailurePolicy. */
export const EXIT_CODES = {
  succeeded: 0,
  /** The Zeta job ended FAILED (or any non-success terminal state): an application failure. */
  jobFailed: 1,
  /** The job was cancelled (SIGTERM or a Zeta CANCELED). */
  canceled: 2,
  /** Workers could not be created, scheduled or registered in time, a worker was lost, or the API failed. */
  infrastructure: 3,
  /** The Pod's settings are invalid (a bug or a hand-edited object). */
  configuration: 4,
  /** The Zeta master process could not start or died. */
  engine: 5,
  /**
   * With HA only: the coordinator was stopped (its Pod deleted or evicted) while the application
   * goes on; the Job starts another coordinator, which re-attaches (EX_TEMPFAIL).
   */
  detached: 75,
} as const;

/** The runtime's decisions about the application's end: the Job's podFailurePolicy fails the Job at once on these. */
export const TERMINAL_EXIT_CODES: readonly number[] = [
  EXIT_CODES.jobFailed,
  EXIT_CODES.canceled,
  EXIT_CODES.infrastructure,
  EXIT_CODES.configuration,
  EXIT_CODES.engine,
];
