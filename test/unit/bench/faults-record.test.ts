// bench/faults' record of trials across runs: what goes in comes back, and a record from other
// conditions, a bad line or a doubled trial is refused with the line and the rule.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { FaultFigures } from '../../../bench/faults-measure';
import {
  appendRecord,
  MAX_RECORD_BYTES,
  parseRecord,
  readEarlier,
  recordLine,
  type RunInfo,
} from '../../../bench/faults-record';

const CONDITIONS = { apiMinutes: 10, partitionMs: 60_000, nodeGraceSeconds: null, checkpointMs: 3000 };
const RUN: RunInfo = { run: '2026-12-07T05:20Z', commit: '291b6b6aaaaa', conditions: CONDITIONS };

const figure = (over: Partial<FaultFigures> = {}): FaultFigures => ({
  kind: 'node-active-master',
  trial: 1,
  at: 1_800_000_000_000,
  wholeMs: 74_900,
  rowsAgainMs: 0,
  lost: 0,
  duplicated: 320,
  drained: false,
  note: 'seatunnel-node-2',
  ...over,
});

test('figures appended by one run come back, labelled with that run, for the next', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'faults-record-'));
  const file = path.join(dir, 'faults.jsonl');
  const a = figure();
  const b = figure({
    kind: 'api-server',
    trial: 2,
    wholeMs: undefined,
    error: 'not whole after 600 s',
    note: undefined,
  });
  appendRecord(file, RUN, [a]);
  appendRecord(file, RUN, [b]);
  expect(readEarlier(file, CONDITIONS)).toEqual([
    { ...a, run: RUN.run },
    { ...b, run: RUN.run },
  ]);
  expect(readEarlier(undefined, CONDITIONS)).toEqual([]);
});

test('trials made under other conditions are refused, both sets of conditions named', () => {
  const other = recordLine({ ...RUN, conditions: { ...CONDITIONS, apiMinutes: 3 } }, figure());
  expect(() => parseRecord(other, 'r.jsonl', CONDITIONS)).toThrow(
    'r.jsonl line 1: run 2026-12-07T05:20Z was made with API server away 3 min, partition 60 s, node grace default s, checkpoint 3 s; ' +
      'this run has API server away 10 min, partition 60 s, node grace default s, checkpoint 3 s: trials under other conditions are not summarized together',
  );
});

test('a bad field is refused with its line, its value and the rule', () => {
  const good = recordLine(RUN, figure());
  const bad = recordLine(RUN, figure({ lost: -1 }));
  expect(() => parseRecord(`${good}\n\n${bad}\n`, 'r.jsonl', CONDITIONS)).toThrow(
    'r.jsonl line 3: figures.lost must be a whole number ≥ 0, got -1',
  );
  const kind = recordLine(RUN, figure({ kind: 'meteor' as never }));
  expect(() => parseRecord(kind, 'r.jsonl', CONDITIONS)).toThrow(
    /figures\.kind must be one of node-active-master, .*got "meteor"/,
  );
  const extra = JSON.stringify({ ...RUN, figures: { ...figure(), rowsLost: 0 } });
  expect(() => parseRecord(extra, 'r.jsonl', CONDITIONS)).toThrow(
    'r.jsonl line 1: figures has unknown field(s) rowsLost',
  );
  expect(() => parseRecord('{"run": 1', 'r.jsonl', CONDITIONS)).toThrow(/^r\.jsonl line 1: not JSON/);
  expect(() => parseRecord('[1]', 'r.jsonl', CONDITIONS)).toThrow('r.jsonl line 1: expected an object');
});

test('a trial given twice would count twice: refused, across files too', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'faults-record-'));
  const file = path.join(dir, 'faults.jsonl');
  appendRecord(file, RUN, [figure()]);
  expect(() => readEarlier(`${file},${file}`, CONDITIONS)).toThrow(
    `BENCH_FAULTS_EARLIER: ${file} line 1: run 2026-12-07T05:20Z trial 1 node-active-master is recorded twice`,
  );
  // The same trial number of another run is another trial.
  appendRecord(file, { ...RUN, run: '2026-12-08T09:00Z' }, [figure()]);
  expect(readEarlier(file, CONDITIONS)).toHaveLength(2);
});

test('a record is bounded in size, and a missing file is named', () => {
  expect(() => parseRecord('x'.repeat(MAX_RECORD_BYTES + 1), 'big.jsonl', CONDITIONS)).toThrow(
    `big.jsonl: larger than ${MAX_RECORD_BYTES} bytes, not a record of bench:faults`,
  );
  expect(() => readEarlier('/nonexistent/faults.jsonl', CONDITIONS)).toThrow(
    /^BENCH_FAULTS_EARLIER: \/nonexistent\/faults\.jsonl cannot be read/,
  );
});
