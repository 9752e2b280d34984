// The transport against hostile or broken servers on 127.0.0.1: bodies and watch events are
// capped, requests have a total deadline that a dripping server cannot reset, and the error says
// whether the request may have taken effect.
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { KubeApiError, KubeTransport, Kube } from '../../../lib/kube';
import { MAX_JSON_DEPTH, nestsDeeperThan } from '../../../lib/kube/json-depth';

let server: http.Server;
let base: string;
let handler: (req: http.IncomingMessage, res: http.ServerResponse) => void;

beforeAll(async () => {
  server = http.createServer((req, res) => handler(req, res));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

const transport = (opts: { timeoutMs?: number; maxBodyBytes?: number } = {}) =>
  new KubeTransport(base, async () => ({ headers: {}, tls: {} }), opts);

async function failure(p: Promise<unknown>): Promise<KubeApiError> {
  const e = await p.then(
    () => undefined,
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(KubeApiError);
  return e as KubeApiError;
}

type WatchQuery = Parameters<Kube['watch']>[3];

/** Watches through `t` until the watch closes; the error it closed with, after closing `t`. */
async function watchUntilClosed(
  t: KubeTransport,
  apiVersion: string,
  kind: string,
  query: WatchQuery,
  event: (type: string, o: unknown) => void = () => undefined,
): Promise<KubeApiError | undefined> {
  const closed = await new Promise<KubeApiError | undefined>((resolve) => {
    new Kube(t).watch(apiVersion, kind, 'ns', query, { event, closed: resolve });
  });
  t.close();
  return closed;
}

test('an answer body over the cap is refused without reading it all (the server sends without end)', async () => {
  handler = (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    const pump = () => {
      let more = true;
      while (more && !res.destroyed) more = res.write(chunk);
      if (!res.destroyed) res.once('drain', pump);
    };
    pump();
  };
  const t = transport({ maxBodyBytes: 1024 * 1024 });
  const e = await failure(t.request({ method: 'GET', path: '/api/v1/namespaces/ns/pods' }));
  t.close();
  expect(e.reason).toBe('ResponseTooLarge');
  expect(e.status).toBe(0);
  expect(e.message).toContain('exceeds 1048576 bytes');
  // It may have taken effect (the server answered), and a list of the same size will not shrink.
  expect(e.ambiguous).toBe(true);
});

test('a server that drips bytes is cut off at the total deadline, not kept alive by each byte', async () => {
  handler = (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    const timer = setInterval(() => (res.destroyed ? clearInterval(timer) : res.write(' ')), 20);
  };
  const t = transport({ timeoutMs: 300 });
  const e = await failure(t.request({ method: 'POST', path: '/api/v1/namespaces/ns/pods', body: { kind: 'Pod' } }));
  t.close();
  expect(e.reason).toBe('ETIMEDOUT');
  expect(e.message).toContain('no complete answer');
  expect(e.ambiguous).toBe(true); // the create was sent: it may have happened
  expect(e.transient).toBe(true);
});

test('a refused connection is not ambiguous: the request never reached a server', async () => {
  const probe = http.createServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
  const port = (probe.address() as AddressInfo).port;
  await new Promise((r) => probe.close(r));
  const t = new KubeTransport(`http://127.0.0.1:${port}`, async () => ({ headers: {}, tls: {} }));
  const e = await failure(t.request({ method: 'POST', path: '/x', body: {} }));
  expect(e.reason).toBe('ECONNREFUSED');
  expect(e.ambiguous).toBe(false);
  expect(e.transient).toBe(true);
});

test('a Status answer becomes a KubeApiError with its reason; a 409 is neither transient nor ambiguous', async () => {
  handler = (_req, res) => {
    res.writeHead(409, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ kind: 'Status', reason: 'AlreadyExists', message: 'pods "p" already exists' }));
  };
  const t = transport();
  const e = await failure(new Kube(t).create({ apiVersion: 'v1', kind: 'Pod' }, 'ns'));
  t.close();
  expect([e.status, e.reason, e.detail]).toEqual([409, 'AlreadyExists', 'pods "p" already exists']);
  expect(e.message).toBe('POST /api/v1/namespaces/ns/pods: HTTP 409 AlreadyExists: pods "p" already exists');
  expect(e.ambiguous || e.transient).toBe(false);
});

test('a watch delivers events split across chunks, and ends with an error when one event exceeds the cap', async () => {
  handler = (req, res) => {
    expect(req.url).toContain('watch=1');
    res.writeHead(200, { 'content-type': 'application/json' });
    const ev = JSON.stringify({ type: 'ADDED', object: { kind: 'Pod', metadata: { name: 'ü-1' } } }) + '\n';
    const bytes = Buffer.from(ev);
    res.write(bytes.subarray(0, 40)); // splits inside the object (and the multibyte ü is at its edge)
    res.write(
      Buffer.concat([bytes.subarray(40), Buffer.from(JSON.stringify({ type: 'BOOKMARK', object: {} }) + '\n')]),
    );
    res.write('{"type":"MODIFIED","object":{"pad":"' + 'x'.repeat(4096)); // never ends its line
  };
  const t = transport({ maxBodyBytes: 2048 });
  const events: Array<[string, unknown]> = [];
  const closed = await watchUntilClosed(t, 'v1', 'Pod', { resourceVersion: '1', timeoutSeconds: 60 }, (type, o) =>
    events.push([type, o]),
  );
  expect(events).toEqual([
    ['ADDED', { kind: 'Pod', metadata: { name: 'ü-1' } }],
    ['BOOKMARK', {}],
  ]);
  expect(closed?.reason).toBe('ResponseTooLarge');
});

test('a watch answered with a Status error closes with that status', async () => {
  handler = (_req, res) => {
    res.writeHead(403, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ kind: 'Status', reason: 'Forbidden', message: 'jobs is forbidden' }));
  };
  const t = transport();
  const closed = await watchUntilClosed(t, 'batch/v1', 'Job', {
    fieldSelector: 'metadata.name=x',
    resourceVersion: '1',
    timeoutSeconds: 60,
  });
  expect([closed?.status, closed?.reason]).toEqual([403, 'Forbidden']);
});

// JSON.parse has no depth limit: 10 MB of `[` took the CLI to about 1.2 GB (issue 27, item 16).
describe('JSON nested deeper than any API object is refused before it is parsed', () => {
  const answer = (body: string) => {
    handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(body);
    };
  };
  const get = async () => {
    const t = transport();
    try {
      return await t.request<unknown>({ method: 'GET', path: '/api/v1/namespaces/ns/pods' });
    } finally {
      t.close();
    }
  };

  test('10 MB of [ under the body cap', async () => {
    answer('['.repeat(10 * 1024 * 1024));
    const e = await failure(get());
    expect(e.reason).toBe('BadResponse');
    expect(e.message).toContain(`nests JSON deeper than ${MAX_JSON_DEPTH} levels`);
  });

  test('well-formed JSON one level too deep; one level less is read', async () => {
    const nested = (n: number) => '{"a":'.repeat(n) + '1' + '}'.repeat(n);
    answer(nested(MAX_JSON_DEPTH + 1));
    expect((await failure(get())).reason).toBe('BadResponse');
    answer(nested(MAX_JSON_DEPTH));
    expect((await get()).status).toBe(200);
  });

  test('brackets inside strings do not count', async () => {
    answer(JSON.stringify({ kind: 'ConfigMap', data: { x: '['.repeat(100_000), y: '\\"{{{' } }));
    expect(((await get()).body as { kind: string }).kind).toBe('ConfigMap');
    expect(nestsDeeperThan('"\\\\"[[[', 1)).toBe(true);
  });

  test('a watch event', async () => {
    handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write(`{"type":"ADDED","object":${'['.repeat(MAX_JSON_DEPTH + 10)}\n`);
    };
    const t = transport();
    const closed = await watchUntilClosed(t, 'v1', 'Pod', { resourceVersion: '1', timeoutSeconds: 60 });
    expect(closed?.reason).toBe('BadResponse');
    expect(closed?.message).toContain('nests JSON deeper');
  });
});
