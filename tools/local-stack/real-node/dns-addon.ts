// The cluster's DNS: CoreDNS as a DaemonSet (one Pod per node) behind the kube-dns Service, as a
// real cluster runs it. Its endpoints are kept by the EndpointSlice controller from the Pods'
// readiness, so when a node is lost the node lifecycle controller marks its CoreDNS Pod not ready
// and the Service stops sending queries there — the same window (node-monitor-grace-period) and
// the same behaviour as in any cluster. No registry is reachable, so the container runs the
// project's CoreDNS binary (tools/node/build.sh; static) from a read-only hostPath on top of the
// local pause image's root file system (only /pause in it; CoreDNS needs no other file). Cluster
// names only: no `forward`, nothing outside the cluster may be asked.
import * as path from 'node:path';

const NS = 'kube-system';
const NAME = 'coredns';
const LABELS = { 'k8s-app': 'kube-dns' };
const BIN_DIR = '/coredns-bin';

export const COREDNS_COREFILE = `.:53 {
    errors
    health :8080
    ready :8181
    kubernetes cluster.local in-addr.arpa ip6.arpa {
        pods insecure
        fallthrough in-addr.arpa ip6.arpa
        ttl 5
    }
    cache 5
    loop
    reload
    loadbalance
}
`;

export interface DnsAddonOptions {
  /** The CoreDNS binary on this machine (mounted read-only into the Pods). */
  corednsBinary: string;
  /** The local pause image (its root file system carries the container). */
  image: string;
  /** ClusterIP of the kube-dns Service (the kubelets' clusterDNS). */
  serviceIp: string;
}

/** The objects of the DNS add-on, in creation order (RBAC, ConfigMap, DaemonSet, Service). */
export function dnsAddonObjects(opts: DnsAddonOptions): Array<Record<string, unknown>> {
  const meta = (extra: Record<string, unknown> = {}) => ({ name: NAME, namespace: NS, labels: LABELS, ...extra });
  const dnsPorts = [
    { name: 'dns', port: 53, protocol: 'UDP' },
    { name: 'dns-tcp', port: 53, protocol: 'TCP' },
  ];
  return [
    { apiVersion: 'v1', kind: 'ServiceAccount', metadata: meta() },
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: `system:${NAME}`, labels: LABELS },
      rules: [
        { apiGroups: [''], resources: ['endpoints', 'services', 'pods', 'namespaces'], verbs: ['list', 'watch'] },
        { apiGroups: ['discovery.k8s.io'], resources: ['endpointslices'], verbs: ['list', 'watch'] },
      ],
    },
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: { name: `system:${NAME}`, labels: LABELS },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: `system:${NAME}` },
      subjects: [{ kind: 'ServiceAccount', name: NAME, namespace: NS }],
    },
    { apiVersion: 'v1', kind: 'ConfigMap', metadata: meta(), data: { Corefile: COREDNS_COREFILE } },
    {
      apiVersion: 'apps/v1',
      kind: 'DaemonSet',
      metadata: meta(),
      spec: {
        selector: { matchLabels: LABELS },
        // A lost node's Pod is replaced by nothing (one per node); the others serve meanwhile.
        updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1 } },
        template: {
          metadata: { labels: LABELS },
          spec: {
            serviceAccountName: NAME,
            priorityClassName: 'system-node-critical',
            // Default: the node's resolv.conf; CoreDNS asks nothing upstream, so it never loops on itself.
            dnsPolicy: 'Default',
            tolerations: [{ key: 'CriticalAddonsOnly', operator: 'Exists' }],
            terminationGracePeriodSeconds: 5,
            containers: [
              {
                name: NAME,
                image: opts.image,
                imagePullPolicy: 'Never',
                command: [
                  path.posix.join(BIN_DIR, path.basename(opts.corednsBinary)),
                  '-conf',
                  '/etc/coredns/Corefile',
                ],
                ports: [
                  { name: 'dns', containerPort: 53, protocol: 'UDP' },
                  { name: 'dns-tcp', containerPort: 53, protocol: 'TCP' },
                  { name: 'health', containerPort: 8080, protocol: 'TCP' },
                ],
                resources: { requests: { cpu: '10m', memory: '40Mi' }, limits: { memory: '170Mi' } },
                livenessProbe: { httpGet: { path: '/health', port: 8080 }, periodSeconds: 10, failureThreshold: 5 },
                readinessProbe: { httpGet: { path: '/ready', port: 8181 }, periodSeconds: 2 },
                securityContext: {
                  // Port 53 needs root or NET_BIND_SERVICE; the pause image names no user.
                  runAsUser: 0,
                  allowPrivilegeEscalation: false,
                  capabilities: { add: ['NET_BIND_SERVICE'], drop: ['ALL'] },
                  readOnlyRootFilesystem: true,
                },
                volumeMounts: [
                  { name: 'config', mountPath: '/etc/coredns', readOnly: true },
                  { name: 'bin', mountPath: BIN_DIR, readOnly: true },
                ],
              },
            ],
            volumes: [
              { name: 'config', configMap: { name: NAME } },
              { name: 'bin', hostPath: { path: path.dirname(opts.corednsBinary), type: 'Directory' } },
            ],
          },
        },
      },
    },
    {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'kube-dns', namespace: NS, labels: LABELS },
      spec: {
        clusterIP: opts.serviceIp,
        selector: LABELS,
        ports: dnsPorts.map((p) => ({ ...p, targetPort: 53 })),
      },
    },
  ];
}

/** API collection path of one of the add-on's objects. */
export function collectionPath(o: Record<string, unknown>): string {
  const kind = o.kind as string;
  const plural: Record<string, string> = {
    ServiceAccount: '/api/v1/namespaces/kube-system/serviceaccounts',
    ConfigMap: '/api/v1/namespaces/kube-system/configmaps',
    Service: '/api/v1/namespaces/kube-system/services',
    DaemonSet: '/apis/apps/v1/namespaces/kube-system/daemonsets',
    ClusterRole: '/apis/rbac.authorization.k8s.io/v1/clusterroles',
    ClusterRoleBinding: '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings',
  };
  const p = plural[kind];
  if (!p) throw new Error(`dns add-on: no collection path for kind ${kind}`);
  return p;
}

export const DNS_DAEMONSET_PATH = `/apis/apps/v1/namespaces/${NS}/daemonsets/${NAME}`;
