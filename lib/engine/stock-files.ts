// The values SeaTunnel's distribution ships in `config/` (2.3.5 to 2.3.8 ship the same ones) for
// the keys application mode controls. A ConfigMap made from an unchanged `config/` directory
// carries them; they are SeaTunnel's defaults for a cluster on one host (cluster name
// `seatunnel`, members on localhost, a 2 GiB heap), not a choice of the user's, so application
// mode applies its own values in their place with a notice. Any other value of those keys is the
// user's deliberate choice, and a conflicting one is refused.

type Yaml = Record<string, unknown>;

/** Hazelcast REST on the member port, as the distribution's master file enables it. */
const STOCK_REST_API = {
  enabled: true,
  'endpoint-groups': { CLUSTER_WRITE: { enabled: true }, DATA: { enabled: true } },
};
const STOCK_HAZELCAST = { 'hazelcast.cluster-name': 'seatunnel' };
const STOCK_SEPARATED_MEMBERS = { 'hazelcast.network.join.tcp-ip.member-list': ['localhost:5801', 'localhost:5802'] };

/** Per file name of the distribution: dotted key path → the shipped value. */
export const STOCK_YAML_VALUES: Readonly<Record<string, Readonly<Record<string, unknown>>>> = {
  'seatunnel.yaml': {
    'seatunnel.engine.backup-count': 1,
    'seatunnel.engine.slot-service.dynamic-slot': true,
    // On the container's disk: with kubernetes.checkpoint-pvc the claim's directory is applied.
    'seatunnel.engine.checkpoint.storage.plugin-config.namespace': '/tmp/seatunnel/checkpoint_snapshot',
    // Off as shipped; application.metrics.enabled decides.
    'seatunnel.engine.telemetry.metric.enabled': false,
  },
  'hazelcast.yaml': {
    ...STOCK_HAZELCAST,
    'hazelcast.network.rest-api': STOCK_REST_API,
    'hazelcast.network.join.tcp-ip.member-list': ['localhost'],
    'hazelcast.network.port.port': 5801,
  },
  'hazelcast-master.yaml': {
    ...STOCK_HAZELCAST,
    ...STOCK_SEPARATED_MEMBERS,
    'hazelcast.network.rest-api': STOCK_REST_API,
    'hazelcast.network.port.port': 5801,
  },
  'hazelcast-worker.yaml': { ...STOCK_HAZELCAST, ...STOCK_SEPARATED_MEMBERS, 'hazelcast.network.port.port': 5802 },
};

/**
 * Lines of the distribution's jvm_options, jvm_master_options and jvm_worker_options that
 * application mode sizes itself: the heap follows `application.*.memory-mb` (the Pod's memory
 * limit), and the metaspace cap is the generated one.
 */
export const STOCK_JVM_REPLACED: readonly string[] = ['-Xms2g', '-Xmx2g', '-XX:MaxMetaspaceSize=2g'];

const isObj = (v: unknown): v is Yaml => typeof v === 'object' && v !== null && !Array.isArray(v);

export function valueAt(doc: unknown, path: readonly string[]): unknown {
  let cur = doc;
  for (const p of path) {
    if (!isObj(cur)) return undefined;
    cur = cur[p];
  }
  return cur;
}

/** A copy of `doc` without the key at `path` (the parents stay, possibly empty). */
export function withoutKey(doc: Yaml, path: readonly string[]): Yaml {
  if (path.length === 0) return doc;
  const [head, ...rest] = path;
  if (!(head in doc)) return doc;
  const out = { ...doc };
  if (rest.length === 0) delete out[head];
  else if (isObj(out[head])) out[head] = withoutKey(out[head], rest);
  return out;
}

/** Key paths are dotted; Hazelcast's property names contain dots, but no stock path reaches into them. */
export const keyPath = (dotted: string): string[] => dotted.split('.');

/** Same value; a directory with or without its trailing slash is the same directory. */
export function sameValue(a: unknown, b: unknown): boolean {
  if (typeof a === 'string' && typeof b === 'string') return a.replace(/\/+$/, '') === b.replace(/\/+$/, '');
  return JSON.stringify(a) === JSON.stringify(b);
}
