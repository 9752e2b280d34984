// bench/e2e: wall time of one small batch application from `submit` to the Job Complete, on the
// local control plane with real Zeta processes (the engine tier's setup), broken into phases from
// the runtime's own log and the API — and, measured in the same run, the baseline: the same job
// on a bare Zeta cluster of the same shape (master + 2 workers started directly, job submitted
// through REST, no Kubernetes). The ratio is the price of application mode on this machine.
//
//   npm run bench:e2e        (BENCH_RUNS=3 by default; SEATUNNEL_TEST_CLUSTER=<file> reuses a dev-cluster)

import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { main } from '../lib/cli/main';
import type { Output } from '../lib/cli/output';
import { resolveApplication } from '../lib/model/resolve';
import { ControlPlane } from '../tools/local-stack/control-plane';
import { startLocalStack, LOCAL_POD_ANNOTATIONS } from '../tools/local-stack/local-application';
import { BareZeta } from './bare-zeta';
import { median, table, timeMsAsync } from './harness';

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const JOB = `env { job.mode = "BATCH", parallelism = 2 }
source { FakeSource { result_table_name = "fake", row.num = 1000, schema { fields { name = "string", age = "int" } } } }
sink { Console { source_table_name = "fake" } }
`;

function quiet(): Output {
  const nop = () => undefined;
  return { json: false, result: nop, line: nop, warn: nop, error: (t) => process.stderr.write(`${t}\n`) };
}

/** Timestamps (ms) of runtime log lines matching each pattern, from the master container log. */
function logTimes(log: string, patterns: Record<string, RegExp>): Record<string, number | undefined> {
  const out: Record<string, number | undefined> = {};
  for (const [k, re] of Object.entries(patterns)) {
    const line = log.split('\n').find((l) => re.test(l));
    const m = line ? /(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d+Z)/.exec(line) : null;
    out[k] = m ? Date.parse(m[1]) : undefined;
  }
  return out;
}

async function applicationRun(
  cp: ControlPlane,
  stack: ReturnType<typeof startLocalStack>,
  namespace: string,
  dir: string,
  i: number,
): Promise<Record<string, number>> {
  const deploy = path.join(dir, `deploy-${i}.conf`);
  const job = path.join(dir, 'job.conf');
  const annotations = Object.entries(LOCAL_POD_ANNOTATIONS)
    .map(([k, v]) => `"${k}" = ${v}`)
    .join(', ');
  fs.writeFileSync(
    deploy,
    [
      `application { name = bench-e2e-${i}, worker-count = 2, worker.slots = 2, worker.memory-mb = 640, master.memory-mb = 640 }`,
      `kubernetes { namespace = ${namespace}, image = "apache/seatunnel:2.3.8", service-account = seatunnel-runtime, seatunnel-home = "${stack.seatunnelHome}",`,
      `  master.annotations { ${annotations} }, worker.annotations { ${annotations} }, kubeconfig = "${cp.info.kubeconfig}" }`,
    ].join('\n'),
  );
  fs.writeFileSync(job, JOB);
  const t0 = Date.now();
  let appId = '';
  const out: Output = {
    ...quiet(),
    result: (d) => {
      if (!Array.isArray(d) && typeof d.applicationId === 'string') appId = d.applicationId;
    },
  };
  const submitted = await main(['submit', '-a', deploy, '-c', job, '--output', 'json'], out);
  if (submitted !== 0) throw new Error(`submit exited ${submitted}`);
  const tSubmit = Date.now();
  let complete: number;
  for (;;) {
    const j = await cp.admin.call<{ status?: { conditions?: Array<{ type: string; status: string }> } }>(
      'GET',
      `/apis/batch/v1/namespaces/${namespace}/jobs/${appId}`,
    );
    const c = j.status?.conditions ?? [];
    if (c.some((x) => x.type === 'Failed' && x.status === 'True')) throw new Error(`application ${appId} failed`);
    if (c.some((x) => x.type === 'Complete' && x.status === 'True')) {
      complete = Date.now();
      break;
    }
    if (Date.now() - t0 > 300_000) throw new Error(`application ${appId} did not complete in 300 s`);
    await new Promise((r) => setTimeout(r, 100));
  }
  const master = stack.kubelet.podNames().find((n) => n.startsWith(appId) && !n.includes('-worker-'))!;
  const t = logTimes(stack.kubelet.logOf(master), {
    runtimeStarted: /runtime: settings loaded/,
    masterReady: /runtime: engine ready/,
    registered: /runtime: event AllWorkersRegistered/,
    running: /runtime: Zeta job status .*status=RUNNING/,
    finished: /runtime: ending state=SUCCEEDED/,
    cleaned: /runtime: exit code=0/,
  });
  const at = (k: string) => {
    const v = t[k];
    if (v === undefined) throw new Error(`no "${k}" line in the master log of ${appId}`);
    return v;
  };
  return {
    'submit (CLI)': tSubmit - t0,
    'master Pod scheduled, runtime started': at('runtimeStarted') - tSubmit,
    'Zeta master ready': at('masterReady') - at('runtimeStarted'),
    'workers created and registered': at('registered') - at('masterReady'),
    'job submitted and running': at('running') - at('registered'),
    'job finished': at('finished') - at('running'),
    'cleanup and exit': at('cleaned') - at('finished'),
    'Job Complete recorded': complete - at('cleaned'),
    total: complete - t0,
  };
}

/** The same job on a bare Zeta cluster: master + 2 workers started directly, REST submit, poll. */
async function bareRun(home: string, dir: string, i: number): Promise<number> {
  const spec = resolveApplication({
    name: `bare-${i}`,
    image: 'apache/seatunnel:2.3.8',
    jobConfig: JOB,
    seatunnelHome: home,
    workerCount: 2,
    workerSlots: 2,
    workerMemoryMb: 640,
    masterMemoryMb: 640,
  });
  const masterIp = '127.0.1.1';
  const zeta = new BareZeta(spec, path.join(dir, `bare-${i}`), [masterIp]);
  const body = JSON.stringify({
    env: { 'job.mode': 'BATCH', parallelism: 2, 'job.retry.times': 0 },
    source: [{ plugin_name: 'FakeSource', result_table_name: 'fake', row: { num: 1000 }, schema: { fields: { name: 'string', age: 'int' } } }],
    sink: [{ plugin_name: 'Console', source_table_name: 'fake' }],
  });
  try {
    return await timeMsAsync(async () => {
      zeta.start('master', masterIp);
      zeta.start('worker', '127.0.1.2');
      zeta.start('worker', '127.0.1.3');
      await zeta.waitWorkers(masterIp, 2);
      const id = (JSON.parse(await zeta.rest(masterIp, 'POST', `/submit-job?jobName=bare-${i}`, body)) as { jobId: string }).jobId;
      for (;;) {
        const s = (JSON.parse(await zeta.rest(masterIp, 'GET', `/job-info/${id}`)) as { jobStatus?: string }).jobStatus;
        if (s === 'FINISHED') return;
        if (s && ['FAILED', 'CANCELED'].includes(s)) throw new Error(`bare job ${s}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    });
  } finally {
    zeta.killAll();
  }
}

async function run(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-e2e-'));
  const cp = await ControlPlane.start({ nodes: 3 });
  const namespace = 'bench-e2e';
  await cp.admin.call('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } });
  await cp.admin.call('POST', `/api/v1/namespaces/${namespace}/serviceaccounts`, {
    apiVersion: 'v1',
    kind: 'ServiceAccount',
    metadata: { name: 'seatunnel-runtime' },
  });
  const stack = startLocalStack({ admin: cp.admin, server: cp.info.server, caData: cp.info.caData, namespace, dir });
  try {
    const apps: Array<Record<string, number>> = [];
    const bare: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      apps.push(await applicationRun(cp, stack, namespace, dir, i));
      bare.push(await bareRun(stack.seatunnelHome, dir, i));
    }
    const phases = Object.keys(apps[0]);
    console.log(`One batch application (FakeSource 2 × 1000 rows → Console, 2 workers × 2 slots), median of ${RUNS} runs, ms:`);
    console.log(
      table(
        ['phase', 'median', 'min', 'max'],
        phases.map((p) => {
          const xs = apps.map((a) => a[p]);
          return [p, median(xs), Math.min(...xs), Math.max(...xs)];
        }),
      ),
    );
    const total = median(apps.map((a) => a.total));
    const base = median(bare);
    console.log('');
    console.log(
      table(
        ['', 'ms', 'ratio'],
        [
          ['bare Zeta (start master + 2 workers, submit, FINISHED)', base, '1.00x'],
          ['application mode (submit → Job Complete)', total, `${(total / base).toFixed(2)}x`],
        ],
      ),
    );
  } finally {
    await stack.stop();
    await cp.stop();
  }
}

run().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 1;
});
