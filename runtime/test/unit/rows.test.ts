// The job's rows on the Job (issue 28 item 4): Zeta's metrics parsed, written at most every 10 s
// with the rate since the last recording, the final counts at the end; read back by status.
import {
  ANNOTATIONS,
  parseRowsAnnotation,
  ROWS_RECORD_INTERVAL_MS,
  rowsAnnotation,
  rowsOfZetaMetrics,
} from 'seatunnel-app/internal/contract';
import { RowsRecorder } from '../../src/report/rows';
import type { StatusPatch } from '../../src/report/reporter';
import { FakeClock } from './fakes';
import { setup } from './lifecycle-setup';

test("Zeta 2.3.8's job metrics: numbers or decimal strings; anything else is no reading", () => {
  expect(rowsOfZetaMetrics({ SourceReceivedCount: 32, SinkWriteCount: 30, SinkWriteQPS: 1.5 })).toEqual({
    read: 32,
    written: 30,
  });
  expect(rowsOfZetaMetrics({ SourceReceivedCount: '1200', SinkWriteCount: '1180' })).toEqual({
    read: 1200,
    written: 1180,
  });
  for (const bad of [
    undefined,
    null,
    'x',
    {},
    { SourceReceivedCount: 1 },
    { SourceReceivedCount: -1, SinkWriteCount: 1 },
  ])
    expect(rowsOfZetaMetrics(bad)).toBeUndefined();
  expect(rowsOfZetaMetrics({ SourceReceivedCount: '1e3', SinkWriteCount: 1.5 })).toBeUndefined();
});

test('the annotation round-trips; a value the runtime would not write reads as nothing', () => {
  const rows = { read: 5, written: 4, perSecond: 2, at: '2026-01-01T00:00:00Z' };
  expect(parseRowsAnnotation(rowsAnnotation(rows))).toEqual(rows);
  for (const bad of [
    undefined,
    '',
    '{',
    '[]',
    '{"read":1,"written":1}',
    '{"read":"x","written":1,"at":"2026-01-01T00:00:00Z"}',
    'x'.repeat(600),
  ])
    expect(parseRowsAnnotation(bad)).toBeUndefined();
});

describe('the recorder', () => {
  function recorder() {
    const clock = new FakeClock();
    const patches: StatusPatch[] = [];
    const r = new RowsRecorder(clock, (p) => patches.push(p));
    const written = () => patches.map((p) => parseRowsAnnotation(p.rows ?? undefined));
    return { clock, r, written };
  }

  test('the first reading at once, then at most every 10 s with the rate since the last recording', () => {
    const { clock, r, written } = recorder();
    r.seen({ read: 10, written: 10 });
    clock.advance(1000);
    r.seen({ read: 20, written: 20 }); // within the interval: not written
    clock.advance(ROWS_RECORD_INTERVAL_MS - 1000);
    r.seen({ read: 1010, written: 1000 });
    expect(written().map((w) => [w?.read, w?.written, w?.perSecond])).toEqual([
      [10, 10, undefined],
      [1010, 1000, 99],
    ]);
  });

  test('unchanged counts: the rate drops to 0 once, then nothing more is written', () => {
    const { clock, r, written } = recorder();
    r.seen({ read: 10, written: 10 });
    for (let i = 0; i < 3; i++) {
      clock.advance(ROWS_RECORD_INTERVAL_MS);
      r.seen({ read: 10, written: 10 });
    }
    expect(written().map((w) => w?.perSecond)).toEqual([undefined, 0]);
  });

  test('the end is written at once, with the final counts and no rate', () => {
    const { clock, r, written } = recorder();
    r.seen({ read: 10, written: 10 });
    clock.advance(500);
    r.seen({ read: 32, written: 32 }, true);
    expect(written().at(-1)).toEqual({ read: 32, written: 32, at: expect.stringMatching(/Z$/) });
  });
});

test('a running job: the Job carries the rows and rate while it runs, the final counts at its end', async () => {
  const s = setup();
  s.engine.script = (n) => (n >= 40 ? 'FINISHED' : 'RUNNING');
  s.engine.rows = (n) => ({ read: 100 * n, written: 90 * n });
  await s.run();
  const recorded = s.kube.annotationPatches
    .map((p) => parseRowsAnnotation(p[ANNOTATIONS.rows] ?? undefined))
    .filter((r) => r !== undefined);
  expect(recorded.length).toBeGreaterThanOrEqual(3);
  // Each rate is the rows written between two recordings over the seconds between them (10 s apart).
  for (let i = 1; i < recorded.length - 1; i++) {
    const seconds = (Date.parse(recorded[i].at) - Date.parse(recorded[i - 1].at)) / 1000;
    expect(seconds).toBe(ROWS_RECORD_INTERVAL_MS / 1000);
    expect(recorded[i].perSecond).toBe(Math.round((recorded[i].written - recorded[i - 1].written) / seconds));
    expect(recorded[i].perSecond).toBeGreaterThan(0);
  }
  expect(recorded.at(-1)).toMatchObject({ read: 4000, written: 3600 });
  expect(recorded.at(-1)?.perSecond).toBeUndefined();
});

test('an engine that reports no metrics: no rows annotation', async () => {
  const s = setup();
  s.engine.rows = () => undefined;
  await s.run();
  expect(s.kube.annotations[ANNOTATIONS.rows]).toBeUndefined();
});
