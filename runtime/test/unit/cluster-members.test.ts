// Hazelcast's own REST (`GET /hazelcast/rest/cluster` on a member port) lists the members oldest
// first; the oldest is Hazelcast's master, the one Zeta makes its active master. Asked on each
// master, the one whose list starts with itself is the active one.
import { firstMember } from '../../src/engine/zeta-rest';
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

test('the first member listed, and whether it is the one that answered', () => {
  expect(firstMember(answerOf(0))).toEqual({ address: '127.223.0.29:5801', self: true });
  expect(firstMember(answerOf(1))).toEqual({ address: '127.223.0.29:5801', self: false });
  expect(firstMember(TEXT)).toEqual({ address: '10.244.1.7:5801', self: true });
  expect(firstMember(TEXT.replace(' this', ''))).toEqual({ address: '10.244.1.7:5801', self: false });
  expect(firstMember(JSON.stringify({ members: [] }))).toBeUndefined();
  expect(firstMember('')).toBeUndefined();
  expect(firstMember('<html>not hazelcast</html>')).toBeUndefined();
});

test("a master's address maps to the StatefulSet Pod of the same ordinal", () => {
  const ha = {
    statefulSet: 'app-master',
    masterAddresses: ['app-master-0.app.ns.svc:5801', 'app-master-1.app.ns.svc:5801'],
  };
  expect(masterPodOf(ha, 'app-master-1.app.ns.svc:5801')).toBe('app-master-1');
  expect(masterPodOf(ha, 'elsewhere:5801')).toBeUndefined();
});
