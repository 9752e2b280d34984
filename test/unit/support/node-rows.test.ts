// The faults test's row account (test/support/node-rows.ts): what it calls lost and duplicated, and
// a replay before any fault.
import { duplicatesBefore, rowAccount } from '../../support/node-rows';

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
});
