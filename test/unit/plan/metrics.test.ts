// The runtime's one /metrics (docs/metrics.md): runtime.json's metrics field, the container port and
// the scrape annotations on the runtime's Pod only. Who may connect: network-policy.test.ts.

import { ENGINE_FILES } from '../../../lib/engine/files';
import { runtimeSettingsProblems } from '../../../lib/contract';
import type { ApplicationPlan } from '../../../lib/plan/types';
import { plan } from '../../support/fixtures';
import { main, masterPod, workerPod } from './helpers';

const ROLE = 'seatunnel.apache.org/role';
const HA = { haEnabled: true, haMasters: 3, checkpointPvc: 'ckpt' } as const;
const SCRAPE = { 'prometheus.io/scrape': 'true', 'prometheus.io/port': '9464', 'prometheus.io/path': '/metrics' };

const runtimeJson = (p: ApplicationPlan) =>
  JSON.parse(p.configMaps.find((c) => c.metadata.name === `${p.spec.appId}-engine`)!.data![ENGINE_FILES.runtime]);
const jobPodMeta = (p: ApplicationPlan) => p.job.spec!.template.metadata!;

describe('runtime.json', () => {
  test("carries the runtime's port and the workers' member port, and passes the contract's check", () => {
    const settings = runtimeJson(plan({ metricsPort: 9100, workerPort: 5900 }));
    expect(settings.metrics).toEqual({ port: 9100, workerPort: 5900 });
    expect(runtimeSettingsProblems(settings)).toEqual([]);
  });

  test('has no metrics field with metrics off', () => {
    expect(runtimeJson(plan({ metricsEnabled: false }))).not.toHaveProperty('metrics');
  });
});

describe("the runtime's Pod", () => {
  test('a container port named metrics on the runtime container, and the scrape annotations on the Job Pod', () => {
    const p = plan();
    expect(main(masterPod(p)).ports).toContainEqual({ name: 'metrics', containerPort: 9464, protocol: 'TCP' });
    expect(jobPodMeta(p).annotations).toEqual(SCRAPE);
  });

  test('the port follows application.metrics.port', () => {
    const p = plan({ metricsPort: 9100 });
    expect(main(masterPod(p)).ports).toContainEqual({ name: 'metrics', containerPort: 9100, protocol: 'TCP' });
    expect(jobPodMeta(p).annotations!['prometheus.io/port']).toBe('9100');
  });

  test("a user's master annotation of the same key wins; the others stay", () => {
    const p = plan({ masterAnnotations: { 'prometheus.io/scrape': 'false', 'example.com/team': 'data' } });
    expect(jobPodMeta(p).annotations).toEqual({
      ...SCRAPE,
      'prometheus.io/scrape': 'false',
      'example.com/team': 'data',
    });
  });

  test('with HA it is the coordinator; the masters and the workers get neither port nor annotations', () => {
    const p = plan(HA);
    expect(jobPodMeta(p).labels![ROLE]).toBe('coordinator');
    expect(main(masterPod(p)).ports).toEqual([{ name: 'metrics', containerPort: 9464, protocol: 'TCP' }]);
    expect(jobPodMeta(p).annotations).toEqual(SCRAPE);
    const masters = p.masters!.spec!.template;
    expect(main(masters.spec!).ports!.map((x) => x.name)).toEqual(['hazelcast']);
    expect(masters.metadata!.annotations).toBeUndefined();
    expect(main(workerPod(p)).ports).toBeUndefined();
    expect(p.workerTemplate.template!.metadata!.annotations).toBeUndefined();
  });

  test('nothing of it with metrics off', () => {
    const p = plan({ metricsEnabled: false });
    expect(main(masterPod(p)).ports!.map((x) => x.name)).toEqual(['hazelcast']);
    expect(jobPodMeta(p).annotations).toBeUndefined();
  });
});
