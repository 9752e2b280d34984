// bench/cli: start-up of the CLI as a process, against the local control plane (a real
// kube-apiserver from tools/local-stack), compared in the same run with
//   - node's own floor (`node -e 0`): what no Node.js CLI can go below;
//   - `kubectl get job X -o json`: the process the target names (status ≤ 1.0× kubectl).
// Each command is one process per run, interleaved round by round so load on the machine hits all
// of them alike; medians over BENCH_RUNS (default 15) after a warm-up round.
// `submit`, `cancel` and `list` are in the same rounds (cancel deletes an application created for it
// outside the timing); their rows are compared with `kubectl get` too, the one kubectl row here.
// Targets: `status` ≤ 1.0× `kubectl get job`; `synth` ≤ 300 ms.
//
//   npm run bench:cli             (SEATUNNEL_TEST_CLUSTER=<cluster.json> reuses a running control plane;
//                                  BENCH_CLI=<path to seatunnel-app.js> measures another build;
//                                  BENCH_CLI_BASE=<path> adds that build's rows, in the same rounds)

import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { promisify } from 'node:util';
import { resolveApplication } from '../lib/model/resolve';
import { buildPlan } from '../lib/plan/build-plan';
import { cancelApplication } from '../lib/submit/cancel';
import { connect } from '../lib/submit/client-node-api';
import { Kube } from '../lib/kube';
import { submitApplication } from '../lib/submit/submit';
import { benchCluster, ensureNamespace } from './cluster';
import { median, percentile, table } from './harness';

const run = promisify(execFile);
const RUNS = Math.max(10, Number(process.env.BENCH_RUNS ?? 15));
const NAMESPACE = 'bench-cli';
const SYNTH_TARGET_MS = 300;
const JOB = 'env { job.mode = "BATCH" }\nsource { FakeSource { plugin_output = "fake", row.num = 100 } }\nsink { Console { plugin_input = "fake" } }\n';
const ROOT = path.resolve(__dirname, '..', '..');

async function timed(file: string, args: readonly string[], env?: NodeJS.ProcessEnv, onOut?: (stdout: string) => void): Promise<number> {
  const t0 = performance.now();
  const r = await run(file, args, { env: { ...process.env, ...env } });
  const t = performance.now() - t0;
  onOut?.(r.stdout);
  return t;
}

async function main(): Promise<void> {
  const cluster = await benchCluster();
  const info = cluster.info;
  const kube = new Kube(await connect({ kubeconfig: info.kubeconfig }));
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-cli-'));
  let appId: string | undefined;
  try {
    await ensureNamespace(kube, NAMESPACE);
    // One application for status and kubectl to read.
    const spec = resolveApplication({ name: 'bench-cli', namespace: NAMESPACE, image: 'apache/seatunnel:2.3.12', jobConfig: JOB, workerCount: 2 });
    const plan = buildPlan(spec, { suspend: true });
    await submitApplication(kube, plan);
    appId = spec.appId;
    const jobName = plan.job.metadata.name;

    const deploy = path.join(work, 'deploy.conf');
    fs.writeFileSync(
      deploy,
      `application { name = bench-cli, worker-count = 2 }\nkubernetes { namespace = ${NAMESPACE}, image = "apache/seatunnel:2.3.12", kubeconfig = ${JSON.stringify(info.kubeconfig)} }\n`,
    );
    const jobFile = path.join(work, 'job.conf');
    fs.writeFileSync(jobFile, JOB);
    const out = path.join(work, 'out');
    const cli = path.resolve(process.env.BENCH_CLI ?? path.join(ROOT, 'bin', 'seatunnel-app.js'));
    const node = process.execPath;

    // Applications the submit rows created, cancelled after each round (outside the timings).
    const submitted: string[] = [];
    /** A suspended application for `cancel` to delete, created outside the timing. */
    const toCancel = async (): Promise<string> => {
      const s = resolveApplication({ name: 'bench-cancel', namespace: NAMESPACE, image: 'apache/seatunnel:2.3.12', jobConfig: JOB, workerCount: 2 });
      await submitApplication(kube, buildPlan(s, { suspend: true }));
      return s.appId;
    };
    const ours = (label: string, bin: string): Array<[string, () => Promise<number>]> => [
      [`seatunnel-app --help${label}`, () => timed(node, [bin, '--help'])],
      [`seatunnel-app status --id${label}`, () => timed(node, [bin, 'status', '-a', deploy, '--id', spec.appId])],
      [`seatunnel-app list${label}`, () => timed(node, [bin, 'list', '-a', deploy])],
      [`seatunnel-app cancel --id${label}`, async () => timed(node, [bin, 'cancel', '-a', deploy, '--id', await toCancel()])],
      [
        `seatunnel-app submit${label}`,
        () => timed(node, [bin, 'submit', '-a', deploy, '-c', jobFile], undefined, (o) => submitted.push(/Application ID: (\S+)/.exec(o)?.[1] ?? '')),
      ],
      [`seatunnel-app synth${label}`, () => timed(node, [bin, 'synth', '-a', deploy, '-c', jobFile, '-o', out])],
    ];
    const commands: Array<[string, () => Promise<number>]> = [
      ['node -e 0 (floor)', () => timed(node, ['-e', '0'])],
      ['kubectl get job -o json', () => timed('kubectl', ['--kubeconfig', info.kubeconfig, '-n', NAMESPACE, 'get', 'job', jobName, '-o', 'json'])],
      ...ours('', cli),
      // What the V8 code cache (bin/code-cache.js on Node 20, Node's own from 22.1) saves, same rounds.
      ['seatunnel-app status --id (no code cache)', () => timed(node, [cli, 'status', '-a', deploy, '--id', spec.appId], { NODE_DISABLE_COMPILE_CACHE: '1' })],
      [
        'seatunnel-app submit (no code cache)',
        () =>
          timed(node, [cli, 'submit', '-a', deploy, '-c', jobFile], { NODE_DISABLE_COMPILE_CACHE: '1' }, (o) =>
            submitted.push(/Application ID: (\S+)/.exec(o)?.[1] ?? ''),
          ),
      ],
      // Another build in the same rounds (e.g. the commit before a change): on a shared machine
      // only an interleaved comparison is fair; runs minutes apart see different loads.
      ...(process.env.BENCH_CLI_BASE ? ours(' (base)', path.resolve(process.env.BENCH_CLI_BASE)) : []),
    ];
    const times = new Map<string, number[]>(commands.map(([name]) => [name, []]));
    for (let i = -1; i < RUNS; i++) {
      for (const [name, fn] of commands) {
        const t = await fn();
        if (i >= 0) times.get(name)!.push(t);
      }
      await Promise.all(submitted.splice(0).map((id) => cancelApplication(kube, NAMESPACE, id)));
    }

    const m = (name: string) => median(times.get(name)!);
    const floor = m('node -e 0 (floor)');
    const kubectl = m('kubectl get job -o json');
    const status = m('seatunnel-app status --id');
    const synth = m('seatunnel-app synth');
    console.log(`CLI processes against a local control plane (Kubernetes ${info.kubernetesVersion}); ${RUNS} runs each after a warm-up; ms`);
    console.log(
      table(
        ['', 'median', 'p90', 'above node', '/ kubectl'],
        commands.map(([name]) => {
          const xs = times.get(name)!;
          return [name, median(xs), percentile(xs, 90), median(xs) - floor, `${(median(xs) / kubectl).toFixed(2)}x`];
        }),
      ),
    );
    console.log(
      `status / kubectl get job = ${(status / kubectl).toFixed(2)} (target ≤ 1.0: ${status <= kubectl ? 'yes' : 'NO'}); ` +
        `synth = ${synth.toFixed(0)} ms (target ≤ ${SYNTH_TARGET_MS} ms: ${synth <= SYNTH_TARGET_MS ? 'yes' : 'NO'}; ${(synth / SYNTH_TARGET_MS).toFixed(2)}x)`,
    );
  } finally {
    if (appId) await cancelApplication(kube, NAMESPACE, appId).catch(() => undefined);
    kube.api.close();
    fs.rmSync(work, { recursive: true, force: true });
    await cluster.stop();
  }
}

main().catch((e) => {
  console.error(e);
  process.exitCode = 1;
});
