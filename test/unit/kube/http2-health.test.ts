// Over HTTP/2 every request to the API server shares one connection. One that died without a word
// — its peer gone while the process or its node was frozen, a conntrack entry dropped — must not
// take every later request down with it: a request that times out has its connection PINGed, and a
// connection that does not answer is dropped, so the next request opens a new one. Seen on the real
// nodes: a coordinator's requests timed out for about a minute after its node was thawed.
import * as fs from 'node:fs';
import * as http2 from 'node:http2';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { KubeApiError, KubeTransport } from '../../../lib/kube';
import { selfSignedFor127 } from '../../support/self-signed';

let dir: string;
let server: http2.Http2SecureServer;
let proxy: net.Server;
let ca: Buffer;
let key: Buffer;
/** Client sockets the proxy accepted, each with a switch that makes it swallow every byte from then on. */
const links: Array<{ kill: () => void }> = [];

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'seatunnel-app-h2-'));
  const tls = selfSignedFor127(dir);
  key = tls.key;
  ca = tls.cert;
  server = http2.createSecureServer({ key, cert: ca }, (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ kind: 'Status', status: 'Success' }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const upstream = (server.address() as net.AddressInfo).port;
  // A TCP relay in front of the server; a killed link stays open but carries nothing either way,
  // as a connection whose peer vanished without a FIN or RST.
  proxy = net.createServer((client) => {
    const up = net.connect(upstream, '127.0.0.1');
    let dead = false;
    client.on('data', (b) => dead || up.write(b));
    up.on('data', (b) => dead || client.write(b));
    const end = () => {
      client.destroy();
      up.destroy();
    };
    client.on('error', end);
    up.on('error', end);
    client.on('close', () => up.destroy());
    up.on('close', () => dead || client.destroy());
    links.push({ kill: () => (dead = true) });
  });
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
});

afterAll(async () => {
  await new Promise((r) => proxy.close(r));
  server.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

test('a request that times out on a dead connection drops it after an unanswered PING; the next request connects anew', async () => {
  const t = new KubeTransport(
    `https://127.0.0.1:${(proxy.address() as net.AddressInfo).port}`,
    async () => ({ headers: {}, tls: { ca } }),
    { timeoutMs: 1000, pingTimeoutMs: 300 },
  );
  try {
    expect((await t.request({ method: 'GET', path: '/api' })).status).toBe(200);
    expect(t.protocol).toBe('h2');
    expect(links).toHaveLength(1);
    links[0].kill();
    const e = await t.request({ method: 'GET', path: '/api' }).then(
      () => undefined,
      (x: unknown) => x,
    );
    expect(e).toBeInstanceOf(KubeApiError);
    expect((e as KubeApiError).reason).toBe('ETIMEDOUT');
    // The PING goes unanswered; once it has timed out the connection is gone.
    await new Promise((r) => setTimeout(r, 600));
    const again = await t.request({ method: 'GET', path: '/api' });
    expect(again.status).toBe(200);
    expect(links).toHaveLength(2);
  } finally {
    t.close();
  }
});

test('a request that times out on a live connection (a slow answer) keeps the connection', async () => {
  const slow = http2.createSecureServer({ key, cert: ca }, (req, res) => {
    const wait = req.url === '/slow' ? 1500 : 0;
    setTimeout(() => {
      if (res.destroyed || res.stream.destroyed) return;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{}');
    }, wait);
  });
  const sessions: unknown[] = [];
  slow.on('session', (s) => sessions.push(s));
  await new Promise<void>((r) => slow.listen(0, '127.0.0.1', r));
  const t = new KubeTransport(
    `https://127.0.0.1:${(slow.address() as net.AddressInfo).port}`,
    async () => ({ headers: {}, tls: { ca } }),
    { timeoutMs: 500, pingTimeoutMs: 300 },
  );
  try {
    await t.request({ method: 'GET', path: '/fast' });
    await expect(t.request({ method: 'GET', path: '/slow' })).rejects.toThrow(/within 500 ms/);
    await new Promise((r) => setTimeout(r, 600));
    await t.request({ method: 'GET', path: '/fast' });
    expect(sessions).toHaveLength(1);
  } finally {
    t.close();
    slow.close();
  }
});
