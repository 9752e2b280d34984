// Reads one member's telemetry: Zeta's Prometheus text at /hazelcast/rest/instance/metrics on the
// member port (Hazelcast's CLUSTER_READ REST group, the only one a worker serves). Bounded in time
// and size: a member that hangs or floods costs one scrape its samples, nothing more.

import * as http from 'node:http';
import type { Member } from './members';

export const MEMBER_METRICS_PATH = '/hazelcast/rest/instance/metrics';
export const MEMBER_SCRAPE_TIMEOUT_MS = 3000;
/** A member's telemetry is ~30 KiB (2.3.8, one job); anything near this is not telemetry. */
export const MEMBER_SCRAPE_MAX_BYTES = 4 * 1024 * 1024;

export type MemberScrape = (member: Member) => Promise<string>;

export const scrapeMember: MemberScrape = (member) =>
  new Promise((resolve, reject) => {
    const req = http.get(
      {
        host: member.host.replace(/^\[|\]$/g, ''),
        port: member.port,
        path: MEMBER_METRICS_PATH,
        timeout: MEMBER_SCRAPE_TIMEOUT_MS,
        agent: false,
      },
      (res) => {
        if (res.statusCode !== 200) {
          res.resume();
          return reject(new Error(`HTTP ${res.statusCode} from ${member.name}`));
        }
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          size += c.length;
          if (size > MEMBER_SCRAPE_MAX_BYTES) {
            req.destroy(new Error(`${member.name} sent more than ${MEMBER_SCRAPE_MAX_BYTES} bytes`));
            return;
          }
          chunks.push(c);
        });
        res.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
        res.on('error', reject);
      },
    );
    const deadline = setTimeout(
      () => req.destroy(new Error(`${member.name} did not answer within ${MEMBER_SCRAPE_TIMEOUT_MS} ms`)),
      MEMBER_SCRAPE_TIMEOUT_MS,
    );
    req.on('timeout', () =>
      req.destroy(new Error(`${member.name} did not answer within ${MEMBER_SCRAPE_TIMEOUT_MS} ms`)),
    );
    req.on('error', reject);
    req.on('close', () => clearTimeout(deadline));
  });
