// /metrics of an application, served by the runtime in its own Pod on application.metrics.port:
// the runtime's own metrics, and every Zeta member's telemetry read at that moment (masters and
// workers, each sample labelled with its member). A scraper needs this one port only — never the
// members' ports, whose Hazelcast client protocol controls jobs. Scrapes that arrive while one is
// being made share it, so a crowd of scrapers costs the members one read each.

import * as http from 'node:http';
import { METRICS_PATH } from 'seatunnel-app/runtime-support';
import type { Logger } from '../log';
import { errorMessage } from '../util';
import type { ApplicationMetrics } from './application-metrics';
import { mergeFamilies, parseFamilies, render, sample, type Family } from './exposition';
import type { MemberScrape } from './member-scrape';
import type { Member } from './members';

const CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';
/** Members read at once. */
const SCRAPE_CONCURRENCY = 8;

export interface MetricsSources {
  readonly app: ApplicationMetrics;
  /** The members as they are now. */
  readonly members: () => Member[];
  readonly scrape: MemberScrape;
  /** Monotonic milliseconds (durations only). */
  readonly now: () => number;
}

/** One exposition: the runtime's families, each member's `up`, then the members' telemetry merged. */
export async function collect(src: MetricsSources): Promise<string> {
  const members = src.members();
  const results: Array<{ member: Member; text?: string; seconds: number }> = [];
  let next = 0;
  const worker = async () => {
    while (next < members.length) {
      const member = members[next++];
      const t0 = src.now();
      const text = await src.scrape(member).catch(() => undefined);
      results.push({ member, text, seconds: (src.now() - t0) / 1000 });
    }
  };
  await Promise.all(Array.from({ length: Math.min(SCRAPE_CONCURRENCY, members.length) }, worker));
  results.sort((a, b) => members.indexOf(a.member) - members.indexOf(b.member));
  const labelsOf = (m: Member) => ({ ...src.app.labels, member: m.name, role: m.role });
  const up: Family = {
    name: 'seatunnel_app_member_up',
    help: "1 when the member's telemetry was read for this scrape, 0 when it did not answer in time.",
    type: 'gauge',
    samples: results.map((r) => sample('seatunnel_app_member_up', labelsOf(r.member), r.text === undefined ? 0 : 1)),
  };
  const took: Family = {
    name: 'seatunnel_app_member_scrape_seconds',
    help: "Seconds the read of the member's telemetry took for this scrape.",
    type: 'gauge',
    samples: results.map((r) => sample('seatunnel_app_member_scrape_seconds', labelsOf(r.member), r.seconds)),
  };
  const telemetry = mergeFamilies(
    results
      .filter((r): r is typeof r & { text: string } => r.text !== undefined)
      .map((r) => ({ families: parseFamilies(r.text), labels: labelsOf(r.member) })),
  );
  return render([...src.app.families(), up, took, ...telemetry]);
}

export interface MetricsServer {
  readonly port: number;
  close(): Promise<void>;
}

export async function serveMetrics(
  host: string,
  port: number,
  src: MetricsSources,
  log: Logger,
): Promise<MetricsServer> {
  let inFlight: Promise<string> | undefined;
  const exposition = () =>
    (inFlight ??= collect(src).finally(() => {
      inFlight = undefined;
    }));
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (path !== METRICS_PATH) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end(`only ${METRICS_PATH} is served here\n`);
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain' }).end('GET only\n');
      return;
    }
    exposition().then(
      (body) => {
        res.writeHead(200, { 'content-type': CONTENT_TYPE, 'content-length': Buffer.byteLength(body) });
        res.end(req.method === 'HEAD' ? undefined : body);
      },
      (e: unknown) => {
        log.warn('serving /metrics failed', { error: errorMessage(e) });
        res.writeHead(500, { 'content-type': 'text/plain' }).end('metrics could not be collected\n');
      },
    );
  });
  // A scraper that holds a connection open must not keep the runtime from exiting.
  server.keepAliveTimeout = 5000;
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  log.info('serving metrics', {
    address: `${host}:${typeof address === 'object' && address ? address.port : port}${METRICS_PATH}`,
  });
  return {
    port: typeof address === 'object' && address ? address.port : port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
