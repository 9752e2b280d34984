// The kubelet's container-log endpoint for the local kubelet's Pods (local-kubelet.ts), so that
// `GET /api/v1/namespaces/NS/pods/NAME/log` on the real API server works for them as in a cluster:
// the API server looks up the Pod's node, dials the address and port the node advertises
// (status.addresses InternalIP, status.daemonEndpoints.kubeletEndpoint.Port) over TLS, and relays
// `GET /containerLogs/{ns}/{pod}/{container}?follow&sinceSeconds&tailLines&timestamps&previous`.
//
// As a container runtime does, the output of each container is kept in the CRI log format (one
// record per line: "<RFC3339Nano> <stdout|stderr> <F|P> <text>", P for a piece of a longer line),
// so `timestamps` and `sinceSeconds` have the time each line arrived. The server listens on
// 127.0.0.1 with a certificate of the harness CA and accepts only clients with a certificate of
// that CA (the API server's --kubelet-client-certificate), as a kubelet with x509 authentication.

import * as fs from 'node:fs';
import * as https from 'node:https';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import type { KubeHttp } from '../../test/support/kube-http';

/** Longest piece of a line kept in one record (the CRI runtimes' 16 KiB). */
const MAX_RECORD = 16 * 1024;

/** RFC3339 with nanoseconds, as CRI runtimes write it. */
const criTime = (ms = Date.now()) => new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000000Z');

export interface CriRecord {
  readonly time: number;
  readonly timeText: string;
  readonly stream: string;
  /** True for the last piece of a line (F), false for a piece of a longer one (P). */
  readonly full: boolean;
  readonly text: string;
}

export function parseCriLine(line: string): CriRecord | undefined {
  const m = /^(\S+) (stdout|stderr) ([FP]) (.*)$/s.exec(line);
  if (!m) return undefined;
  return {
    time: Date.parse(m[1].replace(/(\.\d{3})\d*Z$/, '$1Z')),
    timeText: m[1],
    stream: m[2],
    full: m[3] === 'F',
    text: m[4],
  };
}

/** The text a container wrote, from its CRI log file ('' when there is none). */
export function readCriText(file: string): string {
  if (!fs.existsSync(file)) return '';
  let out = '';
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    const r = parseCriLine(line);
    if (r) out += r.full ? `${r.text}\n` : r.text;
  }
  return out;
}

/** The CRI log file of a container under a Pod's root: logs/<container>/0.log (restart 0; local Pods never restart). */
export function containerLogFile(podRoot: string, container: string): string {
  return path.join(podRoot, 'logs', container, '0.log');
}

/** Appends text that is complete (an init container's captured output) as CRI records. */
export function appendCriText(file: string, stream: 'stdout' | 'stderr', text: string): void {
  if (!text) return;
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const now = criTime();
  const lines = text.endsWith('\n') ? text.slice(0, -1).split('\n') : text.split('\n');
  fs.appendFileSync(file, lines.map((l) => `${now} ${stream} F ${l}\n`).join(''));
}

/**
 * Writes a process's stdout and stderr to a CRI log file, a record per line, as they arrive.
 * `done` is true once both streams have ended and everything is written.
 */
export class CriLogWriter {
  private readonly fd: number;
  private open = 0;
  done = false;

  constructor(file: string) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    this.fd = fs.openSync(file, 'a');
  }

  capture(stream: Readable | null, name: 'stdout' | 'stderr'): this {
    if (!stream) return this;
    this.open++;
    const decoder = new StringDecoder('utf8');
    let partial = '';
    const write = (text: string, full: boolean) =>
      fs.writeSync(this.fd, `${criTime()} ${name} ${full ? 'F' : 'P'} ${text}\n`);
    stream.on('data', (c: Buffer) => {
      partial += decoder.write(c);
      let nl: number;
      while ((nl = partial.indexOf('\n')) >= 0) {
        write(partial.slice(0, nl), true);
        partial = partial.slice(nl + 1);
      }
      while (partial.length > MAX_RECORD) {
        write(partial.slice(0, MAX_RECORD), false);
        partial = partial.slice(MAX_RECORD);
      }
    });
    stream.on('close', () => {
      partial += decoder.end();
      if (partial) write(partial, true);
      if (--this.open === 0) {
        fs.closeSync(this.fd);
        this.done = true;
      }
    });
    return this;
  }
}

/** Where a container's log is, for the server: its file, and whether more can come. */
export interface ContainerLog {
  readonly file: string;
  /** True once the container has ended and its output is all written. */
  ended(): boolean;
}

export interface KubeletLogServerOptions {
  /** PEM: the serving certificate (for 127.0.0.1), its key, and the CA whose client certificates are accepted. */
  readonly cert: string;
  readonly key: string;
  readonly ca: string;
  readonly find: (namespace: string, pod: string, container: string) => ContainerLog | undefined;
  /** How often a followed log is checked for more output. @default 100 ms */
  readonly pollMs?: number;
}

/** The kubelet's answer to a log request it cannot serve: status and plain-text message. */
class LogRequestError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export class KubeletLogServer {
  private readonly server: https.Server;
  readonly ready: Promise<number>;
  private readonly advertised = new Set<string>();

  constructor(private readonly opts: KubeletLogServerOptions) {
    this.server = https.createServer(
      { cert: opts.cert, key: opts.key, ca: opts.ca, requestCert: true, rejectUnauthorized: true },
      (req, res) => {
        try {
          this.serve(req, res);
        } catch (e) {
          const err = e instanceof LogRequestError ? e : new LogRequestError(500, (e as Error).message);
          res.writeHead(err.status, { 'content-type': 'text/plain' }).end(err.message);
        }
      },
    );
    this.ready = new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(0, '127.0.0.1', () => resolve((this.server.address() as AddressInfo).port));
    });
  }

  /**
   * Makes `node` advertise this server, as a kubelet's node status does: InternalIP 127.0.0.1
   * (the API server prefers InternalIP: control-plane.ts) and the kubelet port. kwok keeps both:
   * its node stages copy the addresses and write daemonEndpoints only when kwok has a node port.
   * One local kubelet serves a node's logs at a time (the last one that ran a Pod there).
   */
  async advertise(admin: KubeHttp, node: string): Promise<void> {
    if (this.advertised.has(node)) return;
    const port = await this.ready;
    await admin.call(
      'PATCH',
      `/api/v1/nodes/${encodeURIComponent(node)}/status`,
      {
        status: {
          addresses: [
            { type: 'InternalIP', address: '127.0.0.1' },
            { type: 'Hostname', address: node },
          ],
          daemonEndpoints: { kubeletEndpoint: { Port: port } },
        },
      },
      { contentType: 'application/merge-patch+json' },
    );
    this.advertised.add(node);
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }

  private serve(req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse): void {
    const url = new URL(req.url ?? '/', 'https://127.0.0.1');
    const m = /^\/containerLogs\/([^/]+)\/([^/]+)\/([^/]+)$/.exec(url.pathname);
    if (req.method !== 'GET' || !m)
      throw new LogRequestError(
        404,
        `${req.method} ${url.pathname}: not served here (only GET /containerLogs/{namespace}/{pod}/{container})`,
      );
    const [namespace, pod, container] = m.slice(1).map(decodeURIComponent);
    const q = url.searchParams;
    const flag = (k: string) => q.get(k) === 'true' || q.get(k) === '1';
    const int = (k: string) => {
      const v = q.get(k);
      if (v === null) return undefined;
      if (!/^\d+$/.test(v)) throw new LogRequestError(400, `${k}: got "${v}"; must be a whole number`);
      return Number(v);
    };
    const log = this.opts.find(namespace, pod, container);
    if (!log)
      throw new LogRequestError(
        404,
        `container "${container}" in pod "${namespace}/${pod}" is not known to this kubelet`,
      );
    // Local Pods never restart their containers, so there is never a previous one (the kubelet's words).
    if (flag('previous'))
      throw new LogRequestError(400, `previous terminated container "${container}" in pod "${pod}" not found`);
    const sinceSeconds = int('sinceSeconds');
    const sinceTime = q.get('sinceTime');
    const since =
      sinceSeconds !== undefined ? Date.now() - sinceSeconds * 1000 : sinceTime ? Date.parse(sinceTime) : undefined;
    const tail = int('tailLines');
    const timestamps = flag('timestamps');
    const follow = flag('follow');

    res.writeHead(200, { 'content-type': 'text/plain' });
    const render = (r: CriRecord) => `${timestamps ? `${r.timeText} ` : ''}${r.text}${r.full ? '\n' : ''}`;
    const keep = (r: CriRecord) => since === undefined || r.time >= since;
    const reader = new CriFileReader(log.file);
    // First what is there (only the last `tail` lines, if asked), then, following, what comes.
    const first = reader.read().filter(keep);
    res.write((tail === undefined ? first : lastLines(first, tail)).map(render).join(''));
    if (!follow) {
      res.end();
      return;
    }
    const timer = setInterval(() => {
      const ended = log.ended();
      const more = reader.read().filter(keep);
      if (more.length) res.write(more.map(render).join(''));
      if (ended) {
        clearInterval(timer);
        res.end();
      }
    }, this.opts.pollMs ?? 100);
    res.on('close', () => clearInterval(timer));
  }
}

/** The records of the last `n` lines (a line may span several P records). */
function lastLines(records: readonly CriRecord[], n: number): CriRecord[] {
  if (n === 0) return [];
  let lines = 0;
  for (let i = records.length - 1; i >= 0; i--) {
    if (records[i].full && ++lines > n) return records.slice(i + 1);
  }
  return [...records];
}

/** Reads a CRI log file incrementally: each read returns the whole records written since the last. */
class CriFileReader {
  private offset = 0;
  private carry = '';
  private readonly decoder = new StringDecoder('utf8');

  constructor(private readonly file: string) {}

  read(): CriRecord[] {
    if (!fs.existsSync(this.file)) return [];
    const fd = fs.openSync(this.file, 'r');
    const out: CriRecord[] = [];
    try {
      const buf = Buffer.alloc(64 * 1024);
      let n: number;
      while ((n = fs.readSync(fd, buf, 0, buf.length, this.offset)) > 0) {
        this.offset += n;
        this.carry += this.decoder.write(buf.subarray(0, n));
        let nl: number;
        while ((nl = this.carry.indexOf('\n')) >= 0) {
          const r = parseCriLine(this.carry.slice(0, nl));
          this.carry = this.carry.slice(nl + 1);
          if (r) out.push(r);
        }
      }
    } finally {
      fs.closeSync(fd);
    }
    return out;
  }
}
