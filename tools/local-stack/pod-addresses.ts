// A local Pod's IP has two faces. The process really has a loopback address, 127.0.0.N: it binds
// there, and the downward API (status.podIP in env) hands it that address. The API server, though,
// refuses loopback addresses in EndpointSlices (ValidateEndpointIP: "may not be in the loopback
// range"), so the real EndpointSlice controller could never publish such a Pod. The local kubelet
// therefore reports the Pod's IP in its status as 10.245.0.N — a range nothing else uses (kwok's
// fake Pods get 10.244.0.0/16, Services 10.96.0.0/16) — and the data path (cluster-dns.ts,
// service-proxy.ts) maps what the controllers write back to the loopback address. The mapping is
// one-to-one on the last octet; an address outside 10.245.0.0/24 belongs to no local process (e.g. a
// kwok Pod) and is not reachable here.

const CLUSTER_PREFIX = '10.245.0.';
const LOCAL_PREFIX = '127.0.0.';

/** The Pod IP the API shows for a local Pod on loopback address `local`. */
export function clusterPodIp(local: string): string {
  if (!local.startsWith(LOCAL_PREFIX)) throw new Error(`local Pod address ${local}: expected one in ${LOCAL_PREFIX}0/24`);
  return CLUSTER_PREFIX + local.slice(LOCAL_PREFIX.length);
}

/** The loopback address behind a Pod IP the API shows, or undefined if no local process has it. */
export function localPodIp(cluster: string): string | undefined {
  return cluster.startsWith(CLUSTER_PREFIX) ? LOCAL_PREFIX + cluster.slice(CLUSTER_PREFIX.length) : undefined;
}
