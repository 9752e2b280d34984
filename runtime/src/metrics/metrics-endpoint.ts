// Wires /metrics into a runtime: the application's own metrics fed by the lifecycle (its observer),
// the members read from the settings and the watched worker Pods. Started before the lifecycle, so
// a scraper sees the application from its first phase; closed after the end is recorded.

import type { Pod } from 'kubernetes-types/core/v1';
import type { Clock } from '../clock';
import type { Logger } from '../log';
import { RUNTIME_ENV, type Env, type Settings } from '../settings';
import type { LifecycleObserver } from '../steps/context';
import { ApplicationMetrics } from './application-metrics';
import { scrapeMember, type MemberScrape } from './member-scrape';
import { membersOf, podIpRewrite } from './members';
import { serveMetrics, type MetricsServer } from './server';

export interface MetricsEndpoint {
  readonly observer: LifecycleObserver;
  readonly server: MetricsServer;
}

/** Undefined when the application has metrics turned off (no `metrics` in runtime.json). */
export async function startMetricsEndpoint(
  settings: Settings,
  env: Env,
  clock: Clock,
  log: Logger,
  scrape: MemberScrape = scrapeMember,
): Promise<MetricsEndpoint | undefined> {
  const { app, pod } = settings;
  if (!app.metrics) return undefined;
  const metrics = new ApplicationMetrics(
    { appId: app.appId, jobName: app.jobName, jobId: app.jobId, ha: app.ha !== undefined },
    clock,
  );
  metrics.record({ workersDesired: String(app.workerCount) });
  let workerPods: () => Iterable<Pod> = () => [];
  const dialAddress = podIpRewrite(env[RUNTIME_ENV.podIpRewrite]);
  const sources = {
    podName: pod.name,
    masterHost: settings.engineRest.host,
    masterPort: app.master.port,
    ...(dialAddress ? { dialAddress } : {}),
    ...(app.ha ? { haMasterAddresses: app.ha.masterAddresses } : {}),
    workerPort: app.metrics.workerPort,
  };
  const server = await serveMetrics(
    pod.ip,
    app.metrics.port,
    { app: metrics, members: () => membersOf(sources, workerPods()), scrape, now: () => clock.now() },
    log,
  );
  return {
    server,
    observer: {
      status: (patch) => metrics.record(patch),
      workers: (pods) => {
        workerPods = pods;
      },
    },
  };
}
