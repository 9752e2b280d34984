// bench/e2e's tables: every phase of the application next to bare Zeta and its floor, each
// setting of this release against the same set-up without it, the totals against SeaTunnel's
// defaults, and the HA application's phases.

import { JOIN_WAIT_PROPERTY } from '../lib/engine/files';
import { HA_MASTERS, JOINED, MASTER_UP, WORKERS, ZETA_PHASES, type Phases } from './e2e-measure';
import { CREATED, TO_FINISHED, TO_REPORTED, type NodeRound } from './e2e-node';
import { median, table } from './harness';

export interface Round {
  app: Phases;
  appBefore: Phases;
  own: Phases;
  ownNoCds: Phases;
  ownJoinWait: Phases;
  stock: Phases;
  jvm: number;
  alone: number;
  job: { start: number; complete: number };
}

function med<R>(rounds: readonly R[], pick: (r: R) => number | undefined): number | undefined {
  const xs = rounds.map(pick).filter((x): x is number => x !== undefined);
  return xs.length ? median(xs) : undefined;
}

const cell = (x: number | undefined) => (x === undefined ? '' : Math.round(x));
const ratio = (a: number | undefined, b: number | undefined) =>
  a === undefined || b === undefined || b <= 0 ? '' : `${(a / b).toFixed(2)}x`;

export function report(rounds: readonly Round[]): void {
  const floorOf: Record<string, [string, (r: Round) => number]> = {
    'Job unsuspended → master process started': ['trivial Job: created → process runs', (r) => r.job.start],
    'master JVM started → REST up': ['Zeta master alone (java -version: see below)', (r) => r.alone],
    'process exited → Job Complete': ['trivial Job: process exit → Complete', (r) => r.job.complete],
  };
  const phases = Object.keys(rounds[0].app);
  console.log(
    `One batch application (FakeSource 2 × 1000 rows → Console, ${WORKERS} workers × 2 slots), median of ${rounds.length} rounds, ms.`,
  );
  console.log(
    '"bare, own files": bare Zeta processes on application mode\'s engine files; "bare, defaults": on SeaTunnel 2.3.8\'s config/.',
  );
  console.log('');
  console.log(
    table(
      [
        'phase',
        'application',
        'bare, own files',
        'app / bare',
        'bare, defaults',
        'floor',
        'app / floor',
        'floor measured as',
      ],
      phases.map((p) => {
        const app = med(rounds, (r) => r.app[p]);
        const own = med(rounds, (r) => r.own[p]);
        const stock = med(rounds, (r) => r.stock[p]);
        const f = floorOf[p];
        const floor = f ? med(rounds, f[1]) : ZETA_PHASES.includes(p) ? own : undefined;
        return [
          p,
          cell(app),
          cell(own),
          ratio(app, own),
          cell(stock),
          cell(floor),
          ratio(app, floor),
          f ? f[0] : floor !== undefined ? 'bare, own files' : '',
        ];
      }),
    ),
  );
  console.log('');
  console.log(
    table(
      ['floor', 'median', 'min', 'max'],
      [
        ['java -version', ...stats(rounds.map((r) => r.jvm))],
        ['Zeta master alone → REST up', ...stats(rounds.map((r) => r.alone))],
      ],
    ),
  );
  const gain = (
    label: string,
    phase: string,
    pick: (r: Round) => Phases,
    without: (r: Round) => Phases,
  ): Array<string | number> => {
    const a = med(rounds, (r) => pick(r)[phase]);
    const w = med(rounds, (r) => without(r)[phase]);
    return [label, phase, cell(a), cell(w), a !== undefined && w !== undefined ? Math.round(w - a) : '', ratio(a, w)];
  };
  const bareOwn = (r: Round) => r.own;
  console.log('');
  console.log('Each setting against the same set-up without it (medians, ms; gain = without − with):');
  console.log(
    table(
      ['setting', 'phase', 'with', 'without', 'gain', 'with / without'],
      [
        {
          label: 'class-data sharing archive (bare, own files)',
          pick: bareOwn,
          without: (r: Round) => r.ownNoCds,
          phases: [MASTER_UP, 'total'],
        },
        {
          label: `${JOIN_WAIT_PROPERTY}: 0, not 5 (bare, own files)`,
          pick: bareOwn,
          without: (r: Round) => r.ownJoinWait,
          phases: [JOINED, 'total'],
        },
        {
          label: 'both (application mode)',
          pick: (r: Round) => r.app,
          without: (r: Round) => r.appBefore,
          phases: [MASTER_UP, JOINED, 'total'],
        },
      ].flatMap((c) => c.phases.map((phase) => gain(c.label, phase, c.pick, c.without))),
    ),
  );
  const total = med(rounds, (r) => r.app.total)!;
  const before = med(rounds, (r) => r.appBefore.total)!;
  const stock = med(rounds, (r) => r.stock.total)!;
  const own = med(rounds, (r) => r.own.total)!;
  console.log('');
  console.log(
    table(
      ['start → job FINISHED (application: submit → Job Complete)', 'ms', 'ratio'],
      [
        ['bare Zeta, SeaTunnel 2.3.8 defaults (the baseline)', stock, '1.00x'],
        ["bare Zeta, application mode's engine files", own, ratio(own, stock)],
        ["application mode, without this release's two settings", before, ratio(before, stock)],
        ['application mode', total, `${ratio(total, stock)} (target ≤ 0.90x)`],
      ],
    ),
  );
}

export function reportHa(ha: readonly Phases[], rounds: readonly Round[]): void {
  const app = rounds.length ? med(rounds, (r) => r.app.total) : undefined;
  const stock = rounds.length ? med(rounds, (r) => r.stock.total) : undefined;
  console.log('');
  console.log(
    `The same job as an HA application (${HA_MASTERS} masters, backup-count 1), median of ${ha.length} rounds, ms:`,
  );
  console.log(
    table(
      ['phase (HA application)', 'median', 'min', 'max'],
      Object.keys(ha[0]).map((p) => {
        const xs = ha.map((r) => r[p]).filter((x): x is number => x !== undefined);
        return [p, ...(xs.length ? stats(xs).map(Math.round) : ['', '', ''])];
      }),
    ),
  );
  const total = med(ha, (r) => r.total)!;
  if (app !== undefined && stock !== undefined) {
    console.log(
      `HA application total ${Math.round(total)} ms: ${ratio(total, app)} the application without HA, ${ratio(total, stock)} bare Zeta on SeaTunnel's defaults.`,
    );
  }
}

function stats(xs: readonly number[]): number[] {
  return [median(xs), Math.min(...xs), Math.max(...xs)];
}

/** bench/e2e --node: the application next to bare Zeta in Pods on the same real node, and the node's floors. */
export function reportNode(rounds: readonly NodeRound[]): void {
  const floorOf: Record<string, [string, (r: NodeRound) => number]> = {
    [CREATED]: ['trivial Job: created → process runs', (r) => r.job.start],
    'process exited → Job Complete': ['trivial Job: process exit → Complete', (r) => r.job.complete],
  };
  const phases = [...new Set([...Object.keys(rounds[0].app), ...Object.keys(rounds[0].bare)])].filter(
    (p) => p !== 'total',
  );
  console.log('');
  console.log(
    `On a real node (containerd, runc, CNI, kube-proxy, kube-router): the same job, median of ${rounds.length} rounds, ms.`,
  );
  console.log(
    '"bare Zeta in Pods": a master Pod and two worker Pods created together by a plain manifest — the same image, engine files, command lines, CPU and memory.',
  );
  console.log('"created": the application\'s Job unsuspended by submit; the bare Pods created.');
  console.log('');
  console.log(
    table(
      ['phase', 'application', 'bare Zeta in Pods', 'app / bare', 'floor', 'app / floor', 'floor measured as'],
      [...phases, 'total'].map((p) => {
        const app = med(rounds, (r) => r.app[p]);
        const bare = med(rounds, (r) => r.bare[p]);
        const f = floorOf[p];
        const floor = f ? med(rounds, f[1]) : undefined;
        return [p, cell(app), cell(bare), ratio(app, bare), cell(floor), ratio(app, floor), f ? f[0] : ''];
      }),
    ),
  );
  const app = med(rounds, (r) => r.app.total)!;
  const bare = med(rounds, (r) => r.bare.total)!;
  console.log('');
  console.log(
    `rounds (application / bare, ms): ${rounds.map((r) => `${Math.round(r.app.total!)} / ${Math.round(r.bare.total!)}`).join(', ')}`,
  );
  console.log(
    `application (submit → Job Complete) ${Math.round(app)} ms, bare Zeta in Pods (created → job FINISHED) ${Math.round(bare)} ms: ${ratio(app, bare)} (target ≤ 1.00x)`,
  );
  const reported = med(rounds, (r) => r.app[TO_REPORTED])!;
  console.log(`application until status --wait returns SUCCEEDED ${Math.round(reported)} ms: ${ratio(reported, bare)}`);
  const finished = med(rounds, (r) => r.app[TO_FINISHED])!;
  const floors = med(rounds, (r) => r.job.start + r.job.complete)!;
  console.log(
    `application to its job FINISHED ${Math.round(finished)} ms: ${ratio(finished, bare)}; its total less the trivial Job's floors (${Math.round(floors)} ms: created → process runs, process exit → Complete) ${Math.round(app - floors)} ms: ${ratio(app - floors, bare)}`,
  );
}
