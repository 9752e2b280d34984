// kubernetes.config-map against a real API server: submit reads the user's runtime ConfigMap
// before anything is created and refuses a missing one, or one without the files the engine
// reads or with a key that contradicts application mode — reporting them all, creating nothing;
// preflight reports the same; a good one is mounted, never owned, and survives cancel untouched.
import { adminHttp, useTestNamespace, withComponentLogs } from '../support/cluster';
import { collection, createObj, deploymentFiles, labelled, run } from './cli-support';

const ns = useTestNamespace('cli-config-map');

const HAZELCAST = 'hazelcast:\n  properties:\n    hazelcast.max.no.heartbeat.seconds: 300\n';
const LOG4J2 = 'rootLogger.level = INFO\n';

async function jobs(): Promise<unknown[]> {
  return (await adminHttp().call<{ items: unknown[] }>('GET', collection('batch/v1', 'jobs', ns.name))).items;
}

async function configMap(name: string): Promise<{ metadata: { resourceVersion: string; ownerReferences?: unknown[] }; data: Record<string, string> }> {
  return adminHttp().call('GET', `/api/v1/namespaces/${ns.name}/configmaps/${name}`);
}

test(
  'a missing runtime ConfigMap: submit refuses before creating anything, preflight reports it',
  withComponentLogs(async () => {
    const files = deploymentFiles(ns.name, 'kubernetes.config-map = absent-config');
    const r = await run(['submit', ...files.args]);
    expect(r.code).not.toBe(0);
    expect(r.err.join('\n')).toMatch(
      new RegExp(`submit refused before creating anything: .*\\n\\s+- kubernetes\\.config-map: ConfigMap absent-config not found in namespace ${ns.name}`),
    );
    expect(await jobs()).toEqual([]);

    const pre = await run(['preflight', ...files.args]);
    expect(pre.code).toBe(4);
    expect(pre.out.join('\n')).toMatch(new RegExp(`- \\[reference\\] kubernetes\\.config-map: ConfigMap absent-config not found in namespace ${ns.name}`));
    expect((await labelled(ns.name, pre.value('Application ID')!)).size).toBe(0);
  }),
);

test(
  'a ConfigMap without the engine file and with a conflicting key: both refused in one run, naming ConfigMap, file and key; nothing created',
  withComponentLogs(async () => {
    await createObj(ns.name, {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'partial-config' },
      data: { 'hazelcast.yaml': 'hazelcast:\n  cluster-name: seatunnel\n', 'log4j2.properties': LOG4J2 },
    });
    const files = deploymentFiles(ns.name, 'kubernetes.config-map = partial-config');
    const r = await run(['submit', ...files.args]);
    expect(r.code).not.toBe(0);
    const text = r.err.join('\n');
    expect(text).toMatch(/kubernetes\.config-map: ConfigMap partial-config has no "seatunnel\.yaml" \(the engine reads it as seatunnel-master\.yaml/);
    expect(text).toMatch(
      /kubernetes\.config-map: ConfigMap partial-config file hazelcast\.yaml: hazelcast\.cluster-name is "seatunnel", but application mode sets it to "seatunnel-application-cli-test-[0-9a-f]{12}" \(keeps applications apart\)/,
    );
    expect(await jobs()).toEqual([]);

    const pre = await run(['preflight', ...files.args]);
    expect(pre.code).toBe(4);
    const found = pre.out.filter((l) => l.includes('[reference] kubernetes.config-map'));
    // seatunnel.yaml missing for both roles, and the cluster name of both roles' Hazelcast file.
    expect(found).toHaveLength(3);
    expect((await labelled(ns.name, pre.value('Application ID')!)).size).toBe(0);
  }),
);

test(
  'a complete ConfigMap: mounted on the master and in the worker template, never owned, untouched by cancel',
  withComponentLogs(async () => {
    await createObj(ns.name, {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'good-config' },
      data: { 'seatunnel.yaml': 'seatunnel:\n  engine:\n    checkpoint:\n      interval: 7000\n', 'hazelcast.yaml': HAZELCAST, 'log4j2.properties': LOG4J2 },
    });
    const before = await configMap('good-config');
    const files = deploymentFiles(ns.name, 'kubernetes.config-map = good-config', { name: 'cfg-ok' });
    const r = await run(['submit', ...files.args]);
    expect(r.err).toEqual([]);
    expect(r.code).toBe(0);
    const appId = r.value('Application ID')!;
    const objs = await labelled(ns.name, appId);
    const job = objs.get(`Job/${appId}`)!;
    const volumes = (job.spec as { template: { spec: { volumes: Array<{ name: string; configMap?: { name: string } }> } } }).template.spec.volumes;
    expect(volumes).toContainEqual({ name: 'seatunnel-config', configMap: expect.objectContaining({ name: 'good-config' }) });
    expect(objs.has('ConfigMap/good-config')).toBe(false);

    const cancelled = await run(['cancel', '--id', appId, '-a', files.deploy]);
    expect(cancelled.code).toBe(0);
    const after = await configMap('good-config');
    expect(after.metadata.resourceVersion).toBe(before.metadata.resourceVersion);
    expect(after.metadata.ownerReferences).toBeUndefined();
    expect(after.data).toEqual(before.data);
  }),
);
