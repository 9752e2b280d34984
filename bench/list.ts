// bench/list: `seatunnel-app list` on a namespace of 500 applications on the local control plane (a
// real kube-apiserver, controller manager, scheduler and kwok, from tools/local-stack), against
// `kubectl get jobs -l app.kubernetes.io/managed-by=seatunnel-app -o json` — one list call of one
// kind, where list reads two (Jobs and Pods) and derives every application's status. Each
// application is its Job (as the plan builds it, suspended so the Job controller adds no Pods) and
// two Pods from the plan's own templates (a master and a worker; as the namespace's default
// ServiceAccount, whose own is not created here), with the runtime's annotations.
//
//   npm run bench:list   (BENCH_APPS, BENCH_RUNS; SEATUNNEL_TEST_CLUSTER=<cluster.json> reuses a control plane)

import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';
import type { Pod, PodTemplateSpec } from 'kubernetes-types/core/v1';
import { main as cli } from '../lib/cli/main';
import type { Output } from '../lib/cli/output';
import type { Kube } from '../lib/kube';
import { LABELS, MANAGED_BY } from '../lib/model/reserved';
import { ANNOTATIONS } from '../lib/contract';
import { resolveApplication } from '../lib/model/resolve';
import { buildPlan } from '../lib/plan/build-plan';
import { openBenchSession } from './cluster';
import { median, percentile, table, timeMsAsync } from './harness';

const run = promisify(execFile);
const APPS = Number(process.env.BENCH_APPS ?? 500);
const RUNS = Number(process.env.BENCH_RUNS ?? 9);
const NAMESPACE = 'bench-list';
const JOB =
  'env { job.mode = "BATCH" }\nsource { FakeSource { plugin_output = "fake", row.num = 100 } }\nsink { Console { plugin_input = "fake" } }\n';
const ROOT = path.resolve(__dirname, '..', '..');
const KUBECTL = process.env.KUBECTL ?? '/usr/bin/kubectl';

/** Runs `fn` over `items`, `width` at a time. */
async function inParallel<T>(items: readonly T[], width: number, fn: (t: T) => Promise<unknown>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) await fn(items[next++]);
    }),
  );
}

/** One application: its Job with the runtime's annotations, a master and a worker Pod. */
async function createApplication(kube: Kube, i: number): Promise<void> {
  const spec = resolveApplication(
    { name: `bench-list-${i}`, namespace: NAMESPACE, image: 'apache/seatunnel:2.3.12', jobConfig: JOB, workerCount: 1 },
    { ids: 'random' },
  );
  const plan = buildPlan(spec, { suspend: true });
  const job = {
    ...plan.job,
    metadata: {
      ...plan.job.metadata,
      annotations: {
        ...plan.job.metadata.annotations,
        [ANNOTATIONS.phase]: 'Running',
        [ANNOTATIONS.workersDesired]: '1',
        [ANNOTATIONS.workersRegistered]: '1',
        [ANNOTATIONS.zetaJobId]: spec.jobId,
      },
    },
  };
  await kube.create(job, NAMESPACE);
  const templates: Array<[string, PodTemplateSpec | undefined]> = [
    ['master', plan.job.spec?.template],
    ['worker', plan.workerTemplate.template],
  ];
  for (const [role, tpl] of templates) {
    const pod: Pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        ...tpl?.metadata,
        name: `${spec.appId}-${role}`,
        labels: { ...tpl?.metadata?.labels, [LABELS.applicationId]: spec.appId, [LABELS.role]: role },
      },
      spec: {
        ...tpl?.spec,
        containers: tpl?.spec?.containers ?? [],
        restartPolicy: 'Never',
        serviceAccountName: 'default',
      },
    };
    await kube.create(pod as Pod & { apiVersion: string; kind: string }, NAMESPACE);
  }
}

const quiet = (): Output => ({
  json: false,
  result: () => undefined,
  line: () => undefined,
  warn: () => undefined,
  error: () => undefined,
});

async function main(): Promise<void> {
  const session = await openBenchSession('list', NAMESPACE);
  const { info, kube, work } = session;
  try {
    const existing = (
      await kube.list('batch/v1', 'Job', NAMESPACE, { labelSelector: `${LABELS.managedBy}=${MANAGED_BY}` })
    ).items.length;
    const t0 = Date.now();
    await inParallel(
      Array.from({ length: Math.max(0, APPS - existing) }, (_, i) => existing + i),
      16,
      (i) => createApplication(kube, i),
    );
    console.log(
      `created ${Math.max(0, APPS - existing)} applications (${existing} existed) in ${((Date.now() - t0) / 1000).toFixed(1)} s`,
    );

    const deploy = path.join(work, 'deploy.conf');
    fs.writeFileSync(
      deploy,
      `kubernetes { namespace = ${NAMESPACE}, kubeconfig = ${JSON.stringify(info.kubeconfig)} }\n`,
    );
    const bin = path.join(ROOT, 'bin', 'seatunnel-app.js');
    const selector = `${LABELS.managedBy}=${MANAGED_BY}`;

    // Correctness first: every application listed.
    const check = await run(process.execPath, [bin, 'list', '-a', deploy, '--output', 'json'], {
      maxBuffer: 256 * 1024 * 1024,
    });
    const listed = (JSON.parse(check.stdout) as unknown[]).length;
    if (listed !== APPS) throw new Error(`list printed ${listed} applications, expected ${APPS}`);

    const processRuns: number[] = [];
    const inProcess: number[] = [];
    const kubectl: number[] = [];
    for (let i = -1; i < RUNS; i++) {
      const p = await timeMsAsync(() =>
        run(process.execPath, [bin, 'list', '-a', deploy], { maxBuffer: 64 * 1024 * 1024 }),
      );
      const q = await timeMsAsync(async () => {
        const code = await cli(['list', '-a', deploy], quiet());
        if (code !== 0) throw new Error(`list exited ${code}`);
      });
      const k = await timeMsAsync(() =>
        run(KUBECTL, ['--kubeconfig', info.kubeconfig, 'get', 'jobs', '-n', NAMESPACE, '-l', selector, '-o', 'json'], {
          maxBuffer: 256 * 1024 * 1024,
        }),
      );
      if (i < 0) continue; // warm-up
      processRuns.push(p);
      inProcess.push(q);
      kubectl.push(k);
    }
    const k = median(kubectl);
    const row = (name: string, xs: number[]) => [
      name,
      median(xs),
      percentile(xs, 90),
      `${(median(xs) / k).toFixed(2)}x`,
    ];
    console.log(
      `list of ${APPS} applications (${APPS} Jobs, ${2 * APPS} Pods) on a local control plane (Kubernetes ${info.kubernetesVersion}); ${RUNS} runs each after a warm-up; ms`,
    );
    console.log(
      table(
        ['', 'median', 'p90', '/ kubectl'],
        [
          row(`kubectl get jobs -l ${selector} -o json (process)`, kubectl),
          row('seatunnel-app list (process)', processRuns),
          row('seatunnel-app list (in process, new client each run)', inProcess),
        ],
      ),
    );
    console.log(
      `seatunnel-app list / kubectl get jobs = ${(median(processRuns) / k).toFixed(2)} (process), ${(median(inProcess) / k).toFixed(2)} (in process)`,
    );
  } finally {
    await session.close();
  }
}

main().catch((e) => {
  console.error(e);
  process.exitCode = 1;
});
