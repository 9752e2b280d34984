// The wait for a job-info answer follows the answers: a master that needs seconds to build job-info
// (thousands of tables, a fraction of a core) is waited for instead of asked again every 5 s.
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { runtimeSettings } from 'seatunnel-app/internal/plan/runtime-settings';
import { plan } from '../../../test/support/fixtures';
import { systemClock } from '../../src/clock';
import { ANSWER_CEILING_MS, ANSWER_FLOOR_MS, AnswerTime } from '../../src/engine/answer-time';
import { ZetaEngine } from '../../src/engine/zeta';
import { memoryLogger } from '../../src/log';
import { HAZELCAST_REST_PATH } from '../../src/settings';

test('doubled after a timeout, three times an answer after it, between the floor and the ceiling', () => {
  const t = new AnswerTime();
  expect(t.timeoutMs).toBe(ANSWER_FLOOR_MS);
  t.timedOut();
  t.timedOut();
  expect(t.timeoutMs).toBe(4 * ANSWER_FLOOR_MS);
  for (let i = 0; i < 5; i++) t.timedOut();
  expect(t.timeoutMs).toBe(ANSWER_CEILING_MS);
  t.answered(7_000);
  expect(t.timeoutMs).toBe(21_000);
  // Fast answers bring it back to the floor, not under it.
  t.answered(40);
  expect(t.timeoutMs).toBe(ANSWER_FLOOR_MS);
});

test('a job-info slower than the first wait: that read fails, the next one waits longer and gets it', async () => {
  const asked: number[] = [];
  const server = http.createServer((req, res) => {
    if (!req.url?.startsWith(`${HAZELCAST_REST_PATH}/job-info/`)) return void res.writeHead(404).end();
    asked.push(Date.now());
    setTimeout(() => res.writeHead(200).end('{"jobId":"42","jobStatus":"RUNNING"}'), 300);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  const log = memoryLogger();
  const time = new AnswerTime(200, 2000);
  try {
    const engine = new ZetaEngine(
      {
        app: runtimeSettings(plan().spec),
        pod: { name: 'm', namespace: 'default', uid: 'u', ip: '127.0.0.1', masterHost: '127.0.0.1' },
        engineConfigDir: '/nope',
        workDir: '/nope',
        engineWorkDir: '/nope/engine',
        engineRest: { host: '127.0.0.1', candidates: [{ port, path: HAZELCAST_REST_PATH }] },
        debug: false,
      },
      {},
      systemClock,
      log,
      time,
    );
    await expect(engine.jobInfo('42')).rejects.toThrow(/ETIMEDOUT: no complete answer within 200 ms/);
    expect(time.timeoutMs).toBe(400);
    expect(
      log.lines.some((l) => /job-info got no answer in time; the next read waits longer .*nextMs=400/.test(l)),
    ).toBe(true);
    await expect(engine.jobInfo('42')).resolves.toMatchObject({ jobId: '42', status: 'RUNNING' });
    // The answer took about 300 ms: the next read may take three times that.
    expect(time.timeoutMs).toBeGreaterThanOrEqual(900);
    expect(asked).toHaveLength(2);
  } finally {
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  }
});
