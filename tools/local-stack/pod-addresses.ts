// A local Pod's IP has two faces. The process really has a loopback address, 127.0.0.N: it binds
// there, and the downward API (status.podIP in env) hands it that address. The API server, though,
// refuses loopback addresses in EndpointSlices (ValidateEndpointIP: "may not be in the loopback
// range"), so the real EndpointSlice controller could never publish such a Pod. The local kubelet
// therefore reports the Pod's IP in its status as 10.245.0.N — a range nothing else uses (kwok's
// fake Pods get 10.244.0.0/16, Services 10.96.0.0/16) — and the data path (cluster-dns.ts,
// service-proxy.ts) maps what the controllers write back to the loopback address. The mapping is
// one-to-one (10.245.B.N ↔ 127.B.0.N); an address outside 10.245.0.0/16 belongs to no local process (e.g. a
// kwok Pod) and is not reachable here.

// Several stacks may run on one machine at once (an engine test run next to a bench): each takes
// its own block B, local addresses 127.B.0.N and Pod IPs 10.245.B.N (block 0: 127.0.0.N).

/** Local Pod addresses of block `block` (0–255): 127.B.0.2 … 127.B.0.250. */
export function localAddressBlock(block: number): string[] {
  if (!Number.isInteger(block) || block < 0 || block > 255)
    throw new Error(`address block ${block}: expected 0 to 255`);
  return Array.from({ length: 249 }, (_, i) => `127.${block}.0.${i + 2}`);
}

/** The Pod IP the API shows for a local Pod on loopback address `local`. */
export function clusterPodIp(local: string): string {
  const o = local.split('.');
  if (o.length !== 4 || o[0] !== '127' || o[2] !== '0')
    throw new Error(`local Pod address ${local}: expected 127.B.0.N`);
  return `10.245.${o[1]}.${o[3]}`;
}

/** The loopback address behind a Pod IP the API shows, or undefined if no local process has it. */
export function localPodIp(cluster: string): string | undefined {
  const o = cluster.split('.');
  return o.length === 4 && o[0] === '10' && o[1] === '245' ? `127.${o[2]}.0.${o[3]}` : undefined;
}

/**
 * localPodIp as a regular-expression rewrite (`<pattern> <replacement>`), for a process that knows
 * Pod IPs only from the API: the runtime's SEATUNNEL_APP_POD_IP_REWRITE (it dials the workers there).
 */
export const POD_IP_REWRITE = '^10\\.245\\.(\\d+)\\.(\\d+)$ 127.$1.0.$2';
