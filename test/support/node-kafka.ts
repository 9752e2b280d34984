// A Kafka broker in the cluster, as many users run one (the kafka image of tools/images/build.sh): a Pod pinned to
// a node, a Service `kafka` in front of it, its address in a Secret that applications read through
// `kubernetes.env-from` (KAFKA_BOOTSTRAP, as apps/examples/pipelines/kafka-* name it). Topics are made, filled and
// read back by TopicTool in the broker's container (containerd's exec), which counts exactly.
import { topicTool, type Topics } from '../../tools/local-stack/kafka';
import { adminHttp } from './cluster';
import { execInContainer, type NodeHandle } from './node-faults';
import { startServicePod } from './node-pods';

const PORT = 9092;
const NAME = 'kafka' as const;
/** The broker's listener for its own container (kafka-entrypoint.sh). */
const LOCAL = '127.0.0.1:9094';

export interface KafkaInCluster extends Topics {
  /** The Secret with KAFKA_BOOTSTRAP. */
  readonly secret: string;
  /** `kafka.<namespace>.svc.cluster.local:9092`: what the broker advertises and the Secret holds. */
  readonly bootstrap: string;
}

/** Starts the broker as Pod `kafka` in `ns` on `node`; resolves once it accepts connections. */
export async function startKafkaInCluster(
  ns: string,
  node: NodeHandle,
  o: { secret: string },
): Promise<KafkaInCluster> {
  const host = `${NAME}.${ns}.svc.cluster.local`;
  const bootstrap = `${host}:${PORT}`;
  await adminHttp().call('POST', `/api/v1/namespaces/${ns}/secrets`, {
    metadata: { name: o.secret },
    stringData: { KAFKA_BOOTSTRAP: bootstrap },
  });
  const { containerId } = await startServicePod(
    ns,
    node,
    NAME,
    PORT,
    {
      env: [
        { name: 'KAFKA_ADVERTISED_HOST', value: host },
        { name: 'KAFKA_PORT', value: String(PORT) },
      ],
      readinessProbe: { tcpSocket: { port: PORT }, periodSeconds: 1 },
      resources: { requests: { cpu: '250m', memory: '384Mi' }, limits: { cpu: '1', memory: '640Mi' } },
      volumeMounts: [{ name: 'data', mountPath: '/var/lib/kafka' }],
    },
    [{ name: 'data', emptyDir: {} }],
    180_000,
  );
  // In the broker's container, through its local listener (kafka-entrypoint.sh): the broker hands a client the
  // addresses of the listener it came in on, so TopicTool never needs the Service to lead back to this Pod.
  const tool = (args: string[], input?: string) =>
    execInContainer(node, containerId, ['topic-tool', ...args], { timeoutMs: 120_000, input });
  return { secret: o.secret, bootstrap, ...topicTool(tool, LOCAL) };
}
