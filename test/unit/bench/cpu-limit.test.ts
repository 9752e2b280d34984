// bench/cpu-limit: what it refuses before it touches a cgroup (its effect, a throttled process, needs
// root and is what bench:faults' bare Zeta runs under).
import { cpuLimit } from '../../../bench/cpu-limit';

describe('cpuLimit', () => {
  test.each([0, -1, 65, Number.NaN, Number.POSITIVE_INFINITY])('refuses %p cores, naming the limit', (cores) => {
    expect(() => cpuLimit('bench-x', cores)).toThrow(
      /^CPU limit of bench-x: expected cores above 0 and at most 64, got /,
    );
  });

  test.each(['', '..', '.', '../escape', 'a/b', 'x'.repeat(101)])('refuses %p as a cgroup name', (name) => {
    expect(() => cpuLimit(name, 0.25)).toThrow(/is no cgroup name$/);
  });
});
