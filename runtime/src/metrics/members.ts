// Which Zeta members /metrics reads: the masters (the local one without HA; every HA master by its
// stable DNS name) and each worker Pod that has an address. Pure: the worker Pods come from the
// runtime's watch of them.

import type { Pod } from 'kubernetes-types/core/v1';

export interface Member {
  /** The member's Pod name: the `member` label of its samples. */
  readonly name: string;
  readonly role: 'master' | 'worker';
  readonly host: string;
  readonly port: number;
}

export interface MemberSources {
  /** This Pod's name (the local master's, without HA). */
  readonly podName: string;
  /** Where the local master answers (without HA; the host of its REST API). */
  readonly masterHost: string;
  readonly masterPort: number;
  /** HA: each master's `host:port` (its Pod name is the host's first label). */
  readonly haMasterAddresses?: readonly string[];
  readonly workerPort: number;
  /** Where a worker with this API Pod IP is dialled (RUNTIME_ENV.podIpRewrite; the IP itself by default). */
  readonly dialAddress?: (podIp: string) => string;
}

/** RUNTIME_ENV.podIpRewrite's value as a function; undefined when unset or not `<pattern> <replacement>`. */
export function podIpRewrite(value: string | undefined): ((podIp: string) => string) | undefined {
  const [pattern, replacement, ...rest] = (value ?? '').trim().split(/\s+/);
  if (!pattern || replacement === undefined || rest.length > 0) return undefined;
  const re = new RegExp(pattern);
  return (ip) => ip.replace(re, replacement);
}

export function membersOf(src: MemberSources, workerPods: Iterable<Pod>): Member[] {
  const masters: Member[] = src.haMasterAddresses
    ? src.haMasterAddresses.map((address) => {
        const at = address.lastIndexOf(':');
        const host = address.slice(0, at);
        return { name: host.split('.')[0], role: 'master', host, port: Number(address.slice(at + 1)) };
      })
    : [{ name: src.podName, role: 'master', host: src.masterHost, port: src.masterPort }];
  const workers: Member[] = [];
  for (const pod of workerPods) {
    const ip = pod.status?.podIP;
    const name = pod.metadata?.name;
    if (!ip || !name || pod.metadata?.deletionTimestamp || pod.status?.phase !== 'Running') continue;
    const host = src.dialAddress ? src.dialAddress(ip) : ip;
    workers.push({ name, role: 'worker', host: host.includes(':') ? `[${host}]` : host, port: src.workerPort });
  }
  workers.sort((a, b) => a.name.localeCompare(b.name));
  return [...masters, ...workers];
}
