// bench/e2e --node: the same job as bench/e2e's, on a real node (containerd, runc, the CNI Pod
// network, kube-proxy, kube-router, CoreDNS: tools/local-stack/real-node), round by round:
//
//   - application mode: the CLI's submit, the runtime's own log, the master's REST read from the
//     node (bench/e2e-node-probe), the Job's Complete condition;
//   - bare Zeta in containers, as a user deploys it with a plain manifest: a master Pod and two
//     worker Pods created together (same image, same engine files, same command lines, the same
//     CPU and memory as the application's Pods), a headless Service for the master's name, the job
//     submitted through the master's REST;
//   - the floor: a trivial Job on the same node (created → its process runs; exit → Complete).
//
// Process starts come from the container runtime's own timestamp of a container's first output
// line (the kubelet's log, `timestamps=true`); the rest from the same reads as the local set-ups.

import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { MASTER_HOST_PLACEHOLDER, renderEngineFiles } from '../lib/engine/files';
import { resolveApplication } from '../lib/model/resolve';
import type { ApplicationSpec } from '../lib/model/spec';
import { buildPlan } from '../lib/plan/build-plan';
import { CONTAINER_NAME } from '../lib/plan/pod';
import { adminHttp, createTestNamespace } from '../test/support/cluster';
import { deploymentHeader, RUNTIME_SERVICE_ACCOUNT } from '../test/support/node-ha-app';
import { CLUSTER_ENV } from '../tools/local-stack/control-server';
import { NodeCluster } from '../tools/local-stack/real-node/node-cluster';
import type { NodeInfo } from '../tools/local-stack/real-node/real-node';
import {
  JOB,
  JOINED,
  finishingPhases,
  logTimes,
  MASTER_UP,
  now,
  POLL_MS,
  RUNTIME_LINES,
  showRuntimeLog,
  trivialJob,
  waitJob,
  WORKERS,
  type Phases,
} from './e2e-measure';
import { sleep, until } from './harness';
import { runCli } from './local-plane';
import {
  BARE_LABEL,
  createManifest,
  engineFilesAndService,
  memberPod,
  removeManifest,
  ROLE_LABEL,
  type Role,
} from './bare-pods';

const IMAGE = 'apache/seatunnel:2.3.8';
/** The node has 2 cores: three Pods of half a core each, as `npm run example -- --node` asks. */
const CPU_CORES = 0.5;
const MEMORY_MB = 640;

export const CREATED = 'created → master process started';
/** The application's submit → its job FINISHED (the runtime's log): what bare Zeta's total measures. */
export const TO_FINISHED = '(submit → job FINISHED)';
/** When `status --wait` returns SUCCEEDED: the Pod's end or the Job's condition, whichever it sees first. */
export const REPORTED = 'process exited → status --wait returns SUCCEEDED';
export const TO_REPORTED = '(submit → status --wait returns SUCCEEDED)';

interface NodeBench {
  readonly namespace: string;
  readonly dir: string;
  readonly node: NodeInfo;
}

export interface NodeRound {
  app: Phases;
  bare: Phases;
  job: { start: number; complete: number };
}

/** The container runtime's timestamp (epoch ms) of the first line `pod`'s `container` wrote. */
async function firstOutputAt(namespace: string, pod: string, container: string): Promise<number> {
  const log = await adminHttp().request(
    'GET',
    `/api/v1/namespaces/${namespace}/pods/${pod}/log?container=${container}&timestamps=true&limitBytes=4096`,
  );
  const stamp = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(\.\d+)?Z /.exec(log.text);
  if (!stamp) throw new Error(`no timestamped line in the log of ${namespace}/${pod}/${container}`);
  // Nanoseconds in the stamp; Date.parse reads milliseconds.
  return Date.parse(`${stamp[1]}${(stamp[2] ?? '.000').padEnd(4, '0').slice(0, 4)}Z`);
}

/**
 * bench/e2e-node-probe inside the node's network namespace: its JSON answer, or undefined once
 * `stop` is called before it answered (it is killed then).
 */
function probe(node: NodeInfo, args: readonly string[]): { answer: Promise<unknown>; stop(): void } {
  const script = path.join(__dirname, 'e2e-node-probe.js');
  const p = spawn('ip', ['netns', 'exec', node.netns, process.execPath, script, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  let stopped = false;
  p.stdout.on('data', (c: Buffer) => (out += c.toString()));
  p.stderr.on('data', (c: Buffer) => (err += c.toString()));
  const answer = new Promise<unknown>((resolve, reject) => {
    p.on('error', reject);
    p.on('exit', (code) => {
      if (stopped) resolve(undefined);
      else if (code === 0) resolve(JSON.parse(out));
      else
        reject(
          new Error(
            `the REST probe (${args.join(' ')}) exited ${code}: ${err.trim().split('\n').slice(-3).join(' | ')}`,
          ),
        );
    });
  });
  return {
    answer,
    stop: () => {
      stopped = true;
      p.kill('SIGKILL');
    },
  };
}

interface ListedPod {
  metadata: { name: string };
  status?: { podIP?: string };
}

async function listPods(namespace: string, selector: string): Promise<ListedPod[]> {
  return (
    await adminHttp().call<{ items: ListedPod[] }>(
      'GET',
      `/api/v1/namespaces/${namespace}/pods?labelSelector=${encodeURIComponent(selector)}`,
    )
  ).items;
}

const podNames = async (namespace: string, selector: string) =>
  (await listPods(namespace, selector)).map((p) => p.metadata.name);

/** The address of the first Pod matching `selector`, once it has one. */
function podAddress(namespace: string, selector: string): Promise<{ name: string; ip: string }> {
  return until(
    `a Pod ${selector} with an address`,
    120_000,
    async () => {
      const p = (await listPods(namespace, selector)).find((x) => x.status?.podIP);
      return p ? { name: p.metadata.name, ip: p.status!.podIP! } : undefined;
    },
    25,
  );
}

/** Resolves once no Pod of `selector` is left (so the next set-up has the node's CPU to itself). */
async function podsGone(namespace: string, selector: string): Promise<void> {
  await until(
    `the Pods ${selector} gone`,
    120_000,
    async () => (await listPods(namespace, selector)).length === 0,
    250,
  );
}

/** The job's application, as the CLI submits it: its phases, timed as bench/e2e times the local one's. */
async function applicationRound(b: NodeBench, i: number): Promise<Phases> {
  const deploy = path.join(b.dir, `deploy-${i}.conf`);
  const job = path.join(b.dir, 'job.conf');
  fs.writeFileSync(
    deploy,
    [
      deploymentHeader(b.namespace),
      `application { name = bench-e2e-${i}, worker-count = ${WORKERS},`,
      `  worker { slots = 2, memory-mb = ${MEMORY_MB}, cpu-cores = ${CPU_CORES} }, master { memory-mb = ${MEMORY_MB}, cpu-cores = ${CPU_CORES} } }`,
    ].join('\n'),
  );
  fs.writeFileSync(job, JOB);
  const t0 = now();
  const appId = String((await runCli(['submit', '-a', deploy, '-c', job])).applicationId);
  const tSubmit = now();
  // What a user waits on: `status --wait` (as `submit --wait`), reading every 100 ms, beside the Job's condition.
  const statusArgs = ['status', '--id', appId, '-a', deploy, '--wait'];
  const statusDone = runCli([...statusArgs, '--wait-interval', '100']).then((r) => {
    if (r.status !== 'SUCCEEDED') throw new Error(`status --wait of ${appId} returned ${String(r.status)}`);
    return now();
  });
  const selector = `seatunnel.apache.org/application-id=${appId},seatunnel.apache.org/role=master`;
  const master = await podAddress(b.namespace, selector);
  const watch = probe(b.node, ['watch', master.ip, '5801']);
  let complete: number;
  let reported: number;
  try {
    [complete, reported] = await Promise.all([waitJob(adminHttp(), b.namespace, appId, t0), statusDone]);
  } finally {
    // The watch ends at registration; a watch still waiting then missed it (its figures stay empty).
    setTimeout(() => watch.stop(), 2000).unref();
  }
  const w = ((await watch.answer) ?? {}) as { up?: number; joined?: number; registered?: number };
  const logPath = `/api/v1/namespaces/${b.namespace}/pods/${master.name}/log?container=${CONTAINER_NAME}`;
  const log = (await adminHttp().request('GET', logPath)).text;
  const started = await firstOutputAt(b.namespace, master.name, CONTAINER_NAME);
  const t = logTimes(log, {
    ...RUNTIME_LINES,
    engineStarted: /runtime: engine process started/,
    masterReady: /runtime: engine ready/,
  });
  showRuntimeLog(appId, log);
  await adminHttp().call(
    'DELETE',
    `/apis/batch/v1/namespaces/${b.namespace}/jobs/${appId}?propagationPolicy=Background`,
  );
  await podsGone(b.namespace, `seatunnel.apache.org/application-id=${appId}`);
  return {
    'submit (CLI process work, in-process here)': tSubmit - t0,
    [CREATED]: started - tSubmit,
    [MASTER_UP]: (w.up ?? t.masterReady) - started,
    [JOINED]: w.joined !== undefined && w.up !== undefined ? w.joined - w.up : undefined,
    'joined → workers registered':
      w.registered !== undefined && w.joined !== undefined ? w.registered - w.joined : undefined,
    '(first worker Pod created → master JVM started: the head start)': t.engineStarted - t.workersCreated,
    ...finishingPhases(t, complete, 'workers'),
    [REPORTED]: reported - t.exited,
    [TO_FINISHED]: t.finished - t0,
    [TO_REPORTED]: reported - t0,
    total: complete - t0,
  };
}

/** The bare cluster's spec: the application's settings, so the same engine files and sizes. */
export function bareNodeSpec(namespace: string, name: string): ApplicationSpec {
  return resolveApplication({
    name,
    namespace,
    image: IMAGE,
    imagePullPolicy: 'Never',
    jobConfig: JOB,
    workerCount: WORKERS,
    workerSlots: 2,
    workerMemoryMb: MEMORY_MB,
    masterMemoryMb: MEMORY_MB,
    workerCpuCores: CPU_CORES,
    masterCpuCores: CPU_CORES,
  });
}

/**
 * The plain manifest of bare Zeta in containers: the engine files (the master's address: its DNS
 * name under the headless Service), the Service, the master Pod and the workers, created together.
 */
export function bareManifest(spec: ApplicationSpec, name: string): Array<Record<string, unknown>> {
  const plan = buildPlan(spec);
  const host = `${name}-master.${name}.${spec.namespace}.svc`;
  const files = Object.fromEntries(
    Object.entries(renderEngineFiles(spec).files).map(([f, text]) => [
      f,
      text.split(MASTER_HOST_PLACEHOLDER).join(host),
    ]),
  );
  const pod = (podName: string, role: Role) => {
    const env: Record<string, string> =
      role === 'worker' ? { ST_DOCKER_MEMBER_LIST: `${host}:${spec.master.port}` } : {};
    const p = memberPod(spec, plan, name, role, podName, env);
    const c = p.spec.containers[0];
    // One line first, so that the container runtime stamps the process's start; then the member.
    c.command = ['/bin/sh', '-c', 'echo "bare Zeta $1 starting"; shift; exec "$@"', 'sh', role, ...c.command!];
    p.spec = {
      ...p.spec,
      ...(role === 'master' ? { hostname: `${name}-master`, subdomain: name } : {}),
      terminationGracePeriodSeconds: 0,
    };
    return p as unknown as Record<string, unknown>;
  };
  return [
    ...engineFilesAndService(name, files, spec.master.port),
    pod(`${name}-master`, 'master'),
    ...Array.from({ length: spec.worker.count }, (_, w) => pod(`${name}-worker-${w}`, 'worker')),
  ];
}

/** Bare Zeta from its plain manifest: every object created at once, the job through the master's REST. */
async function bareRound(b: NodeBench, i: number): Promise<Phases> {
  const name = `bare-${i}`;
  const spec = bareNodeSpec(b.namespace, name);
  const objects = bareManifest(spec, name);
  const selector = `${BARE_LABEL}=${name}`;
  const t0 = now();
  try {
    await createManifest(b.namespace, objects);
    const master = await podAddress(b.namespace, `${selector},${ROLE_LABEL}=master`);
    const phases = (await probe(b.node, ['run', master.ip, String(spec.master.port), name, String(t0)])
      .answer) as Phases;
    const started = await firstOutputAt(b.namespace, master.name, CONTAINER_NAME);
    return { [CREATED]: started - t0, ...phases, [MASTER_UP]: phases[MASTER_UP]! - (started - t0) };
  } finally {
    await removeManifest(b.namespace, objects);
    await podsGone(b.namespace, selector);
  }
}

/** A trivial Job on the same node: created → its process runs, and the process's exit → Complete. */
async function trivialJobRound(b: NodeBench, i: number): Promise<{ start: number; complete: number }> {
  const name = `bench-e2e-floor-${i}`;
  const t0 = now();
  await adminHttp().call(
    'POST',
    `/apis/batch/v1/namespaces/${b.namespace}/jobs`,
    trivialJob(name, {
      enableServiceLinks: false,
      containers: [{ name: 'main', image: IMAGE, imagePullPolicy: 'Never', command: ['/bin/sh', '-c', 'echo floor'] }],
    }),
  );
  const complete = await waitJob(adminHttp(), b.namespace, name, t0);
  const [podName] = await podNames(b.namespace, `job-name=${name}`);
  const ran = await firstOutputAt(b.namespace, podName, 'main');
  await adminHttp().call(
    'DELETE',
    `/apis/batch/v1/namespaces/${b.namespace}/jobs/${name}?propagationPolicy=Background`,
  );
  await podsGone(b.namespace, `job-name=${name}`);
  return { start: ran - t0, complete: complete - ran };
}

/** Starts a one-node cluster, runs `runs` rounds (floor, application, bare Zeta), stops it; the rounds. */
export async function nodeRounds(runs: number): Promise<NodeRound[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-e2e-node-'));
  const nc = await NodeCluster.start({ nodes: 1 });
  try {
    process.env[CLUSTER_ENV] = nc.controlPlane.writeInfo();
    const namespace = await createTestNamespace('bench-e2e', { 'pod-security.kubernetes.io/enforce': 'baseline' });
    await adminHttp().call('POST', `/api/v1/namespaces/${namespace}/serviceaccounts`, {
      apiVersion: 'v1',
      kind: 'ServiceAccount',
      metadata: { name: RUNTIME_SERVICE_ACCOUNT },
    });
    const b: NodeBench = { namespace, dir, node: nc.info.node[0] };
    const rounds: NodeRound[] = [];
    for (let i = 0; i < runs; i++) {
      const round = {
        job: await trivialJobRound(b, i),
        app: await applicationRound(b, i),
        bare: await bareRound(b, i),
      };
      rounds.push(round);
      console.error(
        `round ${i + 1}/${runs} on the node: application ${Math.round(round.app.total!)} ms, bare Zeta in Pods ${Math.round(round.bare.total!)} ms`,
      );
      await sleep(POLL_MS);
    }
    return rounds;
  } finally {
    await nc.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
