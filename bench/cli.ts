// bench/cli: start-up of the CLI as a process, against the local control plane (a real
// kube-apiserver from tools/local-stack), compared in the same run with
//   - node's own floor (`node -e 0`): what no Node.js CLI can go below;
//   - `kubectl get job X -o json`: the process the issue's target names (status ≤ 1.0× kubectl).
// Each command is one process per run, interleaved round by round so load on the machine hits all
// of them alike; medians over BENCH_RUNS (default 15) after a warm-up round.
// `submit`, `cancel` and `list` are in the same rounds (cancel deletes an application created for it
// outside the timing); their rows are compared with `kubectl get` too, the one kubectl row here.
// Targets: `status` ≤ 1.0× `kubectl get job`; `synth` ≤ 300 ms and ≤ 3× `kubectl version --client`
// (issue #30: the process a manifest tool is compared with — no API server, no TLS).
// Two more floors and one more path, in the same rounds:
//   - `node + TLS context`: node, then one TLS context with the cluster's CA. Node 20 parses its
//     ~140 bundled root certificates for the first TLS context, even one given its own CA
//     (docs/performance.md): any Node CLI that checks the server's certificate pays this.
//   - the environment's NODE_EXTRA_CA_CERTS, when set, makes Node 20 parse those roots and that
//     file at start-up: rows "(without NODE_EXTRA_CA_CERTS)" show what it costs.
//   - `(RTT N ms)`: `status` and `kubectl get` through a relay that holds each byte half of
//     BENCH_RTT_MS (default 30; 0 leaves the rows out) each way — a remote API server, where
//     a CLI's time is mostly its sequential round trips.
//
//   npm run bench:cli             (SEATUNNEL_TEST_CLUSTER=<cluster.json> reuses a running control plane;
//                                  BENCH_CLI=<path to seatunnel-app.js> measures another build;
//                                  BENCH_CLI_BASE=<path> adds that build's rows, in the same rounds)

import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { promisify } from 'node:util';
import { resolveApplication } from '../lib/model/resolve';
import { buildPlan } from '../lib/plan/build-plan';
import { cancelApplication } from '../lib/submit/act/cancel';
import { submitApplication } from '../lib/submit/act/submit';
import { openBenchSession, writeDeploymentFile } from './cluster';
import { median, percentile, table } from './harness';

const run = promisify(execFile);
const RUNS = Math.max(10, Number(process.env.BENCH_RUNS ?? 15));
const NAMESPACE = 'bench-cli';
const SYNTH_TARGET_MS = 300;
const JOB =
  'env { job.mode = "BATCH" }\nsource { FakeSource { plugin_output = "fake", row.num = 100 } }\nsink { Console { plugin_input = "fake" } }\n';
const ROOT = path.resolve(__dirname, '..', '..');

async function timed(
  file: string,
  args: readonly string[],
  env?: NodeJS.ProcessEnv,
  onOut?: (stdout: string) => void,
): Promise<number> {
  const t0 = performance.now();
  const r = await run(file, args, { env: { ...process.env, ...env } });
  const t = performance.now() - t0;
  onOut?.(r.stdout);
  return t;
}

async function main(): Promise<void> {
  const session = await openBenchSession('cli', NAMESPACE);
  const { info, kube, work } = session;
  let appId: string | undefined;
  try {
    // One application for status and kubectl to read.
    const spec = resolveApplication({
      name: 'bench-cli',
      namespace: NAMESPACE,
      image: 'apache/seatunnel:2.3.12',
      jobConfig: JOB,
      workerCount: 2,
    });
    const plan = buildPlan(spec, { suspend: true });
    await submitApplication(kube, plan);
    appId = spec.appId;
    const jobName = plan.job.metadata.name;

    const deployment = (file: string, kubeconfig: string) =>
      writeDeploymentFile(path.join(work, file), {
        name: 'bench-cli',
        workerCount: 2,
        namespace: NAMESPACE,
        kubeconfig,
      });
    const deploy = deployment('deploy.conf', info.kubeconfig);
    // The same cluster behind the relay, and a deployment file that names it.
    const relayed = await session.relayed();
    const farDeploy = relayed ? deployment('far-deploy.conf', relayed.kubeconfig) : '';
    const far = ` (RTT ${relayed?.rttMs} ms)`;
    const jobFile = path.join(work, 'job.conf');
    fs.writeFileSync(jobFile, JOB);
    const out = path.join(work, 'out');
    const cli = path.resolve(process.env.BENCH_CLI ?? path.join(ROOT, 'bin', 'seatunnel-app.js'));
    const node = process.execPath;
    const withoutExtraCa: NodeJS.ProcessEnv = { NODE_EXTRA_CA_CERTS: '' };
    const extraCa = process.env.NODE_EXTRA_CA_CERTS ? [process.env.NODE_EXTRA_CA_CERTS] : [];

    // Applications the submit rows created, cancelled after each round (outside the timings).
    const submitted: string[] = [];
    /** A suspended application for `cancel` to delete, created outside the timing. */
    const toCancel = async (): Promise<string> => {
      const s = resolveApplication({
        name: 'bench-cancel',
        namespace: NAMESPACE,
        image: 'apache/seatunnel:2.3.12',
        jobConfig: JOB,
        workerCount: 2,
      });
      await submitApplication(kube, buildPlan(s, { suspend: true }));
      return s.appId;
    };
    const ours = (label: string, bin: string): Array<[string, () => Promise<number>]> => [
      [`seatunnel-app --help${label}`, () => timed(node, [bin, '--help'])],
      [`seatunnel-app status --id${label}`, () => timed(node, [bin, 'status', '-a', deploy, '--id', spec.appId])],
      [`seatunnel-app list${label}`, () => timed(node, [bin, 'list', '-a', deploy])],
      [
        `seatunnel-app cancel --id${label}`,
        async () => timed(node, [bin, 'cancel', '-a', deploy, '--id', await toCancel()]),
      ],
      [
        `seatunnel-app submit${label}`,
        () =>
          timed(node, [bin, 'submit', '-a', deploy, '-c', jobFile], undefined, (o) =>
            submitted.push(/Application ID: (\S+)/.exec(o)?.[1] ?? ''),
          ),
      ],
      [`seatunnel-app synth${label}`, () => timed(node, [bin, 'synth', '-a', deploy, '-c', jobFile, '-o', out])],
    ];
    const tlsFloor = `require('node:tls').createSecureContext({ ca: require('node:fs').readFileSync(${JSON.stringify(info.caFile)}) })`;
    const kubectlGet = (kubeconfig: string) => () =>
      timed('kubectl', ['--kubeconfig', kubeconfig, '-n', NAMESPACE, 'get', 'job', jobName, '-o', 'json']);
    const commands: Array<[string, () => Promise<number>]> = [
      ['node -e 0 (floor)', () => timed(node, ['-e', '0'])],
      ['node + TLS context (floor)', () => timed(node, ['-e', tlsFloor])],
      ['kubectl get job -o json', kubectlGet(info.kubeconfig)],
      ['kubectl version --client', () => timed('kubectl', ['version', '--client'])],
      ...ours('', cli),
      // What the environment's NODE_EXTRA_CA_CERTS costs every Node process (Node 20 reads it, and
      // its own roots, before any code runs); an empty value is the same as unset.
      ...extraCa.flatMap((): Array<[string, () => Promise<number>]> => [
        ['node + TLS context (without NODE_EXTRA_CA_CERTS)', () => timed(node, ['-e', tlsFloor], withoutExtraCa)],
        [
          'seatunnel-app status --id (without NODE_EXTRA_CA_CERTS)',
          () => timed(node, [cli, 'status', '-a', deploy, '--id', spec.appId], withoutExtraCa),
        ],
        ['node -e 0 (without NODE_EXTRA_CA_CERTS)', () => timed(node, ['-e', '0'], withoutExtraCa)],
        [
          'seatunnel-app synth (without NODE_EXTRA_CA_CERTS)',
          () => timed(node, [cli, 'synth', '-a', deploy, '-c', jobFile, '-o', out], withoutExtraCa),
        ],
      ]),
      ...(relayed
        ? ([
            [`kubectl get job -o json${far}`, kubectlGet(relayed.kubeconfig)],
            [
              `seatunnel-app status --id${far}`,
              () => timed(node, [cli, 'status', '-a', farDeploy, '--id', spec.appId]),
            ],
            ...(process.env.BENCH_CLI_BASE
              ? [
                  [
                    `seatunnel-app status --id${far} (base)`,
                    () =>
                      timed(node, [
                        path.resolve(process.env.BENCH_CLI_BASE!),
                        'status',
                        '-a',
                        farDeploy,
                        '--id',
                        spec.appId,
                      ]),
                  ],
                ]
              : []),
          ] as Array<[string, () => Promise<number>]>)
        : []),
      // What the V8 code cache (bin/code-cache.js on Node 20, Node's own from 22.1) saves, same rounds.
      [
        'seatunnel-app status --id (no code cache)',
        () => timed(node, [cli, 'status', '-a', deploy, '--id', spec.appId], { NODE_DISABLE_COMPILE_CACHE: '1' }),
      ],
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
      // Each round starts one command further on: the first after the clean-up below meets a
      // busier API server, and no command should always be that one.
      const start = (i + 1) % commands.length;
      for (const [name, fn] of [...commands.slice(start), ...commands.slice(0, start)]) {
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
    console.log(
      `CLI processes against a local control plane (Kubernetes ${info.kubernetesVersion}); ${RUNS} runs each after a warm-up; ms`,
    );
    console.log(
      table(
        ['', 'median', 'p90', 'above node', '/ kubectl'],
        commands.map(([name]) => {
          const xs = times.get(name)!;
          return [name, median(xs), percentile(xs, 90), median(xs) - floor, `${(median(xs) / kubectl).toFixed(2)}x`];
        }),
      ),
    );
    const tls = m('node + TLS context (floor)');
    console.log(
      `node + TLS context / kubectl get job = ${(tls / kubectl).toFixed(2)}: the floor of a Node CLI that checks the server's certificate; ` +
        `status above it: ${(status - tls).toFixed(0)} ms`,
    );
    if (relayed)
      console.log(
        `at an RTT of ${relayed.rttMs} ms: status / kubectl get job = ${(m(`seatunnel-app status --id${far}`) / m(`kubectl get job -o json${far}`)).toFixed(2)}`,
      );
    const kubectlVersion = m('kubectl version --client');
    console.log(
      `status / kubectl get job = ${(status / kubectl).toFixed(2)} (target ≤ 1.0: ${status <= kubectl ? 'yes' : 'NO'}); ` +
        `synth = ${synth.toFixed(0)} ms (target ≤ ${SYNTH_TARGET_MS} ms: ${synth <= SYNTH_TARGET_MS ? 'yes' : 'NO'}; ${(synth / SYNTH_TARGET_MS).toFixed(2)}x); ` +
        `synth / kubectl version --client = ${(synth / kubectlVersion).toFixed(2)} (target ≤ 3.0: ${synth <= 3 * kubectlVersion ? 'yes' : 'NO'}); ` +
        `node -e 0 / kubectl version --client = ${(floor / kubectlVersion).toFixed(2)} (no Node.js process goes below it)`,
    );
  } finally {
    if (appId) await cancelApplication(kube, NAMESPACE, appId).catch(() => undefined);
    await session.close();
  }
}

main().catch((e) => {
  console.error(e);
  process.exitCode = 1;
});
