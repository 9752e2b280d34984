// bench/faults' baseline: the faults bare Zeta can have, on bench/failover's bare cluster
// (failover-bare.ts) shaped like the HA application — 3 masters, 3 workers, the same counted stream —
// its members processes on loopback addresses:
//   bare-master  the active master SIGKILLed and started again as soon as it has exited (as the
//                kubelet restarts a crashed container);
//   bare-worker  the worker writing the rows SIGKILLed and started again the same way.
// Each member may run under a CPU limit of its own (a cgroup's quota, cpu-limit.ts), as the
// application's containers do: BENCH_FAULTS_BARE_CPU.
// "Whole again": every master answers and counts the same 6 members, the killed incarnation not
// among them (its REST member list).

import * as fs from 'node:fs';
import * as http from 'node:http';
import { startBareZeta, type BareMembers } from './failover-bare';
import { countAll, countedJob, newTableRowAfter, sinkRows } from './failover-rows';
import { counted, type Counted } from './failover-trial';
import { CHECKPOINT_MS } from './faults-cluster';
import type { FaultRun } from './faults-measure';
import { until } from './harness';

const MEMBERS = 6;
const WHOLE_TIMEOUT_MS = 300_000;

/**
 * A JSON body read as soon as it is complete: Hazelcast may keep the connection open after the
 * answer, so the end of the stream is not waited for.
 */
function getJson(host: string, port: number, p: string, timeoutMs: number): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const req = http.get({ host, port, path: p, timeout: timeoutMs, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        body += chunk;
        try {
          resolve(JSON.parse(body));
          req.destroy();
        } catch {
          // more to come
        }
      });
      res.on('end', () => reject(new Error(`GET ${p}: HTTP ${res.statusCode}, no JSON body`)));
    });
    req.on('timeout', () => req.destroy(new Error(`GET ${p}: timeout`)));
    req.on('error', reject);
  });
}

/** Per member: its address as Hazelcast prints it, and its uuid; undefined when the master does not answer. */
async function memberList(m: BareMembers, ip: string): Promise<Array<{ address: string; uuid: string }> | undefined> {
  try {
    const body = (await getJson(ip, m.zeta.spec.master.port, '/hazelcast/rest/cluster', 3000)) as {
      members?: Array<{ address: string; uuid: string }>;
    };
    return body.members;
  } catch {
    return undefined;
  }
}

/** The uuid of the member at `ip` as the first master that answers sees it. */
async function uuidOf(m: BareMembers, ip: string): Promise<string | undefined> {
  for (const master of m.masterIps) {
    const members = await memberList(m, master);
    // "[127.0.3.4]:5802" (with or without the brackets)
    if (members) return members.find((x) => x.address.replace(/[[\]]/g, '').startsWith(`${ip}:`))?.uuid;
  }
  return undefined;
}

/** Resolves with the time every master counts the same 6 members, `gone` not among them. */
async function whole(m: BareMembers, gone: string | undefined): Promise<number> {
  await until(
    'bare Zeta whole again',
    WHOLE_TIMEOUT_MS,
    async () => {
      const views = await Promise.all(m.masterIps.map((ip) => memberList(m, ip)));
      const ids = views.map((v) =>
        v
          ?.map((x) => x.uuid)
          .sort()
          .join(),
      );
      return (
        views.every((v) => v?.length === MEMBERS && !v.some((x) => x.uuid === gone)) && ids.every((x) => x === ids[0])
      );
    },
    500,
  );
  return Date.now();
}

/** The worker whose log has the latest row: the one running the task. */
function taskWorker(m: BareMembers): string {
  const latest = (ip: string) =>
    fs.existsSync(m.zeta.logFile(ip)) ? (sinkRows([fs.readFileSync(m.zeta.logFile(ip), 'utf8')]).at(-1)?.at ?? 0) : 0;
  return [...m.workerIps].sort((a, b) => latest(b) - latest(a))[0];
}

export interface BareTrials {
  readonly runs: FaultRun[];
  readonly stream: Counted;
  readonly streamEnd: number;
}

/** `cpuCores`: each member's CPU limit, as the application's containers have one; undefined: none. */
export async function bareTrials(dir: string, trials: number, tables: number, cpuCores?: number): Promise<BareTrials> {
  const up = await startBareZeta(dir, {
    masters: 3,
    workers: 3,
    job: countedJob(tables, CHECKPOINT_MS),
    signal: 'SIGKILL',
    ...(cpuCores ? { cpuCores } : {}),
  });
  // Each figure says under which limit it was made (the record keeps it).
  const limit = cpuCores ? `, ${cpuCores} core per member` : ', no CPU limit';
  const m = up.members;
  const runs: FaultRun[] = [];
  let finished = false;
  // The members run in process groups of their own: an interrupted bench takes them along.
  const interrupted = () => {
    m.zeta.killAll();
    process.exit(130);
  };
  process.once('SIGINT', interrupted).once('SIGTERM', interrupted);
  try {
    await whole(m, undefined);
    for (let trial = 1; trial <= trials; trial++) {
      await up.settle();
      const master = await up.masters.active();
      const masterUuid = await uuidOf(m, master);
      const at = Date.now();
      await up.masters.lose(master);
      await up.masters.replaced(master);
      const wholeMs = (await whole(m, masterUuid)) - at;
      runs.push({ kind: 'bare-master', trial, at, wholeMs, note: `${master}${limit}` });
      console.error(`[faults] bare trial ${trial} master ${master} killed: whole again after ${wholeMs} ms`);

      await up.settle();
      const worker = taskWorker(m);
      const workerUuid = await uuidOf(m, worker);
      const wAt = Date.now();
      await m.zeta.stopMember(worker, 'SIGKILL');
      m.zeta.start('worker', worker);
      const wWholeMs = (await whole(m, workerUuid)) - wAt;
      runs.push({ kind: 'bare-worker', trial, at: wAt, wholeMs: wWholeMs, note: `${worker}${limit}` });
      console.error(`[faults] bare trial ${trial} worker ${worker} killed: whole again after ${wWholeMs} ms`);
    }
    const stream = () => counted(m.workerIps.map((ip) => fs.readFileSync(m.zeta.logFile(ip), 'utf8')));
    const allWritten = () => countAll(stream().rows, stream().emitted).lost === 0;
    // The last fault has no next one to wait behind: rows of a table new after it, or 3 minutes.
    const last = runs.at(-1)!.at;
    await until(
      'bare rows of a new table after the last fault',
      180_000,
      () => {
        const s = stream();
        return newTableRowAfter(s.rows, s.emitted, last);
      },
      1000,
    ).catch(() => undefined);
    // the figures say what is missing
    await until('every emitted bare row written', 180_000, allWritten, 5000).catch(() => undefined);
    const streamEnd = Date.now();
    finished = true;
    return { runs, stream: await up.finish(), streamEnd };
  } finally {
    process.removeListener('SIGINT', interrupted).removeListener('SIGTERM', interrupted);
    if (!finished) await up.finish().catch(() => undefined);
  }
}
