// The real nodes themselves: each is Ready in its own zone with its own Pod subnet; Pods from locally
// built images run under containerd/runc, resolve Service names through CoreDNS, reach a ClusterIP
// through kube-proxy's rules, see their cgroup limits, and have no route off the machine; a deleted
// Pod leaves no container behind; a kubelet that dies is started again, as on a machine with systemd.
// (Across nodes and under faults: multi-node.test.ts.)
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { adminHttp, clusterInfo, deleteNamespace, createTestNamespace, waitFor } from '../support/cluster';
import { classDataArchive, ZETA_MAIN_CLASS, zetaClasspath } from '../../lib/engine/command';
import { getPod, imageRef, nodeContainers, nodeInfos, runPod, tcpProbe } from '../support/node-pods';

jest.setTimeout(5 * 60_000);

describe('real nodes', () => {
  let ns: string;
  beforeAll(async () => {
    ns = await createTestNamespace('node');
  });
  afterAll(async () => {
    if (ns) await deleteNamespace(ns);
  });

  test('every node is Ready, reports the containerd runtime and the kubelet version, and has its own zone and Pod subnet', async () => {
    const nodes = nodeInfos();
    for (const info of nodes) {
      const node = await adminHttp().call<{
        metadata: { labels: Record<string, string> };
        spec: { podCIDR: string };
        status: {
          nodeInfo: { containerRuntimeVersion: string; kubeletVersion: string };
          addresses: Array<{ type: string; address: string }>;
          conditions: Array<{ type: string; status: string }>;
        };
      }>('GET', `/api/v1/nodes/${info.name}`);
      expect(node.status.conditions).toContainEqual(expect.objectContaining({ type: 'Ready', status: 'True' }));
      expect(node.status.nodeInfo.containerRuntimeVersion).toMatch(/^containerd:\/\//);
      expect(node.status.nodeInfo.kubeletVersion).toBe('v1.36.3');
      expect(node.status.addresses).toContainEqual({ type: 'InternalIP', address: info.address });
      expect(node.metadata.labels['kubernetes.io/hostname']).toBe(info.name);
      expect(node.metadata.labels['topology.kubernetes.io/zone']).toBe(info.zone);
      expect(node.spec.podCIDR).toBe(info.podCidr);
    }
    // Distinct zones and Pod subnets (from the controller manager), one per node.
    expect(new Set(nodes.map((n) => n.zone)).size).toBe(nodes.length);
    expect(new Set(nodes.map((n) => n.podCidr)).size).toBe(nodes.length);
  });

  test('a Pod of the SeaTunnel image runs Java 17 under its cgroup memory limit', async () => {
    const r = await runPod(
      ns,
      'java',
      imageRef('seatunnel'),
      ['bash', '-c', 'java -XshowSettings:system -version 2>&1; ls /opt/seatunnel'],
      {
        memory: '256Mi',
        cpu: '200m',
      },
    );
    expect(r.phase).toBe('Succeeded');
    expect(r.log).toMatch(/openjdk version "17\./);
    // The JVM reads the container's limit (cgroup v1 here), not the machine's 24 GiB.
    expect(r.log).toMatch(/Memory Limit: 256\.00M/);
    expect(r.log).toMatch(/\bconnectors\b/);
  });

  test("the image's class-data sharing archive is valid for its java and the plan's classpath", async () => {
    // tools/images/build.sh makes it with the image's own java; -Xshare:on makes an archive the JVM
    // cannot use fatal, where the plan's auto mode would only print a warning and start without it.
    const archive = classDataArchive('/opt/seatunnel');
    const java = `java -Xshare:on -XX:SharedArchiveFile=${archive} -cp '${zetaClasspath('/opt/seatunnel')}' ${ZETA_MAIN_CLASS} --bogus 2>&1`;
    const r = await runPod(ns, 'cds', imageRef('seatunnel'), ['sh', '-c', `ls -l ${archive} && ${java}`], {
      memory: '256Mi',
      cpu: '500m',
    });
    expect(r.log).toMatch(/zeta\.jsa/);
    expect(r.log).toMatch(/unsupported argument '--bogus'/);
    expect(r.log).not.toMatch(/Unable to use shared archive|Error occurred during initialization|mismatch/i);
  });

  test('Service names resolve through CoreDNS and the kubernetes ClusterIP answers', async () => {
    const r = await runPod(ns, 'dns', imageRef('seatunnel'), [
      'bash',
      '-c',
      `getent hosts kubernetes.default.svc.cluster.local; getent hosts kube-dns.kube-system; ${tcpProbe('10.96.0.1', 443).slice(2).join(' ')}`,
    ]);
    expect(r.phase).toBe('Succeeded');
    expect(r.log).toMatch(/^10\.96\.0\.1\s+kubernetes\.default\.svc\.cluster\.local$/m);
    expect(r.log).toMatch(/^10\.96\.0\.10\s+kube-dns\.kube-system/m);
    expect(r.log).toMatch(/^OPEN$/m);
  });

  test('a Pod has no route off the machine', async () => {
    // 192.0.2.1 (TEST-NET-1) stands for any outside address: no node namespace has a default route.
    const r = await runPod(ns, 'outside', imageRef('seatunnel'), tcpProbe('192.0.2.1', 80));
    expect(r.log).toMatch(/CLOSED .*(unreachable|No route)/i);
    const fabric = (clusterInfo() as { fabric?: { netns: string } }).fabric?.netns;
    expect(fabric).toBeTruthy();
    for (const netns of [...nodeInfos().map((n) => n.netns), fabric!]) {
      const { stdout: routes } = await promisify(execFile)('ip', ['-n', netns, 'route', 'show']);
      expect({ netns, routes }).not.toEqual({ netns, routes: expect.stringMatching(/^default/m) });
    }
  });

  test('a deleted Pod leaves no container or sandbox on the node', async () => {
    const r = await runPod(ns, 'gone', imageRef('seatunnel'), ['true']);
    expect(r.phase).toBe('Succeeded');
    const { metadata } = await getPod(ns, 'gone');
    expect((await nodeContainers(metadata.uid)).length).toBeGreaterThan(0);
    await adminHttp().call('DELETE', `/api/v1/namespaces/${ns}/pods/gone`);
    // The kubelet removes a deleted Pod's dead containers and sandbox in its container GC, which runs
    // once a minute (ContainerGCPeriod): 15 s in most runs, but a CI run missed a 60 s wait by a GC pass.
    await waitFor(async () => (await nodeContainers(metadata.uid)).length === 0, {
      description: "the Pod's containers and sandbox removed from containerd (the kubelet's GC runs once a minute)",
      timeoutMs: 150_000,
    });
  });

  test('a kubelet that dies (SIGKILL, as from the OOM killer) is started again, as systemd does on a real node, and its node is Ready again', async () => {
    const node = nodeInfos()[nodeInfos().length - 1];
    const config = path.join(node.dir, 'kubelet.yaml');
    const kubeletPids = async () => {
      const { stdout } = await promisify(execFile)('pgrep', ['-f', '--', `--config=${config}`]).catch(() => ({
        stdout: '',
      }));
      return stdout.split('\n').filter(Boolean).map(Number);
    };
    const before = await kubeletPids();
    expect(before).toHaveLength(1);
    const killedAt = Date.now();
    process.kill(before[0], 'SIGKILL');
    await waitFor(
      async () => {
        const now = await kubeletPids();
        return now.length === 1 && now[0] !== before[0];
      },
      { description: `a new kubelet on ${node.name}`, timeoutMs: 30_000 },
    );
    // Its death is in the harness's log with its cause, and the kubelet's log has a second start.
    const kubeletLog = fs.readFileSync(path.join(clusterInfo().logDir, `${node.name}-kubelet.log`), 'utf8');
    expect(kubeletLog.split('\n').filter((l) => l.startsWith('# ')).length).toBeGreaterThanOrEqual(2);
    // Heartbeats go on from the new kubelet (whole seconds: one in the second after the kill is new).
    await waitFor(
      async () => {
        const n = await adminHttp().call<{
          status: { conditions: Array<{ type: string; status: string; lastHeartbeatTime: string }> };
        }>('GET', `/api/v1/nodes/${node.name}`);
        const ready = n.status.conditions.find((c) => c.type === 'Ready');
        return ready?.status === 'True' && Date.parse(ready.lastHeartbeatTime) >= killedAt - (killedAt % 1000) + 1000;
      },
      { description: `${node.name} Ready with a heartbeat from the new kubelet`, timeoutMs: 90_000 },
    );
    const r = await runPod(ns, 'after-restart', imageRef('seatunnel'), ['true'], { node: node.name });
    expect(r.phase).toBe('Succeeded');
  });
});
