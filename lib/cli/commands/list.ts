// `seatunnel-app list [-a deploy.conf | --namespace NS | --all-namespaces] [-l SELECTOR]
// [--status S,...]`: one line per application with what `status --id` says of it (the same
// derivation, lib/submit/observe/list.ts), from a constant number of list calls. Exits 0 whenever the
// query worked, whatever the statuses.

import { listApplications } from '../../submit/observe/list';
import type { StatusReport } from '../../submit/observe/status';
import type { ParsedArgs } from '../args';
import { connectKube, connectionFromArgs } from '../connect';
import { CLI_EXIT } from '../exit-codes';
import { table, type Output } from '../output';
import { statusData } from './status';

const HEADER = ['ID', 'STATUS', 'PHASE', 'WORKERS', 'ROWS', 'JOB ID', 'AGE', 'NAME'];

/** kubectl's age: the two largest units, e.g. 45s, 3m12s, 5h3m, 2d4h, 400d. */
export function age(from: string | undefined, now: number): string {
  const t = from ? Date.parse(from) : NaN;
  if (Number.isNaN(t)) return '-';
  const s = Math.max(0, Math.floor((now - t) / 1000));
  const d = Math.floor(s / 86400);
  const h = Math.floor((s % 86400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  if (d >= 10) return `${d}d`;
  if (d > 0) return h ? `${d}d${h}h` : `${d}d`;
  if (h > 0) return m ? `${h}h${m}m` : `${h}h`;
  if (m > 0) return s % 60 ? `${m}m${s % 60}s` : `${m}m`;
  return `${s}s`;
}

/** Workers as status prints them: registered/desired, "?" for what the runtime has not recorded. */
export function workersCell(r: StatusReport): string {
  const w = r.workers;
  return w ? `${w.registered ?? '?'}/${w.desired ?? '?'}` : '-';
}

/** The table `list` prints: a header, then one row per report (with NAMESPACE first across namespaces); ROWS: rows written. */
export function listTable(reports: readonly StatusReport[], now: number, allNamespaces: boolean): string[] {
  const rows = reports.map((r) => [
    ...(allNamespaces ? [r.namespace] : []),
    r.applicationId,
    r.status,
    r.phase ?? '-',
    workersCell(r),
    r.rows ? String(r.rows.written) : '-',
    r.zetaJobId ?? '-',
    age(r.createdAt, now),
    r.name ?? '-',
  ]);
  return table([[...(allNamespaces ? ['NAMESPACE'] : []), ...HEADER], ...rows]);
}

export async function listCommand(args: ParsedArgs, out: Output): Promise<number> {
  const conn = connectionFromArgs(args);
  const namespace = args.allNamespaces ? undefined : (args.namespace ?? conn.namespace);
  const kube = await connectKube(conn, out);
  try {
    const reports = await listApplications(kube, { namespace, selector: args.selector }, { statuses: args.statuses });
    if (!out.json && reports.length === 0) {
      out.error(
        `No applications found${namespace === undefined ? '' : ` in namespace ${namespace}`}${args.selector || args.statuses ? ' that match the filters' : ''}.`,
      );
    }
    out.result(
      reports.map((r) => statusData(r)),
      reports.length ? listTable(reports, Date.now(), namespace === undefined) : [],
    );
    return CLI_EXIT.ok;
  } finally {
    kube.api.close();
  }
}
