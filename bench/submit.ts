// bench/submit: wall time of `submit` against the local control plane (a real kube-apiserver,
// controller manager, scheduler and kwok, from tools/local-stack), compared in the same run with
//   (a) the floor: the round trips submit cannot avoid, as bare requests on the same warm
//       connection — create the Job, create its dependents (all at once, as submit does: on 2
//       cores eight parallel creates take several times one, so one alone is no floor for them),
//       patch the Job — summed;
//   (b) `kubectl apply -f` of the same application's synthesized YAML (a process per run), against
//       `seatunnel-app submit` as a process per run (node start, config load, submit).
//   (d) N applications at once (default 50, BENCH_CONCURRENT): from one process with the library and
//       from N `seatunnel-app submit` processes — throughput, p50/p95, API requests per application
//       against the minimum, 429 answers (bench/submit-many.ts).
//   (c) the transport: the same in-process submit over HTTP/2 and over HTTP/1.1 keep-alive, in
//       each round, with a warm client (the runtime's case: one long-lived client) and with a new
//       client per submit (the CLI's case: TLS handshakes included), so the choice is a number.
//   (e) both processes again through a relay that adds a round-trip time (BENCH_RTT_MS, default
//       30 ms; 0 leaves the rows out; bench/latency-relay.ts): a remote API server, where the
//       sequential round trips decide — kubectl apply reads and then writes each object in turn.
// Targets: in-process submit ≤ 2× the floor; the CLI process faster than kubectl.
//
//   npm run bench:submit          (SEATUNNEL_TEST_CLUSTER=<cluster.json> reuses a running control plane)

import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { promisify } from 'node:util';
import { synthYaml } from '../lib/cli/commands/synth';
import { resolveApplication } from '../lib/model/resolve';
import type { ApplicationSpec } from '../lib/model/spec';
import { buildPlan, dependents, withJobOwner } from '../lib/plan/build-plan';
import { cancelApplication } from '../lib/submit/act/cancel';
import { connect } from '../lib/submit/connection/client-node-api';
import { Kube, refOf, type AnyObject, type KubeTransport } from '../lib/kube';
import { submitApplication } from '../lib/submit/act/submit';
import { openBenchSession, writeDeploymentFile } from './cluster';
import { median, percentile, table } from './harness';
import {
  countingApi,
  countingProxy,
  minimumRequests,
  printMany,
  submitManyInProcess,
  submitManyProcesses,
  type Counted,
} from './submit-many';

const run = promisify(execFile);
const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const NAMESPACE = 'bench-submit';
const JOB =
  'env { job.mode = "BATCH" }\nsource { FakeSource { plugin_output = "fake", row.num = 100 } }\nsink { Console { plugin_input = "fake" } }\n';
const ROOT = path.resolve(__dirname, '..', '..');

let seq = 0;
function newSpec(ids: 'random' | 'derived' = 'random'): ApplicationSpec {
  seq++;
  return resolveApplication(
    {
      name: `bench-${seq}`,
      runId: String(Date.now()),
      namespace: NAMESPACE,
      image: 'apache/seatunnel:2.3.12',
      jobConfig: JOB,
      workerCount: 3,
    },
    { ids },
  );
}

async function timed<T>(fn: () => Promise<T>): Promise<[number, T]> {
  const t0 = performance.now();
  const v = await fn();
  return [performance.now() - t0, v];
}

/** The protocol a client's transport negotiated. */
const protocol = (k: Kube) => (k.api as KubeTransport).protocol;

async function main(): Promise<void> {
  const session = await openBenchSession('submit', NAMESPACE);
  const { info, kube, work } = session;
  const kube1 = new Kube(await connect({ kubeconfig: info.kubeconfig, http2: false }));
  try {
    const deployment = (file: string, kubeconfig: string, name = 'bench-cli') =>
      writeDeploymentFile(path.join(work, file), { name, workerCount: 3, namespace: NAMESPACE, kubeconfig });
    const deploy = deployment('deploy.conf', info.kubeconfig);
    const jobFile = path.join(work, 'job.conf');
    fs.writeFileSync(jobFile, JOB);
    const cli = path.join(ROOT, 'bin', 'seatunnel-app.js');
    const relayed = await session.relayed();
    const farDeploy = relayed ? deployment('far-deploy.conf', relayed.kubeconfig) : '';
    const farCli: number[] = [];
    const farKubectl: number[] = [];

    const floorJob: number[] = [];
    const floorDep: number[] = [];
    const floorPatch: number[] = [];
    const floor: number[] = [];
    const submit: number[] = [];
    const submit1: number[] = [];
    const cold: Record<'h2' | 'h1', number[]> = { h2: [], h1: [] };
    const steps: Record<string, number[]> = { references: [], 'create-job': [], 'create-dependents': [], start: [] };
    const cliRuns: number[] = [];
    const kubectl: number[] = [];
    const cleanup: string[] = [];

    for (let i = -1; i < RUNS; i++) {
      const warm = i < 0;
      // (a) the floor, one request at a time
      {
        const plan = buildPlan(newSpec(), { suspend: true });
        const [tJob, job] = await timed(() => kube.create<AnyObject>(plan.job, NAMESPACE));
        const deps = dependents(plan).map((d) => withJobOwner(d, plan.job.metadata.name, job.metadata!.uid!));
        const [tDeps] = await timed(() => Promise.all(deps.map((d) => kube.create(d, NAMESPACE))));
        const [tPatch] = await timed(() =>
          kube.jsonPatch(refOf(plan.job), [{ op: 'replace', path: '/spec/suspend', value: false }]),
        );
        if (!warm) {
          floorJob.push(tJob);
          floorDep.push(tDeps);
          floorPatch.push(tPatch);
          floor.push(tJob + tDeps + tPatch);
        }
        cleanup.push(plan.spec.appId);
      }
      // submit, in process (warm client)
      {
        const plan = buildPlan(newSpec(), { suspend: true });
        const started: Record<string, number> = {};
        const took: Record<string, number> = {};
        const [t] = await timed(() =>
          submitApplication(kube, plan, {
            onStep: (step, phase) => {
              if (phase === 'start') started[step] = performance.now();
              else took[step] = performance.now() - started[step];
            },
          }),
        );
        if (!warm) {
          submit.push(t);
          for (const [k, v] of Object.entries(took)) steps[k].push(v);
        }
        cleanup.push(plan.spec.appId);
      }
      // the same over HTTP/1.1 keep-alive (warm client)
      {
        const plan = buildPlan(newSpec(), { suspend: true });
        const [t] = await timed(() => submitApplication(kube1, plan));
        if (!warm) submit1.push(t);
        cleanup.push(plan.spec.appId);
      }
      // a new client per submit (as the CLI), both protocols
      for (const proto of ['h2', 'h1'] as const) {
        const plan = buildPlan(newSpec(), { suspend: true });
        const [t] = await timed(async () => {
          const fresh = new Kube(await connect({ kubeconfig: info.kubeconfig, http2: proto === 'h2' }));
          try {
            return await submitApplication(fresh, plan);
          } finally {
            fresh.api.close();
          }
        });
        if (!warm) cold[proto].push(t);
        cleanup.push(plan.spec.appId);
      }
      /** seatunnel-app submit as a process, with `deployFile`'s kubeconfig. */
      const cliSubmit = async (deployFile: string, into: number[]) => {
        const [t, out] = await timed(() => run(process.execPath, [cli, 'submit', '-a', deployFile, '-c', jobFile]));
        if (!warm) into.push(t);
        const id = /Application ID: (\S+)/.exec(out.stdout)?.[1];
        if (id) cleanup.push(id);
      };
      /** kubectl apply -f of the synthesized YAML (a new application each time). */
      const kubectlApply = async (kubeconfig: string, into: number[]) => {
        const spec = newSpec('derived');
        const file = path.join(work, `${spec.appId}.yaml`);
        fs.writeFileSync(file, synthYaml(spec));
        const [t] = await timed(() => run('kubectl', ['--kubeconfig', kubeconfig, 'apply', '-f', file]));
        if (!warm) into.push(t);
        cleanup.push(spec.appId);
      };
      await cliSubmit(deploy, cliRuns);
      await kubectlApply(info.kubeconfig, kubectl);
      // (e) both processes through the relay
      if (relayed) {
        await cliSubmit(farDeploy, farCli);
        await kubectlApply(relayed.kubeconfig, farKubectl);
      }
      // Clean up outside the timings, so the next round starts from the same state.
      await Promise.all(cleanup.splice(0).map((id) => cancelApplication(kube, NAMESPACE, id)));
      await new Promise((r) => setTimeout(r, 300));
    }

    const row = (name: string, xs: number[], ref?: number, target?: string) => {
      const m = median(xs);
      return [name, m, percentile(xs, 90), ref ? `${(m / ref).toFixed(2)}x` : '', target ?? ''];
    };
    const f = median(floor);
    const k = median(kubectl);
    console.log(
      `submit against a local control plane (Kubernetes ${info.kubernetesVersion}); ${RUNS} runs each after a warm-up; ms`,
    );
    console.log(
      table(
        ['', 'median', 'p90', 'ratio', 'target'],
        [
          row('floor: create Job', floorJob),
          row('floor: create the dependents at once', floorDep),
          row('floor: patch (unsuspend)', floorPatch),
          row('floor (sum of the three)', floor, f, '1x'),
          row(
            `submit, in process (${protocol(kube)})`,
            submit,
            f,
            median(submit) <= 2 * f ? '≤ 2x floor: yes' : '≤ 2x floor: NO',
          ),
          ...Object.entries(steps).map(([k, xs]) => row(`  of which: ${k}`, xs)),
          row(`submit, in process (${protocol(kube1)} keep-alive)`, submit1, f),
          row('submit, new client each (h2)', cold.h2, f),
          row('submit, new client each (http/1.1)', cold.h1, f),
          row('kubectl apply -f (process)', kubectl, k, '1x'),
          row('seatunnel-app submit (process)', cliRuns, k, median(cliRuns) < k ? '< kubectl: yes' : '< kubectl: NO'),
          ...(relayed
            ? [
                row(`kubectl apply -f (process, RTT ${relayed.rttMs} ms)`, farKubectl, median(farKubectl), '1x'),
                row(`seatunnel-app submit (process, RTT ${relayed.rttMs} ms)`, farCli, median(farKubectl)),
              ]
            : []),
        ],
      ),
    );
    console.log(
      `submit in process / floor = ${(median(submit) / f).toFixed(2)}; seatunnel-app submit / kubectl apply = ${(median(cliRuns) / k).toFixed(2)}` +
        (relayed ? `; at an RTT of ${relayed.rttMs} ms ${(median(farCli) / median(farKubectl)).toFixed(2)}` : ''),
    );
    console.log(
      `HTTP/1.1 / HTTP/2 (> 1: HTTP/2 is faster): warm client ${(median(submit1) / median(submit)).toFixed(2)} (medians ${median(submit1).toFixed(1)} / ${median(submit).toFixed(1)} ms); new client each ${(median(cold.h1) / median(cold.h2)).toFixed(2)} (medians ${median(cold.h1).toFixed(1)} / ${median(cold.h2).toFixed(1)} ms)`,
    );

    // (d) many at once
    const n = Number(process.env.BENCH_CONCURRENT ?? 50);
    const minimum = minimumRequests(newSpec());
    const log: Counted[] = [];
    const shared = await connect({ kubeconfig: info.kubeconfig });
    const counted = new Kube(countingApi(shared, log));
    const proxy = await countingProxy(info);
    try {
      const inProcess = await submitManyInProcess(
        'library, 1 process, 1 client',
        n,
        () => newSpec(),
        (s) => submitApplication(counted, buildPlan(s, { suspend: true })),
        log,
      );
      await Promise.all(inProcess.appIds.map((id) => cancelApplication(kube, NAMESPACE, id)));
      const viaProxy = deployment('deploy-proxy.conf', proxy.kubeconfig, 'bench-many');
      const processes = await submitManyProcesses(
        `seatunnel-app submit, ${n} processes (counting proxy)`,
        n,
        cli,
        ['-a', viaProxy, '-c', jobFile],
        proxy.log,
      );
      await Promise.all(processes.appIds.map((id) => cancelApplication(kube, NAMESPACE, id)));
      // The protocol is known once the client has negotiated it.
      printMany([{ ...inProcess, label: `${inProcess.label} (${shared.protocol})` }, processes], minimum);
    } finally {
      counted.api.close();
      await proxy.close();
    }
  } finally {
    kube1.api.close();
    await session.close();
  }
}

main().catch((e) => {
  console.error(e);
  process.exitCode = 1;
});
