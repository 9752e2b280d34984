// High availability on real nodes (docs/ha.md): two Zeta masters as a StatefulSet whose members
// find each other by their Pods' DNS names through CoreDNS; the coordinator reaches them through the
// ClusterIP Service that kube-proxy load-balances. The active master's Pod is deleted mid-run: the
// StatefulSet replaces it, the standby takes over, and the same job runs on — reached from a Pod
// through the ClusterIP Service before and after.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ANNOTATIONS } from '../../lib/contract';
import { createSharedClaim } from '../../tools/local-stack/shared-claim';
import { adminHttp, clusterInfo, createTestNamespace, deleteNamespace, waitFor } from '../support/cluster';
import {
  imageRef,
  nodeContainers,
  nodeInfo,
  podLog,
  runPod,
  serviceDiagnosis,
  STREAMING_JOB,
} from '../support/node-pods';
import { labelled, run } from '../cluster/cli-support';
import { killContainer } from '../support/node-faults';
import { USER_LOG4J2 } from '../support/user-log4j2';

jest.setTimeout(12 * 60_000);

const EXAMPLES = path.join(__dirname, '..', '..', 'apps', 'examples');
const CLAIM = 'ha-checkpoints';
const USER_CONFIG = 'user-seatunnel-config';

interface PodLike {
  metadata: { name: string; uid: string; labels?: Record<string, string> };
  status?: {
    conditions?: Array<{ type: string; status: string }>;
    containerStatuses?: Array<{ containerID?: string }>;
  };
}

describe('an HA application on real nodes', () => {
  let ns: string;
  let volume: string | undefined;
  let hostDir: string;

  beforeAll(async () => {
    ns = await createTestNamespace('node-ha', { 'pod-security.kubernetes.io/enforce': 'baseline' });
    await adminHttp().call('POST', `/api/v1/namespaces/${ns}/serviceaccounts`, {
      apiVersion: 'v1',
      kind: 'ServiceAccount',
      metadata: { name: 'seatunnel-runtime' },
    });
    // Every node runs on this one machine: a hostPath volume is storage shared by every Pod on any of them
    // (ReadWriteMany is honest here).
    hostDir = fs.mkdtempSync(path.join(os.tmpdir(), 'seatunnel-app-node-ha-'));
    volume = await createSharedClaim(adminHttp(), ns, CLAIM, hostDir);
    await adminHttp().call('POST', `/api/v1/namespaces/${ns}/configmaps`, {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: USER_CONFIG },
      data: {
        'seatunnel.yaml': 'seatunnel:\n  engine:\n    checkpoint:\n      interval: 3000\n',
        'hazelcast.yaml': 'hazelcast:\n  properties:\n    hazelcast.logging.type: log4j2\n',
        'log4j2.properties': USER_LOG4J2,
      },
    });
  });
  afterAll(async () => {
    if (ns) await deleteNamespace(ns, { wait: true });
    if (volume) await adminHttp().request('DELETE', `/api/v1/persistentvolumes/${volume}`);
    if (hostDir) fs.rmSync(hostDir, { recursive: true, force: true });
  });

  const args = (jobFile: string) => [
    '-a',
    path.join(EXAMPLES, 'deploy.conf'),
    '-c',
    jobFile,
    `-Dkubernetes.namespace=${ns}`,
    `-Dkubernetes.kubeconfig=${clusterInfo().kubeconfig}`,
    '-Dkubernetes.image-pull-policy=Never',
    '-Dkubernetes.runtime.image-pull-policy=Never',
    `-Dkubernetes.checkpoint-pvc=${CLAIM}`,
    `-Dkubernetes.config-map=${USER_CONFIG}`,
    '-Dapplication.ha.enabled=true',
    '-Dapplication.ha.masters=2',
    '-Dapplication.ha.backup-count=1',
    // 2 masters + 2 workers + the coordinator (0.25) within one node's 2 cores.
    '-Dapplication.master.cpu-cores=0.4',
    '-Dapplication.worker.cpu-cores=0.4',
    // Every Pod on one node, as this test was written for: a Pod deleted, not a node lost. Across nodes
    // this failover hits Zeta's known "Not Member!" re-attachment failure (issue #25 item 6) in about 2
    // runs of 5 (the standby's connects to the old master's address time out instead of failing fast);
    // spreading masters and losing their node are #25 items 2-4, tested with their fixes.
    `-Dkubernetes.master.node-selector=kubernetes.io/hostname:${nodeInfo().name}`,
    `-Dkubernetes.worker.node-selector=kubernetes.io/hostname:${nodeInfo().name}`,
  ];

  async function pods(appId: string, role: string): Promise<PodLike[]> {
    return [...(await labelled(ns, appId))]
      .filter(([k, o]) => k.startsWith('Pod/') && o.metadata.labels?.['seatunnel.apache.org/role'] === role)
      .map(([, o]) => o as unknown as PodLike);
  }
  const ready = (p: PodLike) => p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;

  /** GET on the REST Service by its DNS name from a Pod of the application (the masters' policy admits only those). */
  async function restFromPod(appId: string, name: string, pathname: string): Promise<string> {
    const host = `${appId}-rest.${ns}.svc.cluster.local`;
    const script = `exec 3<>/dev/tcp/${host}/5801 && printf 'GET ${pathname} HTTP/1.0\\r\\nHost: ${host}\\r\\n\\r\\n' >&3 && timeout 5 cat <&3`;
    const r = await runPod(ns, name, imageRef('seatunnel'), ['bash', '-c', script], {
      labels: { 'seatunnel.apache.org/application-id': appId },
    });
    await adminHttp().call('DELETE', `/api/v1/namespaces/${ns}/pods/${name}`, undefined, { accept: [404] });
    return r.log;
  }

  /** A failed wait on the REST Service says what the Service, its endpoints, the node and the masters looked like. */
  async function explained<T>(wait: Promise<T>, appId: string): Promise<T> {
    try {
      return await wait;
    } catch (e) {
      const masters = await pods(appId, 'master');
      const logs = await Promise.all(
        masters.map(
          async (p) =>
            `--- ${p.metadata.name} (last lines)\n${(await podLog(ns, p.metadata.name).catch((err: Error) => err.message)).trimEnd().split('\n').slice(-25).join('\n')}`,
        ),
      );
      throw new Error(`${(e as Error).message}\n${await serviceDiagnosis(ns, `${appId}-rest`)}\n${logs.join('\n')}`, {
        cause: e,
      });
    }
  }

  test('the active master Pod deleted mid-run: replaced, the standby takes over, the job runs on, the ClusterIP answers before and after; the masters run on the user-owned ConfigMap', async () => {
    const jobFile = path.join(hostDir, 'stream.conf');
    fs.writeFileSync(jobFile, STREAMING_JOB);
    const r = await run(['submit', ...args(jobFile)]);
    expect(r.err).toEqual([]);
    const appId = r.value('Application ID')!;
    const jobId = r.value('Job ID')!;
    const annotation = async (key: string) =>
      (
        await adminHttp().call<{ metadata: { annotations?: Record<string, string> } }>(
          'GET',
          `/apis/batch/v1/namespaces/${ns}/jobs/${appId}`,
        )
      ).metadata.annotations?.[key];
    await waitFor(async () => (await annotation(ANNOTATIONS.zetaJobStatus)) === 'RUNNING', {
      description: 'the HA job RUNNING',
      timeoutMs: 300_000,
      intervalMs: 1000,
    });
    expect(await restFromPod(appId, 'rest-before', `/hazelcast/rest/maps/job-info/${jobId}`)).toMatch(
      /"jobStatus":"RUNNING"/,
    );
    // The masters completed their engine files from kubernetes.config-map (init container) and Zeta uses them.
    for (const p of await pods(appId, 'master')) {
      expect(await podLog(ns, p.metadata.name)).toMatch(/^\[user-log4j2\] INFO /m);
      expect(await podLog(ns, p.metadata.name, 'engine-files')).toMatch(/engine files written to /);
    }

    let active: PodLike | undefined;
    await waitFor(
      async () => {
        for (const p of await pods(appId, 'master'))
          if (/become a new active master/i.test(await podLog(ns, p.metadata.name))) active = p;
        return active !== undefined;
      },
      { description: 'a master that says it is the active one', timeoutMs: 60_000 },
    );
    const activeUid = active!.metadata.uid;
    await adminHttp().call('DELETE', `/api/v1/namespaces/${ns}/pods/${active!.metadata.name}`);
    await waitFor(
      async () =>
        (await pods(appId, 'master')).some(
          (p) => p.metadata.name === active!.metadata.name && p.metadata.uid !== activeUid && ready(p),
        ),
      {
        description: `${active!.metadata.name} replaced by the StatefulSet and Ready`,
        timeoutMs: 240_000,
        intervalMs: 1000,
      },
    );
    await explained(
      waitFor(
        async () => {
          const answer = await restFromPod(
            appId,
            `rest-after-${Date.now() % 100000}`,
            `/hazelcast/rest/maps/job-info/${jobId}`,
          );
          // Thrown, so a timeout shows the last answer (waitFor keeps the last error).
          if (!/"jobStatus":"RUNNING"/.test(answer)) throw new Error(`REST answered: ${answer.slice(0, 400)}`);
          return true;
        },
        {
          description: 'the same job RUNNING through the ClusterIP Service after the failover',
          timeoutMs: 180_000,
          intervalMs: 2000,
        },
      ),
      appId,
    );
    expect(await annotation(ANNOTATIONS.zetaJobId)).toBe(jobId);
    // The deleted master's containers are gone from the node.
    await waitFor(async () => (await nodeContainers(activeUid)).length === 0, {
      description: "the old master Pod's containers removed",
      timeoutMs: 150_000,
      intervalMs: 1000,
    });

    const cancel = await run([
      'cancel',
      '-a',
      path.join(EXAMPLES, 'deploy.conf'),
      `-Dkubernetes.namespace=${ns}`,
      `-Dkubernetes.kubeconfig=${clusterInfo().kubeconfig}`,
      '--id',
      appId,
    ]);
    expect(cancel.code).toBe(0);
    await waitFor(
      async () => {
        const left = [...(await labelled(ns, appId))].filter(([k]) => k.startsWith('Pod/'));
        const set = await adminHttp().request('GET', `/apis/apps/v1/namespaces/${ns}/statefulsets/${appId}-master`);
        return left.length === 0 && set.status === 404;
      },
      { description: `no Pod or StatefulSet of ${appId} left`, timeoutMs: 180_000 },
    );
  });
  test('the coordinator restarts used up (coordinator-restarts = 0, its container killed): the last coordinator removes the masters and workers and fails the application, nothing runs on', async () => {
    const jobFile = path.join(hostDir, 'stream-restarts.conf');
    fs.writeFileSync(jobFile, STREAMING_JOB);
    const r = await run([
      'submit',
      ...args(jobFile),
      '-Dapplication.ha.coordinator-restarts=0',
      // The example names its settings ConfigMap: a second application in the namespace needs its own.
      '-Dkubernetes.configmap.settings.name=fake-to-console-restarts-settings',
    ]);
    expect(r.err).toEqual([]);
    const appId = r.value('Application ID')!;
    const job = () =>
      adminHttp().call<{
        metadata: { annotations?: Record<string, string> };
        status?: { failed?: number; conditions?: Array<{ type: string; status: string }> };
      }>('GET', `/apis/batch/v1/namespaces/${ns}/jobs/${appId}`);
    await waitFor(async () => (await job()).metadata.annotations?.[ANNOTATIONS.zetaJobStatus] === 'RUNNING', {
      description: 'the HA job RUNNING',
      timeoutMs: 300_000,
      intervalMs: 1000,
    });
    const [coordinator] = await pods(appId, 'coordinator');
    const masterUids = (await pods(appId, 'master')).map((p) => p.metadata.uid);
    await killContainer(ns, coordinator);
    const t0 = Date.now();
    // A crash (exit 137) counts against the Job's backoffLimit (restarts + 1): the Job starts one last
    // coordinator, which only cleans up.
    await waitFor(
      async () => {
        const left = [...(await labelled(ns, appId))].filter(
          ([k, o]) => k.startsWith('Pod/') && o.metadata.labels?.['seatunnel.apache.org/role'] !== 'coordinator',
        );
        const set = await adminHttp().request('GET', `/apis/apps/v1/namespaces/${ns}/statefulsets/${appId}-master`);
        return left.length === 0 && set.status === 404;
      },
      { description: `no master, worker or StatefulSet of ${appId} left`, timeoutMs: 180_000, intervalMs: 1000 },
    );
    process.stdout.write(
      `[node-ha] coordinator restarts used up: masters and workers removed ${((Date.now() - t0) / 1000).toFixed(1)} s after the kill\n`,
    );
    await waitFor(
      async () => (await job()).status?.conditions?.some((c) => c.type === 'Failed' && c.status === 'True'),
      { description: 'the Job Failed', timeoutMs: 120_000, intervalMs: 1000 },
    );
    expect((await job()).status?.failed).toBe(2);
    const events = await adminHttp().call<{
      items: Array<{ reason: string; message: string; involvedObject: { name: string } }>;
    }>('GET', `/api/v1/namespaces/${ns}/events`);
    expect(
      events.items.filter((e) => e.involvedObject.name === appId && e.reason === 'Failed').map((e) => e.message),
    ).toEqual([expect.stringMatching(/^CoordinatorRestartsExhausted: 1 coordinator Pods of this application failed/)]);
    // And on the nodes: no container of the old masters is left running.
    for (const uid of masterUids)
      await waitFor(async () => (await nodeContainers(uid)).length === 0, {
        description: `the master ${uid}'s containers removed from its node`,
        timeoutMs: 150_000,
        intervalMs: 1000,
      });
  });
});
