// High availability end to end (docs/ha.md), Kubernetes and Zeta both real: the masters are a
// real StatefulSet whose Pods run real Zeta masters (the local kubelet), found by each other
// through their stable DNS names (the DNS stand-in, fed by the real EndpointSlice controller),
// the coordinator reaches them through the ClusterIP Service (the userspace proxy in front of the
// ready endpoints). Deleting Pods goes through the API server, as `kubectl delete pod` does; the
// StatefulSet and Job controllers replace them.

import * as fs from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Service } from 'kubernetes-types/core/v1';
import { parseAllDocuments } from 'yaml';
import { ANNOTATIONS } from '../../lib/contract';
import { LABELS } from '../../lib/model/reserved';
import { adminHttp, useTestNamespace, waitFor } from '../support/cluster';
import { createSharedClaim } from '../../tools/local-stack/shared-claim';
import type { LocalStack } from '../../tools/local-stack/local-application';
import { startEngineStack } from '../support/engine-stack';
import { collection, deploymentFiles, KINDS, labelled, run, type RunResult } from '../cluster/cli-support';

jest.setTimeout(12 * 60_000);

const SERVICE_ACCOUNT = 'seatunnel-runtime';
const CLAIM = 'ha-checkpoints';
const STREAMING_JOB = `env { job.mode = "STREAMING", parallelism = 1, checkpoint.interval = 2000 }
source { FakeSource { result_table_name = "fake", row.num = 5, split.num = 1, split.read-interval = 500, schema { fields { name = "string" } } } }
sink { Console { source_table_name = "fake" } }
`;

interface PodLike {
  metadata: { name: string; uid: string; labels?: Record<string, string>; deletionTimestamp?: string };
  status?: {
    phase?: string;
    conditions?: Array<{ type: string; status: string }>;
    containerStatuses?: Array<{ restartCount: number }>;
  };
}

describe('HA applications: masters as a StatefulSet, a coordinator that can be replaced', () => {
  const ns = useTestNamespace('ha');
  let stack: LocalStack;
  let checkpoints: string;

  beforeAll(async () => {
    // The shared checkpoint volume (tools/local-stack/shared-claim.ts).
    const stackDir = fs.mkdtempSync(path.join(os.tmpdir(), 'seatunnel-app-local-ha-'));
    checkpoints = path.join(stackDir, 'checkpoints');
    fs.mkdirSync(checkpoints, { recursive: true });
    await createSharedClaim(adminHttp(), ns.name, CLAIM, checkpoints);
    stack = await startEngineStack(ns.name, SERVICE_ACCOUNT, {
      dir: stackDir,
      persistentVolumes: { [CLAIM]: checkpoints },
    });
  });

  afterAll(async () => {
    await stack?.stop();
    await adminHttp()
      .request('DELETE', `/api/v1/persistentvolumes/${ns.name}-${CLAIM}`)
      .catch(() => undefined);
  });

  function application(name: string, masters: number, extra = '', job = STREAMING_JOB): string[] {
    const files = deploymentFiles(
      ns.name,
      [
        stack.deploymentLines,
        `application { name = ${name}, worker-count = 2, worker.slots = 2, worker.memory-mb = 640, master.memory-mb = 640, startup-timeout-millis = 300000 }`,
        `application.ha { enabled = true, masters = ${masters}, backup-count = 1 }`,
        `kubernetes { image = "apache/seatunnel:2.3.8", service-account = ${SERVICE_ACCOUNT}, checkpoint-pvc = ${CLAIM} }`,
        // The engine reads its checkpoint directory from its file, not through a mount: point it at the shared directory.
        `kubernetes.runtime-files.engine.content = """seatunnel:\n  engine:\n    checkpoint:\n      interval: 2000\n      storage:\n        plugin-config:\n          namespace: ${checkpoints}/\n"""`,
        extra,
      ].join('\n'),
      { name },
    );
    fs.writeFileSync(files.job, job);
    return files.args;
  }

  const deploy = () => deploymentFiles(ns.name).deploy;

  async function submit(args: string[]): Promise<{ appId: string; jobId: string }> {
    const r = await run(['submit', ...args]);
    expect(r.err).toEqual([]);
    expect(r.code).toBe(0);
    return { appId: r.value('Application ID')!, jobId: r.value('Job ID')! };
  }

  async function status(appId: string): Promise<RunResult> {
    return run(['status', '-a', deploy(), '--id', appId]);
  }

  async function pods(appId: string, role: string): Promise<PodLike[]> {
    const list = await adminHttp().call<{ items: PodLike[] }>(
      'GET',
      `/api/v1/namespaces/${ns.name}/pods?labelSelector=${encodeURIComponent(`seatunnel.apache.org/application-id=${appId},seatunnel.apache.org/role=${role}`)}`,
    );
    return list.items.filter((p) => !p.metadata.deletionTimestamp);
  }

  const ready = (p: PodLike) => p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;

  async function deletePod(name: string): Promise<void> {
    await adminHttp().call('DELETE', `/api/v1/namespaces/${ns.name}/pods/${name}`);
  }

  async function events(appId: string): Promise<string[]> {
    const list = await adminHttp().call<{
      items: Array<{ reason: string; involvedObject: { name: string; kind: string } }>;
    }>('GET', `/api/v1/namespaces/${ns.name}/events`);
    return list.items
      .filter((e) => e.involvedObject.kind === 'Job' && e.involvedObject.name === appId)
      .map((e) => e.reason);
  }

  async function annotation(appId: string, key: string): Promise<string | undefined> {
    const job = await adminHttp().call<{ metadata: { annotations?: Record<string, string> } }>(
      'GET',
      `/apis/batch/v1/namespaces/${ns.name}/jobs/${appId}`,
    );
    return job.metadata.annotations?.[key];
  }

  /** GET through the ClusterIP Service's data path (the userspace proxy), as the coordinator does. */
  async function restThroughService(appId: string, pathname: string): Promise<{ status: number; body: string }> {
    const svc = await adminHttp().call<Service>('GET', `/api/v1/namespaces/${ns.name}/services/${appId}-rest`);
    const host = stack.network.proxyAddress(svc);
    if (!host) throw new Error(`no proxy address for Service ${appId}-rest yet`);
    return new Promise((resolve, reject) => {
      const req = http.get({ host, port: 5801, path: pathname, timeout: 5000 }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on('timeout', () => req.destroy(new Error('timeout')));
      req.on('error', reject);
    });
  }

  async function zetaStatus(appId: string, jobId: string): Promise<string | undefined> {
    try {
      const r = await restThroughService(appId, `/hazelcast/rest/maps/job-info/${jobId}`);
      return r.status === 200 ? (JSON.parse(r.body) as { jobStatus?: string }).jobStatus : undefined;
    } catch {
      return undefined;
    }
  }

  /** The master Pod whose Zeta took the active role last (Zeta logs it; the oldest member wins). */
  async function activeMaster(appId: string): Promise<string> {
    let active: string | undefined;
    await waitFor(
      async () => {
        const current = (await pods(appId, 'master')).map((p) => p.metadata.name);
        active = current.find((n) => /become a new active master/i.test(stack.kubelet.logOf(n)));
        return active !== undefined;
      },
      { description: 'a master that says it is the active one', timeoutMs: 60_000 },
    );
    return active!;
  }

  /** Checkpoint files of a job and the time the newest was written (Zeta keeps only the latest few). */
  function checkpointState(jobId: string): { files: number; newestMs: number } {
    const dir = path.join(checkpoints, jobId);
    let files = 0;
    let newestMs = 0;
    const walk = (d: string) => {
      for (const e of fs.readdirSync(d, { withFileTypes: true })) {
        const p = path.join(d, e.name);
        if (e.isDirectory()) walk(p);
        else {
          files++;
          newestMs = Math.max(newestMs, fs.statSync(p).mtimeMs);
        }
      }
    };
    if (fs.existsSync(dir)) walk(dir);
    return { files, newestMs };
  }
  const checkpointFiles = (jobId: string) => checkpointState(jobId).files;

  function coordinatorLogs(appId: string): string {
    return stack.kubelet
      .podNames()
      .filter((n) => n.startsWith(`${appId}-`) && !n.includes('-worker-') && !n.includes('-master-'))
      .map((n) => stack.kubelet.logOf(n))
      .join('\n');
  }

  /** The members a master's Hazelcast counts, by UUID (sorted), read on that master's own address. */
  async function membersSeenBy(podName: string): Promise<string[] | undefined> {
    const host = stack.kubelet.localAddressOf(podName);
    if (!host) return undefined;
    return new Promise((resolve) => {
      const req = http.get({ host, port: 5801, path: '/hazelcast/rest/cluster', timeout: 5000 }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () => {
          try {
            const members = (JSON.parse(body) as { members?: Array<{ uuid?: string }> }).members;
            resolve(res.statusCode === 200 && members ? members.map((m) => String(m.uuid)).sort() : undefined);
          } catch {
            resolve(undefined);
          }
        });
      });
      req.on('timeout', () => req.destroy(new Error('timeout')));
      req.on('error', () => resolve(undefined));
    });
  }

  /** Every master ready and every master counting the same `size` members: one cluster, no split. */
  async function oneCluster(appId: string, masters: number, size: number): Promise<boolean> {
    const current = await pods(appId, 'master');
    if (current.length !== masters || !current.every(ready)) return false;
    const views = await Promise.all(current.map((p) => membersSeenBy(p.metadata.name)));
    return views.every((v) => v?.length === size && v.join() === views[0]!.join());
  }

  /**
   * The job runs again: RUNNING in Zeta's maps and a checkpoint written since. The maps keep saying
   * RUNNING while a new active master is still restoring the job, so the status alone does not prove
   * it: a next fault let in during the restore fails the job in Zeta (two faults at once, not one
   * after the other — seen in CI, 5 s after a failover).
   */
  async function runningAgain(appId: string, jobId: string, what: string): Promise<void> {
    const since = Date.now();
    await waitFor(async () => (await zetaStatus(appId, jobId)) === 'RUNNING', {
      description: `job ${jobId} RUNNING ${what}`,
      timeoutMs: 120_000,
    });
    await waitFor(() => checkpointState(jobId).newestMs > since, {
      description: `a checkpoint of job ${jobId} written ${what}`,
      timeoutMs: 120_000,
    });
  }

  /**
   * No master, worker or StatefulSet of the application left, and no process of it running. A Job that
   * ended by itself (JobLost) is kept until its TTL, with its coordinator Pods, ended, for `status` and
   * `kubectl logs`: those stay; a cancelled application's Job goes, and its Pods with it.
   */
  async function expectNothingLeft(appId: string): Promise<void> {
    const endedCoordinator = (o: { metadata: { labels?: Record<string, string> }; status?: unknown }) =>
      o.metadata.labels?.[LABELS.role] === 'coordinator' &&
      ['Succeeded', 'Failed'].includes((o.status as { phase?: string } | undefined)?.phase ?? '');
    await waitFor(
      async () => {
        const left = [...(await labelled(ns.name, appId))].filter(
          ([key, o]) => key.startsWith('Pod/') && !endedCoordinator(o),
        );
        const masters = await adminHttp().request(
          'GET',
          `/apis/apps/v1/namespaces/${ns.name}/statefulsets/${appId}-master`,
        );
        return (
          left.length === 0 &&
          masters.status === 404 &&
          stack.kubelet.running().filter((n) => n.startsWith(appId)).length === 0
        );
      },
      { description: `no master, worker or StatefulSet of ${appId} left`, timeoutMs: 120_000 },
    );
    // The checkpoint claim is the user's: it stays.
    const claim = await adminHttp().request('GET', `/api/v1/namespaces/${ns.name}/persistentvolumeclaims/${CLAIM}`);
    expect(claim.status).toBe(200);
  }

  test('2 masters: active and standby master lost, a worker replaced, the coordinator replaced — one submission, the same job throughout', async () => {
    const { appId, jobId } = await submit(application('ha-two', 2, 'application.ha.worker-failure-policy = replace'));
    await waitFor(async () => (await annotation(appId, ANNOTATIONS.zetaJobStatus)) === 'RUNNING', {
      description: 'the job runs',
      timeoutMs: 300_000,
    });
    const before = await status(appId);
    expect(before.value('Status')).toBe('RUNNING');
    expect(before.out.join('\n')).toMatch(/Masters: 2\/2 ready/);
    // The stable endpoint answers before any failover.
    expect((await restThroughService(appId, '/hazelcast/rest/maps/overview')).status).toBe(200);
    await waitFor(() => checkpointFiles(jobId) > 0, { description: 'a first checkpoint', timeoutMs: 60_000 });

    // 1. The active master's Pod is deleted: the StatefulSet replaces it, the standby takes over,
    //    and the job keeps its id — nothing is submitted again.
    const active = await activeMaster(appId);
    const [{ metadata: old }] = (await pods(appId, 'master')).filter((p) => p.metadata.name === active);
    await deletePod(active);
    await waitFor(
      async () =>
        (await pods(appId, 'master')).some((p) => p.metadata.name === active && p.metadata.uid !== old.uid && ready(p)),
      {
        description: `${active} replaced by the StatefulSet and ready`,
        timeoutMs: 180_000,
      },
    );
    await runningAgain(appId, jobId, 'after the active master was lost');
    expect((await restThroughService(appId, '/hazelcast/rest/maps/overview')).status).toBe(200);
    // Checkpoints continue: a checkpoint written after the job ran again on the new active master.
    const runningAgainAt = Date.now();
    await waitFor(() => checkpointState(jobId).newestMs > runningAgainAt, {
      description: 'checkpoints continue after the failover',
      timeoutMs: 90_000,
    });
    await waitFor(async () => Number((await annotation(appId, ANNOTATIONS.masterFailovers)) ?? 0) >= 1, {
      description: 'the coordinator counted the failover',
      timeoutMs: 30_000,
    });

    // 2. The standby (now: the replaced Pod) is deleted: the job is not interrupted.
    await deletePod(active);
    for (let i = 0; i < 5; i++) {
      expect(['RUNNING', undefined]).toContain(await zetaStatus(appId, jobId));
      await new Promise((r) => setTimeout(r, 1000));
    }
    await runningAgain(appId, jobId, 'after the standby was lost');

    // 3. A worker is deleted under `replace`: created again, the job goes on.
    await deletePod(`${appId}-worker-1`);
    await waitFor(async () => (await events(appId)).includes('WorkerReplaced'), {
      description: 'WorkerReplaced',
      timeoutMs: 60_000,
    });
    await waitFor(async () => (await pods(appId, 'worker')).filter(ready).length === 2, {
      description: 'two workers again',
      timeoutMs: 120_000,
    });
    await runningAgain(appId, jobId, 'after a worker was replaced');

    // 4. The coordinator Pod is deleted: the Job starts another, which re-attaches.
    const [coordinator] = await pods(appId, 'coordinator');
    await deletePod(coordinator.metadata.name);
    await waitFor(
      async () =>
        (await pods(appId, 'coordinator')).some(
          (p) => p.metadata.uid !== coordinator.metadata.uid && p.status?.phase === 'Running',
        ),
      {
        description: 'a new coordinator Pod',
        timeoutMs: 120_000,
      },
    );
    await waitFor(() => /re-attached to the running job/.test(coordinatorLogs(appId)), {
      description: 'the new coordinator re-attached',
      timeoutMs: 120_000,
    });
    expect((await status(appId)).value('Status')).toBe('RUNNING');
    expect(await annotation(appId, ANNOTATIONS.zetaJobId)).toBe(jobId);
    const reasons = await events(appId);
    expect(reasons.filter((r) => r === 'JobSubmitted')).toHaveLength(1);
    expect(reasons).toEqual(expect.arrayContaining(['CoordinatorDetached', 'Reattached', 'MasterReplaced']));

    // 5. cancel --savepoint across all of it: the job ends with a savepoint, everything but the claim goes.
    const cancel = await run(['cancel', '-a', deploy(), '--id', appId, '--savepoint', '--wait-timeout', '120000']);
    expect(cancel.code).toBe(0);
    await expectNothingLeft(appId);
    expect(checkpointFiles(jobId)).toBeGreaterThan(0);

    // 6. A later application restores the job, by its id, from what the failovers left on the shared claim.
    const restored = await submit([...application('ha-restore', 2), '--restore-job-id', jobId]);
    await waitFor(async () => (await annotation(restored.appId, ANNOTATIONS.zetaJobStatus)) === 'RUNNING', {
      description: 'the restored job runs',
      timeoutMs: 300_000,
    });
    expect(await annotation(restored.appId, ANNOTATIONS.zetaJobId)).toBe(jobId);
    expect((await run(['cancel', '-a', deploy(), '--id', restored.appId])).code).toBe(0);
    await expectNothingLeft(restored.appId);
  });

  test('3 masters: the active master lost mid-run, then the new one crashed and restarted in place — the job goes on under the same id; then a worker lost under `fail` fails it fast and everything is removed', async () => {
    const { appId, jobId } = await submit(application('ha-three', 3));
    await waitFor(async () => (await annotation(appId, ANNOTATIONS.zetaJobStatus)) === 'RUNNING', {
      description: 'the job runs',
      timeoutMs: 300_000,
    });
    const active = await activeMaster(appId);
    await deletePod(active);
    await runningAgain(appId, jobId, 'after the active master of three was lost');
    await waitFor(async () => (await pods(appId, 'master')).filter(ready).length === 3, {
      description: 'three masters ready again',
      timeoutMs: 180_000,
    });
    expect((await events(appId)).filter((r) => r === 'JobSubmitted')).toHaveLength(1);

    // A crash, not a deletion: the new active master's JVM is SIGKILLed (no graceful leave) and the
    // kubelet restarts the container in the same Pod, at the same address, while the others may
    // still count its previous incarnation — the split that the merge settings heal (docs/ha.md
    // "A replaced master"). The job goes on under its id and the masters end up as one cluster.
    const crashed = await activeMaster(appId);
    const [{ metadata: before }] = (await pods(appId, 'master')).filter((p) => p.metadata.name === crashed);
    expect(stack.kubelet.signal(crashed, 'SIGKILL')).toBe(true);
    await waitFor(
      async () =>
        (await pods(appId, 'master')).some(
          (p) => p.metadata.name === crashed && (p.status?.containerStatuses?.[0]?.restartCount ?? 0) >= 1,
        ),
      { description: `${crashed} restarted in place`, timeoutMs: 60_000 },
    );
    await runningAgain(appId, jobId, 'after the active master crashed');
    await waitFor(() => oneCluster(appId, 3, 3 + 2), {
      description: 'three masters and two workers in one cluster, seen alike by every master',
      timeoutMs: 180_000,
    });
    expect((await pods(appId, 'master')).find((p) => p.metadata.name === crashed)?.metadata.uid).toBe(before.uid);
    await runningAgain(appId, jobId, 'with the crashed master back');
    expect(await annotation(appId, ANNOTATIONS.zetaJobId)).toBe(jobId);
    expect((await events(appId)).filter((r) => r === 'JobSubmitted')).toHaveLength(1);

    // worker-failure-policy `fail` (the default): a lost worker ends the application at once.
    await deletePod(`${appId}-worker-2`);
    const failed = await run([
      'status',
      '-a',
      deploy(),
      '--id',
      appId,
      '--wait',
      '--wait-timeout',
      '120000',
      '--wait-interval',
      '500',
    ]);
    expect(failed.value('Status')).toBe('FAILED');
    expect(failed.value('Reason')).toBe('WorkerLost');
    await waitFor(
      async () =>
        (await pods(appId, 'worker')).length === 0 &&
        (await pods(appId, 'master')).length === 0 &&
        (await adminHttp().request('GET', `/apis/apps/v1/namespaces/${ns.name}/statefulsets/${appId}-master`))
          .status === 404,
      { description: 'workers and masters removed after the failure', timeoutMs: 120_000 },
    );
    const r = await run(['cancel', '-a', deploy(), '--id', appId]);
    expect(r.code).toBe(0);
    await expectNothingLeft(appId);
  });

  test('2 masters: the active master frozen (a long GC pause, a stopped VM) — its liveness probe kills it before the others suspect it, it restarts in place, the standby takes over and the job goes on under its id', async () => {
    const { appId, jobId } = await submit(application('ha-frozen', 2));
    await waitFor(async () => (await annotation(appId, ANNOTATIONS.zetaJobStatus)) === 'RUNNING', {
      description: 'the job runs',
      timeoutMs: 300_000,
    });
    await waitFor(() => oneCluster(appId, 2, 2 + 2), {
      description: 'two masters and two workers in one cluster',
      timeoutMs: 180_000,
    });
    const frozen = await activeMaster(appId);
    const standby = (await pods(appId, 'master')).map((p) => p.metadata.name).find((n) => n !== frozen)!;
    const [{ metadata: before }] = (await pods(appId, 'master')).filter((p) => p.metadata.name === frozen);
    const standbyLogBefore = stack.kubelet.logOf(standby).length;
    const frozenAddress = stack.kubelet.localAddressOf(frozen)!;

    // SIGSTOP: the process keeps its connections and its address and answers nothing; the kernel
    // still completes TCP connections to it. Left so for 30 s (the heartbeat timeout) it broke the
    // cluster: the new active master did not restore the job, the workers found no data member
    // and shut down. The HTTP liveness probe makes it a crash long before that.
    expect(stack.kubelet.signal(frozen, 'SIGSTOP')).toBe(true);
    try {
      await waitFor(
        async () =>
          (await pods(appId, 'master')).some(
            (p) => p.metadata.name === frozen && (p.status?.containerStatuses?.[0]?.restartCount ?? 0) >= 1,
          ),
        { description: `${frozen} killed by its liveness probe and restarted in place`, timeoutMs: 90_000 },
      );
    } finally {
      stack.kubelet.signal(frozen, 'SIGCONT'); // the restarted process, if any: a no-op
    }
    const standbyLog = () => stack.kubelet.logOf(standby).slice(standbyLogBefore);
    await waitFor(() => /become a new active master/i.test(standbyLog()), {
      description: `${standby} takes over from ${frozen}`,
      timeoutMs: 120_000,
    });
    const tookOverAt = Date.now();
    await waitFor(() => checkpointState(jobId).newestMs > tookOverAt, {
      description: 'a checkpoint written by the new active master',
      timeoutMs: 120_000,
    }).catch(async (e: Error) => {
      // Once in CI (never here): no checkpoint for two minutes after the take-over. What the new
      // active master said of the job, and Zeta's status of it, for the next time.
      const said = standbyLog()
        .split('\n')
        .filter((l) => /restor|checkpoint|pipeline|JobStatus|ERROR|Exception|Member/i.test(l))
        .slice(-30)
        .map((l) => l.slice(0, 400));
      throw new Error(
        `${e.message}; Zeta's status of the job: ${await zetaStatus(appId, jobId)}; the Job's Events: ` +
          `${(await events(appId)).join(', ')}; ${standby} since it took over:\n${said.join('\n')}`,
      );
    });
    await waitFor(() => oneCluster(appId, 2, 2 + 2), {
      description:
        'the restarted master back in one cluster with the other master and both workers, seen alike by both masters',
      timeoutMs: 180_000,
    });
    // The kill came first: the standby learned of the loss from closed connections, never by
    // suspecting a member that sent no heartbeats.
    expect(standbyLog()).not.toMatch(new RegExp(`Suspecting Member \\[${frozenAddress.replace(/\./g, '\\.')}\\]`));
    expect((await pods(appId, 'master')).find((p) => p.metadata.name === frozen)?.metadata.uid).toBe(before.uid);
    await runningAgain(appId, jobId, 'with the restarted master back');
    const settled = Date.now();
    await waitFor(() => checkpointState(jobId).newestMs > settled, {
      description: 'checkpoints go on',
      timeoutMs: 60_000,
    });
    expect(await annotation(appId, ANNOTATIONS.zetaJobId)).toBe(jobId);
    expect((await events(appId)).filter((r) => r === 'JobSubmitted')).toHaveLength(1);
    expect((await status(appId)).value('Status')).toBe('RUNNING');

    expect((await run(['cancel', '-a', deploy(), '--id', appId])).code).toBe(0);
    await expectNothingLeft(appId);
  });

  test('2 masters: the coordinator crashes (SIGKILL) the moment its claim is on the Job — the next one never sends the job a second time; the active master is named on the Job', async () => {
    const { appId, jobId } = await submit(application('ha-claim', 2));
    const [first] = await waitFor(
      async () => {
        const [c] = await pods(appId, 'coordinator');
        return c && (await annotation(appId, ANNOTATIONS.submissionIntent)) ? [c] : undefined;
      },
      { description: 'the submission claimed on the Job', timeoutMs: 300_000, intervalMs: 50 },
    );
    // A crash, not a stop: no detach, no cleanup — whatever it had sent or not stays as it was.
    expect(stack.kubelet.signal(first.metadata.name, 'SIGKILL')).toBe(true);
    await waitFor(
      async () =>
        (await pods(appId, 'coordinator')).some(
          (p) => p.metadata.uid !== first.metadata.uid && p.status?.phase === 'Running',
        ),
      { description: 'the Job started another coordinator', timeoutMs: 120_000 },
    );
    // The claim is all the next coordinator needs: it follows the job if Zeta has it, else gives up
    // (JobLost) — it never sends it again. Which of the two depends on where the crash fell.
    let outcome = '';
    await waitFor(
      async () => {
        const phase = await annotation(appId, ANNOTATIONS.phase);
        const reason = await annotation(appId, ANNOTATIONS.reason);
        if (phase === 'Failed' && reason === 'JobLost') outcome = 'lost';
        else if ((await events(appId)).includes('Reattached') && (await zetaStatus(appId, jobId)) === 'RUNNING')
          outcome = 'followed';
        return outcome !== '';
      },
      { description: 'the next coordinator follows the job or gives it up', timeoutMs: 300_000 },
    );
    // At most the crashed coordinator's one submission; the next one logs that it did not send it.
    expect((await events(appId)).filter((r) => r === 'JobSubmitted').length).toBeLessThanOrEqual(1);
    expect(coordinatorLogs(appId)).not.toMatch(
      /submitted Zeta job .* \(ha-claim\)[\s\S]*submitted Zeta job .* \(ha-claim\)/,
    );
    if (outcome === 'followed') {
      const masters = (await pods(appId, 'master')).map((p) => p.metadata.name);
      await waitFor(async () => masters.includes((await annotation(appId, ANNOTATIONS.activeMaster)) ?? ''), {
        description: 'the active master named on the Job',
        timeoutMs: 60_000,
      });
      expect(await annotation(appId, ANNOTATIONS.activeMaster)).toBe(await activeMaster(appId));
      expect((await run(['cancel', '-a', deploy(), '--id', appId])).code).toBe(0);
    }
    await expectNothingLeft(appId);
  });

  test('synthesized YAML applied in file order (kubectl apply): the coordinator adopts the masters, the batch job finishes, masters and workers are removed', async () => {
    const BATCH = `env { job.mode = "BATCH", parallelism = 1 }
source { FakeSource { result_table_name = "fake", row.num = 16, schema { fields { name = "string" } } } }
sink { Console { source_table_name = "fake" } }
`;
    const args = application('ha-yaml', 2, '', BATCH);
    const outDir = path.join(stack.dir, 'synth');
    const synth = await run(['synth', ...args, '-o', outDir]);
    expect(synth.code).toBe(0);
    const appId = synth.value('Application ID')!;
    const docs = parseAllDocuments(fs.readFileSync(path.join(outDir, `${appId}.k8s.yaml`), 'utf8')).map(
      (d) => d.toJS() as { apiVersion: string; kind: string; metadata: { name: string } },
    );
    expect(docs.map((d) => d.kind)).toEqual(expect.arrayContaining(['StatefulSet', 'Job']));
    for (const d of docs) {
      const kind = KINDS.find((k) => k.apiVersion === d.apiVersion && k.kind === d.kind)!;
      await adminHttp().call('POST', collection(d.apiVersion, kind.resource, ns.name), d);
    }
    const done = await run([
      'status',
      '-a',
      deploy(),
      '--id',
      appId,
      '--wait',
      '--wait-timeout',
      '300000',
      '--wait-interval',
      '500',
    ]);
    expect(done.value('Status')).toBe('SUCCEEDED');
    // status ends on the runtime's terminal annotation, which its reporter may write just before the Event.
    const reasons = await waitFor(
      async () => {
        const r = await events(appId);
        return r.includes('Succeeded') ? r : undefined;
      },
      { description: "the coordinator's Succeeded Event", timeoutMs: 30_000 },
    );
    expect(reasons).toEqual(expect.arrayContaining(['MastersReady', 'JobSubmitted', 'Succeeded']));
    expect(reasons).not.toContain('AdoptionFailed');
    // The coordinator removed the masters and the workers; the Job (and what it owns) stays for `status`.
    await waitFor(
      async () =>
        (await adminHttp().request('GET', `/apis/apps/v1/namespaces/${ns.name}/statefulsets/${appId}-master`))
          .status === 404,
      {
        description: 'the masters removed at the end',
        timeoutMs: 60_000,
      },
    );
    await waitFor(
      async () => (await pods(appId, 'worker')).length === 0 && (await pods(appId, 'master')).length === 0,
      {
        description: 'no master or worker Pod left',
        timeoutMs: 120_000,
      },
    );
    const cancel = await run(['cancel', '-a', deploy(), '--id', appId]);
    expect(cancel.code).toBe(0);
    await waitFor(async () => (await labelled(ns.name, appId)).size === 0, {
      description: `nothing of ${appId} left`,
      timeoutMs: 120_000,
    });
  });
});
