// A userspace kube-proxy stand-in for the local kubelet's Pods: every ClusterIP Service gets a
// loopback address of its own (from 127.0.2.1 on, clear of the Pod IPs 127.0.0.x) with a TCP
// listener on each Service port; each new connection goes to a ready endpoint of the Service's
// EndpointSlices (as the EndpointSlice controller wrote them; Pod IPs mapped to their loopback
// face, pod-addresses.ts) at that endpoint's port for the Service port, round robin. A connect that fails moves on to the next ready endpoint; with none
// left (or none ready) the client's connection is reset, as a REJECT rule would. The cluster DNS
// stand-in (cluster-dns.ts) maps the Service's names to this address.
//
// Semantics are those of kube-proxy's old userspace mode, not iptables/IPVS: the client sees the
// proxy's address as its peer and the backend sees a connection from 127.0.0.1 (no source IP
// preservation, no sessionAffinity), spec.clusterIP itself is not routed (no iptables), only TCP
// ports are served (UDP/SCTP ignored), and NodePort/LoadBalancer/externalIPs are not emulated.
// Connections already open keep running when their endpoint leaves the slice; they break when its
// process goes away, as they would through kube-proxy. Listeners bind only to 127.x addresses.
// The kubelet's Service environment variables (<SVC>_SERVICE_HOST/_PORT) are not set: Pods reach
// Services by name (cluster-dns.ts).
import * as net from 'node:net';
import type { Service, ServicePort } from 'kubernetes-types/core/v1';
import type { EndpointSlice } from 'kubernetes-types/discovery/v1';
import { slicesOf } from './cluster-dns';
import { localPodIp } from './pod-addresses';

/** The addresses handed to Services: 127.0.2.1 … 127.0.3.254. */
export const DEFAULT_PROXY_ADDRESSES: readonly string[] = [2, 3].flatMap((c) =>
  Array.from({ length: 254 }, (_, i) => `127.0.${c}.${i + 1}`),
);

export interface Backend {
  readonly ip: string;
  readonly port: number;
}

/** Whether kube-proxy would proxy this Service (a cluster IP, not headless, not ExternalName). */
export function isProxied(svc: Service): boolean {
  const ip = svc.spec?.clusterIP;
  return Boolean(ip) && ip !== 'None' && svc.spec?.type !== 'ExternalName';
}

/** The ready endpoints of a Service port: each endpoint's address at the slice's port of the same name. */
export function readyBackends(svc: Service, port: ServicePort, slices: readonly EndpointSlice[]): Backend[] {
  const out: Backend[] = [];
  for (const slice of slicesOf(svc, slices)) {
    const sp = (slice.ports ?? []).find((p) => (p.name ?? '') === (port.name ?? '') && (p.protocol ?? 'TCP') === 'TCP');
    if (sp?.port === undefined) continue;
    for (const ep of slice.endpoints ?? []) {
      // kube-proxy sends new connections only to ready endpoints (nil counts as ready).
      if (ep.conditions?.ready === false) continue;
      // The slice holds the Pod IP the API shows; connect to the address the process has.
      const ip = localPodIp(ep.addresses[0] ?? '');
      if (ip && !out.some((b) => b.ip === ip && b.port === sp.port)) out.push({ ip, port: sp.port });
    }
  }
  return out;
}

interface Proxied {
  uid: string;
  address: string;
  /** Service port number → its listener and current backends. */
  ports: Map<number, { server: net.Server; backends: Backend[]; next: number }>;
}

const listen = (server: net.Server, host: string, port: number) =>
  new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ host, port, exclusive: true }, () => {
      server.off('error', reject);
      resolve();
    });
  });
// Stops accepting at once (the address is free again); connections already proxied run on, as
// they would through kube-proxy, so nothing waits for them to end.
const close = (server: net.Server) => void server.close();

export class ServiceProxy {
  private readonly proxied = new Map<string, Proxied>();
  private readonly connections = new Set<net.Socket>();

  constructor(
    private readonly addresses: readonly string[] = DEFAULT_PROXY_ADDRESSES,
    private readonly log: (line: string) => void = () => undefined,
  ) {
    for (const a of addresses)
      if (!a.startsWith('127.'))
        throw new Error(`service proxy address ${a}: only 127.x loopback addresses may be used`);
  }

  /** The loopback address proxying a Service, if it has one. */
  addressOf(svc: Service): string | undefined {
    const p = this.proxied.get(svc.metadata?.name ?? '');
    return p && p.uid === svc.metadata?.uid ? p.address : undefined;
  }

  /** Brings listeners and backends in line with the Services and EndpointSlices of one namespace. */
  async sync(services: readonly Service[], slices: readonly EndpointSlice[]): Promise<void> {
    const wanted = new Map(services.filter(isProxied).map((s) => [s.metadata?.name ?? '', s]));
    for (const [name, p] of this.proxied) {
      const svc = wanted.get(name);
      if (!svc || svc.metadata?.uid !== p.uid) this.remove(name);
    }
    for (const [name, svc] of wanted) {
      const tcp = (svc.spec?.ports ?? []).filter((p) => (p.protocol ?? 'TCP') === 'TCP');
      let p = this.proxied.get(name);
      if (!p) {
        p = await this.allocate(name, svc.metadata?.uid ?? '', tcp);
        if (!p) continue;
      }
      for (const [port, l] of p.ports) {
        if (!tcp.some((sp) => sp.port === port)) {
          p.ports.delete(port);
          close(l.server);
        }
      }
      for (const sp of tcp) {
        let l = p.ports.get(sp.port);
        if (!l) {
          try {
            l = await this.open(p.address, sp.port);
          } catch (e) {
            this.log(`service ${name}: cannot listen on ${p.address}:${sp.port}: ${(e as Error).message}`);
            continue;
          }
          p.ports.set(sp.port, l);
        }
        l.backends = readyBackends(svc, sp, slices);
      }
    }
  }

  /** Stops every listener and every proxied connection. */
  close(): void {
    for (const name of [...this.proxied.keys()]) this.remove(name);
    for (const c of this.connections) c.destroy();
  }

  private remove(name: string): void {
    const p = this.proxied.get(name);
    this.proxied.delete(name);
    for (const l of p?.ports.values() ?? []) close(l.server);
  }

  /** The first free address on which every port can be opened (another stack may hold some). */
  private async allocate(name: string, uid: string, ports: ServicePort[]): Promise<Proxied | undefined> {
    const taken = new Set([...this.proxied.values()].map((p) => p.address));
    for (const address of this.addresses) {
      if (taken.has(address)) continue;
      const opened = new Map<number, { server: net.Server; backends: Backend[]; next: number }>();
      try {
        for (const sp of ports) opened.set(sp.port, await this.open(address, sp.port));
      } catch (e) {
        for (const l of opened.values()) close(l.server);
        if ((e as NodeJS.ErrnoException).code === 'EADDRINUSE') continue;
        this.log(`service ${name}: cannot listen on ${address}: ${(e as Error).message}`);
        return undefined;
      }
      const p: Proxied = { uid, address, ports: opened };
      this.proxied.set(name, p);
      return p;
    }
    this.log(`service ${name}: no proxy address left`);
    return undefined;
  }

  private async open(address: string, port: number) {
    const entry = {
      server: net.createServer({ allowHalfOpen: true, pauseOnConnect: true }),
      backends: [] as Backend[],
      next: 0,
    };
    entry.server.on('connection', (client) => {
      // A round-robin order starting after the last backend used, each tried at most once.
      const order = entry.backends.map((_, i) => entry.backends[(entry.next + i) % entry.backends.length]);
      entry.next = entry.backends.length ? (entry.next + 1) % entry.backends.length : 0;
      this.forward(client, order);
    });
    await listen(entry.server, address, port);
    return entry;
  }

  private forward(client: net.Socket, order: Backend[]): void {
    this.connections.add(client);
    client.once('close', () => this.connections.delete(client));
    client.on('error', () => client.destroy());
    const attempt = (i: number) => {
      if (client.destroyed) return;
      if (i >= order.length) {
        client.resetAndDestroy();
        return;
      }
      const upstream = net.connect({ host: order[i].ip, port: order[i].port, allowHalfOpen: true });
      upstream.setTimeout(5000, () => upstream.destroy(new Error('connect timeout')));
      const failed = () => attempt(i + 1);
      upstream.once('error', failed);
      upstream.once('connect', () => {
        upstream.setTimeout(0);
        upstream.off('error', failed);
        this.connections.add(upstream);
        upstream.once('close', () => this.connections.delete(upstream));
        upstream.on('error', () => client.destroy());
        client.on('error', () => upstream.destroy());
        // Each side's end reaches the other through pipe(); an abort (reset, error) aborts both.
        client.once('close', (hadError) => hadError && upstream.destroy());
        upstream.once('close', (hadError) => hadError && client.destroy());
        client.pipe(upstream);
        upstream.pipe(client);
        client.resume();
      });
    };
    attempt(0);
  }
}
