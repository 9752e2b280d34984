// The HA application of the node tier's faults (test/node/faults.test.ts) and of bench/faults: its
// deployment file, its Pods by role, and the members each master's Hazelcast counts — one place, so
// that the test and the bench run and judge the same application.
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { CONTAINER_NAME } from '../../lib/runtime-support';
import { createSharedClaim } from '../../tools/local-stack/shared-claim';
import { adminHttp, clusterInfo } from './cluster';
import { nodeInfo } from './node-pods';

const exec = promisify(execFile);

export interface AppPod {
  metadata: { name: string; uid: string; deletionTimestamp?: string; labels?: Record<string, string> };
  spec?: { nodeName?: string };
  status?: {
    phase?: string;
    conditions?: Array<{ type: string; status: string }>;
    containerStatuses?: Array<{
      name: string;
      containerID?: string;
      restartCount?: number;
      lastState?: { terminated?: { reason?: string; exitCode?: number; finishedAt?: string } };
      state?: {
        running?: { startedAt?: string };
        waiting?: { reason?: string };
        terminated?: { reason?: string; exitCode?: number };
      };
    }>;
    podIP?: string;
  };
}

/** `app-worker-1 10.244.1.5 on seatunnel-node-1: Running, running since 12:01:02 (restarts 0)`: for a failed wait's message. */
export function describeWorkerPod(p: AppPod): string {
  const c = p.status?.containerStatuses?.find((x) => x.name === CONTAINER_NAME);
  const st = c?.state;
  const state = st?.running
    ? `running since ${st.running.startedAt ?? '?'}`
    : st?.terminated
      ? `terminated (${st.terminated.reason ?? '?'}, exit ${st.terminated.exitCode ?? '?'})`
      : (st?.waiting?.reason ?? 'no container status');
  const gone = p.metadata.deletionTimestamp ? ', being deleted' : '';
  return `${p.metadata.name} ${p.status?.podIP ?? '-'} on ${p.spec?.nodeName ?? '-'}: ${p.status?.phase ?? '?'}, ${state}${gone} (restarts ${c?.restartCount ?? 0})`;
}

export const RUNTIME_SERVICE_ACCOUNT = 'seatunnel-runtime';

/**
 * The runtime's ServiceAccount and the checkpoint claim `claim` on `dir`/checkpoints: every "node" is
 * a namespace of this one machine, so a hostPath directory is storage all of them share. Resolves
 * with the PersistentVolume's name (cluster-scoped: delete it after).
 */
export async function prepareNamespace(namespace: string, claim: string, dir: string): Promise<string> {
  const checkpoints = path.join(dir, 'checkpoints');
  fs.mkdirSync(checkpoints, { mode: 0o777 });
  fs.chmodSync(checkpoints, 0o777);
  const volume = await createSharedClaim(adminHttp(), namespace, claim, checkpoints);
  await adminHttp().call('POST', `/api/v1/namespaces/${namespace}/serviceaccounts`, {
    apiVersion: 'v1',
    kind: 'ServiceAccount',
    metadata: { name: RUNTIME_SERVICE_ACCOUNT },
  });
  return volume;
}

/** A ConfigMap `name` holding `job` as job.conf (JSON, which HOCON reads). */
export async function createJobConfigMap(namespace: string, name: string, job: object): Promise<void> {
  await adminHttp().call('POST', `/api/v1/namespaces/${namespace}/configmaps`, {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name },
    data: { 'job.conf': JSON.stringify(job) },
  });
}

/** The `kubernetes { … }` block every deployment file of these scenarios starts with. */
export function deploymentHeader(namespace: string): string {
  return [
    `kubernetes { namespace = ${namespace}, image = "apache/seatunnel:2.3.8", image-pull-policy = Never, runtime.image-pull-policy = Never,`,
    `  service-account = ${RUNTIME_SERVICE_ACCOUNT}, kubeconfig = ${JSON.stringify(clusterInfo().kubeconfig)} }`,
  ].join('\n');
}

/**
 * Three masters and three workers (one of each per node when spread), `replace` for a lost worker,
 * the job file from the ConfigMap `configMap` mounted at `jobFile`, checkpoints on the claim `claim`.
 */
/** Cores of each JVM of the faults application (masters and workers): bench:faults limits bare Zeta's to the same. */
export const HA_APP_CPU_CORES = 0.25;

export function haApplicationLines(o: { name: string; claim: string; configMap: string; jobFile: string }): string {
  return [
    `application { name = ${o.name}, worker-count = 3, startup-timeout-millis = 300000,`,
    `  worker { slots = 2, memory-mb = 768, cpu-cores = ${HA_APP_CPU_CORES} }, master { memory-mb = 1024, cpu-cores = ${HA_APP_CPU_CORES} },`,
    '  ha { enabled = true, masters = 3, backup-count = 1, worker-failure-policy = replace, worker-replacements = 3 } }',
    // Preferred, not required: a replacement must fit on the two nodes left.
    `kubernetes { checkpoint-pvc = ${o.claim}, worker.spread = preferred,`,
    `  configmap.job { ref = ${o.configMap}, mounts { "job.conf" = "${o.jobFile}" }, roles = [master] },`,
    `  job-config-file = "${o.jobFile}" }`,
  ].join('\n');
}

/** The application's Pods of one role (master, worker, coordinator), or of every role; deleted ones included. */
export async function applicationPods(namespace: string, appId: string, role?: string): Promise<AppPod[]> {
  const selector = `seatunnel.apache.org/application-id=${appId}${role ? `,seatunnel.apache.org/role=${role}` : ''}`;
  return (
    await adminHttp().call<{ items: AppPod[] }>(
      'GET',
      `/api/v1/namespaces/${namespace}/pods?labelSelector=${encodeURIComponent(selector)}`,
    )
  ).items;
}

export const podReady = (p: AppPod): boolean =>
  p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;

/**
 * Every container of the application that restarted in place, with why it last ended (`OOMKilled`,
 * `Error` with exit code 137 for a liveness kill…): a restart is otherwise invisible in a figure.
 */
export async function containerRestarts(namespace: string, appId: string): Promise<string[]> {
  return (await applicationPods(namespace, appId)).flatMap((p) =>
    (p.status?.containerStatuses ?? [])
      .filter((c) => (c.restartCount ?? 0) > 0)
      .map((c) => {
        const t = c.lastState?.terminated;
        return `${p.metadata.name}/${c.name} ×${c.restartCount}: ${t?.reason ?? '?'} (exit ${t?.exitCode ?? '?'}) at ${t?.finishedAt ?? '?'}`;
      }),
  );
}

/**
 * The members each ready master's Hazelcast counts (its REST member list, sorted uuids; undefined
 * where it did not answer), asked inside the master's own container: the NetworkPolicy admits only
 * the application's Pods on the member port, and Zeta's image logs no member list. Hazelcast keeps
 * the connection open, hence the `timeout` around the read.
 */
export async function masterMemberViews(namespace: string, appId: string): Promise<Array<string[] | undefined>> {
  const masters = (await applicationPods(namespace, appId, 'master')).filter(podReady);
  const script =
    `exec 3<>/dev/tcp/$(hostname -i | cut -d' ' -f1)/5801 && ` +
    `printf 'GET /hazelcast/rest/cluster HTTP/1.1\\r\\nHost: x\\r\\nConnection: close\\r\\n\\r\\n' >&3 && ` +
    `(timeout 3 cat <&3 || true)`;
  const kubectl = ['--kubeconfig', clusterInfo().kubeconfig, '-n', namespace, 'exec', '-c', 'seatunnel'];
  return Promise.all(
    masters.map(async (m) => {
      const out = await exec(nodeInfo().kubectl, [...kubectl, m.metadata.name, '--', 'bash', '-c', script], {
        timeout: 20_000,
      }).then(
        (r) => r.stdout,
        () => '',
      );
      try {
        const body = JSON.parse(out.slice(out.indexOf('{'))) as { members?: Array<{ uuid: string }> };
        return (body.members ?? []).map((x) => x.uuid).sort();
      } catch {
        return undefined;
      }
    }),
  );
}

/** `masters` views, every one counting the same `members` members: one cluster. */
export function isOneCluster(views: ReadonlyArray<string[] | undefined>, masters: number, members: number): boolean {
  return views.length === masters && views.every((v) => v?.length === members && v.join() === views[0]!.join());
}

/** What each master counts, for a message: "6, 6, no answer". */
export const describeViews = (views: ReadonlyArray<string[] | undefined>): string =>
  views.map((v) => (v ? String(v.length) : 'no answer')).join(', ');
