// A real Prometheus for node-tier tests (issue 28 item 3): Debian's prometheus server
// (tools/images/build.sh prometheus) imported into one node on demand and run as a Pod; its HTTP
// API is read from inside the node's network namespace. Debian builds Prometheus without its
// Kubernetes service discovery (its configuration parser does not know kubernetes_sd_configs), so
// the target is what docs/metrics.md's relabelling computes from the runtime Pod's scrape
// annotations: the Pod IP at prometheus.io/port, the path prometheus.io/path, the namespace.
import { stringify } from 'yaml';
import { importImages, resolveImages } from '../../tools/local-stack/node-images';
import { adminHttp } from './cluster';
import { httpGetFromNode, pinnedToNode, type NodeHandle } from './node-faults';
import { waitForPodReady } from './node-pods';

/** encodeURIComponent, and the five characters it leaves that a shell or an HTTP path would mind. */
const strictlyEncoded = (s: string) =>
  encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

const PORT = 9090;

/** A scrape job for Pod `pod`, from its prometheus.io annotations as docs/metrics.md's relabelling reads them. */
export async function annotatedScrapeConfig(ns: string, pod: string): Promise<{ scrape_configs: unknown[] }> {
  const p = await adminHttp().call<{
    metadata: { annotations?: Record<string, string> };
    status?: { podIP?: string };
  }>('GET', `/api/v1/namespaces/${ns}/pods/${pod}`);
  const a = p.metadata.annotations ?? {};
  if (a['prometheus.io/scrape'] !== 'true') throw new Error(`Pod ${pod} is not annotated prometheus.io/scrape: "true"`);
  if (!p.status?.podIP || !/^\d+$/.test(a['prometheus.io/port'] ?? '') || !a['prometheus.io/path'])
    throw new Error(`Pod ${pod}: no address, prometheus.io/port or prometheus.io/path (${JSON.stringify(a)})`);
  return {
    scrape_configs: [
      {
        job_name: 'seatunnel-app',
        metrics_path: a['prometheus.io/path'],
        static_configs: [{ targets: [`${p.status.podIP}:${a['prometheus.io/port']}`], labels: { namespace: ns } }],
      },
    ],
  };
}

export interface RunningPrometheus {
  readonly ip: string;
  /** Result of an instant query: each series' labels and value. */
  query(promql: string): Promise<Array<{ metric: Record<string, string>; value: number }>>;
}

/**
 * Starts Prometheus as Pod `prometheus` in `ns` on `node`, labelled `labels` (what the
 * application's NetworkPolicy admits), scraping every 2 s with `config`.
 */
export async function startPrometheus(
  ns: string,
  node: NodeHandle,
  labels: Record<string, string>,
  config: { scrape_configs: unknown[] },
): Promise<RunningPrometheus> {
  await importImages(node.ctr, node.containerdSocket, await resolveImages({ names: ['prometheus'] }));
  const [image] = await resolveImages({ names: ['prometheus'], build: false });
  const api = adminHttp();
  const create = (p: string, o: unknown) => api.call('POST', p, o);
  await create(`/api/v1/namespaces/${ns}/configmaps`, {
    metadata: { name: 'prometheus' },
    data: { 'prometheus.yml': stringify({ global: { scrape_interval: '2s', scrape_timeout: '2s' }, ...config }) },
  });
  const resources = { cpu: '200m', memory: '256Mi' };
  await create(
    `/api/v1/namespaces/${ns}/pods`,
    pinnedToNode(
      {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'prometheus', labels },
        spec: {
          automountServiceAccountToken: false,
          terminationGracePeriodSeconds: 2,
          securityContext: { runAsUser: 65534, runAsGroup: 65534, runAsNonRoot: true },
          containers: [
            {
              name: 'prometheus',
              image: image.ref,
              imagePullPolicy: 'Never',
              // The image has a CMD and no ENTRYPOINT: arguments alone would replace the program.
              command: ['/usr/bin/prometheus'],
              args: [
                '--config.file=/etc/prometheus/prometheus.yml',
                '--storage.tsdb.path=/prometheus',
                `--web.listen-address=:${PORT}`,
              ],
              ports: [{ name: 'web', containerPort: PORT }],
              readinessProbe: { httpGet: { path: '/-/ready', port: PORT }, periodSeconds: 1 },
              resources: { requests: resources, limits: resources },
              volumeMounts: [{ name: 'config', mountPath: '/etc/prometheus' }],
            },
          ],
          volumes: [{ name: 'config', configMap: { name: 'prometheus' } }],
        },
      },
      node.name,
    ),
  );
  const { podIP: ip } = await waitForPodReady(ns, 'prometheus');
  if (!ip) throw new Error(`Prometheus in ${ns} is Ready with no address in its status`);
  return {
    ip,
    async query(promql) {
      const body = await httpGetFromNode(node, ip, PORT, `/api/v1/query?query=${strictlyEncoded(promql)}`, 10);
      let answer: {
        status?: string;
        data?: { result?: Array<{ metric: Record<string, string>; value: [number, string] }> };
      };
      try {
        answer = JSON.parse(body);
      } catch {
        throw new Error(`Prometheus answered ${promql} with: ${body.slice(0, 300)}`);
      }
      if (answer.status !== 'success') throw new Error(`Prometheus: ${promql}: ${body.slice(0, 300)}`);
      return (answer.data?.result ?? []).map((r) => ({ metric: r.metric, value: Number(r.value[1]) }));
    },
  };
}
