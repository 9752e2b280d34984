// `seatunnel-app logs` without -f, as a user runs it: bin/seatunnel-app.js and the bundle as a
// process of its own, against an API server on 127.0.0.1 that speaks HTTP/2 over TLS as the
// kube-apiserver does. Issue 28 item 8: it printed nothing and exited 0 — the HTTP/2 session is
// unref'd so that an idle one never holds the process, and a log read without follow has no timer
// of its own, so Node found nothing left to wait for and exited before the log arrived. Tests that
// call main() inside Jest could not see it (Jest keeps the loop alive). The real API server and
// kubelet endpoint are test/cluster/cli-logs.test.ts.
import { execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import type { Pod } from 'kubernetes-types/core/v1';
import { LABELS } from '../../../lib/model/reserved';
import { selfSignedFor127 } from '../../support/self-signed';

jest.setTimeout(90_000);

const REPO = path.resolve(__dirname, '..', '..', '..');
const APP = 'quick-0123456789ab';
let dir: string;
let server: http2.Http2SecureServer;
let kubeconfig: string;
/** The paths the fake API server was asked for, in order. */
const asked: string[] = [];
/** The application's Pods, and each one's log, as the fake API server answers them. */
let pods: Pod[] = [];
let logs: Record<string, string> = {};

beforeEach(() => {
  asked.length = 0;
  pods = [pod(`${APP}-master`, 'master', 'Succeeded'), pod(`${APP}-worker-1`, 'worker', 'Running')];
  logs = {
    [`${APP}-master`]: `first line of ${APP}-master\nlast line of ${APP}-master\n`,
    [`${APP}-worker-1`]: `first line of ${APP}-worker-1\nlast line of ${APP}-worker-1\n`,
  };
});

const pod = (name: string, role: 'master' | 'worker', phase: string): Pod => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: {
    name,
    namespace: 'ns',
    uid: `uid-${name}`,
    labels: { [LABELS.applicationId]: APP, [LABELS.role]: role },
    ...(role === 'master' ? { ownerReferences: [{ apiVersion: 'batch/v1', kind: 'Job', name: APP, uid: 'job' }] } : {}),
  },
  spec: { containers: [{ name: 'seatunnel', image: 'i' }] },
  status: { phase },
});

beforeAll(async () => {
  fs.mkdirSync(path.join(REPO, 'build'), { recursive: true });
  // Inside the repository, so the bundle's external packages resolve from its node_modules.
  dir = fs.mkdtempSync(path.join(REPO, 'build', 'test-cli-logs-'));
  for (const sub of ['bin', 'build/cli']) fs.mkdirSync(path.join(dir, 'pkg', sub), { recursive: true });
  for (const f of ['seatunnel-app.js', 'code-cache.js'])
    fs.copyFileSync(path.join(REPO, 'bin', f), path.join(dir, 'pkg', 'bin', f));
  execFileSync(process.execPath, [
    path.join(REPO, 'tools', 'build-cli.mjs'),
    path.join(dir, 'pkg', 'build', 'cli', 'seatunnel-app.js'),
  ]);
  const tls = selfSignedFor127(dir);
  server = http2.createSecureServer({ key: tls.key, cert: tls.cert }, (req, res) => {
    const url = req.url ?? '';
    asked.push(url);
    const log = /\/pods\/([^/]+)\/log\?/.exec(url);
    if (log) {
      // The kubelet answers after a while (on the real node the master's log took ~0.2 s).
      setTimeout(() => {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end(logs[log[1]] ?? '');
      }, 300);
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ apiVersion: 'v1', kind: 'PodList', metadata: { resourceVersion: '7' }, items: pods }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const ca = tls.cert.toString('base64');
  kubeconfig = path.join(dir, 'kubeconfig');
  fs.writeFileSync(
    kubeconfig,
    `apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster: { server: "https://127.0.0.1:${(server.address() as AddressInfo).port}", certificate-authority-data: ${ca} }\n` +
      `users:\n- name: u\n  user: { token: t }\ncontexts:\n- name: c\n  context: { cluster: c, user: u }\ncurrent-context: c\n`,
  );
});

afterAll(async () => {
  await new Promise((r) => server?.close(r));
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

function cli(argv: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(dir, 'pkg', 'bin', 'seatunnel-app.js'), ...argv], {
      env: { PATH: process.env.PATH ?? '', HOME: dir, KUBECONFIG: kubeconfig, NODE_DISABLE_COMPILE_CACHE: '1' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

test('logs without -f prints every Pod log in full before it exits (the answer comes after the list)', async () => {
  const r = await cli(['logs', '--id', APP, '-n', 'ns']);
  expect(r.stderr).toBe('');
  expect(r.stdout.split('\n')).toEqual([
    `[pod/${APP}-master/seatunnel] first line of ${APP}-master`,
    `[pod/${APP}-master/seatunnel] last line of ${APP}-master`,
    `[pod/${APP}-worker-1/seatunnel] first line of ${APP}-worker-1`,
    `[pod/${APP}-worker-1/seatunnel] last line of ${APP}-worker-1`,
    '',
  ]);
  expect(r.code).toBe(0);
});

test('logs --role master --tail N: the master alone, unprefixed, with tailLines asked of the API', async () => {
  const r = await cli(['logs', '--id', APP, '-n', 'ns', '--role', 'master', '--tail', '5']);
  expect(r.stdout).toBe(`first line of ${APP}-master\nlast line of ${APP}-master\n`);
  expect(r.code).toBe(0);
  expect(asked.filter((p) => p.includes('/log?'))).toEqual([
    `/api/v1/namespaces/ns/pods/${APP}-master/log?container=seatunnel&tailLines=5`,
  ]);
});

test("after the end (workers deleted): logs --role worker prints the workers' last lines the runtime kept in its log", async () => {
  pods = [pod(`${APP}-master`, 'master', 'Succeeded')];
  // As the runtime writes them (lib/contract/worker-log.ts, runtime/src/log.ts), among its other lines.
  const kept = (w: number, line: string) =>
    `2026-12-05T05:00:0${w}.000Z INFO  runtime: worker log ${APP}-worker-${w} | ${line}\n`;
  logs[`${APP}-master`] =
    `2026-12-05T05:00:00.000Z INFO  runtime: phase CleaningUp\n` +
    kept(1, 'row 1: SeaTunnelRow#tableId=fake [1, a]') +
    kept(2, 'row 9: SeaTunnelRow#tableId=fake [9, i]') +
    kept(1, 'row 2: SeaTunnelRow#tableId=fake [2, b]') +
    `2026-12-05T05:00:03.000Z INFO  runtime: workers deleted deleted=2\n`;
  const all = await cli(['logs', '--id', APP, '-n', 'ns', '--role', 'worker']);
  expect(all.stdout.split('\n')).toEqual([
    `[pod/${APP}-worker-1/seatunnel] row 1: SeaTunnelRow#tableId=fake [1, a]`,
    `[pod/${APP}-worker-2/seatunnel] row 9: SeaTunnelRow#tableId=fake [9, i]`,
    `[pod/${APP}-worker-1/seatunnel] row 2: SeaTunnelRow#tableId=fake [2, b]`,
    '',
  ]);
  expect(all.stderr).toMatch(
    /worker Pods of application quick-0123456789ab are deleted .* Pod quick-0123456789ab-master/,
  );
  expect(all.code).toBe(0);
  const one = await cli(['logs', '--id', APP, '-n', 'ns', '--worker', '1', '--tail', '1']);
  expect(one.stdout).toBe('row 2: SeaTunnelRow#tableId=fake [2, b]\n');
  expect(one.code).toBe(0);
});
