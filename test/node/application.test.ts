// SeaTunnel applications on real nodes: the CLI submits; the Job controller makes the master Pod;
// containerd runs the init container that copies the runtime out of the locally built runtime image
// and the master container from the stock-layout SeaTunnel image; the runtime creates the workers
// through the API; kube-proxy, CoreDNS and kube-router carry and police the traffic between them.
import * as path from 'node:path';
import { ANNOTATIONS } from '../../lib/contract';
import { adminHttp, clusterInfo, createTestNamespace, deleteNamespace, recordWatch, waitFor } from '../support/cluster';
import { nodeContainers, nodeInfo, runPod, tcpProbe, imageRef, STREAMING_JOB } from '../support/node-pods';
import { clusterNodes, killContainer } from '../support/node-faults';
import { annotatedScrapeConfig, startPrometheus } from '../support/node-prometheus';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { labelled, run, tmpDir, type RunResult } from '../cluster/cli-support';
import * as fs from 'node:fs';

jest.setTimeout(10 * 60_000);
const execFileP = promisify(execFile);

const EXAMPLES = path.join(__dirname, '..', '..', 'apps', 'examples');
const SERVICE_ACCOUNT = 'seatunnel-runtime';

/** The parts of a Pod the tests read. */
interface PodObj {
  metadata: { name: string; uid: string };
  spec: { initContainers?: Array<{ image: string }>; containers: Array<{ image: string }> };
  status?: { podIP?: string; containerStatuses?: Array<{ containerID?: string }> };
}

interface Job {
  metadata: { annotations?: Record<string, string>; uid: string };
  status?: { conditions?: Array<{ type: string; status: string; reason?: string }> };
}

describe('applications on real nodes', () => {
  // A namespace per test: the example names its settings ConfigMap, so two of its applications
  // cannot share one (the second submission is refused, as it should be).
  let ns: string;
  beforeEach(async () => {
    // Pod Security admission enforces baseline, the level the plan builds its Pods for by default.
    ns = await createTestNamespace('node-app', { 'pod-security.kubernetes.io/enforce': 'baseline' });
    await adminHttp().call('POST', `/api/v1/namespaces/${ns}/serviceaccounts`, {
      apiVersion: 'v1',
      kind: 'ServiceAccount',
      metadata: { name: SERVICE_ACCOUNT },
    });
  });
  afterEach(async () => {
    if (ns) await deleteNamespace(ns);
  });

  /**
   * What running on this node needs beyond the files: the namespace and kubeconfig of the test, images
   * that are never pulled, and CPU requests that fit a 2-core node (the example asks 1 core per Pod).
   */
  const overrides = () => [
    `-Dkubernetes.namespace=${ns}`,
    `-Dkubernetes.kubeconfig=${clusterInfo().kubeconfig}`,
    '-Dkubernetes.image-pull-policy=Never',
    '-Dkubernetes.runtime.image-pull-policy=Never',
    '-Dapplication.master.cpu-cores=0.5',
    '-Dapplication.worker.cpu-cores=0.5',
  ];

  /** `seatunnel-app submit` of the example's deployment file with `jobFile` (default: the example's job). */
  function submitExample(extra: string[] = [], jobFile = path.join(EXAMPLES, 'job.conf')): Promise<RunResult> {
    return run(['submit', '-a', path.join(EXAMPLES, 'deploy.conf'), '-c', jobFile, ...overrides(), ...extra]);
  }

  async function job(appId: string): Promise<Job> {
    return adminHttp().call('GET', `/apis/batch/v1/namespaces/${ns}/jobs/${appId}`);
  }

  async function status(appId: string, ...flags: string[]): Promise<RunResult> {
    return run(['status', '-a', path.join(EXAMPLES, 'deploy.conf'), ...overrides(), '--id', appId, ...flags]);
  }

  /** Deletes the application (as `kubectl delete job --cascade=background` would) and waits until neither the API nor containerd has anything of it. */
  async function expectNothingLeftAfterDelete(appId: string): Promise<void> {
    const uids = [...(await labelled(ns, appId))]
      .filter(([k]) => k.startsWith('Pod/'))
      .map(([, o]) => (o.metadata as { uid?: string }).uid!);
    await adminHttp().call(
      'DELETE',
      `/apis/batch/v1/namespaces/${ns}/jobs/${appId}?propagationPolicy=Background`,
      undefined,
      { accept: [404] },
    );
    await waitFor(async () => [...(await labelled(ns, appId))].filter(([k]) => k.startsWith('Pod/')).length === 0, {
      description: `no Pod of ${appId} in the API`,
      timeoutMs: 120_000,
    });
    for (const uid of uids) {
      await waitFor(async () => (await nodeContainers(uid)).length === 0, {
        description: `no container of Pod ${uid} on the node`,
        timeoutMs: 150_000,
        intervalMs: 1000,
      });
    }
  }

  test('the bundled example through the CLI: SUCCEEDED, every row counted by Assert, workers removed', async () => {
    const r = await submitExample(['--wait', '--wait-timeout', '480000']);
    const appId = r.value('Application ID')!;
    expect(r.err).toEqual([]);
    expect(r.value('Status')).toBe('SUCCEEDED');
    expect(r.code).toBe(0);
    const j = await job(appId);
    // The Assert sink fails the job unless exactly ROWS (32) rows arrived: FINISHED is the row count.
    expect(j.metadata.annotations?.[ANNOTATIONS.zetaJobStatus]).toBe('FINISHED');
    expect(j.metadata.annotations?.[ANNOTATIONS.workersRegistered]).toBe('2');
    // The runtime came from the init container (an emptyDir filled from the runtime image).
    const [master] = await podsOf(appId, 'master');
    expect(master).toBeDefined();
    const pod = master;
    expect(pod.spec.initContainers?.[0]?.image).toBe(imageRef('runtime'));
    expect(pod.spec.containers[0]?.image).toBe('apache/seatunnel:2.3.8');
    await waitFor(
      async () =>
        [...(await labelled(ns, appId))].filter(
          ([k, o]) => k.startsWith('Pod/') && o.metadata.labels?.['seatunnel.apache.org/role'] === 'worker',
        ).length === 0,
      {
        description: 'the workers removed by the runtime',
        timeoutMs: 60_000,
      },
    );
    // The Console sink's rows outlive the workers: the runtime kept each worker's last lines in the
    // master's log before deleting it, and `logs` prints them as the worker's (issue 28 item 8).
    const kept = await run([
      'logs',
      '-a',
      path.join(EXAMPLES, 'deploy.conf'),
      ...overrides(),
      '--id',
      appId,
      '--role',
      'worker',
    ]);
    expect(kept.code).toBe(0);
    const rows = kept.out.flatMap(
      (l) => /^\[pod\/\S+-worker-\d\/seatunnel\] .*ConsoleSinkWriter.*rowIndex=(\d+)/.exec(l)?.[1] ?? [],
    );
    expect(new Set(rows.map(Number))).toEqual(new Set(Array.from({ length: 32 }, (_, i) => i + 1)));
    await expectNothingLeftAfterDelete(appId);
  });

  test("NetworkPolicy enforced: only the application's own Pods reach the master's member port, the named scraper only /metrics; cancel ends it CANCELED", async () => {
    // Running means the workers joined the master with the policies on.
    const appId = await runningStream('-Dkubernetes.metrics.scraper-pod-labels=app:scraper');
    const [master] = await podsOf(appId, 'master');
    const ip = master.status!.podIP!;
    const workerNames = podsOf(appId, 'worker').then((ws) => ws.map((w) => w.metadata.name));
    const port = 5801;
    const probe = (name: string, labels: Record<string, string>) =>
      runPod(ns, name, imageRef('seatunnel'), tcpProbe(ip, port), { labels });
    // A Pod carrying the application's label is let in (so the port listens and a refusal below is the policy's).
    const own = await probe('probe-own', { 'seatunnel.apache.org/application-id': appId });
    expect(own.log).toMatch(/^OPEN$/m);
    const other = await probe('probe-other', { 'seatunnel.apache.org/application-id': 'another-application' });
    expect(other.log).toMatch(/^CLOSED/m);
    const unlabelled = await probe('probe-unlabelled', {});
    expect(unlabelled.log).toMatch(/^CLOSED/m);
    // The scraper the application names (issue 28 item 3): its /metrics port, with every member's
    // telemetry read across the Pod network — and never the member port.
    const metricsPort = 9464;
    const scrape = [
      'bash',
      '-c',
      `if timeout 10 bash -c 'exec 3<>/dev/tcp/${ip}/${metricsPort}; printf "GET /metrics HTTP/1.0\\r\\n\\r\\n" >&3; cat <&3' >/tmp/m 2>/tmp/err; then grep -E '^(HTTP/|seatunnel_app_phase|seatunnel_app_member_up|jvm_threads_current)' /tmp/m; else echo "CLOSED $(cat /tmp/err)"; fi`,
    ];
    const scraper = await runPod(ns, 'probe-scraper', imageRef('seatunnel'), scrape, { labels: { app: 'scraper' } });
    expect(scraper.log).toMatch(/^HTTP\/1\.1 200 OK/m);
    expect(scraper.log).toContain(`seatunnel_app_phase{application="${appId}",phase="Running"} 1`);
    for (const w of await workerNames) {
      expect(scraper.log).toContain(`seatunnel_app_member_up{application="${appId}",member="${w}",role="worker"} 1`);
      expect(scraper.log).toMatch(
        new RegExp(`^jvm_threads_current\\{application="${appId}",member="${w}",role="worker"\\} `, 'm'),
      );
    }
    const scraperToMember = await runPod(ns, 'probe-scraper-member', imageRef('seatunnel'), tcpProbe(ip, port), {
      labels: { app: 'scraper' },
    });
    expect(scraperToMember.log).toMatch(/^CLOSED/m);
    const notScraper = await runPod(ns, 'probe-not-scraper', imageRef('seatunnel'), tcpProbe(ip, metricsPort), {});
    expect(notScraper.log).toMatch(/^CLOSED/m);
    await scrapedByPrometheus(appId, await workerNames);
    // probe-own carries the application's label: gone first, so "every Pod of the application" below means its own.
    for (const n of [
      'probe-own',
      'probe-other',
      'probe-unlabelled',
      'probe-scraper',
      'probe-scraper-member',
      'probe-not-scraper',
      'prometheus',
    ])
      await adminHttp().call('DELETE', `/api/v1/namespaces/${ns}/pods/${n}`, undefined, { accept: [404] });

    // What the kubelet reports as each Pod's containers end, before the Pods go.
    const watch = await recordWatch<{
      metadata: { name: string };
      status?: { containerStatuses?: Array<{ state?: { terminated?: { exitCode: number } } }> };
    }>(`/api/v1/namespaces/${ns}/pods`, { labelSelector: `seatunnel.apache.org/application-id=${appId}` });
    const cancel = await run(['cancel', '-a', path.join(EXAMPLES, 'deploy.conf'), ...overrides(), '--id', appId]);
    expect(cancel.out).toEqual([`Application ID: ${appId}`, 'Cancellation requested']);
    await waitFor(async () => [...(await labelled(ns, appId))].filter(([k]) => k.startsWith('Pod/')).length === 0, {
      description: 'every Pod of the cancelled application gone',
      timeoutMs: 120_000,
    });
    watch.stop();
    // SIGTERM honoured within the grace period: each container ended by itself, none was SIGKILLed (137) at its end.
    const exits = new Map<string, number>();
    for (const e of watch.events) {
      const t = e.object.status?.containerStatuses?.[0]?.state?.terminated;
      if (t) exits.set(e.object.metadata.name, t.exitCode);
    }
    expect([...exits.keys()].sort()).toEqual([master.metadata.name, ...(await workerNames)].sort());
    expect([...exits.values()].filter((code) => code === 137)).toEqual([]);
    await expectNothingLeftAfterDelete(appId);
  });

  /**
   * A real Prometheus (Debian's), admitted as the named scraper and pointed at the runtime's Pod by
   * its scrape annotations, parses the application's /metrics and stores its series: the runtime's,
   * and each worker's telemetry through the runtime, every one with the application's id; and they move.
   */
  async function scrapedByPrometheus(appId: string, workers: string[]): Promise<void> {
    const [master] = await podsOf(appId, 'master');
    const config = await annotatedScrapeConfig(ns, master.metadata.name);
    const prometheus = await startPrometheus(ns, clusterNodes()[0], { app: 'scraper' }, config);
    const app = `application="${appId}"`;
    const series = (q: string) =>
      waitFor(async () => ((await prometheus.query(q)).length > 0 ? prometheus.query(q) : undefined), {
        description: `Prometheus has ${q}`,
        timeoutMs: 90_000,
        intervalMs: 2000,
      });
    // One target: the runtime's Pod at its metrics port (the workers are read through it).
    const up = await series('up{job="seatunnel-app"}');
    expect(up.map((u) => [u.value, u.metric.namespace])).toEqual([[1, ns]]);
    const phase = await series(`seatunnel_app_phase{${app},phase="Running"}`);
    expect(phase.map((p) => p.value)).toEqual([1]);
    const members = await series(`count by (member) (jvm_threads_current{${app},role="worker"})`);
    expect(members.map((m) => m.metric.member).sort()).toEqual([...workers].sort());
    const cpu = async () =>
      (await prometheus.query(`sum(process_cpu_seconds_total{${app},role="worker"})`))[0]?.value ?? 0;
    const before = await cpu();
    await waitFor(
      async () =>
        (await cpu()) > before &&
        ((await prometheus.query(`seatunnel_app_rows_written_total{${app}}`))[0]?.value ?? 0) > 0,
      { description: 'Prometheus storing more worker CPU time and rows written', timeoutMs: 90_000, intervalMs: 2000 },
    );
  }

  /** Submits the streaming job and waits until it runs; returns the application ID. */
  async function runningStream(...extra: string[]): Promise<string> {
    const dir = tmpDir();
    const jobFile = path.join(dir, 'stream.conf');
    fs.writeFileSync(jobFile, STREAMING_JOB);
    const r = await submitExample([...extra], jobFile);
    expect(r.err).toEqual([]);
    const appId = r.value('Application ID')!;
    await waitFor(async () => (await job(appId)).metadata.annotations?.[ANNOTATIONS.zetaJobStatus] === 'RUNNING', {
      description: `the streaming job of ${appId} RUNNING`,
      timeoutMs: 300_000,
      intervalMs: 1000,
    });
    return appId;
  }

  async function podsOf(appId: string, role: 'master' | 'worker'): Promise<PodObj[]> {
    return [...(await labelled(ns, appId))]
      .filter(([k, o]) => k.startsWith('Pod/') && o.metadata.labels?.['seatunnel.apache.org/role'] === role)
      .map(([, o]) => o as unknown as PodObj);
  }

  test('a worker Pod deleted mid-run fails the application fast with WorkerLost', async () => {
    const appId = await runningStream();
    const [worker] = await podsOf(appId, 'worker');
    await adminHttp().call('DELETE', `/api/v1/namespaces/${ns}/pods/${worker.metadata.name}`);
    const s = await status(appId, '--wait', '--wait-timeout', '180000', '--wait-interval', '1000');
    expect(s.value('Status')).toBe('FAILED');
    expect(s.out.join('\n')).toMatch(/WorkerLost/);
    await expectNothingLeftAfterDelete(appId);
  });

  test('a worker with too little memory for its JVM is OOMKilled by the kernel, and status says so', async () => {
    // The minimum worker memory (256 MiB, heap 128 MiB) with the whole heap and a 128 MiB code
    // cache touched at start (`java -version` alone then peaks at 300 MiB): the cgroup's limit, not
    // the JVM, ends the worker.
    const r = await submitExample([
      '-Dapplication.worker.memory-mb=256',
      '-Dkubernetes.runtime-files.jvm-options.content=-XX:+AlwaysPreTouch -XX:InitialCodeCacheSize=128m -XX:ReservedCodeCacheSize=128m',
    ]);
    expect(r.err).toEqual([]);
    const appId = r.value('Application ID')!;
    const s = await status(appId, '--wait', '--wait-timeout', '240000', '--wait-interval', '1000');
    expect(s.value('Status')).toBe('FAILED');
    expect(s.out.join('\n')).toMatch(/OOMKilled/);
    await expectNothingLeftAfterDelete(appId);
  });

  test('the master container killed on the node fails the Job, and status names the reason', async () => {
    const appId = await runningStream();
    const [master] = await podsOf(appId, 'master');
    // On the node that runs it.
    await killContainer(ns, master);
    await waitFor(
      async () => (await job(appId)).status?.conditions?.some((c) => c.type === 'Failed' && c.status === 'True'),
      {
        description: 'the Job Failed',
        timeoutMs: 120_000,
      },
    );
    const s = await status(appId);
    expect(s.value('Status')).toBe('FAILED');
    expect(s.out.join('\n')).toMatch(/137|SIGKILL|killed/i);
    await expectNothingLeftAfterDelete(appId);
  });

  test('Pod Security restricted: the example runs as a non-root user in a namespace that enforces it', async () => {
    await adminHttp().call(
      'PATCH',
      `/api/v1/namespaces/${ns}`,
      { metadata: { labels: { 'pod-security.kubernetes.io/enforce': 'restricted' } } },
      { contentType: 'application/merge-patch+json' },
    );
    const r = await submitExample([
      '-Dkubernetes.pod-security=restricted',
      '-Dkubernetes.run-as-user=1000',
      '--wait',
      '--wait-timeout',
      '480000',
    ]);
    expect(r.err).toEqual([]);
    // The whole output on a mismatch: it says why.
    expect({ status: r.value('Status'), out: r.value('Status') === 'SUCCEEDED' ? [] : r.out }).toEqual({
      status: 'SUCCEEDED',
      out: [],
    });
    const appId = r.value('Application ID')!;
    expect((await job(appId)).metadata.annotations?.[ANNOTATIONS.zetaJobStatus]).toBe('FINISHED');
    await expectNothingLeftAfterDelete(appId);
  });

  test('the example synthesized and applied with a real `kubectl apply -f`: SUCCEEDED; cancel removes everything', async () => {
    const outDir = tmpDir();
    const synth = await run([
      'synth',
      '-a',
      path.join(EXAMPLES, 'deploy.conf'),
      '-c',
      path.join(EXAMPLES, 'job.conf'),
      ...overrides(),
      '-o',
      outDir,
    ]);
    expect(synth.code).toBe(0);
    const appId = synth.value('Application ID')!;
    const applied = await execFileP(nodeInfo().kubectl, [
      '--kubeconfig',
      clusterInfo().kubeconfig,
      'apply',
      '-f',
      path.join(outDir, `${appId}.k8s.yaml`),
    ]);
    expect(applied.stdout).toMatch(new RegExp(`job.batch/${appId} created`));
    const s = await status(appId, '--wait', '--wait-timeout', '480000', '--wait-interval', '1000');
    expect(s.value('Status')).toBe('SUCCEEDED');
    expect((await job(appId)).metadata.annotations?.[ANNOTATIONS.workersRegistered]).toBe('2');
    const uids = [...(await labelled(ns, appId))]
      .filter(([k]) => k.startsWith('Pod/'))
      .map(([, o]) => (o.metadata as { uid?: string }).uid!);
    const cancel = await run(['cancel', '-a', path.join(EXAMPLES, 'deploy.conf'), ...overrides(), '--id', appId]);
    expect(cancel.code).toBe(0);
    await waitFor(async () => (await labelled(ns, appId)).size === 0, {
      description: `nothing of ${appId} left in the API`,
      timeoutMs: 120_000,
    });
    for (const uid of uids) {
      await waitFor(async () => (await nodeContainers(uid)).length === 0, {
        description: `no container of Pod ${uid} on the node`,
        timeoutMs: 150_000,
        intervalMs: 1000,
      });
    }
  });
});
