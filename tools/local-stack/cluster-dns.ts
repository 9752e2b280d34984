// Cluster DNS stand-in for the local kubelet's Pods: a hosts file, kept current from what the real
// controllers write (Services and EndpointSlices), that the Pods' resolvers read instead of asking
// CoreDNS. It gives the answers CoreDNS's kubernetes plugin would give for A records:
//
//   headless Service (clusterIP None):
//     <hostname>.<svc>.<ns>.svc[.cluster.local] → that endpoint's IP (its local face, pod-addresses.ts), for endpoints with a hostname
//                                                  (StatefulSet Pods: spec.hostname + spec.subdomain)
//     <svc>.<ns>.svc[.cluster.local]             → every endpoint IP
//     endpoints count when ready, or whatever their state when the Service has
//     publishNotReadyAddresses (the EndpointSlice controller already marks those ready; we follow
//     the Service too, so a hand-written slice behaves the same);
//   ClusterIP Service: <svc>.<ns>.svc[.cluster.local] → the loopback address of its proxy
//     (service-proxy.ts) instead of spec.clusterIP, which nothing on this machine routes.
//
// The search list: a Pod's resolv.conf has `search <ns>.svc.cluster.local svc.cluster.local
// cluster.local` with ndots:5, so from a Pod in <ns> the relative names `<svc>`, `<svc>.<ns>`,
// `<hostname>.<svc>` and `<hostname>.<svc>.<ns>` reach the same records. A hosts file has no search
// list, so the useful relative forms are written as names of their own; `<svc>` and
// `<hostname>.<svc>` only for the namespace the local kubelet serves (one hosts file is shared by
// its Pods, which all live there).
//
// Not emulated: a DNS server (nothing answers on port 53; a process that talks DNS itself, e.g.
// dig or a resolver library bypassing getaddrinfo, sees nothing), SRV/PTR/AAAA records, ExternalName
// CNAMEs, Pod A records (a-b-c-d.<ns>.pod), other namespaces' short names, negative-answer TTLs.
// Names not in the file: a JVM given jdk.net.hosts.file resolves nothing else (so the file starts
// with this machine's /etc/hosts and its host name), Node's preload (dns-preload.cjs) falls back to
// the system resolver as nsswitch's "files dns" would.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Service } from 'kubernetes-types/core/v1';
import type { EndpointSlice } from 'kubernetes-types/discovery/v1';
import { packageRoot } from '../../lib/cli/io';
import { localPodIp } from './pod-addresses';

export const CLUSTER_DOMAIN = 'cluster.local';
/** The label by which EndpointSlices name their Service. */
export const SERVICE_NAME_LABEL = 'kubernetes.io/service-name';
/** The environment variable naming the hosts file for dns-preload.cjs. */
export const HOSTS_FILE_ENV = 'SEATUNNEL_LOCAL_HOSTS_FILE';

/** The EndpointSlices of one Service (by the service-name label). */
export function slicesOf(service: Service, slices: readonly EndpointSlice[]): EndpointSlice[] {
  return slices.filter(
    (s) => s.metadata?.labels?.[SERVICE_NAME_LABEL] === service.metadata?.name && s.addressType === 'IPv4',
  );
}

/** A headless Service's addressable endpoints: (hostname?, ip) of those DNS publishes. */
function headlessEndpoints(
  service: Service,
  slices: readonly EndpointSlice[],
): Array<{ hostname?: string; ip: string }> {
  const out: Array<{ hostname?: string; ip: string }> = [];
  for (const slice of slicesOf(service, slices)) {
    for (const ep of slice.endpoints ?? []) {
      // A nil ready condition means "unknown", which consumers are told to treat as ready.
      if (ep.conditions?.ready === false && !service.spec?.publishNotReadyAddresses) continue;
      // The slice holds the Pod IP the API shows; names point at the address the process has.
      const ip = localPodIp(ep.addresses[0] ?? '');
      if (ip) out.push({ hostname: ep.hostname, ip });
    }
  }
  return out;
}

/**
 * Name → addresses for the Services of `namespace` (the namespace the Pods live in). `proxyAddress`
 * gives the loopback address proxying a ClusterIP Service, or undefined when it has none (yet).
 */
export function clusterHosts(
  namespace: string,
  services: readonly Service[],
  slices: readonly EndpointSlice[],
  proxyAddress: (service: Service) => string | undefined,
): Map<string, string[]> {
  const hosts = new Map<string, string[]>();
  const add = (names: string[], ip: string) => {
    for (const name of names) {
      const list = hosts.get(name) ?? [];
      if (!list.includes(ip)) list.push(ip);
      hosts.set(name, list);
    }
  };
  // Every name a Pod of `namespace` can use for <relative>.<ns>.svc.cluster.local.
  const namesFor = (relative: string, ns: string) => [
    `${relative}.${ns}.svc.${CLUSTER_DOMAIN}`,
    `${relative}.${ns}.svc`,
    `${relative}.${ns}`,
    ...(ns === namespace ? [relative] : []),
  ];
  for (const svc of services) {
    const name = svc.metadata?.name;
    const ns = svc.metadata?.namespace ?? namespace;
    if (!name || svc.spec?.type === 'ExternalName') continue;
    if (svc.spec?.clusterIP === 'None') {
      for (const ep of headlessEndpoints(svc, slices)) {
        add(namesFor(name, ns), ep.ip);
        if (ep.hostname) add(namesFor(`${ep.hostname}.${name}`, ns), ep.ip);
      }
    } else {
      const ip = proxyAddress(svc);
      if (ip) add(namesFor(name, ns), ip);
    }
  }
  return hosts;
}

/** The base of the file: this machine's /etc/hosts and its host name (a JVM resolves nothing else). */
export function baseHosts(): string {
  let etc: string;
  try {
    etc = fs.readFileSync('/etc/hosts', 'utf8');
  } catch {
    etc = '127.0.0.1 localhost\n::1 localhost\n';
  }
  const names = new Set(etc.split('\n').flatMap((l) => l.replace(/#.*/, '').trim().split(/\s+/).slice(1)));
  const missing = ['localhost', os.hostname()].filter((n) => n && !names.has(n));
  return `${etc.trimEnd()}\n${missing.map((n) => `127.0.0.1 ${n}\n`).join('')}`;
}

/** The hosts file's text: the base, then one line per (address, name), sorted for stable output. */
export function hostsFileText(base: string, hosts: ReadonlyMap<string, readonly string[]>): string {
  const lines = [...hosts.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .flatMap(([name, ips]) => ips.map((ip) => `${ip} ${name}`));
  return `${base.trimEnd()}\n# cluster DNS stand-in (cluster-dns.ts), from Services and EndpointSlices\n${lines.join('\n')}\n`;
}

/**
 * Replaces the file atomically (rename in the same directory), so a resolver reading it sees the
 * old or the new version, never a part. Returns whether the content changed.
 */
export function writeHostsFile(file: string, text: string): boolean {
  try {
    if (fs.readFileSync(file, 'utf8') === text) return false;
  } catch {
    /* not there yet */
  }
  const tmp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.tmp`);
  fs.writeFileSync(tmp, text);
  fs.renameSync(tmp, file);
  return true;
}

/** The Node.js preload that makes dns.lookup read the hosts file first. */
export function dnsPreloadFile(): string {
  return path.join(packageRoot(), 'tools', 'local-stack', 'dns-preload.cjs');
}

/**
 * What a container's environment needs to resolve through the hosts file. JDK 17 reads
 * jdk.net.hosts.file on every lookup that misses its InetAddress cache, so the cache TTLs are
 * what bound staleness: 1 s for answers, none for "unknown host" (a StatefulSet peer that is not
 * published yet must be found as soon as it is).
 */
export function resolverEnv(
  hostsFile: string,
  containerEnv: Readonly<Record<string, string>>,
): { javaOptions: string; env: Record<string, string> } {
  const preload = `--require "${dnsPreloadFile()}"`;
  return {
    javaOptions: `-Djdk.net.hosts.file=${hostsFile} -Dsun.net.inetaddr.ttl=1 -Dsun.net.inetaddr.negative.ttl=0`,
    env: {
      [HOSTS_FILE_ENV]: hostsFile,
      NODE_OPTIONS: containerEnv.NODE_OPTIONS ? `${preload} ${containerEnv.NODE_OPTIONS}` : preload,
    },
  };
}
