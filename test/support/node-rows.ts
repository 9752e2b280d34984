// Rows counted end to end on the real nodes: the Console sink logs every row it writes, and every
// node's kubelet keeps its containers' logs under its own directory (podLogsDir) — also a node
// that was stopped, whose files stay on this machine's disk. Read from there rather than through
// the API, which cannot reach a stopped or cut-off node's kubelet.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { sinkRows, type SinkRow } from '../../bench/failover-rows';
import { nodeInfos } from './node-pods';

/** The log files of `namespace`'s Pods whose names start with `prefix`, on every node. */
function logFiles(namespace: string, prefix: string): string[] {
  const files: string[] = [];
  for (const node of nodeInfos()) {
    const root = path.join(node.dir, 'pod-logs');
    if (!fs.existsSync(root)) continue;
    for (const pod of fs.readdirSync(root)) {
      if (!pod.startsWith(`${namespace}_${prefix}`)) continue;
      const walk = (d: string): void => {
        for (const e of fs.readdirSync(d, { withFileTypes: true })) {
          const p = path.join(d, e.name);
          if (e.isDirectory()) walk(p);
          else if (e.name.endsWith('.log')) files.push(p);
        }
      };
      walk(path.join(root, pod));
    }
  }
  return files;
}

/** Every row the application's workers logged so far, in time order (CRI log lines: the message after the stream tag). */
export function workerRows(namespace: string, appId: string): SinkRow[] {
  const logs = logFiles(namespace, `${appId}-worker-`).map((f) =>
    fs
      .readFileSync(f, 'utf8')
      .split('\n')
      .map((l) => l.replace(/^\S+ (stdout|stderr) [FP] /, ''))
      .join('\n'),
  );
  return sinkRows(logs);
}

export interface RowAccount {
  readonly expected: number;
  readonly written: number;
  readonly lost: number;
  readonly duplicated: number;
}

/** Rows expected (ids 0 … expected-1) against what the sink wrote. */
export function rowAccount(rows: readonly SinkRow[], expected: number): RowAccount {
  const seen = new Map<number, number>();
  for (const r of rows) seen.set(r.id, (seen.get(r.id) ?? 0) + 1);
  let lost = 0;
  for (let id = 0; id < expected; id++) if (!seen.has(id)) lost++;
  const duplicated = [...seen.values()].reduce((n, c) => n + c - 1, 0);
  return { expected, written: rows.length, lost, duplicated };
}

/** When rows go on after `t` (ms): the first row logged after it, else undefined. */
export function firstRowAfter(rows: readonly SinkRow[], t: number): number | undefined {
  return rows.find((r) => r.at > t)?.at;
}
