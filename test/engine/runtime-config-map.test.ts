// kubernetes.config-map with Kubernetes and Zeta both real (as in application.test.ts): the user's
// own seatunnel.yaml and log4j2.properties, from a ConfigMap the test creates, are what the master
// and the workers run with — the checkpoint interval and storage from seatunnel.yaml, the log
// layout and levels from log4j2.properties — while application mode's keys still hold (the
// application forms its own cluster of master + 2 workers with fixed slots). The ConfigMap is
// never owned and survives the application untouched.

import * as fs from 'node:fs';
import * as path from 'node:path';
import { ANNOTATIONS } from '../../lib/contract';
import { adminHttp, useTestNamespace, waitFor } from '../support/cluster';
import type { LocalStack } from '../../tools/local-stack/local-application';
import { startEngineStack } from '../support/engine-stack';
import { deploymentFiles, labelled, run } from '../cluster/cli-support';
import { heapMiB } from '../../lib/model/resolve';
import { STOCK_CONFIG_2_3_8 } from '../support/seatunnel-stock-config';
import { USER_LOG4J2 } from '../support/user-log4j2';

jest.setTimeout(6 * 60_000);

const SERVICE_ACCOUNT = 'seatunnel-runtime';
const CONFIG_MAP = 'seatunnel-config';
/** Twice the generated default (10 s), so a gap this long comes from the user's file. */
const INTERVAL_MS = 20_000;

// No checkpoint.interval in the job's env: the engine's configured interval applies.
const STREAMING_JOB = `env { job.mode = "STREAMING", parallelism = 1 }
source { FakeSource { result_table_name = "fake", row.num = 5, split.num = 1, split.read-interval = 500, schema { fields { name = "string" } } } }
sink { Console { source_table_name = "fake" } }
`;

const BATCH_JOB = `env { job.mode = "BATCH", parallelism = 1 }
source { FakeSource { result_table_name = "fake", row.num = 20, split.num = 1, schema { fields { name = "string" } } } }
sink { Console { source_table_name = "fake" } }
`;

describe('kubernetes.config-map on a real control plane with real Zeta processes', () => {
  const ns = useTestNamespace('e2e-cfgmap');
  let stack: LocalStack;
  let checkpoints: string;

  beforeAll(async () => {
    stack = await startEngineStack(ns.name, SERVICE_ACCOUNT);
    checkpoints = path.join(stack.dir, 'user-checkpoints');
    fs.mkdirSync(checkpoints, { recursive: true });
  });

  afterAll(async () => {
    await stack?.stop();
  });

  const logOf = (pred: (name: string) => boolean) => {
    const name = stack.kubelet.podNames().find(pred);
    return name ? stack.kubelet.logOf(name) : '';
  };

  test("the user's seatunnel.yaml (checkpoint interval and storage) and log4j2.properties (layout, Hazelcast level) are in effect", async () => {
    const seatunnelYaml = `seatunnel:\n  engine:\n    checkpoint:\n      interval: ${INTERVAL_MS}\n      storage:\n        plugin-config:\n          namespace: ${checkpoints}/\n`;
    await adminHttp().call('POST', `/api/v1/namespaces/${ns.name}/configmaps`, {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: CONFIG_MAP },
      data: {
        'seatunnel.yaml': seatunnelYaml,
        'hazelcast.yaml': 'hazelcast:\n  properties:\n    hazelcast.max.no.heartbeat.seconds: 240\n',
        'log4j2.properties': USER_LOG4J2,
      },
    });
    const before = await adminHttp().call<{ metadata: { resourceVersion: string } }>(
      'GET',
      `/api/v1/namespaces/${ns.name}/configmaps/${CONFIG_MAP}`,
    );
    const files = deploymentFiles(
      ns.name,
      [
        stack.deploymentLines,
        'application { name = e2e-cfgmap, worker-count = 2, worker.slots = 2, worker.memory-mb = 640, master.memory-mb = 640, startup-timeout-millis = 240000 }',
        `kubernetes { image = "apache/seatunnel:2.3.8", service-account = ${SERVICE_ACCOUNT}, config-map = ${CONFIG_MAP} }`,
      ].join('\n'),
      { name: 'e2e-cfgmap' },
    );
    fs.writeFileSync(files.job, STREAMING_JOB);
    const submitted = await run(['submit', ...files.args]);
    expect(submitted.err).toEqual([]);
    expect(submitted.code).toBe(0);
    const appId = submitted.value('Application ID')!;
    const jobId = submitted.value('Job ID')!;
    const master = () => logOf((n) => n.startsWith(appId) && !n.includes('-worker-'));

    await waitFor(
      async () =>
        (
          await adminHttp().call<{ metadata: { annotations?: Record<string, string> } }>(
            'GET',
            `/apis/batch/v1/namespaces/${ns.name}/jobs/${appId}`,
          )
        ).metadata.annotations?.[ANNOTATIONS.zetaJobStatus] === 'RUNNING',
      { description: 'the streaming job runs', timeoutMs: 240_000 },
    );

    // Storage: checkpoints land in the namespace the user's seatunnel.yaml names.
    const dir = path.join(checkpoints, jobId);
    await waitFor(() => fs.existsSync(dir) && fs.readdirSync(dir).some((f) => f.endsWith('.ser')), {
      description: `a checkpoint in ${dir}`,
      timeoutMs: 120_000,
    });
    // Interval: Zeta never triggers a periodic checkpoint sooner than the interval after the
    // previous trigger (a lower bound the engine enforces, not a measured duration), so two
    // consecutive triggers at least INTERVAL_MS apart show the user's 20 s, not the default 10 s.
    const triggers = () =>
      [
        ...master().matchAll(
          new RegExp(
            `\\[user-log4j2\\] DEBUG \\[CheckpointCoordinator\\] - pending checkpoint\\((\\d+)/\\d+@${jobId}\\) completed! cost: \\d+, trigger: (\\d+)`,
            'g',
          ),
        ),
      ].map((m) => ({
        id: Number(m[1]),
        at: Number(m[2]),
      }));
    await waitFor(() => triggers().length >= 2, {
      description: 'two completed checkpoints in the master log',
      timeoutMs: 120_000,
    });
    const [first, second] = triggers();
    expect(second.id).toBe(first.id + 1);
    expect(second.at - first.at).toBeGreaterThanOrEqual(INTERVAL_MS);

    // Log4j2: the user's layout on the master and the workers, and Hazelcast's INFO membership
    // lines, which the generated configuration (Hazelcast at WARN) would suppress: the three
    // members of this application's own cluster.
    expect(master()).toMatch(/\[user-log4j2\] INFO\s+\[ClusterService\]/);
    expect(master()).toMatch(/Members \{size:3,/);
    expect(logOf((n) => n === `${appId}-worker-1`)).toMatch(/\[user-log4j2\] INFO /);

    const cancel = await run(['cancel', '-a', files.deploy, '--id', appId]);
    expect(cancel.code).toBe(0);
    await waitFor(async () => (await labelled(ns.name, appId)).size === 0, {
      description: `nothing of ${appId} left`,
      timeoutMs: 90_000,
    });
    const after = await adminHttp().call<{ metadata: { resourceVersion: string; ownerReferences?: unknown[] } }>(
      'GET',
      `/api/v1/namespaces/${ns.name}/configmaps/${CONFIG_MAP}`,
    );
    expect(after.metadata.resourceVersion).toBe(before.metadata.resourceVersion);
    expect(after.metadata.ownerReferences).toBeUndefined();
  });
  test("SeaTunnel 2.3.8's own config directory, unchanged but for a JVM flag of the user's: the batch job runs to completion with application mode's heap and the user's flag", async () => {
    // The distribution's files; each role's JVM file gains a flag that makes the JVM print its
    // effective flags at start: the user's flags are in effect, and the heap is memory-mb's.
    const printFlags = (file: string) => `${file}-XX:+PrintCommandLineFlags\n`;
    await adminHttp().call('POST', `/api/v1/namespaces/${ns.name}/configmaps`, {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'stock-config' },
      data: {
        ...STOCK_CONFIG_2_3_8,
        jvm_master_options: printFlags(STOCK_CONFIG_2_3_8.jvm_master_options),
        jvm_worker_options: printFlags(STOCK_CONFIG_2_3_8.jvm_worker_options),
      },
    });
    const files = deploymentFiles(
      ns.name,
      [
        stack.deploymentLines,
        'application { name = e2e-stock, worker-count = 1, worker.slots = 2, worker.memory-mb = 640, master.memory-mb = 640, startup-timeout-millis = 240000 }',
        `kubernetes { image = "apache/seatunnel:2.3.8", service-account = ${SERVICE_ACCOUNT}, config-map = stock-config }`,
      ].join('\n'),
      { name: 'e2e-stock' },
    );
    fs.writeFileSync(files.job, BATCH_JOB);
    const submitted = await run(['submit', ...files.args]);
    expect(submitted.code).toBe(0);
    // Submit warns of the shipped defaults it replaces, and of nothing else.
    expect(submitted.err.length).toBeGreaterThan(0);
    expect(
      submitted.err.every((l) =>
        /^warning: kubernetes\.config-map: ConfigMap stock-config file .*SeaTunnel's shipped default/.test(l),
      ),
    ).toBe(true);
    const appId = submitted.value('Application ID')!;
    const master = () => logOf((n) => n.startsWith(appId) && !n.includes('-worker-'));
    const worker = () => logOf((n) => n === `${appId}-worker-1`);

    // -XX:MaxHeapSize is the heap memory-mb gives (not the file's -Xmx2g); the file's other flags
    // and the user's are there. The worker's line is read while its Pod exists.
    const heap = `-XX:MaxHeapSize=${heapMiB(640) * 1024 * 1024} `;
    const flagsLine = (log: string) => log.split('\n').find((l) => l.includes('-XX:+PrintCommandLineFlags')) ?? '';
    await waitFor(() => flagsLine(worker()) !== '', {
      description: "the worker JVM's flags in its log",
      timeoutMs: 240_000,
    });
    for (const line of [flagsLine(worker())]) {
      expect(line).toContain(heap);
      expect(line).toContain('-XX:HeapDumpPath=/tmp/seatunnel/dump/zeta-server');
      expect(line).toContain('-XX:MaxMetaspaceSize=268435456');
    }
    // The worker's init container logged what it replaced.
    expect(worker()).toMatch(
      /WARN kubernetes\.config-map: ConfigMap stock-config file jvm_worker_options: -Xmx is -Xmx2g, SeaTunnel's shipped default; application mode applies -Xmx\d+m/,
    );

    await waitFor(
      async () =>
        (
          await adminHttp().call<{ status?: { conditions?: Array<{ type: string; status: string }> } }>(
            'GET',
            `/apis/batch/v1/namespaces/${ns.name}/jobs/${appId}`,
          )
        ).status?.conditions?.some((c) => c.type === 'Complete' && c.status === 'True') === true,
      { description: 'the Job Complete', timeoutMs: 240_000 },
    );
    const job = await adminHttp().call<{ metadata: { annotations?: Record<string, string> } }>(
      'GET',
      `/apis/batch/v1/namespaces/${ns.name}/jobs/${appId}`,
    );
    expect(job.metadata.annotations?.[ANNOTATIONS.zetaJobStatus]).toBe('FINISHED');
    expect(flagsLine(master())).toContain(heap);
    expect(master()).toMatch(
      /hazelcast-master\.yaml: hazelcast\.cluster-name is \\?"seatunnel\\?", SeaTunnel's shipped default/,
    );
  });
});
