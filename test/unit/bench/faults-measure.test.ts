// bench/faults' pure figures: when rows flow again, each fault window's rows, the table and the targets.
import { countedJob, newTableRowAfter, ROWS_PER_TABLE, type Emitted, type SinkRow } from '../../../bench/failover-rows';
import {
  figuresOf,
  ratioText,
  rowsAgainMs,
  summarize,
  summaryTable,
  tablesForTrial,
  selectFaults,
  CLUSTER_FAULTS,
  targetLines,
  type FaultFigures,
  type FaultRun,
} from '../../../bench/faults-measure';

/** Rows of tables `from`…`to` (inclusive), table t written at `at(t)`, emitted at the same time. */
function stream(from: number, to: number, at: (t: number) => number): { rows: SinkRow[]; emitted: Emitted[] } {
  const rows: SinkRow[] = [];
  const emitted: Emitted[] = [];
  for (let t = from; t <= to; t++) {
    emitted.push({ at: at(t), table: t });
    for (let j = 0; j < ROWS_PER_TABLE; j++) rows.push({ at: at(t), id: t * ROWS_PER_TABLE + j });
  }
  return { rows, emitted };
}

describe('rowsAgainMs', () => {
  const everySecond = (times: number[]) => times.map((at, id) => ({ at, id }));

  test('rows that never paused: 0', () => {
    expect(rowsAgainMs(everySecond([1000, 2000, 3000, 4000, 5000]), 2500, 10_000)).toBe(0);
  });

  test('the end of a pause longer than 5 s, counted from the fault', () => {
    expect(rowsAgainMs(everySecond([1000, 2000, 9000, 10_000]), 2500, 20_000)).toBe(6500);
  });

  test('the last of several pauses: when rows flow again for good', () => {
    expect(rowsAgainMs(everySecond([1000, 2000, 9000, 10_000, 30_000, 31_000]), 2500, 40_000)).toBe(27_500);
  });

  test('a pause that began just before the fault counts from its beginning', () => {
    // The last row at 1900, the fault recorded at 2000, rows again at 6950: a 5.05 s pause.
    expect(rowsAgainMs(everySecond([1000, 1900, 6950]), 2000, 20_000)).toBe(4950);
    // A pause of 4.9 s in all is no pause.
    expect(rowsAgainMs(everySecond([1000, 1900, 6800]), 2000, 20_000)).toBe(0);
  });

  test('rows after the window do not count; no row after the fault: undefined', () => {
    expect(rowsAgainMs(everySecond([1000, 2000, 30_000]), 2500, 20_000)).toBeUndefined();
    expect(rowsAgainMs(everySecond([1000, 2000]), 2500, 20_000)).toBeUndefined();
  });
});

describe('figuresOf', () => {
  test('each fault its window: lost rows of the tables emitted in it, rows written again in it', () => {
    // Tables 0-29 one a second from 0 s; table 12 (emitted in the second window) never written;
    // table 5 written again at 28.5 s (second window); a pause 19 s → 27 s in the second window.
    const s = stream(0, 29, (t) => (t < 20 ? t * 1000 : (t + 7) * 1000));
    const rows = s.rows.filter((r) => Math.floor(r.id / ROWS_PER_TABLE) !== 12);
    rows.push(...stream(5, 5, () => 28_500).rows);
    const runs: FaultRun[] = [
      { kind: 'bare-master', trial: 1, at: 0, wholeMs: 3000 },
      { kind: 'bare-worker', trial: 1, at: 10_500, wholeMs: 4000 },
    ];
    const [master, worker] = figuresOf(runs, { rows, emitted: s.emitted }, 60_000);
    expect(master).toMatchObject({ kind: 'bare-master', lost: 0, duplicated: 0, rowsAgainMs: 0, drained: false });
    expect(worker).toMatchObject({
      kind: 'bare-worker',
      lost: ROWS_PER_TABLE,
      duplicated: ROWS_PER_TABLE,
      rowsAgainMs: 27_000 - 10_500,
      drained: false,
    });
  });

  test('a fault after the stream ended is drained: no rows figure', () => {
    const s = stream(0, 9, (t) => t * 1000);
    const [, late] = figuresOf(
      [
        { kind: 'partition', trial: 1, at: 500 },
        { kind: 'api-server', trial: 1, at: 20_000 },
      ],
      s,
      30_000,
    );
    expect(late).toMatchObject({ drained: true, rowsAgainMs: undefined });
  });
});

const fig = (f: Partial<FaultFigures> & Pick<FaultFigures, 'kind'>): FaultFigures => ({
  trial: 1,
  at: 0,
  lost: 0,
  duplicated: 0,
  drained: false,
  ...f,
});

describe('summarize and the table', () => {
  const figures = [
    fig({ kind: 'node-active-master', rowsAgainMs: 20_000, wholeMs: 90_000, duplicated: 5 }),
    fig({ kind: 'node-active-master', rowsAgainMs: 40_000, wholeMs: 70_000, duplicated: 10 }),
    fig({ kind: 'node-active-master', rowsAgainMs: 30_000, wholeMs: 80_000, lost: 5 }),
    fig({ kind: 'node-active-master', error: 'timed out', lost: 99 }),
    fig({ kind: 'bare-master', rowsAgainMs: 10_000, wholeMs: 12_000 }),
    fig({ kind: 'master-process', rowsAgainMs: 11_000, wholeMs: 15_000 }),
    fig({ kind: 'api-server', rowsAgainMs: 0, wholeMs: 4000 }),
    fig({ kind: 'api-server', drained: true, wholeMs: 6000, lost: 50 }),
  ];

  test('p50 and max of the times of the trials that succeeded, rows summed over every trial whose stream ran', () => {
    const rows = summarize(figures);
    expect(rows.map((r) => r.kind)).toEqual(['node-active-master', 'api-server', 'master-process', 'bare-master']);
    expect(rows[0]).toEqual({
      kind: 'node-active-master',
      trials: 3,
      failed: 1,
      rowsAgain: { p50: 30_000, max: 40_000 },
      whole: { p50: 80_000, max: 90_000 },
      lost: 5 + 99,
      duplicated: 15,
      drained: 0,
    });
    expect(rows[1]).toMatchObject({ trials: 2, drained: 1, lost: 0, rowsAgain: { p50: 0, max: 0 } });
    expect(rows[1].whole).toEqual({ p50: 5000, max: 6000 });
  });

  test('one line per fault, seconds with one decimal', () => {
    const { head, cells } = summaryTable(summarize(figures));
    expect(head).toHaveLength(cells[0].length);
    expect(cells[0]).toEqual([
      'node stopped (active master)',
      '3 (+1 failed)',
      '30.0',
      '40.0',
      '80.0',
      '90.0',
      '104',
      '15',
    ]);
    expect(cells[1].slice(0, 2)).toEqual(['API server stopped', '2 (1 drained)']);
  });

  test('targets: rows lost, a lost node within 60 s, at most 20 % slower than bare', () => {
    const lines = targetLines(summarize(figures));
    expect(lines).toContain(
      'Target 0 rows lost — node stopped (active master): 104 lost over 4 counted trial(s), 1 of them failed: MISSED',
    );
    expect(lines).toContain('Target 0 rows lost — bare Zeta: master killed: 0 lost over 1 counted trial(s): met');
    expect(lines).toContain(
      'Target lost node whole again in ≤ 60 s — node stopped (active master): max 90.0 s: MISSED',
    );
    // The same fault on both sides: the process killed.
    expect(lines).toContain(
      'Target ≤ 20 % slower than bare — active master process killed vs bare Zeta: master killed, rows again p50: 11.0 s vs 10.0 s = 1.10x: met',
    );
    expect(lines).toContain(
      'Target ≤ 20 % slower than bare — active master process killed vs bare Zeta: master killed, whole again p50: 15.0 s vs 12.0 s = 1.25x: MISSED',
    );
    // A lost node is no fault bare Zeta can have; no worker process was killed: no other comparison line.
    expect(lines.filter((l) => l.includes('slower than bare'))).toHaveLength(2);
  });

  test('ratios: within 20 % is met; a bare 0 is met only by 0', () => {
    expect(ratioText(11_900, 10_000)).toBe('11.9 s vs 10.0 s = 1.19x: met');
    expect(ratioText(12_100, 10_000)).toMatch(/1\.21x: MISSED$/);
    expect(ratioText(0, 0)).toBe('0.0 s vs 0.0 s = 1.00x: met');
    expect(ratioText(1000, 0)).toBe('1.0 s vs 0.0 s = ∞: MISSED');
    expect(ratioText(undefined, 0)).toMatch(/no figure$/);
  });
});

describe('tablesForTrial', () => {
  test('a trial with the 10-minute outage fits its job in a ConfigMap (1 MiB)', () => {
    const tables = tablesForTrial(10);
    expect(tables).toBeGreaterThanOrEqual((10 + 15) * 60);
    expect(JSON.stringify(countedJob(tables, 3000)).length).toBeLessThan(1024 * 1024);
  });

  test('a trial of some faults streams for those only, the outage only when it is one of them', () => {
    expect(tablesForTrial(10, ['master-process', 'worker-process'])).toBe((2 + 3 + 3) * 60);
    expect(tablesForTrial(10, ['api-server'])).toBe((4 + 10 + 3) * 60);
    expect(tablesForTrial(10)).toBeGreaterThan(tablesForTrial(10, ['api-server']));
  });
});

describe('selectFaults (BENCH_FAULTS_STEPS)', () => {
  test('unset or empty: every fault of the node cluster, in the order a trial runs them', () => {
    expect(selectFaults(undefined)).toEqual(CLUSTER_FAULTS);
    expect(selectFaults(' ')).toEqual(CLUSTER_FAULTS);
    expect(CLUSTER_FAULTS).toContain('master-process');
    expect(CLUSTER_FAULTS).not.toContain('bare-master');
  });

  test("a list: those faults, in the trial's order whatever the list's", () => {
    expect(selectFaults('worker-process, master-process')).toEqual(['master-process', 'worker-process']);
  });

  test('an unknown name (or a bare fault) fails naming the variable, the value and the choices', () => {
    expect(() => selectFaults('master-process,bare-master')).toThrow(
      /^BENCH_FAULTS_STEPS: expected a comma-separated list of node-active-master, .*worker-process, got "master-process,bare-master" \(unknown: bare-master\)$/,
    );
  });
});

describe('newTableRowAfter', () => {
  const row = (table: number, at: number): SinkRow => ({ at, id: table * ROWS_PER_TABLE });

  it('ignores rows of tables first emitted before the fault, replayed or late', () => {
    // tables 0–9 emitted before the fault at 10 000; table 3 replayed and written after it
    const emitted: Emitted[] = [
      ...Array.from({ length: 10 }, (_, t) => ({ at: t * 1000, table: t })),
      { at: 12_000, table: 3 },
    ];
    const rows = [row(9, 9500), row(3, 12_500), row(8, 13_000)];
    expect(newTableRowAfter(rows, emitted, 10_000)).toBeUndefined();
  });

  it('is the first row of a table the source first emitted after the fault', () => {
    const emitted: Emitted[] = [
      { at: 9000, table: 9 },
      { at: 15_000, table: 10 },
      { at: 16_000, table: 11 },
    ];
    const rows = [row(9, 11_000), row(11, 16_500), row(10, 17_000)];
    expect(newTableRowAfter(rows, emitted, 10_000)).toBe(16_500);
  });
});
