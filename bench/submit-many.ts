// bench/submit, part 2: N applications (default 50) submitted at once
//   - from one process, with the library (submitApplication over one shared client), and
//   - from N processes, `seatunnel-app submit` each,
// reporting throughput, p50/p95 latency, API requests per application against the minimum the
// order of operations needs, and 429 answers (the API server's default flow control).
//
// Requests are counted where each side can see them: in process by a wrapper around the client's
// transport; for the processes by a counting proxy on 127.0.0.1 in front of the API server (their
// kubeconfig points at it), so the CLI runs unchanged. The proxy speaks HTTP/1.1 to the CLI, which
// therefore makes a connection per process instead of HTTP/2 streams: its latencies include the
// proxy's hop; the counts do not depend on it.

import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as https from 'node:https';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { promisify } from 'node:util';
import type { ApplicationSpec } from '../lib/model/spec';
import { buildPlan, dependents } from '../lib/plan/build-plan';
import type { KubeApi, KubeRequest } from '../lib/kube';
import { referencedObjects } from '../lib/submit/admit/references';
import type { ClusterInfo } from '../tools/local-stack/control-plane';
import { median, percentile, table } from './harness';

const run = promisify(execFile);

export interface Counted {
  method: string;
  path: string;
  status: number;
}

/** The requests one submit of `spec` cannot do without, and why (printed with the figures). */
export function minimumRequests(spec: ApplicationSpec): { count: number; derivation: string } {
  const plan = buildPlan(spec, { suspend: true });
  const reads = new Set(referencedObjects(spec).map((r) => `${r.ref.kind}/${r.ref.name}`)).size;
  const deps = dependents(plan).length;
  return {
    count: reads + 1 + deps + 1,
    derivation: `${reads} read(s) of referenced objects + 1 create (Job) + ${deps} creates (dependents: ${dependents(
      plan,
    )
      .map((d) => d.kind)
      .join(', ')}) + 1 patch (unsuspend); the Job's uid comes with its create's answer`,
  };
}

/** The client's transport, with every request and its answer's status recorded. */
export function countingApi(api: KubeApi, log: Counted[]): KubeApi {
  return {
    server: api.server,
    close: () => api.close(),
    watch: (p, events, opts) => api.watch(p, events, opts),
    stream: (p, events, opts) => api.stream(p, events, opts),
    request: async <T>(req: KubeRequest) => {
      const res = await api.request<T>(req);
      log.push({ method: req.method, path: req.path, status: res.status });
      return res;
    },
  };
}

/** A plain-HTTP proxy on 127.0.0.1 that forwards to the API server and records each request's status. */
export async function countingProxy(
  info: ClusterInfo,
): Promise<{ kubeconfig: string; log: Counted[]; close(): Promise<void> }> {
  const log: Counted[] = [];
  const agent = new https.Agent({ ca: info.caData, keepAlive: true, maxSockets: 256 });
  const upstream = new URL(info.server);
  const server = http.createServer((req, res) => {
    const up = https.request(
      {
        method: req.method,
        hostname: upstream.hostname,
        port: upstream.port,
        path: req.url,
        headers: { ...req.headers, host: upstream.host },
        agent,
      },
      (ures) => {
        log.push({ method: req.method ?? '', path: req.url ?? '', status: ures.statusCode ?? 0 });
        res.writeHead(ures.statusCode ?? 502, ures.headers);
        ures.pipe(res);
      },
    );
    up.on('error', (e) => {
      log.push({ method: req.method ?? '', path: req.url ?? '', status: 0 });
      res.writeHead(502).end(e.message);
    });
    req.pipe(up);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const kubeconfig = path.join(info.dir, `bench-proxy-${process.pid}.kubeconfig`);
  fs.writeFileSync(
    kubeconfig,
    `apiVersion: v1\nkind: Config\nclusters:\n- name: p\n  cluster: { server: "${url}" }\nusers:\n- name: u\n  user: { token: "${info.adminToken}" }\ncontexts:\n- name: c\n  context: { cluster: p, user: u }\ncurrent-context: c\n`,
  );
  return {
    kubeconfig,
    log,
    close: async () => {
      fs.rmSync(kubeconfig, { force: true });
      agent.destroy();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

export interface ManyResult {
  readonly label: string;
  readonly n: number;
  readonly wallMs: number;
  readonly latencies: number[];
  readonly failed: number;
  /** The first failure's message, if any. */
  readonly firstError?: string;
  readonly requests: Counted[];
  readonly appIds: string[];
  /** Requests the minimum does not count that this way of submitting needs (a CLI process reads the server's version). */
  readonly extraMinimum?: number;
}

/** N library submits at once over one shared client (`kube` must count into `log`). */
export async function submitManyInProcess(
  label: string,
  n: number,
  newSpec: () => ApplicationSpec,
  submit: (spec: ApplicationSpec) => Promise<unknown>,
  log: Counted[],
): Promise<ManyResult> {
  log.length = 0;
  const specs = Array.from({ length: n }, newSpec);
  const t0 = performance.now();
  let firstError: string | undefined;
  const outcomes = await Promise.all(
    specs.map(async (s) => {
      const t = performance.now();
      try {
        await submit(s);
        return performance.now() - t;
      } catch (e) {
        firstError ??= e instanceof Error ? e.message : String(e);
        return undefined;
      }
    }),
  );
  const wallMs = performance.now() - t0;
  const latencies = outcomes.filter((x): x is number => x !== undefined);
  return {
    label,
    n,
    wallMs,
    latencies,
    failed: n - latencies.length,
    firstError,
    requests: [...log],
    appIds: specs.map((s) => s.appId),
  };
}

/** N `seatunnel-app submit` processes at once (their deployment file points at the counting proxy). */
export async function submitManyProcesses(
  label: string,
  n: number,
  cli: string,
  args: string[],
  log: Counted[],
): Promise<ManyResult> {
  log.length = 0;
  const t0 = performance.now();
  let firstError: string | undefined;
  const outcomes = await Promise.all(
    Array.from({ length: n }, async () => {
      const t = performance.now();
      try {
        const { stdout } = await run(process.execPath, [cli, 'submit', ...args]);
        return { ms: performance.now() - t, id: /Application ID: (\S+)/.exec(stdout)?.[1] };
      } catch (e) {
        firstError ??= ((e as { stderr?: string }).stderr ?? String(e)).trim();
        return undefined;
      }
    }),
  );
  const wallMs = performance.now() - t0;
  const ok = outcomes.filter((x): x is { ms: number; id: string | undefined } => x !== undefined);
  return {
    label,
    n,
    wallMs,
    latencies: ok.map((o) => o.ms),
    failed: n - ok.length,
    firstError,
    requests: [...log],
    appIds: ok.flatMap((o) => (o.id ? [o.id] : [])),
    // Each command reads the server's version once before it acts (lib/cli/connect.ts).
    extraMinimum: 1,
  };
}

export function printMany(results: readonly ManyResult[], minimum: { count: number; derivation: string }): void {
  console.log(
    `\n${results[0]?.n ?? 0} submissions at once; minimum API requests per application = ${minimum.count}: ${minimum.derivation}`,
  );
  console.log(
    table(
      ['', 'apps/s', 'wall ms', 'p50 ms', 'p95 ms', 'failed', 'requests/app', 'minimum', '429s', 'by method'],
      results.map((r) => {
        const byMethod = new Map<string, number>();
        for (const q of r.requests) byMethod.set(q.method, (byMethod.get(q.method) ?? 0) + 1);
        const perApp = r.requests.length / r.n;
        const min = minimum.count + (r.extraMinimum ?? 0);
        return [
          r.label,
          (r.n / r.wallMs) * 1000,
          r.wallMs,
          r.latencies.length ? median(r.latencies) : NaN,
          r.latencies.length ? percentile(r.latencies, 95) : NaN,
          String(r.failed),
          perApp,
          `${min}${r.extraMinimum ? ` (+${r.extraMinimum} GET /version)` : ''} (${perApp === min ? 'equal' : perApp > min ? 'ABOVE' : 'below: failures'})`,
          String(r.requests.filter((q) => q.status === 429).length),
          [...byMethod].map(([m, c]) => `${m} ${c}`).join(', '),
        ];
      }),
    ),
  );
  for (const r of results) if (r.firstError) console.log(`${r.label}: ${r.failed} failed; the first: ${r.firstError}`);
}
