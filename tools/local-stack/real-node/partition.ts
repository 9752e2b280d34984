// Cutting a node off the network, inside its own namespace: every packet in through its two links
// (the fabric: other nodes, their Pods, the API relay; the host veth: the API server's calls to the
// kubelet) is dropped in the raw table's PREROUTING, before conntrack, so no state is even made; every
// packet out through them is dropped in mangle POSTROUTING, after routing and NAT, which also catches
// a Pod's packet to a ClusterIP that kube-proxy rewrote to another node (raw sees it before the
// rewrite). kube-proxy and kube-router use neither of these chains. Traffic that stays on the node
// (its Pods with each other, its processes with its Pods) flows on. Nothing is rejected: the other
// side sees silence, as across a real partition. Healing removes the rules; established connections
// resume where TCP has not given up.
import { spawn } from 'node:child_process';

export const CUT_OFF_CHAIN = 'SEATUNNEL-CUT-OFF';

/** `iptables-restore --noflush` input that cuts the given links (creates and fills the chains, hooks them in first). */
export function cutOffRules(links: string[]): string {
  const chain = (table: string, hook: string, flag: '-i' | '-o') =>
    [
      `*${table}`,
      `:${CUT_OFF_CHAIN} - [0:0]`,
      ...links.map((l) => `-A ${CUT_OFF_CHAIN} ${flag} ${l} -j DROP`),
      `-I ${hook} 1 -j ${CUT_OFF_CHAIN}`,
      'COMMIT',
    ].join('\n');
  return `${chain('raw', 'PREROUTING', '-i')}\n${chain('mangle', 'POSTROUTING', '-o')}\n`;
}

/** The iptables argument lists that undo cutOffRules (each may fail harmlessly when already undone). */
export function healCommands(): string[][] {
  return [
    ['-t', 'raw', '-D', 'PREROUTING', '-j', CUT_OFF_CHAIN],
    ['-t', 'raw', '-F', CUT_OFF_CHAIN],
    ['-t', 'raw', '-X', CUT_OFF_CHAIN],
    ['-t', 'mangle', '-D', 'POSTROUTING', '-j', CUT_OFF_CHAIN],
    ['-t', 'mangle', '-F', CUT_OFF_CHAIN],
    ['-t', 'mangle', '-X', CUT_OFF_CHAIN],
  ];
}

/** Runs `argv` with `input` on stdin; rejects with its stderr on a non-zero exit. */
export function runWithInput(argv: string[], input: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(argv[0], argv.slice(1), { stdio: ['pipe', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.setEncoding('utf8').on('data', (c: string) => (err += c));
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`${argv.join(' ')} exited ${code}: ${err.trim()}`)),
    );
    child.stdin.end(input);
  });
}
