// The pure parts of the multi-node harness (tools/local-stack/real-node): the fabric's address plan and
// routes, the cut-off rules, the DNS add-on, pinning a Pod to a node, and `npm run node-cluster`'s
// arguments. (The nodes themselves, the routes and the faults are proven on real nodes by
// test/node/multi-node.test.ts.)
import { dnsAddonObjects } from '../../../tools/local-stack/real-node/dns-addon';
import {
  attachCommands,
  fabricAddress,
  fabricPlan,
  routeCommands,
  type FabricMember,
} from '../../../tools/local-stack/real-node/fabric';
import { parseArgs } from '../../../tools/local-stack/real-node/main';
import { namespacePlan } from '../../../tools/local-stack/real-node/network-namespace';
import { checkNodeCount } from '../../../tools/local-stack/real-node/node-cluster';
import { pinnedToNode } from '../../../tools/local-stack/real-node/node-ops';
import { cutOffRules, healCommands } from '../../../tools/local-stack/real-node/partition';

const members: FabricMember[] = [
  { index: 1, block: 7, netns: 'seatunnel-node-7', nodeAddress: '10.247.7.2', podCidr: '10.244.0.0/24' },
  { index: 2, block: 9, netns: 'seatunnel-node-9', nodeAddress: '10.247.9.2', podCidr: '10.244.1.0/24' },
  { index: 3, block: 12, netns: 'seatunnel-node-12', nodeAddress: '10.247.12.2' },
];

describe('the fabric', () => {
  it('is named after node 1 and gives node i the fabric address 10.248.0.i', () => {
    expect(fabricPlan(7).name).toBe('seatunnel-fabric-7');
    expect(fabricAddress(3)).toBe('10.248.0.3');
    expect(() => fabricAddress(0)).toThrow(/whole number from 1 to 250, got 0/);
  });

  it('plugs a node in with a veth pair whose names fit 15 characters', () => {
    const cmds = attachCommands(fabricPlan(7), { ...members[2], block: 250 });
    expect(cmds[0]).toEqual([
      'ip',
      '-n',
      'seatunnel-fabric-7',
      'link',
      'add',
      'stfab250',
      'mtu',
      '1400',
      'type',
      'veth',
      'peer',
      'name',
      'fabric0',
      'netns',
      'seatunnel-node-12',
    ]);
    expect(cmds).toContainEqual(['ip', '-n', 'seatunnel-node-12', 'addr', 'add', '10.248.0.3/24', 'dev', 'fabric0']);
  });

  it("routes each node to the others' Pod subnets and node addresses, and the fabric to every Pod subnet", () => {
    const cmds = routeCommands(fabricPlan(7), members).map((c) => c.join(' '));
    expect(cmds).toContain('ip -n seatunnel-node-7 route replace 10.244.1.0/24 via 10.248.0.2 dev fabric0');
    expect(cmds).toContain(
      'ip -n seatunnel-node-9 route replace 10.247.7.2/32 via 10.248.0.1 dev fabric0 src 10.247.9.2',
    );
    expect(cmds).toContain('ip -n seatunnel-fabric-7 route replace 10.244.0.0/24 via 10.248.0.1 dev br0');
    // Node 3 has no subnet yet: nobody routes one to it, it still reaches the others.
    expect(cmds.filter((c) => c.includes('via 10.248.0.3') && c.includes('10.244.'))).toEqual([]);
    expect(cmds).toContain('ip -n seatunnel-node-12 route replace 10.244.0.0/24 via 10.248.0.1 dev fabric0');
    // Nothing routes a node to itself.
    expect(cmds.filter((c) => c.startsWith('ip -n seatunnel-node-7 ') && c.includes('via 10.248.0.1'))).toEqual([]);
  });

  it('names namespaces and host veths after the address block', () => {
    expect(namespacePlan(37)).toEqual({
      block: 37,
      name: 'seatunnel-node-37',
      hostVeth: 'stnode37h',
      nodeVeth: 'stnode37n',
      hostAddress: '10.247.37.1',
      nodeAddress: '10.247.37.2',
    });
  });
});

describe('cutting a node off', () => {
  it('drops in through raw PREROUTING and out through mangle POSTROUTING, in chains hooked first', () => {
    const rules = cutOffRules(['fabric0', 'stnode3n']);
    expect(rules).toBe(
      [
        '*raw',
        ':SEATUNNEL-CUT-OFF - [0:0]',
        '-A SEATUNNEL-CUT-OFF -i fabric0 -j DROP',
        '-A SEATUNNEL-CUT-OFF -i stnode3n -j DROP',
        '-I PREROUTING 1 -j SEATUNNEL-CUT-OFF',
        'COMMIT',
        '*mangle',
        ':SEATUNNEL-CUT-OFF - [0:0]',
        '-A SEATUNNEL-CUT-OFF -o fabric0 -j DROP',
        '-A SEATUNNEL-CUT-OFF -o stnode3n -j DROP',
        '-I POSTROUTING 1 -j SEATUNNEL-CUT-OFF',
        'COMMIT',
        '',
      ].join('\n'),
    );
  });

  it('heals by unhooking, flushing and deleting both chains', () => {
    expect(healCommands().map((c) => c.join(' '))).toEqual([
      '-t raw -D PREROUTING -j SEATUNNEL-CUT-OFF',
      '-t raw -F SEATUNNEL-CUT-OFF',
      '-t raw -X SEATUNNEL-CUT-OFF',
      '-t mangle -D POSTROUTING -j SEATUNNEL-CUT-OFF',
      '-t mangle -F SEATUNNEL-CUT-OFF',
      '-t mangle -X SEATUNNEL-CUT-OFF',
    ]);
  });
});

describe('the DNS add-on', () => {
  const objects = dnsAddonObjects({
    corednsBinary: '/cache/node/coredns-x/bin/coredns',
    image: 'localhost/seatunnel-app/pause:abc',
    serviceIp: '10.96.0.10',
  });
  const byKind = (kind: string) => objects.find((o) => o.kind === kind) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

  it('runs CoreDNS on every node from the read-only binary, ready only when its kubernetes plugin is', () => {
    const pod = byKind('DaemonSet').spec.template.spec;
    const c = pod.containers[0];
    expect(c.image).toBe('localhost/seatunnel-app/pause:abc');
    expect(c.command).toEqual(['/coredns-bin/coredns', '-conf', '/etc/coredns/Corefile']);
    expect(pod.volumes).toContainEqual({
      name: 'bin',
      hostPath: { path: '/cache/node/coredns-x/bin', type: 'Directory' },
    });
    expect(c.volumeMounts).toContainEqual({ name: 'bin', mountPath: '/coredns-bin', readOnly: true });
    expect(c.readinessProbe.httpGet).toEqual({ path: '/ready', port: 8181 });
  });

  it("puts the kube-dns Service at the kubelets' clusterDNS, selecting the CoreDNS Pods, and asks nothing upstream", () => {
    const svc = byKind('Service');
    expect(svc.spec.clusterIP).toBe('10.96.0.10');
    expect(svc.spec.selector).toEqual(byKind('DaemonSet').spec.selector.matchLabels);
    expect(byKind('ConfigMap').data.Corefile).not.toMatch(/forward/);
  });
});

describe('pinnedToNode', () => {
  it('adds the hostname selector and keeps the rest of the spec', () => {
    const pod = { kind: 'Pod', spec: { nodeSelector: { disk: 'ssd' }, containers: [] } };
    expect(pinnedToNode(pod, 'seatunnel-node-3')).toEqual({
      kind: 'Pod',
      spec: { nodeSelector: { disk: 'ssd', 'kubernetes.io/hostname': 'seatunnel-node-3' }, containers: [] },
    });
    expect(pod.spec.nodeSelector).toEqual({ disk: 'ssd' });
  });
});

describe('npm run node-cluster arguments', () => {
  it('defaults to one node and reads --nodes N and --nodes=N', () => {
    expect(parseArgs([])).toEqual({ nodes: 1, keep: false });
    expect(parseArgs(['--nodes', '3', '--keep'])).toEqual({ nodes: 3, keep: true });
    expect(parseArgs(['--nodes=2'])).toEqual({ nodes: 2, keep: false });
  });

  it('names the option, the value and the rule for a bad count, and refuses unknown arguments', () => {
    expect(parseArgs(['--nodes', '0'])).toEqual({ error: '--nodes: expected a whole number from 1 to 8, got "0"' });
    expect(parseArgs(['--nodes', 'three'])).toEqual({
      error: '--nodes: expected a whole number from 1 to 8, got "three"',
    });
    expect(parseArgs(['--nodes'])).toEqual({ error: '--nodes: expected a whole number from 1 to 8, got null' });
    expect(parseArgs(['--nodes=2.5'])).toEqual({ error: '--nodes: expected a whole number from 1 to 8, got "2.5"' });
    expect(parseArgs(['--node'])).toEqual({ error: 'unknown argument "--node"' });
    expect(() => checkNodeCount(9)).toThrow('nodes: expected a whole number from 1 to 8, got 9');
  });
});
