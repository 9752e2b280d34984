// Client of Zeta's REST API on the master (same Pod, 127.0.0.1). Works with REST v2 (2.3.9+, own
// port, path '') and with the Hazelcast REST of 2.3.8 (member port, '/hazelcast/rest/maps'): the
// paths and bodies are the same; numbers may come as JSON strings (2.3.8 sends every number as a
// string), and the worker count is `workers` (2.3.8) or `works` (REST v2 docs).

import * as http from 'node:http';
import { EngineRejected, EngineUnavailable, type JobInfo, type Overview } from './port';

export interface ZetaRestOptions {
  readonly host: string;
  readonly port: number;
  readonly path: string;
  /** Per-call timeout (default 5 s; submit gets 60 s). */
  readonly timeoutMs?: number;
}

function num(v: unknown): number {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
  return Number.isFinite(n) ? n : 0;
}

/** A JSON object body with exact 63-bit ids: the digits are written as they are. */
function stopBody(jobId: string, savepoint: boolean): string {
  if (!/^[0-9]+$/.test(jobId)) throw new Error(`not a job id: ${jobId}`);
  return `{"jobId":${jobId},"isStopWithSavePoint":${savepoint}}`;
}

interface HttpAnswer {
  readonly status: number;
  readonly text: string;
}

// node:http rather than fetch(): fetch loads undici on first use, which costs the runtime ~20 MB
// of resident memory for a handful of loopback calls.
const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });

export class ZetaRest {
  readonly base: string;
  private readonly url: URL;
  private readonly timeoutMs: number;

  constructor(opts: ZetaRestOptions) {
    const host = opts.host.includes(':') ? `[${opts.host}]` : opts.host;
    this.base = `http://${host}:${opts.port}${opts.path.replace(/\/+$/, '')}`;
    this.url = new URL(this.base);
    this.timeoutMs = opts.timeoutMs ?? 5000;
  }

  private send(method: 'GET' | 'POST', path: string, body: string | undefined, timeoutMs: number): Promise<HttpAnswer> {
    return new Promise((resolve, reject) => {
      const headers: Record<string, string> = { accept: 'application/json' };
      if (body !== undefined) {
        headers['content-type'] = 'application/json';
        headers['content-length'] = String(Buffer.byteLength(body));
      }
      const req = http.request(
        { host: this.url.hostname.replace(/^\[|\]$/g, ''), port: this.url.port, path: `${this.url.pathname.replace(/\/+$/, '')}${path}`, method, headers, agent },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.once('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
          res.once('error', reject);
        },
      );
      req.setTimeout(timeoutMs, () => req.destroy(Object.assign(new Error(`no answer within ${timeoutMs} ms`), { code: 'ETIMEDOUT' })));
      req.once('error', reject);
      req.end(body);
    });
  }

  private async call(method: 'GET' | 'POST', path: string, body?: string, timeoutMs = this.timeoutMs): Promise<unknown> {
    let res: HttpAnswer;
    try {
      res = await this.send(method, path, body, timeoutMs);
    } catch (e) {
      const err = e as NodeJS.ErrnoException;
      throw new EngineUnavailable(`${method} ${path}: ${err.code ?? err.name}: ${err.message}`);
    }
    const text = res.text;
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    if (res.status >= 200 && res.status < 300) return parsed;
    const message = (parsed as { message?: unknown } | undefined)?.message;
    const what = `${method} ${path}: HTTP ${res.status}${typeof message === 'string' ? `: ${message.split('\n')[0]}` : text ? `: ${text.slice(0, 300)}` : ''}`;
    // 2.3.8 reports member churn (MemberLeftException) and other server trouble as 500 too; only
    // a structured refusal ({status: "fail", message}) of a request we can judge counts as final.
    if (res.status >= 500 && !(typeof message === 'string' && !/MemberLeft|TargetNotMember|HazelcastInstanceNotActive|Timeout/i.test(message))) {
      throw new EngineUnavailable(what);
    }
    if (res.status === 429 || res.status === 503) throw new EngineUnavailable(what);
    throw new EngineRejected(what, res.status);
  }

  async overview(): Promise<Overview> {
    const o = (await this.call('GET', '/overview')) as Record<string, unknown> | undefined;
    if (!o || typeof o !== 'object') throw new EngineUnavailable('GET /overview: no JSON object in the answer');
    return { workers: num(o.workers ?? o.works), totalSlot: num(o.totalSlot) };
  }

  async submit(jobId: string, jobName: string, configJson: string, startWithSavePoint: boolean): Promise<string> {
    const q = new URLSearchParams({ jobId, jobName });
    if (startWithSavePoint) q.set('isStartWithSavePoint', 'true');
    const r = (await this.call('POST', `/submit-job?${q.toString()}`, configJson, 60_000)) as { jobId?: unknown } | undefined;
    const id = r?.jobId;
    if (typeof id !== 'string' && typeof id !== 'number' && typeof id !== 'bigint') {
      throw new EngineUnavailable(`POST /submit-job: no jobId in the answer ${JSON.stringify(r)}`);
    }
    return String(id);
  }

  async jobInfo(jobId: string): Promise<JobInfo> {
    const r = (await this.call('GET', `/job-info/${encodeURIComponent(jobId)}`)) as Record<string, unknown> | undefined;
    if (!r || typeof r !== 'object') throw new EngineUnavailable(`GET /job-info/${jobId}: no JSON object in the answer`);
    return {
      jobId: String(r.jobId ?? jobId),
      ...(typeof r.jobStatus === 'string' && r.jobStatus ? { status: r.jobStatus } : {}),
      ...(typeof r.errorMsg === 'string' && r.errorMsg ? { errorMsg: r.errorMsg } : {}),
    };
  }

  async stopJob(jobId: string, savepoint = false): Promise<void> {
    await this.call('POST', '/stop-job', stopBody(jobId, savepoint));
  }
}
