// A team template: the platform team sets the defaults once; each job overrides only what it
// needs. `npx cdk8s synth` (apps/cdk8s/main.ts) synthesizes these three applications in one run.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../../../lib/cli/io';
import { TeamTemplate } from '../../../lib/model/template';

/** What every SeaTunnel application of the platform gets. */
export const platform = new TeamTemplate(
  {
    namespace: 'data-jobs',
    image: 'registry.example.com/platform/seatunnel:2.3.12',
    imagePullSecrets: ['platform-registry'],
    serviceAccount: 'seatunnel-runtime',
    labels: { 'cost-center': 'cc-42' },
    workerNodeSelector: { 'node-pool': 'batch' },
    workerTolerations: [{ key: 'dedicated', operator: 'Equal', value: 'seatunnel', effect: 'NoSchedule' }],
    // Each job's workers on nodes of their own where the pool has room: a lost node takes fewer of them.
    workerSpread: 'preferred',
    workerMemoryMb: 2048,
    networkPolicyEnabled: true,
    finishedJobRetentionSeconds: 7 * 24 * 3600,
  },
  { name: 'the platform template', locked: ['namespace', 'networkPolicyEnabled'] },
);

/** The data team narrows it: its own label, bigger workers. */
export const dataTeam = platform.extend(
  { labels: { team: 'data' }, workerCpuCores: 2 },
  { name: 'the data team template' },
);

const job = (name: string) => readFileSync(join(packageRoot(), 'apps', 'examples', 'team', `${name}.conf`), 'utf8');

/** Three applications; each sets only what differs. */
export const teamApplications = {
  orders: { name: 'orders', jobConfig: job('orders'), workerCount: 3 },
  payments: { name: 'payments', jobConfig: job('payments'), workerMemoryMb: 4096 },
  clicks: { name: 'clicks', jobConfig: job('clicks'), workerCount: 4, workerSlots: 4, labels: { tier: 'bulk' } },
};
