// The local kubelet's container-log endpoint, as the API server calls it: TLS with a client
// certificate of the harness CA, the kubelet's query parameters (sinceSeconds, tailLines,
// timestamps, previous, follow) over a CRI-format log file, and the kubelet's errors.
import * as fs from 'node:fs';
import * as https from 'node:https';
import * as os from 'node:os';
import * as path from 'node:path';
import { PassThrough } from 'node:stream';
import { CriLogWriter, KubeletLogServer, readCriText } from '../../../tools/local-stack/kubelet-log-server';
import { createPki, type Pki } from '../../../tools/local-stack/pki';
import { waitFor } from '../../../tools/local-stack/wait';

let dir: string;
let pki: Pki;
let server: KubeletLogServer;
let port: number;
const read = (f: string) => fs.readFileSync(f, 'utf8');
let ended = false;
let file: string;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kubelet-log-'));
  pki = await createPki(path.join(dir, 'pki'));
  file = path.join(dir, 'seatunnel.log');
  const old = new Date(Date.now() - 2 * 3600_000).toISOString().replace('Z', '000000Z');
  const recent = new Date().toISOString().replace('Z', '000000Z');
  fs.writeFileSync(
    file,
    [
      `${old} stdout F an old line`,
      `${recent} stderr F a recent line`,
      `${recent} stdout P a long `,
      `${recent} stdout F line in two records`,
      '',
    ].join('\n'),
  );
  server = new KubeletLogServer({
    cert: read(pki.kubeletServingCert),
    key: read(pki.kubeletServingKey),
    ca: read(pki.caCert),
    find: (ns, pod, container) =>
      ns === 'ns' && pod === 'p' && container === 'seatunnel' ? { file, ended: () => ended } : undefined,
    pollMs: 10,
  });
  port = await server.ready;
});

afterAll(async () => {
  await server.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

function get(query: string, opts: { cert?: boolean; path?: string } = {}): Promise<{ status: number; text: string }> {
  const client = opts.cert === false ? 'admin' : 'kube-apiserver-kubelet-client';
  return new Promise((resolve, reject) => {
    const req = https.get(
      {
        host: '127.0.0.1',
        port,
        path: `${opts.path ?? '/containerLogs/ns/p/seatunnel'}${query}`,
        ca: read(pki.caCert),
        ...(opts.cert === false ? {} : { cert: read(pki.clients[client].cert), key: read(pki.clients[client].key) }),
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on('error', reject);
  });
}

test('the whole log; a line written in two records is one line', async () => {
  expect(await get('')).toEqual({ status: 200, text: 'an old line\na recent line\na long line in two records\n' });
});

test('sinceSeconds keeps the lines received since then, tailLines the last N, timestamps prefixes the time received', async () => {
  expect((await get('?sinceSeconds=3600')).text).toBe('a recent line\na long line in two records\n');
  expect((await get('?tailLines=1')).text).toBe('a long line in two records\n');
  expect((await get('?tailLines=0')).text).toBe('');
  expect((await get('?tailLines=2&timestamps=true')).text).toMatch(
    /^\d{4}-\d\d-\d\dT[\d:.]+Z a recent line\n\S+Z a long \S+Z line in two records\n$/,
  );
});

test("the kubelet's answers: no previous container, unknown container, bad numbers", async () => {
  expect(await get('?previous=true')).toEqual({
    status: 400,
    text: 'previous terminated container "seatunnel" in pod "p" not found',
  });
  expect((await get('', { path: '/containerLogs/ns/other/seatunnel' })).status).toBe(404);
  expect(await get('?tailLines=-1')).toEqual({ status: 400, text: 'tailLines: got "-1"; must be a whole number' });
});

test('only clients with a certificate of the cluster CA (the API server) are served', async () => {
  await expect(get('', { cert: false })).rejects.toThrow();
});

test('follow: what is written meanwhile arrives, and the answer ends when the container has ended', async () => {
  const follow = get('?follow=true&sinceSeconds=60');
  const out = new PassThrough();
  const err = new PassThrough();
  const writer = new CriLogWriter(file).capture(out, 'stdout').capture(err, 'stderr');
  out.write('more ');
  err.write('from stderr\n');
  out.end('output\n');
  err.end();
  await waitFor(() => writer.done, { description: 'both streams written and closed' });
  ended = true;
  expect((await follow).text).toBe('a recent line\na long line in two records\nfrom stderr\nmore output\n');
  expect(readCriText(file)).toBe('an old line\na recent line\na long line in two records\nfrom stderr\nmore output\n');
});
