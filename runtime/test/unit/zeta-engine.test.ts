// The Zeta EnginePort: which REST endpoint it uses, and the environment of the master process.
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { runtimeSettings } from 'seatunnel-app/internal/plan/runtime-settings';
import { plan } from '../../../test/support/fixtures';
import { systemClock } from '../../src/clock';
import { ZetaEngine } from '../../src/engine/zeta';
import { memoryLogger } from '../../src/log';
import { HAZELCAST_REST_PATH, type Settings } from '../../src/settings';

function settingsFor(
  app: ReturnType<typeof runtimeSettings>,
  candidates: Settings['engineRest']['candidates'],
): Settings {
  return {
    app,
    pod: { name: 'm', namespace: 'default', uid: 'u', ip: '127.0.0.1', masterHost: '127.0.0.1' },
    engineConfigDir: '/nope',
    workDir: '/nope',
    engineWorkDir: '/nope/engine',
    engineRest: { host: '127.0.0.1', candidates },
    debug: false,
  };
}

test('without REST v2 (Zeta 2.3.8) the Hazelcast REST on the master port is found and used', async () => {
  const paths: string[] = [];
  const server = http.createServer((req, res) => {
    paths.push(req.url!);
    if (req.url === `${HAZELCAST_REST_PATH}/overview`) res.writeHead(200).end('{"workers":"2","totalSlot":"4"}');
    else if (req.url === `${HAZELCAST_REST_PATH}/running-jobs`) res.writeHead(200).end('[]');
    else res.writeHead(400).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const memberPort = (server.address() as AddressInfo).port;
  const closed = http.createServer();
  await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
  const noV2Port = (closed.address() as AddressInfo).port;
  await new Promise<void>((r) => closed.close(() => r()));
  try {
    const app = runtimeSettings(plan().spec);
    const engine = new ZetaEngine(
      settingsFor(app, [
        { port: noV2Port, path: '' },
        { port: memberPort, path: HAZELCAST_REST_PATH },
      ]),
      {},
      systemClock,
      memoryLogger(),
    );
    await engine.waitReady(AbortSignal.timeout(5000));
    expect(await engine.overview()).toEqual({ workers: 2, totalSlot: 4 });
    // Readiness reads the running jobs: /overview would make Zeta's resource manager before the workers joined.
    expect(paths).toEqual([`${HAZELCAST_REST_PATH}/running-jobs`, `${HAZELCAST_REST_PATH}/overview`]);
  } finally {
    await new Promise<void>((r) => server.close(() => r()));
  }
});

test('the master process gets runtime.json master.env, phone-home off, and neither the job config nor the kubeconfig', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'st-engine-'));
  const out = path.join(dir, 'env.json');
  const base = runtimeSettings(plan().spec);
  const app = {
    ...base,
    master: {
      ...base.master,
      command: [
        process.execPath,
        '-e',
        'require("fs").writeFileSync(process.argv[1], JSON.stringify(process.env)); setInterval(() => {}, 1000)',
        out,
      ],
    },
  };
  const engine = new ZetaEngine(
    settingsFor(app, [{ port: 1, path: '' }]),
    { PATH: process.env.PATH, SEATUNNEL_APPLICATION_JOB_CONFIG: 'secret job', KUBECONFIG: '/k', KEEP: 'me' },
    systemClock,
    memoryLogger(),
  );
  engine.start();
  for (let i = 0; i < 100 && !fs.existsSync(out); i++) await new Promise((r) => setTimeout(r, 50));
  await new Promise((r) => setTimeout(r, 100));
  const env = JSON.parse(fs.readFileSync(out, 'utf8')) as Record<string, string>;
  const exit = await engine.shutdown(5000);
  expect(env.JDK_JAVA_OPTIONS).toBe(base.master.env.JDK_JAVA_OPTIONS);
  expect(env.HZ_PHONE_HOME_ENABLED).toBe('false');
  expect(env.KEEP).toBe('me');
  expect(env.SEATUNNEL_APPLICATION_JOB_CONFIG).toBeUndefined();
  expect(env.KUBECONFIG).toBeUndefined();
  expect(exit).toEqual({ code: null, signal: 'SIGTERM' });
  fs.rmSync(dir, { recursive: true, force: true });
});

test("member UUIDs: the majority's list, and each list of a master outside the majority's cluster (a split's other side)", async () => {
  // Three masters: two see each other and worker w1; the third, cut off with worker w2 and
  // healed, still lists w2 under the UUID the majority dropped.
  const servers = await Promise.all([0, 1, 2].map(() => listening()));
  const address = (i: number) => `127.0.0.1:${(servers[i].address() as AddressInfo).port}`;
  const member = (a: string, uuid: string, self: boolean) => ({
    address: `[${a.replace(':', ']:')}`,
    uuid,
    localMember: self,
  });
  const answer = (i: number, members: Array<[string, string]>) =>
    JSON.stringify({ members: members.map(([a, uuid]) => member(a, uuid, a === address(i))) });
  const majority: Array<[string, string]> = [
    [address(0), 'aaaaaaaa-0000-4000-8000-000000000000'],
    [address(1), 'aaaaaaaa-0000-4000-8000-000000000001'],
    ['10.0.1.1:5802', 'aaaaaaaa-0000-4000-8000-00000000000a'],
  ];
  const minority: Array<[string, string]> = [
    [address(2), 'aaaaaaaa-0000-4000-8000-000000000002'],
    ['10.0.1.2:5802', 'aaaaaaaa-0000-4000-8000-00000000000b'],
  ];
  servers.forEach((s, i) =>
    s.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
      if (req.url !== '/hazelcast/rest/cluster') return void res.writeHead(404).end();
      res.writeHead(200).end(answer(i, i < 2 ? majority : minority));
    }),
  );
  try {
    const app = runtimeSettings(plan().spec);
    type Ha = NonNullable<typeof app.ha>;
    const ha = { ...app, ha: { ...(app.ha ?? {}), masterAddresses: [0, 1, 2].map(address) } as Ha };
    const engine = new ZetaEngine(settingsFor(ha, []), {}, systemClock, memoryLogger());
    expect(await engine.memberUuids()).toEqual({
      majority: Object.fromEntries(majority),
      minority: [Object.fromEntries(minority)],
    });
    // The third master back in the majority's cluster: no other side.
    minority.splice(0, minority.length, ...majority, [address(2), 'aaaaaaaa-0000-4000-8000-000000000002']);
    majority.push([address(2), 'aaaaaaaa-0000-4000-8000-000000000002']);
    expect(await engine.memberUuids()).toEqual({ majority: Object.fromEntries(majority), minority: [] });
  } finally {
    await Promise.all(servers.map((s) => new Promise<void>((r) => s.close(() => r()))));
  }
});

async function listening(): Promise<http.Server> {
  const server = http.createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return server;
}

test('readiness waits longer for a master that answers slowly (a re-attachment to a job of thousands of tables) instead of asking again every 5 s', async () => {
  // /running-jobs answers in 5.5 s, past the first wait (5 s): the second read waits 10 s and gets it.
  const asked: number[] = [];
  const server = await listening();
  server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
    if (req.url !== `${HAZELCAST_REST_PATH}/running-jobs`) return void res.writeHead(404).end();
    asked.push(Date.now());
    setTimeout(() => res.writeHead(200).end('[]'), 5500);
  });
  try {
    const port = (server.address() as AddressInfo).port;
    const engine = new ZetaEngine(
      settingsFor(runtimeSettings(plan().spec), [{ port, path: HAZELCAST_REST_PATH }]),
      {},
      systemClock,
      memoryLogger(),
    );
    await engine.waitReady(AbortSignal.timeout(30_000));
    expect(asked).toHaveLength(2);
  } finally {
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  }
}, 40_000);
