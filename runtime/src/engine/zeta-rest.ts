// Client of Zeta's REST API on the master (same Pod, 127.0.0.1). Works with REST v2 (2.3.9+, own
// port, path '') and with the Hazelcast REST of 2.3.8 (member port, '/hazelcast/rest/maps'): the
// paths and bodies are the same; numbers may come as JSON strings (2.3.8 sends every number as a
// string), and the worker count is `workers` (2.3.8) or `works` (REST v2 docs).
//
// Every call is bounded: a total deadline (not an idle timeout, which a server sending a byte now
// and then would never trip), a cap on the answer's size, and exact 63-bit ids. Whatever the server
// does, a call ends with an answer, EngineUnavailable or EngineRejected.

import * as http from 'node:http';
import { parseJson, rowsOfZetaMetrics, stringifyJson } from 'seatunnel-app/runtime-support';
import { EngineRejected, EngineUnavailable, type JobInfo, type Overview } from './port';

export interface ZetaRestOptions {
  readonly host: string;
  readonly port: number;
  readonly path: string;
  /** Deadline of a whole call, answer included (default 5 s; submit gets 60 s). */
  readonly timeoutMs?: number;
  /** Largest answer read (default 4 MiB; job-info of a large job is tens of KiB). */
  readonly maxBodyBytes?: number;
}

function num(v: unknown): number {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
  return Number.isFinite(n) ? n : 0;
}

/** A job id as its exact decimal digits (numbers beyond 2^53 arrive as bigint from parseJson). */
function idText(v: unknown): string | undefined {
  if (typeof v === 'bigint' || (typeof v === 'number' && Number.isSafeInteger(v))) return v.toString();
  if (typeof v === 'string' && /^[0-9]+$/.test(v)) return v;
  return undefined;
}

/** A JSON object body with exact 63-bit ids: the digits are written as they are. */
function stopBody(jobId: string, savepoint: boolean): string {
  if (!/^[0-9]+$/.test(jobId)) throw new Error(`not a job id: ${jobId}`);
  return `{"jobId":${jobId},"isStopWithSavePoint":${savepoint}}`;
}

/** An answer quoted in a message: one line, short. */
function excerpt(text: string): string {
  const line = text.split('\n')[0];
  return line.length > 300 ? `${line.slice(0, 300)}...` : line;
}

interface HttpAnswer {
  readonly status: number;
  readonly text: string;
}

class CallFailed extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
  }
}

/** One member's view of its cluster, as Hazelcast's own REST lists it. */
export interface MemberView {
  /** The members' addresses (`host:port`), oldest first: the first is Hazelcast's master. */
  readonly members: readonly string[];
  /** The address of the member that answered, when the answer marks it. */
  readonly self?: string;
  /**
   * Each member's UUID by address, when the answer gives them. Hazelcast gives a member a new one
   * when it merges back from a split (../workers/rejoined.ts).
   */
  readonly uuids?: Readonly<Record<string, string>>;
}

const ADDRESS = /\[([^\][\s]+)\]:(\d+)/;
const hostPort = (text: unknown): string | undefined => {
  const m = typeof text === 'string' ? ADDRESS.exec(text) : null;
  return m ? `${m[1]}:${m[2]}` : undefined;
};

/**
 * Hazelcast's member list (`GET /hazelcast/rest/cluster`): Hazelcast 5 answers JSON
 * (`{"members":[{"address":"[10.0.0.5]:5801","localMember":true,…},…]}`), older ones text
 * (`Member [10.0.0.5]:5801 - uuid this`, one line each). Undefined when it lists no member.
 */
export function memberView(text: string): MemberView | undefined {
  let entries: Array<{ address?: string; self: boolean; uuid?: string }>;
  try {
    const list = (JSON.parse(text) as { members?: Array<{ address?: unknown; localMember?: unknown; uuid?: unknown }> })
      .members;
    entries = (Array.isArray(list) ? list : []).map((m) => ({
      address: hostPort(m?.address),
      self: m?.localMember === true,
      uuid: uuidOf(m?.uuid),
    }));
  } catch {
    entries = (text.match(/Member \[[^\]\s]+\]:\d+[^\n]*/g) ?? []).map((line) => ({
      address: hostPort(line),
      self: /\bthis\s*$/.test(line),
      uuid: uuidOf(/ - (\S+)/.exec(line)?.[1]),
    }));
  }
  const members = entries.flatMap((e) => (e.address ? [e.address] : []));
  if (members.length === 0) return undefined;
  const self = entries.find((e) => e.self && e.address)?.address;
  const ids = entries.flatMap((e) => (e.address && e.uuid ? [[e.address, e.uuid] as const] : []));
  return { members, ...(self ? { self } : {}), ...(ids.length ? { uuids: Object.fromEntries(ids) } : {}) };
}

/** A member UUID as Hazelcast writes it (bounded: the answer is another process's text). */
const uuidOf = (v: unknown): string | undefined =>
  typeof v === 'string' && /^[0-9A-Za-z-]{1,64}$/.test(v) ? v : undefined;

// node:http rather than fetch(): fetch loads undici on first use, which costs the runtime ~20 MB
// of resident memory for a handful of loopback calls.
const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });

export class ZetaRest {
  readonly base: string;
  private readonly url: URL;
  private readonly timeoutMs: number;
  private readonly maxBodyBytes: number;

  constructor(opts: ZetaRestOptions) {
    const host = opts.host.includes(':') ? `[${opts.host}]` : opts.host;
    this.base = `http://${host}:${opts.port}${opts.path.replace(/\/+$/, '')}`;
    this.url = new URL(this.base);
    this.timeoutMs = opts.timeoutMs ?? 5000;
    this.maxBodyBytes = opts.maxBodyBytes ?? 4 * 1024 * 1024;
  }

  private send(
    method: 'GET' | 'POST',
    path: string,
    body: string | undefined,
    timeoutMs: number,
    signal?: AbortSignal,
  ): Promise<HttpAnswer> {
    return new Promise((resolve, reject) => {
      const headers: Record<string, string> = { accept: 'application/json' };
      if (body !== undefined) {
        headers['content-type'] = 'application/json';
        headers['content-length'] = String(Buffer.byteLength(body));
      }
      const max = this.maxBodyBytes;
      // Every way out goes through here once; destroying the request ends the socket (not reused).
      let done = false;
      const finish = (err: Error | undefined, answer?: HttpAnswer) => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        if (err) {
          req.destroy();
          reject(err);
        } else resolve(answer!);
      };
      const onAbort = () => finish(new CallFailed('abandoned: the caller stopped waiting', 'ABORTED'));
      const req = http.request(
        {
          host: this.url.hostname.replace(/^\[|\]$/g, ''),
          port: this.url.port,
          path: `${this.url.pathname.replace(/\/+$/, '')}${path}`,
          method,
          headers,
          agent,
        },
        (res) => {
          const tooLarge = () => finish(new CallFailed(`the answer is larger than ${max} bytes`, 'E2BIG'));
          if (Number(res.headers['content-length']) > max) return tooLarge();
          const chunks: Buffer[] = [];
          let size = 0;
          res.on('data', (c: Buffer) => {
            size += c.length;
            if (size > max) tooLarge();
            else chunks.push(c);
          });
          res.on('end', () =>
            finish(undefined, { status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }),
          );
          res.on('error', (e) => finish(e));
          res.on('close', () => {
            if (!res.complete)
              finish(new CallFailed('the connection closed in the middle of the answer', 'ECONNRESET'));
          });
        },
      );
      const timer = setTimeout(
        () => finish(new CallFailed(`no complete answer within ${timeoutMs} ms`, 'ETIMEDOUT')),
        timeoutMs,
      );
      if (signal?.aborted) return onAbort();
      signal?.addEventListener('abort', onAbort, { once: true });
      req.on('error', (e) => finish(e));
      req.end(body);
    });
  }

  private async call(
    method: 'GET' | 'POST',
    path: string,
    opts: { body?: string; timeoutMs?: number; signal?: AbortSignal } = {},
  ): Promise<unknown> {
    let res: HttpAnswer;
    try {
      res = await this.send(method, path, opts.body, opts.timeoutMs ?? this.timeoutMs, opts.signal);
    } catch (e) {
      const err = e as NodeJS.ErrnoException;
      throw new EngineUnavailable(`${method} ${path}: ${err.code ?? err.name}: ${err.message}`, err.code);
    }
    const text = res.text;
    let parsed: unknown;
    try {
      parsed = text ? parseJson(text) : undefined;
    } catch {
      parsed = undefined;
    }
    if (res.status >= 200 && res.status < 300) return parsed;
    const message = (parsed as { message?: unknown } | undefined)?.message;
    const what = `${method} ${path}: HTTP ${res.status}${typeof message === 'string' ? `: ${excerpt(message)}` : text ? `: ${excerpt(text)}` : ''}`;
    // 2.3.8 reports member churn (MemberLeftException) and other server trouble as 500 too; only
    // a structured refusal ({status: "fail", message}) of a request we can judge counts as final.
    if (
      res.status >= 500 &&
      !(typeof message === 'string' && !/MemberLeft|TargetNotMember|HazelcastInstanceNotActive|Timeout/i.test(message))
    ) {
      throw new EngineUnavailable(what);
    }
    if (res.status === 429 || res.status === 503) throw new EngineUnavailable(what);
    throw new EngineRejected(what, res.status);
  }

  /**
   * Whether Zeta's REST answers, without touching its resource manager: `GET /running-jobs` reads
   * a map. (`/overview` would create the manager, which registers only the workers that have joined
   * by then — a later one waits for its 5 s heartbeat; docs/performance.md.) `timeoutMs`: this
   * read's wait for its answer (default: this client's).
   */
  async ready(signal?: AbortSignal, timeoutMs?: number): Promise<void> {
    const r = await this.call('GET', '/running-jobs', { signal, timeoutMs });
    if (!Array.isArray(r) && (r === null || typeof r !== 'object'))
      throw new EngineUnavailable('GET /running-jobs: no JSON in the answer');
  }

  /** `signal` abandons the call (readiness waits race their own deadline with it). */
  async overview(signal?: AbortSignal): Promise<Overview> {
    const o = (await this.call('GET', '/overview', { signal })) as Record<string, unknown> | undefined;
    if (!o || typeof o !== 'object') throw new EngineUnavailable('GET /overview: no JSON object in the answer');
    return { workers: num(o.workers ?? o.works), totalSlot: num(o.totalSlot) };
  }

  async submit(jobId: string, jobName: string, configJson: string, startWithSavePoint: boolean): Promise<string> {
    const q = new URLSearchParams({ jobId, jobName });
    if (startWithSavePoint) q.set('isStartWithSavePoint', 'true');
    const r = (await this.call('POST', `/submit-job?${q.toString()}`, { body: configJson, timeoutMs: 60_000 })) as
      { jobId?: unknown } | undefined;
    const id = idText(r?.jobId);
    if (id === undefined) {
      throw new EngineUnavailable(
        `POST /submit-job: no job id in the answer ${r === undefined ? '(no JSON)' : excerpt(stringifyJson(r as never))}`,
      );
    }
    return id;
  }

  /** `timeoutMs`: this read's wait for its answer (default: this client's). */
  async jobInfo(jobId: string, timeoutMs?: number): Promise<JobInfo> {
    const r = (await this.call('GET', `/job-info/${encodeURIComponent(jobId)}`, { timeoutMs })) as
      Record<string, unknown> | undefined;
    if (!r || typeof r !== 'object')
      throw new EngineUnavailable(`GET /job-info/${jobId}: no JSON object in the answer`);
    const rows = rowsOfZetaMetrics(r.metrics);
    return {
      jobId: idText(r.jobId) ?? jobId,
      ...(typeof r.jobStatus === 'string' && r.jobStatus ? { status: r.jobStatus } : {}),
      ...(typeof r.errorMsg === 'string' && r.errorMsg ? { errorMsg: r.errorMsg } : {}),
      ...(rows ? { rows } : {}),
    };
  }

  /**
   * The cluster as this member sees it (`GET /hazelcast/rest/cluster` on a member port: the oldest
   * member first — Hazelcast's master, which Zeta makes its active master). Undefined when the
   * answer lists no member.
   */
  async clusterMembers(): Promise<MemberView | undefined> {
    let res: HttpAnswer;
    try {
      res = await this.send('GET', '/hazelcast/rest/cluster', undefined, this.timeoutMs);
    } catch (e) {
      const err = e as NodeJS.ErrnoException;
      throw new EngineUnavailable(`GET /hazelcast/rest/cluster: ${err.code ?? err.name}: ${err.message}`);
    }
    if (res.status !== 200) throw new EngineUnavailable(`GET /hazelcast/rest/cluster: HTTP ${res.status}`);
    return memberView(res.text);
  }

  async stopJob(jobId: string, savepoint = false): Promise<void> {
    await this.call('POST', '/stop-job', { body: stopBody(jobId, savepoint) });
  }
}
