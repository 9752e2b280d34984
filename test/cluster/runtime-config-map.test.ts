// kubernetes.config-map against a real API server: submit reads the user's runtime ConfigMap
// before anything is created and refuses a missing one, or one without the files the engine
// reads or with a key that contradicts application mode — reporting them all, creating nothing;
// preflight reports the same; a good one is mounted, never owned, and survives cancel untouched.
import { adminHttp, useTestNamespace, withComponentLogs } from '../support/cluster';
import { collection, createObj, deploymentFiles, labelled, run } from './cli-support';
import { STOCK_CONFIG_2_3_8 } from '../support/seatunnel-stock-config';

const ns = useTestNamespace('cli-config-map');

const HAZELCAST = 'hazelcast:\n  properties:\n    hazelcast.max.no.heartbeat.seconds: 300\n';
const LOG4J2 = 'rootLogger.level = INFO\n';

async function jobs(): Promise<unknown[]> {
  return (await adminHttp().call<{ items: unknown[] }>('GET', collection('batch/v1', 'jobs', ns.name))).items;
}

async function configMap(
  name: string,
): Promise<{ metadata: { resourceVersion: string; ownerReferences?: unknown[] }; data: Record<string, string> }> {
  return adminHttp().call('GET', `/api/v1/namespaces/${ns.name}/configmaps/${name}`);
}

test(
  'a missing runtime ConfigMap: submit refuses before creating anything, preflight reports it',
  withComponentLogs(async () => {
    const files = deploymentFiles(ns.name, 'kubernetes.config-map = absent-config');
    const r = await run(['submit', ...files.args]);
    expect(r.code).not.toBe(0);
    expect(r.err.join('\n')).toMatch(
      new RegExp(
        `submit refused before creating anything: .*\\n\\s+- kubernetes\\.config-map: ConfigMap absent-config not found in namespace ${ns.name}`,
      ),
    );
    expect(await jobs()).toEqual([]);

    const pre = await run(['preflight', ...files.args]);
    expect(pre.code).toBe(4);
    expect(pre.out.join('\n')).toMatch(
      new RegExp(
        `- \\[reference\\] kubernetes\\.config-map: ConfigMap absent-config not found in namespace ${ns.name}`,
      ),
    );
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
      data: { 'hazelcast.yaml': 'hazelcast:\n  cluster-name: production\n', 'log4j2.properties': LOG4J2 },
    });
    const files = deploymentFiles(ns.name, 'kubernetes.config-map = partial-config');
    const r = await run(['submit', ...files.args]);
    expect(r.code).not.toBe(0);
    const text = r.err.join('\n');
    expect(text).toMatch(
      /kubernetes\.config-map: ConfigMap partial-config has no "seatunnel\.yaml" \(the engine reads it as seatunnel-master\.yaml/,
    );
    expect(text).toMatch(
      /kubernetes\.config-map: ConfigMap partial-config file hazelcast\.yaml: hazelcast\.cluster-name is "production", but application mode sets it to "seatunnel-application-cli-test-[0-9a-f]{12}" \(keeps applications apart\)/,
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
      data: {
        'seatunnel.yaml': 'seatunnel:\n  engine:\n    checkpoint:\n      interval: 7000\n',
        'hazelcast.yaml': HAZELCAST,
        'log4j2.properties': LOG4J2,
      },
    });
    const before = await configMap('good-config');
    const files = deploymentFiles(ns.name, 'kubernetes.config-map = good-config', { name: 'cfg-ok' });
    const r = await run(['submit', ...files.args]);
    expect(r.err).toEqual([]);
    expect(r.code).toBe(0);
    const appId = r.value('Application ID')!;
    const objs = await labelled(ns.name, appId);
    const job = objs.get(`Job/${appId}`)!;
    const volumes = (
      job.spec as { template: { spec: { volumes: Array<{ name: string; configMap?: { name: string } }> } } }
    ).template.spec.volumes;
    expect(volumes).toContainEqual({
      name: 'seatunnel-config',
      configMap: expect.objectContaining({ name: 'good-config' }),
    });
    expect(objs.has('ConfigMap/good-config')).toBe(false);

    const cancelled = await run(['cancel', '--id', appId, '-a', files.deploy]);
    expect(cancelled.code).toBe(0);
    const after = await configMap('good-config');
    expect(after.metadata.resourceVersion).toBe(before.metadata.resourceVersion);
    expect(after.metadata.ownerReferences).toBeUndefined();
    expect(after.data).toEqual(before.data);
  }),
);

test(
  "SeaTunnel 2.3.8's own config directory, unchanged: preflight and submit accept it, warning of each shipped default they replace",
  withComponentLogs(async () => {
    await createObj(ns.name, {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'stock-config' },
      data: { ...STOCK_CONFIG_2_3_8 },
    });
    const files = deploymentFiles(ns.name, 'kubernetes.config-map = stock-config', { name: 'cfg-stock' });
    const warned = (lines: string[]) =>
      lines.filter((l) => l.startsWith('warning: kubernetes.config-map: ConfigMap stock-config file '));

    const pre = await run(['preflight', ...files.args]);
    expect(pre.out.filter((l) => l.includes('[reference]'))).toEqual([]);
    expect(pre.code).toBe(0);
    const preWarnings = warned(pre.err);
    expect(preWarnings).toEqual(
      expect.arrayContaining([
        expect.stringMatching(
          /file hazelcast-master\.yaml: hazelcast\.cluster-name is "seatunnel", SeaTunnel's shipped default; application mode applies "seatunnel-application-cfg-stock-[0-9a-f]{12}" instead \(keeps applications apart\)$/,
        ),
        expect.stringMatching(
          /file seatunnel\.yaml: seatunnel\.engine\.backup-count is 1, SeaTunnel's shipped default; application mode applies 0 instead/,
        ),
        expect.stringMatching(
          /file jvm_worker_options: -Xmx is -Xmx2g, SeaTunnel's shipped default; application mode applies -Xmx\d+m instead \(the heap follows application\.worker\.memory-mb/,
        ),
      ]),
    );

    const r = await run(['submit', ...files.args]);
    expect(r.code).toBe(0);
    // Every stderr line is one of those warnings (each run has its own application ID): nothing
    // refused, nothing else to say.
    const anyId = (lines: string[]) => lines.map((l) => l.replace(/cfg-stock-[0-9a-f]{12}/g, '<id>'));
    expect(anyId(r.err)).toEqual(anyId(preWarnings));
    const appId = r.value('Application ID')!;
    expect((await labelled(ns.name, appId)).has(`Job/${appId}`)).toBe(true);
    expect((await run(['cancel', '--id', appId, '-a', files.deploy])).code).toBe(0);
  }),
);

test(
  'the same directory with values the user chose that conflict (a cluster name, a heap): refused, naming file, key and value; nothing created',
  withComponentLogs(async () => {
    await createObj(ns.name, {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'changed-config' },
      data: {
        ...STOCK_CONFIG_2_3_8,
        'hazelcast-worker.yaml': STOCK_CONFIG_2_3_8['hazelcast-worker.yaml'].replace(
          'cluster-name: seatunnel',
          'cluster-name: production',
        ),
        jvm_master_options: STOCK_CONFIG_2_3_8.jvm_master_options.replace('-Xmx2g', '-Xmx3g'),
      },
    });
    const files = deploymentFiles(ns.name, 'kubernetes.config-map = changed-config', { name: 'cfg-changed' });
    // The earlier tests' cancelled Jobs may still be going away.
    const jobNames = async () => (await jobs()).map((j) => (j as { metadata: { name: string } }).metadata.name);
    const before = new Set(await jobNames());
    const r = await run(['submit', ...files.args]);
    expect(r.code).not.toBe(0);
    const text = r.err.join('\n');
    expect(text).toMatch(/submit refused before creating anything: 2 referenced object problem\(s\)/);
    expect(text).toMatch(
      /file hazelcast-worker\.yaml: hazelcast\.cluster-name is "production", but application mode sets it to "seatunnel-application-/,
    );
    expect(text).toMatch(
      /file jvm_master_options: -Xmx3g is refused: application mode sizes the heap from application\.master\.memory-mb/,
    );
    expect((await jobNames()).filter((n) => !before.has(n))).toEqual([]);

    const pre = await run(['preflight', ...files.args]);
    expect(pre.code).toBe(4);
    expect(pre.out.filter((l) => l.includes('[reference] kubernetes.config-map'))).toHaveLength(2);
    expect((await labelled(ns.name, pre.value('Application ID')!)).size).toBe(0);
  }),
);
