// The Zeta REST client against a misbehaving 127.0.0.1 server (issue 11, item 14): every call ends
// with an answer or a typed error — a huge body, a server that drips a byte at a time, a dropped
// connection — and numeric 63-bit job ids keep every digit.
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { EngineUnavailable } from '../../src/engine/port';
import { ZetaRest } from '../../src/engine/zeta-rest';

type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void;

let server: http.Server;
let port: number;
let handler: Handler = (_req, res) => res.end('{}');
const open = new Set<import('node:net').Socket>();
const timers = new Set<NodeJS.Timeout>();

beforeAll(async () => {
  server = http.createServer((req, res) => handler(req, res));
  server.on('connection', (s) => {
    open.add(s);
    s.on('close', () => open.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
});
afterEach(() => {
  for (const t of timers) clearInterval(t);
  timers.clear();
});
afterAll(async () => {
  for (const s of open) s.destroy();
  await new Promise<void>((r) => server.close(() => r()));
});

const client = (opts: { timeoutMs?: number; maxBodyBytes?: number } = {}) =>
  new ZetaRest({ host: '127.0.0.1', port, path: '', ...opts });

async function rejection(p: Promise<unknown>): Promise<Error> {
  try {
    await p;
  } catch (e) {
    return e as Error;
  }
  throw new Error('expected the call to fail');
}

describe('bodies are capped', () => {
  test('an answer larger than the cap (streamed, no length) is refused, not buffered', async () => {
    let written = 0;
    handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      const t = setInterval(() => {
        if (res.destroyed) return clearInterval(t);
        // 6 MiB of JSON whitespace, then a valid object: over the 4 MiB default cap.
        if (written >= 6 * 1024 * 1024) {
          clearInterval(t);
          res.end('{"jobId":"1","jobStatus":"RUNNING"}');
          return;
        }
        written += chunk.length;
        res.write(chunk);
      }, 1);
      timers.add(t);
    };
    const e = await rejection(client({ timeoutMs: 60_000 }).jobInfo('1'));
    expect(e).toBeInstanceOf(EngineUnavailable);
    expect(e.message).toBe('GET /job-info/1: E2BIG: the answer is larger than 4194304 bytes');
  });

  test('a declared length over the cap is refused before reading', async () => {
    handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(2 * 1024) });
      res.write('{"works":1,"totalSlot":2, "pad":"');
    };
    const e = await rejection(client({ maxBodyBytes: 1024 }).overview());
    expect(e).toBeInstanceOf(EngineUnavailable);
    expect(e.message).toMatch(/E2BIG: the answer is larger than 1024 bytes/);
  });

  test('an error answer over the cap is refused too', async () => {
    handler = (_req, res) => res.writeHead(500).end('x'.repeat(4096));
    expect((await rejection(client({ maxBodyBytes: 1024 }).overview())).message).toMatch(/E2BIG/);
  });
});

describe('a total deadline, not an idle timeout', () => {
  test('a server that drips one byte at a time never answering completely', async () => {
    handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{');
      const t = setInterval(() => res.write(' '), 100);
      timers.add(t);
    };
    const e = await rejection(client({ timeoutMs: 1000 }).overview());
    expect(e).toBeInstanceOf(EngineUnavailable);
    expect(e.message).toBe('GET /overview: ETIMEDOUT: no complete answer within 1000 ms');
  });

  test('a server that never sends headers', async () => {
    handler = () => undefined;
    const e = await rejection(client({ timeoutMs: 300 }).jobInfo('7'));
    expect(e).toBeInstanceOf(EngineUnavailable);
    expect(e.message).toMatch(/ETIMEDOUT/);
  });

  test('a connection dropped in the middle of the answer', async () => {
    handler = (req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
      res.write('{"works":');
      setTimeout(() => req.socket.destroy(), 20);
    };
    expect(await rejection(client().overview())).toBeInstanceOf(EngineUnavailable);
  });

  test('a readiness wait abandons the call when its own signal fires', async () => {
    handler = () => undefined;
    const ac = new AbortController();
    const call = client({ timeoutMs: 60_000 }).overview(ac.signal);
    setTimeout(() => ac.abort(), 50);
    const e = await rejection(call);
    expect(e).toBeInstanceOf(EngineUnavailable);
    expect(e.message).toMatch(/ABORTED/);
  });
});

describe('63-bit job ids are exact', () => {
  test('a numeric jobId in the submit answer', async () => {
    handler = (_req, res) => res.end('{"jobId":9223372036854775807,"jobName":"orders"}');
    expect(await client().submit('9223372036854775807', 'orders', '{}', false)).toBe('9223372036854775807');
  });

  test('a numeric jobId in job-info', async () => {
    handler = (_req, res) => res.end('{"jobId":1234567890123456789,"jobStatus":"RUNNING"}');
    expect(await client().jobInfo('1234567890123456789')).toEqual({ jobId: '1234567890123456789', status: 'RUNNING' });
  });

  test('an answer without a usable id is an error, not a wrong id', async () => {
    handler = (_req, res) => res.end('{"jobId":12.5}');
    expect(await rejection(client().submit('1', 'n', '{}', false))).toBeInstanceOf(EngineUnavailable);
  });
});
