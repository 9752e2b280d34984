// Hazelcast's own REST (`GET /hazelcast/rest/cluster`) lists the members oldest first; the oldest
// is the one Zeta makes its active master.
import { firstMember } from '../../src/engine/zeta-rest';
import { activeMasterPod } from '../../src/topology/masters-watch';

const ANSWER = `
Members {size:4, ver:6} [
\tMember [10.244.1.7]:5801 - 0c6c6b93-3f59-4f41-a6c7-1f2e36e5a001
\tMember [10.244.2.9]:5801 - 7a1d7f26-90a5-4a53-9bd1-3b5ee1a7b002 this
\tMember [10.244.0.4]:5802 - 1b2c3d4e-0000-4000-8000-000000000003
]

ConnectionCount: 3
AllConnectionCount: 12
`;

/** Hazelcast 5.1 (Zeta 2.3.8) answers JSON, oldest member first. */
const JSON_ANSWER = JSON.stringify({
  members: [
    { address: '[127.223.0.29]:5801', liteMember: false, localMember: false, uuid: 'a', memberVersion: '5.1.0' },
    { address: '[127.223.0.30]:5801', liteMember: false, localMember: true, uuid: 'b', memberVersion: '5.1.0' },
    { address: '[127.223.0.31]:5802', liteMember: false, localMember: false, uuid: 'c', memberVersion: '5.1.0' },
  ],
  connectionCount: 2,
  allConnectionCount: 6,
});

test('the first member listed, as ip:port', () => {
  expect(firstMember(JSON_ANSWER)).toBe('127.223.0.29:5801');
  expect(firstMember(JSON.stringify({ members: [] }))).toBeUndefined();
  expect(firstMember(ANSWER)).toBe('10.244.1.7:5801');
  expect(firstMember('Members {size:1, ver:1} [\n\tMember [fd00::1]:5801 - a this\n]')).toBe('fd00::1:5801');
  expect(firstMember('')).toBeUndefined();
  expect(firstMember('<html>not hazelcast</html>')).toBeUndefined();
});

test('mapped to the master Pod with that IP; nothing for an address no master Pod has', () => {
  const pods = [
    { metadata: { name: 'app-master-0' }, status: { podIP: '10.244.2.9' } },
    { metadata: { name: 'app-master-1' }, status: { podIP: '10.244.1.7' } },
  ];
  expect(activeMasterPod('10.244.1.7:5801', pods)).toBe('app-master-1');
  expect(activeMasterPod('10.244.0.4:5802', pods)).toBeUndefined();
  expect(activeMasterPod(undefined, pods)).toBeUndefined();
});
