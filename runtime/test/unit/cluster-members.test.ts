// Hazelcast's own REST (`GET /hazelcast/rest/cluster` on a member port) lists the members oldest
// first; the oldest is Hazelcast's master, the one Zeta makes its active master. Asked on each
// master, the views say which cluster holds a majority of the masters, and its oldest member is
// the active one (engine/majority.ts).
import { activeMasterIndex, majorityMaster } from '../../src/engine/majority';
import { memberView } from '../../src/engine/zeta-rest';
import { masterPodOf } from '../../src/topology/masters-watch';

/** Hazelcast 5.1 (Zeta 2.3.8) answers JSON, oldest member first. */
const answerOf = (local: number) =>
  JSON.stringify({
    members: ['[127.223.0.29]:5801', '[127.223.0.30]:5801', '[127.223.0.31]:5802'].map((address, i) => ({
      address,
      liteMember: false,
      localMember: i === local,
      uuid: `u${i}`,
      memberVersion: '5.1.0',
    })),
    connectionCount: 2,
    allConnectionCount: 6,
  });

const TEXT = `
Members {size:3, ver:6} [
\tMember [10.244.1.7]:5801 - 0c6c6b93-3f59-4f41-a6c7-1f2e36e5a001 this
\tMember [10.244.2.9]:5801 - 7a1d7f26-90a5-4a53-9bd1-3b5ee1a7b002
\tMember [10.244.0.4]:5802 - 1b2c3d4e-0000-4000-8000-000000000003
]
`;

test('the members listed oldest first, and which one answered', () => {
  const three = ['127.223.0.29:5801', '127.223.0.30:5801', '127.223.0.31:5802'];
  const uuids = Object.fromEntries(three.map((a, i) => [a, `u${i}`]));
  expect(memberView(answerOf(0))).toEqual({ members: three, self: '127.223.0.29:5801', uuids });
  expect(memberView(answerOf(1))).toEqual({ members: three, self: '127.223.0.30:5801', uuids });
  const text = ['10.244.1.7:5801', '10.244.2.9:5801', '10.244.0.4:5802'];
  const textUuids = {
    '10.244.1.7:5801': '0c6c6b93-3f59-4f41-a6c7-1f2e36e5a001',
    '10.244.2.9:5801': '7a1d7f26-90a5-4a53-9bd1-3b5ee1a7b002',
    '10.244.0.4:5802': '1b2c3d4e-0000-4000-8000-000000000003',
  };
  expect(memberView(TEXT)).toEqual({ members: text, self: '10.244.1.7:5801', uuids: textUuids });
  expect(memberView(TEXT.replace(' this', ''))).toEqual({ members: text, uuids: textUuids });
  // A UUID that is not one (another process's text) is left out, the member kept.
  const odd = JSON.stringify({ members: [{ address: '[10.0.0.1]:5801', uuid: 'x'.repeat(65) }] });
  expect(memberView(odd)).toEqual({ members: ['10.0.0.1:5801'] });
  expect(memberView(JSON.stringify({ members: [] }))).toBeUndefined();
  expect(memberView(JSON.stringify({ members: 'x' }))).toBeUndefined();
  expect(memberView('')).toBeUndefined();
  expect(memberView('<html>not hazelcast</html>')).toBeUndefined();
});

describe('whose view counts: the cluster holding a majority of the masters', () => {
  const [m0, m1, m2, w1, w2] = ['10.0.0.10:5801', '10.0.0.11:5801', '10.0.0.12:5801', '10.0.1.1:5802', '10.0.1.2:5802'];
  const view = (self: string, ...members: string[]) => ({ self, members });

  test('one cluster: every master is in it, its oldest member is the active master', () => {
    const views = [view(m0, m1, m0, m2, w1), view(m1, m1, m0, m2, w1), view(m2, m1, m0, m2, w1)];
    expect(majorityMaster(views, 3)).toBe(0);
    expect(activeMasterIndex(views, 3)).toBe(1);
  });

  test('a master thawed after a freeze, still the active master of a cluster of its own: the other two count', () => {
    // What the three real nodes showed: m2 dropped the others and kept its worker; m0 and m1 elected m0.
    const views = [view(m0, m0, m1, w1), view(m1, m0, m1, w1), view(m2, m2, w2)];
    expect(majorityMaster(views, 3)).toBe(0);
    expect(activeMasterIndex(views, 3)).toBe(0);
    // Listed once more by the thawed master before it drops them: no mutual listing, still not counted.
    const stale = [view(m0, m0, m1, w1), view(m1, m0, m1, w1), view(m2, m2, m0, m1, w2)];
    expect(activeMasterIndex(stale, 3)).toBe(0);
  });

  test('only the minority answers (the coordinator cut off with it), or masters do not answer: no majority', () => {
    expect(majorityMaster([undefined, undefined, view(m2, m2, w2)], 3)).toBeUndefined();
    expect(majorityMaster([undefined, view(m1, m0, m1), undefined], 3)).toBeUndefined();
    expect(majorityMaster([undefined, undefined, undefined], 3)).toBeUndefined();
    // Without a majority the active master is what a master says of itself, as before.
    expect(activeMasterIndex([undefined, undefined, view(m2, m2, w2)], 3)).toBe(2);
    // An answer that does not mark the answering member counts for nothing.
    expect(majorityMaster([{ members: [m0, m1] }, { members: [m0, m1] }, undefined], 3)).toBeUndefined();
  });

  test('two masters: both together, or none; a split of two halves is no majority', () => {
    expect(majorityMaster([view(m0, m0, m1), view(m1, m0, m1)], 2)).toBe(0);
    expect(majorityMaster([view(m0, m0), view(m1, m1)], 2)).toBeUndefined();
    expect(majorityMaster([view(m0, m0, m1), undefined], 2)).toBeUndefined();
  });
});

test("a master's address maps to the StatefulSet Pod of the same ordinal", () => {
  const ha = {
    statefulSet: 'app-master',
    masterAddresses: ['app-master-0.app.ns.svc:5801', 'app-master-1.app.ns.svc:5801'],
  };
  expect(masterPodOf(ha, 'app-master-1.app.ns.svc:5801')).toBe('app-master-1');
  expect(masterPodOf(ha, 'elsewhere:5801')).toBeUndefined();
});
