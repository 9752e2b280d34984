// /metrics (issue 28 item 3): the members' telemetry re-served under one HELP/TYPE per family with
// the member's labels, the runtime's own metrics fed by its status patches, the HTTP endpoint.
import * as http from 'node:http';
import { ANNOTATIONS, rowsAnnotation } from 'seatunnel-app/internal/contract';
import { ApplicationMetrics } from '../../src/metrics/application-metrics';
import { mergeFamilies, parseFamilies, render, withLabels } from '../../src/metrics/exposition';
import { membersOf, podIpRewrite, type Member } from '../../src/metrics/members';
import { collect, serveMetrics } from '../../src/metrics/server';
import { memoryLogger } from '../../src/log';
import { FakeClock } from './fakes';
import { setup } from './lifecycle-setup';

// What Zeta 2.3.8 serves at /hazelcast/rest/instance/metrics (shape taken from a real member).
const ZETA = (address: string) => `# HELP process_cpu_seconds_total Total user and system CPU time spent in seconds.
# TYPE process_cpu_seconds_total counter
process_cpu_seconds_total 3.81
# HELP node_state Whether is up of seatunnel node 
# TYPE node_state gauge
node_state{cluster="app-1",address="${address}",} 1.0
# HELP jvm_gc_collection_seconds Time spent in a given JVM garbage collector in seconds.
# TYPE jvm_gc_collection_seconds summary
jvm_gc_collection_seconds_count{gc="G1 Young Generation",} 4.0
jvm_gc_collection_seconds_sum{gc="G1 Young Generation",} 0.031
`;

const app = () =>
  new ApplicationMetrics({ appId: 'app-1', jobName: 'orders "daily"', jobId: '42', ha: false }, new FakeClock());

describe('exposition', () => {
  test("a sample gets the source's labels first; a clashing label of its own is kept as exported_<name>", () => {
    expect(withLabels('node_state{cluster="c",address="a:1",} 1.0', { member: 'w-0', role: 'worker' })).toBe(
      'node_state{member="w-0",role="worker",cluster="c",address="a:1"} 1.0',
    );
    expect(withLabels('up 1', { member: 'w-0' })).toBe('up{member="w-0"} 1');
    expect(withLabels('x{role="a\\"}b",y="1"} 2 1700000000', { role: 'master' })).toBe(
      'x{role="master",exported_role="a\\"}b",y="1"} 2 1700000000',
    );
    expect(withLabels('x -Inf', {})).toBe('x -Inf');
    expect(withLabels('x 1.5e+3 1700000000000', {})).toBe('x 1.5e+3 1700000000000');
    for (const bad of ['x{a="1" 2', 'x{="1"} 2', 'x{a=1} 2', 'x', '{a="1"} 2', 'x 1 2 3', 'x one'])
      expect(withLabels(bad, { m: 'w' })).toBeUndefined();
  });

  test("two members' telemetry: one HELP and TYPE per family, every sample with its member, a summary's parts together", () => {
    const merged = render(
      mergeFamilies([
        { families: parseFamilies(ZETA('10.0.0.1:5801')), labels: { member: 'app-1-m', role: 'master' } },
        { families: parseFamilies(ZETA('10.0.0.2:5802')), labels: { member: 'app-1-w-0', role: 'worker' } },
      ]),
    );
    const lines = merged.trimEnd().split('\n');
    expect(lines.filter((l) => l === '# TYPE node_state gauge')).toHaveLength(1);
    expect(lines.filter((l) => l.startsWith('# HELP jvm_gc_collection_seconds '))).toHaveLength(1);
    const gc = lines.indexOf('# TYPE jvm_gc_collection_seconds summary');
    expect(lines.slice(gc + 1, gc + 5)).toEqual([
      'jvm_gc_collection_seconds_count{member="app-1-m",role="master",gc="G1 Young Generation"} 4.0',
      'jvm_gc_collection_seconds_sum{member="app-1-m",role="master",gc="G1 Young Generation"} 0.031',
      'jvm_gc_collection_seconds_count{member="app-1-w-0",role="worker",gc="G1 Young Generation"} 4.0',
      'jvm_gc_collection_seconds_sum{member="app-1-w-0",role="worker",gc="G1 Young Generation"} 0.031',
    ]);
    expect(lines).toContain('node_state{member="app-1-w-0",role="worker",cluster="app-1",address="10.0.0.2:5802"} 1.0');
    // Each family's lines together: a family's name never comes back after another family began.
    const order = lines.filter((l) => l.startsWith('# TYPE')).map((l) => l.split(' ')[2]);
    expect(new Set(order).size).toBe(order.length);
  });

  test('a sample without a family announced before it is an untyped family of its own; junk lines are dropped', () => {
    const f = parseFamilies('# weird comment\nfoo 1\n\nnot a sample line with { junk\nbar_total{a="1"} 2\n');
    expect(f.map((x) => [x.name, x.type, x.samples])).toEqual([
      ['foo', undefined, ['foo 1']],
      ['not', undefined, ['not a sample line with { junk']],
      ['bar_total', undefined, ['bar_total{a="1"} 2']],
    ]);
    // Relabelled, the line that is no sample is dropped: it would fail the whole scrape.
    expect(render(mergeFamilies([{ families: f, labels: { m: 'x' } }]))).toBe(
      'foo{m="x"} 1\nbar_total{m="x",a="1"} 2\n',
    );
  });
});

describe("the runtime's own metrics", () => {
  test('they say what the status annotations say: phase, workers, job status, rows; label values escaped', () => {
    const m = app();
    m.record({ phase: 'WaitingForWorkers', workersDesired: '3', workersRegistered: '1' });
    m.record({ workersRegistered: '3', zetaJobStatus: 'RUNNING', phase: 'Running' });
    m.record({ rows: rowsAnnotation({ read: 1200, written: 1180, perSecond: 118, at: '2026-12-05T00:00:00Z' }) });
    const text = render(m.families());
    expect(text).toContain(
      'seatunnel_app_info{application="app-1",job_name="orders \\"daily\\"",job_id="42",ha="false"} 1',
    );
    expect(text).toContain('seatunnel_app_phase{application="app-1",phase="Running"} 1');
    expect(text).toContain('seatunnel_app_phase{application="app-1",phase="WaitingForWorkers"} 0');
    expect(text).toContain('seatunnel_app_workers_desired{application="app-1"} 3');
    expect(text).toContain('seatunnel_app_workers_registered{application="app-1"} 3');
    expect(text).toContain('seatunnel_app_job_status{application="app-1",status="RUNNING"} 1');
    expect(text).toContain(
      '# TYPE seatunnel_app_rows_written_total counter\nseatunnel_app_rows_written_total{application="app-1"} 1180',
    );
    expect(text).toContain('seatunnel_app_rows_read_total{application="app-1"} 1200');
    expect(text).toContain('seatunnel_app_rows_written_per_second{application="app-1"} 118');
    // Not known, not shown (no HA: no masters-ready; no failover counted).
    expect(text).not.toContain('seatunnel_app_masters_ready');
    expect(text).not.toContain('seatunnel_app_submit_to_running_seconds');
  });

  test('submit → RUNNING: timed on the clock when this runtime submitted, from the recorded phase times after a re-attach', () => {
    const clock = new FakeClock();
    const m = new ApplicationMetrics({ appId: 'a', jobName: 'j', jobId: '1', ha: true }, clock);
    m.record({ phase: 'Submitting' });
    clock.advance(2500);
    m.record({ phase: 'Running' });
    expect(render(m.families())).toContain('seatunnel_app_submit_to_running_seconds{application="a"} 2.5');

    const later = new ApplicationMetrics({ appId: 'a', jobName: 'j', jobId: '1', ha: true }, new FakeClock());
    later.record({
      phase: 'Running',
      phaseTimes: JSON.stringify({ Submitting: '2026-12-05T10:00:00Z', Running: '2026-12-05T10:00:04Z' }),
    });
    expect(render(later.families())).toContain('seatunnel_app_submit_to_running_seconds{application="a"} 4');
  });

  test('the lifecycle tells the observer its story and its worker Pods', async () => {
    const m = app();
    let pods: () => Iterable<{ metadata?: { name?: string } }> = () => [];
    let workersWhenRunning: string[] = [];
    const observer = {
      status: (p: Parameters<ApplicationMetrics['record']>[0]) => {
        m.record(p);
        if (p.phase === 'Running') workersWhenRunning = [...pods()].map((w) => w.metadata!.name!).sort();
      },
      workers: (f: typeof pods) => (pods = f),
    };
    const s = setup({}, {}, {}, { observer });
    s.engine.script = () => 'FINISHED';
    const outcome = await s.run();
    expect(outcome.state).toBe('SUCCEEDED');
    const text = render(m.families());
    expect(text).toContain('seatunnel_app_phase{application="app-1",phase="Succeeded"} 1');
    expect(text).toContain('seatunnel_app_workers_registered{application="app-1"} 3');
    expect(text).toContain('seatunnel_app_job_status{application="app-1",status="FINISHED"} 1');
    expect(s.kube.annotations[ANNOTATIONS.phase]).toBe('Succeeded');
    expect(workersWhenRunning).toHaveLength(3);
  });
});

describe('members', () => {
  const pod = (name: string, ip: string | undefined, phase = 'Running', deleting = false) => ({
    metadata: { name, ...(deleting ? { deletionTimestamp: '2026-12-05T00:00:00Z' } : {}) },
    status: { phase, ...(ip ? { podIP: ip } : {}) },
  });
  test('the local master, and every running worker with an address; HA masters by their DNS names', () => {
    const src = { podName: 'app-1-m', masterHost: '127.0.0.1', masterPort: 5801, workerPort: 5802 };
    expect(
      membersOf(src, [
        pod('w-1', '10.0.0.3'),
        pod('w-0', 'fd00::2'),
        pod('w-2', undefined),
        pod('w-3', '10.0.0.4', 'Pending'),
        pod('w-4', '10.0.0.5', 'Running', true),
      ]),
    ).toEqual([
      { name: 'app-1-m', role: 'master', host: '127.0.0.1', port: 5801 },
      { name: 'w-0', role: 'worker', host: '[fd00::2]', port: 5802 },
      { name: 'w-1', role: 'worker', host: '10.0.0.3', port: 5802 },
    ]);
    // The engine tier's local kubelet: the API shows 10.245.B.N, the process has 127.B.0.N.
    const rewrite = podIpRewrite('^10\\.245\\.(\\d+)\\.(\\d+)$ 127.$1.0.$2')!;
    expect(membersOf({ ...src, dialAddress: rewrite }, [pod('w-0', '10.245.17.3')]).map((m) => m.host)).toEqual([
      '127.0.0.1',
      '127.17.0.3',
    ]);
    expect(podIpRewrite(undefined)).toBeUndefined();
    expect(podIpRewrite('only-a-pattern')).toBeUndefined();
    expect(membersOf({ ...src, haMasterAddresses: ['app-1-masters-0.app-1-masters.ns.svc:5801'] }, [])).toEqual([
      { name: 'app-1-masters-0', role: 'master', host: 'app-1-masters-0.app-1-masters.ns.svc', port: 5801 },
    ]);
  });
});

describe('collect and serve', () => {
  const members: Member[] = [
    { name: 'app-1-m', role: 'master', host: '127.0.0.1', port: 5801 },
    { name: 'w-0', role: 'worker', host: '10.0.0.2', port: 5802 },
    { name: 'w-1', role: 'worker', host: '10.0.0.3', port: 5802 },
  ];

  test("a member that does not answer is up 0 and adds no samples; the others' are there", async () => {
    const text = await collect({
      app: app(),
      members: () => members,
      scrape: async (m) => {
        if (m.name === 'w-1') throw new Error('timeout');
        return ZETA(`${m.host}:${m.port}`);
      },
      now: () => 0,
    });
    expect(text).toContain('seatunnel_app_member_up{application="app-1",member="w-1",role="worker"} 0');
    expect(text).toContain('seatunnel_app_member_up{application="app-1",member="w-0",role="worker"} 1');
    expect(text).toContain('process_cpu_seconds_total{application="app-1",member="w-0",role="worker"} 3.81');
    expect(text).not.toContain('member="w-1",role="worker"} 3.81');
    expect(text.match(/^# TYPE process_cpu_seconds_total counter$/gm)).toHaveLength(1);
  });

  test('over HTTP: GET /metrics as Prometheus text; other paths 404, other methods 405; concurrent scrapes share one read', async () => {
    let reads = 0;
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const server = await serveMetrics(
      '127.0.0.1',
      0,
      {
        app: app(),
        members: () => members.slice(0, 1),
        scrape: async (m) => {
          reads++;
          await gate;
          return ZETA(`${m.host}:${m.port}`);
        },
        now: () => 0,
      },
      memoryLogger(),
    );
    try {
      const get = (path: string, method = 'GET') =>
        new Promise<{ status: number; type?: string; body: string }>((resolve, reject) => {
          const req = http.request({ host: '127.0.0.1', port: server.port, path, method }, (res) => {
            let body = '';
            res.on('data', (c) => (body += c));
            res.on('end', () => resolve({ status: res.statusCode!, type: res.headers['content-type'], body }));
          });
          req.on('error', reject);
          req.end();
        });
      const both = Promise.all([get('/metrics'), get('/metrics')]);
      await new Promise((r) => setTimeout(r, 50));
      release();
      const [a, b] = await both;
      expect(reads).toBe(1);
      expect(a.status).toBe(200);
      expect(a.type).toBe('text/plain; version=0.0.4; charset=utf-8');
      expect(a.body).toBe(b.body);
      expect(a.body).toContain(
        'node_state{application="app-1",member="app-1-m",role="master",cluster="app-1",address="127.0.0.1:5801"} 1.0',
      );
      expect((await get('/')).status).toBe(404);
      expect((await get('/metrics', 'POST')).status).toBe(405);
      // A later scrape reads the members again.
      await get('/metrics');
      expect(reads).toBe(2);
    } finally {
      await server.close();
    }
  });
});
