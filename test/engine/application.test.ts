// End to end with Kubernetes and Zeta both real: the CLI submits the application to the local
// control plane; the Job controller makes the master Pod; the local kubelet runs its init
// container and the runtime bundle; the runtime starts a real Zeta master and creates worker
// Pods through the API server with the application ServiceAccount's token; the local kubelet runs
// each worker Pod's own command (a real Zeta worker) and reflects process exits into Pod status.

import * as fs from 'node:fs';
import * as path from 'node:path';
import { ANNOTATIONS, parseRecordedWorkerLine, parseRowsAnnotation } from '../../lib/contract';
import { adminHttp, useTestNamespace, waitFor } from '../support/cluster';
import type { LocalStack } from '../../tools/local-stack/local-application';
import { startEngineStack } from '../support/engine-stack';
import { collection, deploymentFiles, KINDS, labelled, run, type RunResult } from '../cluster/cli-support';
import { parseAllDocuments } from 'yaml';
import { startMiniHdfs } from '../support/mini-hdfs';
import { localPodIp } from '../../tools/local-stack/pod-addresses';

jest.setTimeout(6 * 60_000);

const SERVICE_ACCOUNT = 'seatunnel-runtime';
const ROWS = 64;

// Parallelism 1: one Assert instance sees every row, so MIN_ROW = MAX_ROW = ROWS proves each arrived
// (with parallelism 2 the split of rows between the two sink instances is not fixed).
const BATCH_JOB = `env { job.mode = "BATCH", parallelism = 1 }
source { FakeSource { result_table_name = "fake", row.num = \${ROWS}, schema { fields { name = "string", age = "int" } } } }
sink {
  Assert { source_table_name = "fake", rules { row_rules = [ { rule_type = MIN_ROW, rule_value = ${ROWS} }, { rule_type = MAX_ROW, rule_value = ${ROWS} } ] } }
}
`;
const STREAMING_JOB = `env { job.mode = "STREAMING", parallelism = 1, checkpoint.interval = 2000 }
source { FakeSource { result_table_name = "fake", row.num = 5, split.num = 1, split.read-interval = 500, schema { fields { name = "string" } } } }
sink { Console { source_table_name = "fake" } }
`;
// A source option of the wrong type: Zeta refuses the job when it is submitted.
const BAD_JOB = `env { job.mode = "BATCH" }
source { FakeSource { result_table_name = "fake", row.num = "many", schema { fields { name = "string" } } } }
sink { Console { source_table_name = "fake" } }
`;

describe('SeaTunnel applications on a real control plane with real Zeta processes', () => {
  const ns = useTestNamespace('e2e');
  let stack: LocalStack;
  let checkpoints: string;

  beforeAll(async () => {
    stack = await startEngineStack(ns.name, SERVICE_ACCOUNT);
    checkpoints = path.join(stack.dir, 'checkpoints');
    fs.mkdirSync(checkpoints, { recursive: true });
  });

  afterAll(async () => {
    await stack?.stop();
  });

  /** Checkpoints in a local directory standing in for the checkpoint PVC. */
  const localCheckpoints = () => `storage:\n        plugin-config:\n          namespace: ${checkpoints}/\n`;

  /** Writes the files of one application and returns the CLI arguments for them. */
  function application(name: string, job: string, extra = '', storage = localCheckpoints()): string[] {
    const files = deploymentFiles(
      ns.name,
      [
        stack.deploymentLines,
        `application { name = ${name}, worker-count = 2, worker.slots = 2, worker.memory-mb = 640, master.memory-mb = 640, startup-timeout-millis = 240000 }`,
        `kubernetes { image = "apache/seatunnel:2.3.8", service-account = ${SERVICE_ACCOUNT}, env.ROWS = "${ROWS}" }`,
        `kubernetes.runtime-files.engine.content = """seatunnel:\n  engine:\n    checkpoint:\n      interval: 2000\n      ${storage}"""`,
        extra,
      ].join('\n'),
      { name },
    );
    fs.writeFileSync(files.job, job);
    return files.args;
  }

  async function submit(args: string[], ...flags: string[]): Promise<{ appId: string; jobId: string }> {
    const r = await run(['submit', ...args, ...flags]);
    expect(r.err).toEqual([]);
    expect(r.code).toBe(0);
    return { appId: r.value('Application ID')!, jobId: r.value('Job ID')! };
  }

  async function waitStatus(appId: string, timeoutMs = 240_000): Promise<RunResult> {
    return run([
      'status',
      '-a',
      deploymentFiles(ns.name).deploy,
      '--id',
      appId,
      '--wait',
      '--wait-timeout',
      String(timeoutMs),
      '--wait-interval',
      '500',
    ]);
  }

  async function job(appId: string): Promise<{
    metadata: { annotations?: Record<string, string> };
    status?: { conditions?: Array<{ type: string; status: string }> };
  }> {
    return adminHttp().call('GET', `/apis/batch/v1/namespaces/${ns.name}/jobs/${appId}`);
  }

  async function annotation(appId: string, key: string): Promise<string | undefined> {
    return (await job(appId)).metadata.annotations?.[key];
  }

  /** After every application: no worker Pod in the API and no process of the application left. */
  async function expectNothingLeft(appId: string): Promise<void> {
    await waitFor(
      async () => {
        const pods = [...(await labelled(ns.name, appId))].filter(
          ([key, o]) => key.startsWith('Pod/') && o.metadata.labels?.['seatunnel.apache.org/role'] === 'worker',
        );
        return pods.length === 0 && stack.kubelet.running().filter((n) => n.startsWith(appId)).length === 0;
      },
      { description: `no worker Pod and no process of ${appId} left`, timeoutMs: 90_000 },
    );
  }

  function masterLog(appId: string): string {
    const name = stack.kubelet.podNames().find((n) => n.startsWith(appId) && !n.includes('-worker-'));
    return name ? stack.kubelet.logOf(name) : '';
  }

  /**
   * waitFor, and on a timeout what the application was doing: its status annotations and the last
   * lines of its master Pod's log (runtime and Zeta master), so that a run under load that times out
   * says where it stood.
   */
  async function waitForApp<T>(
    appId: string,
    check: () => T | Promise<T>,
    opts: { description: string; timeoutMs: number },
  ): Promise<T> {
    return waitFor(check, opts).catch(async (e: Error) => {
      const a = (await job(appId).catch(() => undefined))?.metadata.annotations ?? {};
      const state = Object.entries(a)
        .filter(([k]) => k.startsWith('seatunnel.apache.org/'))
        .map(([k, v]) => `${k.slice('seatunnel.apache.org/'.length)}=${v.slice(0, 200)}`)
        .join(', ');
      const tail = masterLog(appId).split('\n').slice(-40).join('\n');
      throw new Error(`${e.message}\napplication ${appId}: ${state}\nits master Pod's last lines:\n${tail}`);
    });
  }

  /** The application's /metrics, read at its master Pod's address as a scraper would. */
  async function scrapeMetrics(appId: string): Promise<string> {
    const pods = await adminHttp().call<{ items: Array<{ metadata: { name: string }; status?: { podIP?: string } }> }>(
      'GET',
      `/api/v1/namespaces/${ns.name}/pods?labelSelector=${encodeURIComponent(`seatunnel.apache.org/application-id=${appId},seatunnel.apache.org/role=master`)}`,
    );
    // The address the local process has behind the Pod IP the API shows (tools/local-stack/pod-addresses.ts).
    const ip = localPodIp(pods.items[0]?.status?.podIP ?? '');
    if (!ip) throw new Error(`no local master Pod address for ${appId}`);
    const res = await fetch(`http://${ip}:9464/metrics`, { signal: AbortSignal.timeout(10_000) });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    return res.text();
  }

  /** A sample's value in an exposition (undefined if absent). */
  const valueOf = (text: string, series: RegExp): number | undefined => {
    const line = text.split('\n').find((l) => series.test(l));
    return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
  };

  test('a batch FakeSource → Assert job: every row arrives, SUCCEEDED, workers removed, the Job Complete', async () => {
    const { appId, jobId } = await submit(application('e2e-batch', BATCH_JOB));
    const status = await waitStatus(appId);
    expect(status.value('Status')).toBe('SUCCEEDED');
    expect(status.code).toBe(0);
    // The master Pod ended first; the Job controller then records Complete.
    await waitFor(
      async () => (await job(appId)).status?.conditions?.some((c) => c.type === 'Complete' && c.status === 'True'),
      {
        description: 'the Job Complete',
        timeoutMs: 60_000,
      },
    );
    const j = await job(appId);
    expect(j.metadata.annotations?.[ANNOTATIONS.zetaJobStatus]).toBe('FINISHED');
    expect(j.metadata.annotations?.[ANNOTATIONS.workersRegistered]).toBe('2');
    expect(j.metadata.annotations?.[ANNOTATIONS.zetaJobId]).toBe(jobId);
    // The rows Zeta's metrics counted, as status prints them: exactly the ROWS the Assert sink saw (issue 28 item 4).
    expect(parseRowsAnnotation(j.metadata.annotations?.[ANNOTATIONS.rows])).toMatchObject({
      read: ROWS,
      written: ROWS,
    });
    expect(status.value('Rows')).toMatch(new RegExp(`^${ROWS} read, ${ROWS} written \\(recorded `));
    // The Assert sink fails the job unless exactly ROWS rows reached it.
    expect(masterLog(appId)).toMatch(/JobFinished|Zeta job .* ended FINISHED/);
    // No registration race (issue 30 item 1): Zeta made its resource manager once every member had
    // joined, so it registered the master and both workers at once — none was left to its 5 s
    // heartbeat ("received new worker register" after the manager's first list).
    const zeta = masterLog(appId).split('\n');
    const init = zeta.filter((l) => /init live nodes: \[/.test(l));
    expect(init).toHaveLength(1);
    expect(init[0].match(/\[[0-9a-f.:]+\]:\d+/g)).toHaveLength(3);
    const listed = zeta.findIndex((l) => /registerWorker: \{/.test(l));
    expect(listed).toBeGreaterThan(-1);
    expect(zeta.slice(listed).filter((l) => /received new worker register/.test(l))).toEqual([]);
    // No worker was taken for one that never joins (runtime/src/workers/unjoined.ts).
    expect((await eventsOf(appId)).filter((e) => e.reason === 'WorkerRestarted')).toEqual([]);
    await expectNothingLeft(appId);
    // Each worker's last lines, read through the API server from the (local) kubelet before the
    // worker was deleted, are in the master's log, and `logs` prints them as the worker's once the
    // worker Pods are gone (issue 28 item 8).
    const kept = masterLog(appId)
      .split('\n')
      .map(parseRecordedWorkerLine)
      .filter((r) => r !== undefined);
    expect([...new Set(kept.map((r) => r.pod))].sort()).toEqual([`${appId}-worker-1`, `${appId}-worker-2`]);
    const logs = await run(['logs', '--id', appId, '-a', deploymentFiles(ns.name).deploy, '--role', 'worker']);
    expect(logs.code).toBe(0);
    expect(logs.out).toEqual(kept.map((r) => `[pod/${r.pod}/seatunnel] ${r.line}`));
  });

  test("a job Zeta refuses: FAILED with Zeta's error message in status, exit code 1", async () => {
    const { appId } = await submit(application('e2e-bad', BAD_JOB));
    const status = await waitStatus(appId);
    expect(status.value('Status')).toBe('FAILED');
    expect(status.code).toBe(1);
    expect(status.out.join('\n')).toMatch(/JobRejected|refused/);
    expect(status.out.join('\n')).toMatch(/ErrorCode|Zeta/);
    await expectNothingLeft(appId);
  });

  /** The reasons and messages of the Events on an application's Job, oldest first. */
  async function eventsOf(appId: string): Promise<Array<{ reason: string; message: string }>> {
    const events = await adminHttp().call<{ items: Array<{ reason: string; message: string }> }>(
      'GET',
      `/api/v1/namespaces/${ns.name}/events?fieldSelector=${encodeURIComponent(`involvedObject.kind=Job,involvedObject.name=${appId}`)}`,
    );
    return events.items;
  }

  test('a worker whose JVM runs but never joins the cluster (frozen before it could): deleted and created again after application.worker-join-timeout-millis; the job runs once, SUCCEEDED', async () => {
    const { appId } = await submit(
      application('e2e-unjoined', BATCH_JOB, 'application.worker-join-timeout-millis = 10000'),
    );
    // SIGSTOP the first worker's process the moment it exists: its JVM needs seconds to join, so
    // it runs (for Kubernetes) without ever joining — as a worker whose joiner blacklisted the
    // master does (runtime/src/workers/unjoined.ts).
    const worker = `${appId}-worker-1`;
    await waitFor(() => stack.kubelet.signal(worker, 'SIGSTOP'), {
      description: `${worker}'s process`,
      timeoutMs: 120_000,
      intervalMs: 10,
    });
    const status = await waitStatus(appId);
    expect(status.value('Status')).toBe('SUCCEEDED');
    const events = await eventsOf(appId);
    const restarted = events.filter((e) => e.reason === 'WorkerRestarted');
    expect(restarted).toHaveLength(1);
    expect(restarted[0].message).toMatch(
      new RegExp(
        `^${worker} ran \\d+ s without joining the cluster \\(its address [0-9.]+ is not among the 2 members the masters list\\); deleted and created again \\(restart 1 of at most 2\\)$`,
      ),
    );
    expect(events.filter((e) => e.reason === 'JobSubmitted')).toHaveLength(1);
    expect((await job(appId)).metadata.annotations?.[ANNOTATIONS.workersRegistered]).toBe('2');
    await expectNothingLeft(appId);
  });

  test('a job naming a connector the image lacks: FAILED ConnectorMissing (exit 4) before the engine or a worker starts', async () => {
    const job = BATCH_JOB.replace(
      /Assert \{[^\n]*\n/,
      'Elasticsearch { source_table_name = "fake", hosts = ["127.0.0.1:1"], index = "rows" }\n',
    );
    expect(job).toContain('Elasticsearch {');
    const { appId } = await submit(application('e2e-noconnector', job));
    const status = await waitStatus(appId, 120_000);
    expect(status.value('Status')).toBe('FAILED');
    expect(status.code).toBe(1);
    expect(status.value('Reason')).toBe('ConnectorMissing');
    expect(status.value('Message')).toMatch(
      /the image's engine \(.+\) lacks what the job names — sink Elasticsearch: no line 'seatunnel\.sink\.Elasticsearch = <jar prefix>' in connectors\/plugin-mapping\.properties/,
    );
    // Nothing was started for it: no worker Pod was ever made, the engine never ran.
    expect(stack.kubelet.podNames().filter((p) => p.startsWith(`${appId}-worker`))).toEqual([]);
    expect(masterLog(appId)).not.toMatch(/engine process started/);
    // The master container's exit code says "configuration" (docs/runtime.md, exit codes).
    expect(masterLog(appId)).toMatch(/exit code=4 state=FAILED reason=ConnectorMissing/);
    await expectNothingLeft(appId);
  });

  test('a worker process killed mid-job: the application fails fast with WorkerLost, cleans up, and keeps the checkpoints a new application restores from', async () => {
    const { appId, jobId } = await submit(application('e2e-loss', STREAMING_JOB));
    await waitForApp(appId, async () => (await annotation(appId, ANNOTATIONS.zetaJobStatus)) === 'RUNNING', {
      description: 'the streaming job runs',
      timeoutMs: 240_000,
    });
    // While it runs, the rows it has written so far (issue 28 item 4).
    const running = await waitFor(
      async () => {
        const rows = parseRowsAnnotation(await annotation(appId, ANNOTATIONS.rows));
        return rows && rows.written > 0 ? rows : undefined;
      },
      { description: 'rows recorded on the Job', timeoutMs: 60_000 },
    );
    expect(running.read).toBeGreaterThanOrEqual(running.written);
    const dir = path.join(checkpoints, jobId);
    await waitFor(() => fs.existsSync(dir) && fs.readdirSync(dir).some((f) => f.endsWith('.ser')), {
      description: `a checkpoint in ${dir}`,
      timeoutMs: 60_000,
    });
    expect(stack.kubelet.signal(`${appId}-worker-1`, 'SIGKILL')).toBe(true);
    const status = await waitStatus(appId, 120_000);
    expect(status.value('Status')).toBe('FAILED');
    expect(status.out.join('\n')).toMatch(/WorkerLost/);
    await expectNothingLeft(appId);
    // No stop-job after a failure: Zeta 2.3.8 would have deleted the checkpoints the advice restores from.
    expect(masterLog(appId)).not.toMatch(/zetaStatus=CANCELED/);
    expect(fs.readdirSync(dir).some((f) => f.endsWith('.ser'))).toBe(true);
    const restored = await submit(application('e2e-loss-restore', STREAMING_JOB), '--restore-job-id', jobId);
    await waitForApp(
      restored.appId,
      async () => (await annotation(restored.appId, ANNOTATIONS.zetaJobStatus)) === 'RUNNING',
      {
        description: 'the restored job runs',
        timeoutMs: 240_000,
      },
    );
    expect(await annotation(restored.appId, ANNOTATIONS.zetaJobId)).toBe(jobId);
    await run(['cancel', '-a', deploymentFiles(ns.name).deploy, '--id', restored.appId]);
    await expectNothingLeft(restored.appId);
  });

  test('streaming: /metrics serves the runtime and every member while it runs; a plain cancel stops the engine and removes everything, CANCELED, not failed, and the checkpoints stay', async () => {
    const { appId, jobId } = await submit(application('e2e-cancel', STREAMING_JOB));
    await waitForApp(appId, async () => (await annotation(appId, ANNOTATIONS.zetaJobStatus)) === 'RUNNING', {
      description: 'the streaming job runs',
      timeoutMs: 240_000,
    });
    const dir = path.join(checkpoints, jobId);
    await waitFor(() => fs.existsSync(dir) && fs.readdirSync(dir).some((f) => f.endsWith('.ser')), {
      description: `a checkpoint in ${dir}`,
      timeoutMs: 60_000,
    });
    // Metrics (issue 28 item 3): one endpoint on the master Pod serves the runtime's own metrics and
    // every member's Zeta telemetry — the workers' read at their member ports' CLUSTER_READ REST.
    const workers = [...(await labelled(ns.name, appId))]
      .filter(([key, o]) => key.startsWith('Pod/') && o.metadata.labels?.['seatunnel.apache.org/role'] === 'worker')
      .map(([, o]) => o.metadata.name);
    expect(workers).toHaveLength(2);
    const first = await scrapeMetrics(appId);
    const app = `application="${appId}"`;
    expect(first).toContain(`seatunnel_app_phase{${app},phase="Running"} 1`);
    expect(first).toContain(`seatunnel_app_workers_registered{${app}} 2`);
    expect(first).toMatch(new RegExp(`^seatunnel_app_submit_to_running_seconds\\{${app}\\} [0-9.]+$`, 'm'));
    for (const w of workers) {
      expect(first).toContain(`seatunnel_app_member_up{${app},member="${w}",role="worker"} 1`);
      expect(first).toMatch(
        new RegExp(`^jvm_memory_bytes_used\\{${app},member="${w}",role="worker",area="heap".*\\} \\S+$`, 'm'),
      );
    }
    expect(first).toMatch(new RegExp(`^seatunnel_app_member_up\\{${app},member="[^"]+",role="master"\\} 1$`, 'm'));
    // Zeta's cluster view from the master: three members (the master and two workers).
    expect(valueOf(first, new RegExp(`^node_count\\{${app},[^}]*role="master"`))).toBe(3);
    // Each TYPE once, whatever the number of members.
    const types = first.split('\n').filter((l) => l.startsWith('# TYPE '));
    expect(new Set(types).size).toBe(types.length);
    // Read again, the series have moved on: a worker's CPU time and the rows the job wrote.
    const cpu = (text: string) =>
      valueOf(text, new RegExp(`^process_cpu_seconds_total\\{${app},member="${workers[0]}"`));
    const rows = (text: string) => valueOf(text, new RegExp(`^seatunnel_app_rows_written_total\\{${app}\\}`)) ?? 0;
    await waitFor(
      async () => {
        const later = await scrapeMetrics(appId);
        return cpu(later)! > cpu(first)! && rows(later) > 0;
      },
      {
        description: "a later scrape with more of a worker's CPU time and rows written",
        timeoutMs: 60_000,
        intervalMs: 2000,
      },
    );
    const cancel = await run(['cancel', '-a', deploymentFiles(ns.name).deploy, '--id', appId]);
    expect(cancel.out).toEqual([`Application ID: ${appId}`, 'Cancellation requested']);
    await expectNothingLeft(appId);
    // The runtime saw its application being deleted: a cancel, not a lost worker.
    expect(masterLog(appId)).toMatch(/reason=Terminated/);
    expect(masterLog(appId)).not.toMatch(/reason=WorkerLost/);
    // Its Role goes with the Job (garbage collection) while it ends: the last writes it refuses are
    // no warnings and no cleanup failure (issue 28 item 8).
    expect(
      masterLog(appId)
        .split('\n')
        .filter(
          (l) => / WARN +runtime: /.test(l) && /forbidden|on the Job failed|could not be recorded|cleanup/i.test(l),
        ),
    ).toEqual([]);
    // Zeta 2.3.8 deletes a job's checkpoints when a stop-job cancels it; the runtime sent none.
    expect(masterLog(appId)).toMatch(/without a stop-job, so its checkpoints stay/);
    expect(masterLog(appId)).not.toMatch(/zetaStatus=CANCELED/);
    expect(fs.readdirSync(dir).some((f) => f.endsWith('.ser'))).toBe(true);
    await waitFor(
      async () =>
        (await run(['status', '-a', deploymentFiles(ns.name).deploy, '--id', appId])).value('Status') === 'UNKNOWN',
      {
        description: 'status UNKNOWN after cancel',
        timeoutMs: 60_000,
      },
    );
  });

  test('streaming: cancel --savepoint keeps the checkpoint; a new application restores from it; a wrong id fails loudly', async () => {
    const first = await submit(application('e2e-stream', STREAMING_JOB));
    await waitForApp(
      first.appId,
      async () => (await annotation(first.appId, ANNOTATIONS.zetaJobStatus)) === 'RUNNING',
      {
        description: 'the streaming job runs',
        timeoutMs: 240_000,
      },
    );
    const dir = path.join(checkpoints, first.jobId);
    await waitFor(() => fs.existsSync(dir) && fs.readdirSync(dir).some((f) => f.endsWith('.ser')), {
      description: `a checkpoint in ${dir}`,
      timeoutMs: 60_000,
    });

    const cancel = await run(['cancel', '-a', deploymentFiles(ns.name).deploy, '--id', first.appId, '--savepoint']);
    expect(cancel.err).toEqual([]);
    expect(cancel.out).toEqual([`Application ID: ${first.appId}`, 'Cancellation requested']);
    await expectNothingLeft(first.appId);
    expect(masterLog(first.appId)).toMatch(/zetaStatus=SAVEPOINT_DONE/);
    expect(fs.readdirSync(dir).some((f) => f.endsWith('.ser'))).toBe(true);
    // CANCELED while the Job's foreground deletion finishes, then UNKNOWN (no tombstone).
    await waitFor(
      async () =>
        (await run(['status', '-a', deploymentFiles(ns.name).deploy, '--id', first.appId])).value('Status') ===
        'UNKNOWN',
      {
        description: 'status UNKNOWN after cancel',
        timeoutMs: 60_000,
      },
    );

    const restored = await submit(application('e2e-restore', STREAMING_JOB), '--restore-job-id', first.jobId);
    await waitForApp(
      restored.appId,
      async () => (await annotation(restored.appId, ANNOTATIONS.zetaJobStatus)) === 'RUNNING',
      {
        description: 'the restored job runs',
        timeoutMs: 240_000,
      },
    );
    // Zeta 2.3 restores under the old job id, from its latest checkpoint.
    expect(await annotation(restored.appId, ANNOTATIONS.zetaJobId)).toBe(first.jobId);
    await waitFor(() => /start with savePoint|restored from the latest checkpoint/i.test(masterLog(restored.appId)), {
      description: 'the master log shows the restore',
      timeoutMs: 60_000,
    });
    await run(['cancel', '-a', deploymentFiles(ns.name).deploy, '--id', restored.appId]);
    await expectNothingLeft(restored.appId);

    const wrong = await submit(application('e2e-wrong', STREAMING_JOB), '--restore-job-id', '12345');
    const status = await waitStatus(wrong.appId, 120_000);
    expect(status.value('Status')).toBe('FAILED');
    expect(status.out.join('\n')).toMatch(/CheckpointNotFound|no checkpoint/i);
    await expectNothingLeft(wrong.appId);
  });

  test('HDFS checkpoint storage (a real MiniDFSCluster on 127.0.0.1): a plain cancel keeps the checkpoints there, a new application restores from them, a wrong id fails with CheckpointNotFound', async () => {
    const hdfs = await startMiniHdfs(path.join(stack.dir, 'hdfs'));
    try {
      process.stderr.write(`[e2e] HDFS at ${hdfs.uri}\n`);
      const onHdfs = `storage:\n        type: hdfs\n        plugin-config:\n          storage.type: hdfs\n          fs.defaultFS: ${hdfs.uri}\n          namespace: /seatunnel/checkpoints/\n`;
      const first = await submit(application('e2e-hdfs', STREAMING_JOB, '', onHdfs));
      const dir = `/seatunnel/checkpoints/${first.jobId}/`;
      await waitForApp(first.appId, () => hdfs.list(dir).some((f) => f.endsWith('.ser')), {
        description: `a checkpoint in ${hdfs.uri}${dir}`,
        timeoutMs: 240_000,
      });
      // Nothing of it on the local stand-in for the PVC: the engine wrote to HDFS.
      expect(fs.existsSync(path.join(checkpoints, first.jobId))).toBe(false);

      const cancel = await run(['cancel', '-a', deploymentFiles(ns.name).deploy, '--id', first.appId]);
      expect(cancel.out).toEqual([`Application ID: ${first.appId}`, 'Cancellation requested']);
      await expectNothingLeft(first.appId);
      expect(masterLog(first.appId)).toMatch(/without a stop-job, so its checkpoints stay/);
      const kept = hdfs.list(dir).filter((f) => f.endsWith('.ser'));
      expect(kept.length).toBeGreaterThan(0);

      const restored = await submit(
        application('e2e-hdfs-restore', STREAMING_JOB, '', onHdfs),
        '--restore-job-id',
        first.jobId,
      );
      await waitForApp(
        restored.appId,
        async () => (await annotation(restored.appId, ANNOTATIONS.zetaJobStatus)) === 'RUNNING',
        {
          description: 'the restored job runs',
          timeoutMs: 240_000,
        },
      );
      expect(await annotation(restored.appId, ANNOTATIONS.zetaJobId)).toBe(first.jobId);
      // The runtime listed the checkpoints on HDFS before submitting; Zeta then restored from them.
      await waitFor(
        () =>
          /checkpoint found for the restore/.test(masterLog(restored.appId)) &&
          /start with savePoint/i.test(masterLog(restored.appId)),
        {
          description: 'the master log shows the checkpoint found on HDFS and the restore',
          timeoutMs: 60_000,
        },
      );
      expect(masterLog(restored.appId)).toContain(kept.sort()[kept.length - 1]);
      await run(['cancel', '-a', deploymentFiles(ns.name).deploy, '--id', restored.appId]);
      await expectNothingLeft(restored.appId);

      const wrong = await submit(application('e2e-hdfs-wrong', STREAMING_JOB, '', onHdfs), '--restore-job-id', '12345');
      const status = await waitStatus(wrong.appId, 120_000);
      expect(status.value('Status')).toBe('FAILED');
      expect(status.out.join('\n')).toMatch(/CheckpointNotFound/);
      expect(status.out.join('\n')).toMatch(
        /no checkpoint found under \/seatunnel\/checkpoints\/12345\/ on hdfs:\/\/127\.0\.0\.1:/,
      );
      await expectNothingLeft(wrong.appId);
    } finally {
      await hdfs.stop();
    }
  });

  test('plain kubectl-style apply of synthesized YAML runs the application; the runtime adopts its dependents; cancel cleans up', async () => {
    const args = application('e2e-yaml', BATCH_JOB);
    const outDir = path.join(stack.dir, 'synth');
    const synth = await run(['synth', ...args, '-o', outDir]);
    expect(synth.code).toBe(0);
    const appId = synth.value('Application ID')!;
    const docs = parseAllDocuments(fs.readFileSync(path.join(outDir, `${appId}.k8s.yaml`), 'utf8')).map(
      (d) => d.toJS() as { apiVersion: string; kind: string; metadata: { name: string; ownerReferences?: unknown[] } },
    );
    expect(docs.every((d) => !d.metadata.ownerReferences)).toBe(true);
    // What `kubectl apply -f` does here: create each object in file order (dependents, then the Job).
    for (const d of docs) {
      const kind = KINDS.find((k) => k.apiVersion === d.apiVersion && k.kind === d.kind)!;
      await adminHttp().call('POST', collection(d.apiVersion, kind.resource, ns.name), d);
    }
    const status = await waitStatus(appId);
    expect(status.value('Status')).toBe('SUCCEEDED');
    const jobUid = (
      await adminHttp().call<{ metadata: { uid: string } }>('GET', `/apis/batch/v1/namespaces/${ns.name}/jobs/${appId}`)
    ).metadata.uid;
    // Adopted by the runtime at start: the data objects (the job config's Secret among them) are now
    // owned by the Job (GC removes them with it). Its fences (ServiceAccount, Role, RoleBinding,
    // NetworkPolicies, Service, and the worker template, the admission fence's parameter) the
    // runtime cannot patch: they stay unowned, and cancel removes them by label.
    const dependents = [...(await labelled(ns.name, appId))].filter(
      ([key]) => !key.startsWith('Job/') && !key.startsWith('Pod/'),
    );
    expect(dependents.length).toBe(docs.length - 1);
    const adopted = new Set(['ConfigMap', 'Secret']);
    for (const [key, o] of dependents) {
      expect({ key, owners: o.metadata.ownerReferences?.map((r) => r.uid) }).toEqual({
        key,
        owners: adopted.has(key.split('/')[0]) ? [jobUid] : undefined,
      });
    }
    const cancel = await run(['cancel', '-a', deploymentFiles(ns.name).deploy, '--id', appId]);
    expect(cancel.code).toBe(0);
    await waitFor(async () => (await labelled(ns.name, appId)).size === 0, {
      description: `nothing of ${appId} left`,
      timeoutMs: 60_000,
    });
  });
});
