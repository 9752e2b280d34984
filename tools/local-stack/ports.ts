import * as net from 'node:net';

/** Ports the kernel reports free on 127.0.0.1 right now (all distinct). */
export async function freePorts(count: number): Promise<number[]> {
  const servers: net.Server[] = [];
  try {
    const ports: number[] = [];
    for (let i = 0; i < count; i++) {
      const server = net.createServer();
      servers.push(server);
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(0, '127.0.0.1', () => resolve());
      });
      ports.push((server.address() as net.AddressInfo).port);
    }
    return ports;
  } finally {
    // Keep all of them open until every port is chosen, so none is handed out twice.
    await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
  }
}
