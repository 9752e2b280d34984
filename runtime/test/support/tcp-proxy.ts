// A TCP proxy on 127.0.0.1 in front of the API server, so a test can cut the runtime's
// connections (its watch among them) without touching the API server. TLS passes through
// unchanged (the serving certificate is for 127.0.0.1, whatever the port).

import * as net from 'node:net';

export class TcpProxy {
  private readonly sockets = new Set<net.Socket>();
  private blocked = false;
  /** Connections accepted so far (for assertions that the client reconnected). */
  accepted = 0;

  private constructor(
    private readonly server: net.Server,
    readonly port: number,
  ) {}

  static async start(targetHost: string, targetPort: number): Promise<TcpProxy> {
    const server = net.createServer((client) => {
      if (proxy.blocked) return void client.destroy();
      proxy.accepted++;
      const upstream = net.connect(targetPort, targetHost);
      proxy.sockets.add(client);
      proxy.sockets.add(upstream);
      const drop = () => {
        client.destroy();
        upstream.destroy();
        proxy.sockets.delete(client);
        proxy.sockets.delete(upstream);
      };
      client.on('error', drop).on('close', drop);
      upstream.on('error', drop).on('close', drop);
      client.pipe(upstream);
      upstream.pipe(client);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const proxy = new TcpProxy(server, (server.address() as net.AddressInfo).port);
    return proxy;
  }

  get url(): string {
    return `https://127.0.0.1:${this.port}`;
  }

  get open(): number {
    return this.sockets.size / 2;
  }

  /** Cuts every open connection and refuses new ones until `unblock`. */
  block(): void {
    this.blocked = true;
    for (const s of this.sockets) s.destroy();
    this.sockets.clear();
  }

  unblock(): void {
    this.blocked = false;
  }

  async close(): Promise<void> {
    this.block();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
