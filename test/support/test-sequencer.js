// Jest's own order (failed first, then longest first, then largest file first), except that the
// node tier's faults test runs after every other file: it stops, cuts off and freezes nodes and takes
// the API server away, and though it undoes each fault and checks that every node runs Pods again
// (test/support/node-health.ts), a residue it missed must fail the faults test, not the files after it.
const Sequencer = require('@jest/test-sequencer').default;

const LAST = [/[\\/]test[\\/]node[\\/]faults\.test\.ts$/];

class RunDestructiveLast extends Sequencer {
  async sort(tests) {
    const ordered = await super.sort(tests);
    const last = (t) => LAST.some((re) => re.test(t.path));
    return [...ordered.filter((t) => !last(t)), ...ordered.filter(last)];
  }
}

module.exports = RunDestructiveLast;
