import {
  applicationIdPrefix,
  derivedJobId,
  isApplicationId,
  randomApplicationId,
  randomJobId,
} from '../../../lib/model/ids';
import { fixedRandom } from '../../support/fixtures';

test.each([
  ['seatunnel', 'seatunnel'],
  ['Orders Sync', 'orders-sync'],
  ['--a__b--', 'a--b'],
  ['日本語', 'seatunnel'],
  ['', 'seatunnel'],
  [`${'x'.repeat(34)}-yyy`, 'x'.repeat(34)],
])('prefix of %p is %p', (name, prefix) => {
  expect(applicationIdPrefix(name)).toBe(prefix);
});

test('random application id: prefix + 12 lower-case hex', () => {
  expect(randomApplicationId('Example', fixedRandom(0x9f))).toBe('example-9f9f9f9f9f9f');
  expect(isApplicationId(randomApplicationId('x'))).toBe(true);
  expect(isApplicationId('example-9f2c41a0b7d3')).toBe(true);
  expect(isApplicationId('Example-9f2c41a0b7d3')).toBe(false);
  expect(isApplicationId('example-9f2c41a0b7')).toBe(false);
});

test('job ids are positive odd 63-bit integers', () => {
  for (const id of [
    randomJobId(fixedRandom(0x00)),
    randomJobId(fixedRandom(0xff)),
    randomJobId(),
    derivedJobId('a-000000000000'),
  ]) {
    const n = BigInt(id);
    expect(n > 0n).toBe(true);
    expect(n % 2n).toBe(1n);
    expect(n < 1n << 63n).toBe(true);
  }
  expect(randomJobId(fixedRandom(0x00))).toBe('1');
});
