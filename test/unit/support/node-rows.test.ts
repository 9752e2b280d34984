// The faults test's row account (test/support/node-rows.ts): what it calls lost and duplicated, and
// a replay before any fault.
import { concurrentWriting, duplicatesBefore, rowAccount, unexplainedWriting } from '../../support/node-rows';

const row = (id: number, at: number) => ({ id, at });

describe('the row account of the faults test', () => {
  test('lost ids as ranges; every extra copy counts as a duplicate', () => {
    const rows = [row(0, 1), row(1, 2), row(1, 9), row(1, 10), row(4, 3)];
    expect(rowAccount(rows, 6)).toEqual({ expected: 6, written: 5, lost: 3, duplicated: 2, lostRanges: '2-3 5' });
  });

  test('a row written again before the first fault is a replay with no fault behind it; after it, a restore', () => {
    const rows = [row(0, 1), row(1, 2), row(0, 5), row(1, 20), row(2, 21), row(2, 22)];
    expect(duplicatesBefore(rows, 10)).toBe(1);
    expect(duplicatesBefore(rows, 5)).toBe(0);
    // Order of arrival does not matter: the first copy is the earliest.
    expect(duplicatesBefore([...rows].reverse(), 10)).toBe(1);
    expect(duplicatesBefore(rows, Number.POSITIVE_INFINITY)).toBe(3);
  });

  describe('two readers of one stream at once', () => {
    /** Rows a second from `from` to `to` (s), as the source emits them. */
    const steady = (from: number, to: number) =>
      Array.from({ length: to - from + 1 }, (_, i) => row(i, (from + i) * 1000));

    test('a handover (the old reader gone, the restored one starting) is no overlap', () => {
      expect(concurrentWriting([steady(0, 30), steady(40, 90)])).toEqual([]);
      // Even one second apart.
      expect(concurrentWriting([steady(0, 30), steady(31, 90)])).toEqual([]);
    });

    test('a reader that runs on beside the restored one: the span both wrote in, and how many wrote', () => {
      expect(concurrentWriting([steady(0, 100), steady(40, 90)])).toEqual([{ from: 40_000, to: 90_001, writers: 2 }]);
      expect(concurrentWriting([steady(0, 100), steady(40, 90), steady(50, 60)])).toEqual([
        { from: 40_000, to: 90_001, writers: 3 },
      ]);
    });

    test('a reader that paused longer than the gap makes two runs; only their overlaps count', () => {
      const paused = [...steady(0, 10), ...steady(50, 60)];
      expect(concurrentWriting([paused, steady(20, 40)])).toEqual([]);
      expect(concurrentWriting([paused, steady(20, 55)])).toEqual([{ from: 50_000, to: 55_001, writers: 2 }]);
      expect(concurrentWriting([paused, steady(20, 55)], 60_000)).toEqual([{ from: 20_000, to: 55_001, writers: 2 }]);
    });

    test('one log, or none, never overlaps', () => {
      expect(concurrentWriting([steady(0, 100)])).toEqual([]);
      expect(concurrentWriting([])).toEqual([]);
      expect(concurrentWriting([[], steady(0, 5)])).toEqual([]);
    });

    test('what a fault explains: writers together during it and up to the grace after it; nothing before the faults', () => {
      const faults = [
        { from: 100_000, to: 160_000 },
        { from: 300_000, to: 360_000 },
      ];
      const span = (from: number, to: number) => ({ from: from * 1000, to: to * 1000, writers: 2 });
      // During the first fault, and ending 20 s after the second: explained.
      expect(unexplainedWriting([span(130, 170), span(350, 380)], faults, 30_000)).toEqual([]);
      // Begun before any fault; or lasting to the stream's end after a heal: not.
      expect(unexplainedWriting([span(50, 60), span(170, 290)], faults, 30_000)).toEqual([
        span(50, 60),
        span(170, 290),
      ]);
    });
  });
});
