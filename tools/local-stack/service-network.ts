// The local kubelet's Service data path: polls the Services and EndpointSlices of its namespace
// (what the real EndpointSlice controller writes; nothing here looks at how the objects were
// planned), keeps the userspace proxy (service-proxy.ts) in line with them, then rewrites the
// cluster DNS stand-in's hosts file (cluster-dns.ts) so names point at current Pod IPs and proxy
// addresses. Polling, not watching: one namespace's two lists every few hundred milliseconds are
// cheap, and a poll cannot miss an event or get stuck on an expired resourceVersion. The lag
// between a controller's write and the hosts file is one period, as CoreDNS and kube-proxy lag
// behind their watches.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Service } from 'kubernetes-types/core/v1';
import type { EndpointSlice } from 'kubernetes-types/discovery/v1';
import type { KubeHttp } from '../../test/support/kube-http';
import { baseHosts, clusterHosts, hostsFileText, writeHostsFile } from './cluster-dns';
import { ServiceProxy } from './service-proxy';
import { SyncLoop } from './sync-loop';

export interface ServiceNetworkOptions {
  readonly admin: KubeHttp;
  readonly namespace: string;
  /** The hosts file to keep current (its directory is created). */
  readonly hostsFile: string;
  /** Loopback addresses for Service proxies. @default service-proxy.ts DEFAULT_PROXY_ADDRESSES */
  readonly proxyAddresses?: readonly string[];
  /** @default 250 ms */
  readonly periodMs?: number;
  readonly log?: (line: string) => void;
}

export class ServiceNetwork {
  readonly hostsFile: string;
  private readonly proxy: ServiceProxy;
  private readonly base = baseHosts();
  private readonly loop: SyncLoop;
  /** Errors met while syncing (shown by tests on failure). */
  readonly errors: string[] = [];

  constructor(private readonly opts: ServiceNetworkOptions) {
    this.hostsFile = opts.hostsFile;
    this.proxy = new ServiceProxy(opts.proxyAddresses, (l) => this.note(l));
    fs.mkdirSync(path.dirname(opts.hostsFile), { recursive: true });
    // Pods may start before the first sync: they find at least this machine's names.
    writeHostsFile(opts.hostsFile, hostsFileText(this.base, new Map()));
    this.loop = new SyncLoop(
      () => this.sync(),
      opts.periodMs ?? 250,
      (l) => this.note(l),
    );
  }

  start(): this {
    this.loop.start();
    return this;
  }

  async stop(): Promise<void> {
    await this.loop.stop();
    this.proxy.close();
  }

  /** The loopback address proxying a Service of this namespace, once it has one. */
  proxyAddress(service: Service): string | undefined {
    return this.proxy.addressOf(service);
  }

  private note(line: string): void {
    this.errors.push(line);
    this.opts.log?.(`[service-network] ${line}`);
  }

  private async sync(): Promise<void> {
    const ns = encodeURIComponent(this.opts.namespace);
    const [services, slices] = await Promise.all([
      this.opts.admin.call<{ items: Service[] }>('GET', `/api/v1/namespaces/${ns}/services`),
      this.opts.admin.call<{ items: EndpointSlice[] }>(
        'GET',
        `/apis/discovery.k8s.io/v1/namespaces/${ns}/endpointslices`,
      ),
    ]);
    // Proxies first: the names of a new Service must not appear before its address listens.
    await this.proxy.sync(services.items, slices.items);
    const hosts = clusterHosts(this.opts.namespace, services.items, slices.items, (svc) => this.proxy.addressOf(svc));
    writeHostsFile(this.hostsFile, hostsFileText(this.base, hosts));
  }
}
