// A TCP relay on 127.0.0.1 that holds every byte for half a round trip in each direction: a remote
// API server (a laptop to a cloud region, a VPN) on this machine, with the server's own TLS passing
// through untouched. A CLI's wall time on such a path is mostly its sequential round trips, which a
// loopback benchmark hides. Bytes keep their order: every chunk waits the same time, and Node fires
// timers of one duration in the order they were set.
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import type { ClusterInfo } from '../tools/local-stack/control-plane';

export interface LatencyRelay {
  /** host:port to dial instead of the target. */
  readonly address: string;
  close(): Promise<void>;
}

function delayed(from: net.Socket, to: net.Socket, oneWayMs: number): void {
  from.on('data', (chunk: Buffer) => {
    setTimeout(() => {
      if (!to.destroyed) to.write(chunk);
    }, oneWayMs);
  });
  from.on('end', () => setTimeout(() => to.end(), oneWayMs));
}

export async function startLatencyRelay(
  target: { host: string; port: number },
  roundTripMs: number,
): Promise<LatencyRelay> {
  const oneWay = roundTripMs / 2;
  const open = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(target.port, target.host);
    for (const s of [client, upstream]) {
      open.add(s);
      s.on('close', () => open.delete(s));
      // Either side gone: both go, as a broken path would take them.
      s.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
    }
    // The TCP handshake crosses the path too: the client's first bytes wait until the upstream
    // connection is open, which is itself held a whole round trip.
    client.pause();
    upstream.once('connect', () =>
      setTimeout(() => {
        delayed(client, upstream, oneWay);
        delayed(upstream, client, oneWay);
        client.resume();
      }, roundTripMs),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    address: `127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of open) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** The round-trip time the relayed rows of a bench add: BENCH_RTT_MS, default 30; 0 leaves them out. */
export const BENCH_RTT_MS = Math.max(0, Number(process.env.BENCH_RTT_MS ?? 30));

export interface RelayedCluster {
  readonly rttMs: number;
  /** A copy of the cluster's kubeconfig that reaches it through the relay. */
  readonly kubeconfig: string;
  close(): Promise<void>;
}

/** The bench's cluster behind a relay of BENCH_RTT_MS, or undefined when that is 0. */
export async function relayedCluster(info: ClusterInfo, dir: string): Promise<RelayedCluster | undefined> {
  if (BENCH_RTT_MS <= 0) return undefined;
  const server = new URL(info.server);
  const relay = await startLatencyRelay({ host: server.hostname, port: Number(server.port) }, BENCH_RTT_MS);
  // The local stack writes its kubeconfig as JSON.
  const kc = JSON.parse(fs.readFileSync(info.kubeconfig, 'utf8')) as {
    clusters: Array<{ cluster: { server: string } }>;
  };
  for (const c of kc.clusters) c.cluster.server = `https://${relay.address}`;
  const kubeconfig = path.join(dir, 'relayed.kubeconfig');
  fs.writeFileSync(kubeconfig, JSON.stringify(kc), { mode: 0o600 });
  return { rttMs: BENCH_RTT_MS, kubeconfig, close: () => relay.close() };
}
