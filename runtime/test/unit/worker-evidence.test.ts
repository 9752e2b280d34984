// What the workers leave behind before they are deleted (issue 28 item 8): their last lines in the
// runtime's log (bounded, redacted, found again by the CLI's parser), and a failure that names the
// worker Pod Zeta lost with how its container ended — OOMKilled, exit code 137 — even when the
// kubelet reports the end a moment after Zeta.
import type { Pod } from 'kubernetes-types/core/v1';
import { ANNOTATIONS, parseRecordedWorkerLine, recordedWorkerLine } from 'seatunnel-app/internal/contract';
import { formatLine } from '../../src/log';
import {
  addressesIn,
  bytesPerWorker,
  describeWorkerEnd,
  evidenceNote,
  LogTail,
  workerEnd,
} from '../../src/workers/evidence';
import { KubeApiError, terminated, type MutablePod } from './fakes';
import { setup, whileRunning } from './lifecycle-setup';

const oomKilled = (ip: string) => terminated(137, 'OOMKilled', ip);

const worker = (name: string, ip: string, patch?: (p: MutablePod) => void): Pod => {
  const p: MutablePod = { metadata: { name }, spec: { containers: [{ name: 'seatunnel' }] }, status: { podIP: ip } };
  patch?.(p);
  return p;
};

describe('pure', () => {
  test("an OOM kill is named with the Pod, its IP, the reason and the exit code's signal", () => {
    const end = workerEnd(worker('app-1-worker-2', '10.244.0.37', oomKilled('10.244.0.37')))!;
    expect(end).toEqual({
      pod: 'app-1-worker-2',
      ip: '10.244.0.37',
      container: 'seatunnel',
      exitCode: 137,
      reason: 'OOMKilled',
    });
    expect(describeWorkerEnd(end)).toMatch(
      /^worker Pod app-1-worker-2 \(10\.244\.0\.37\): container seatunnel was OOMKilled \(exit code 137, SIGKILL\)/,
    );
    expect(workerEnd(worker('app-1-worker-1', '10.244.0.36'))).toBeUndefined();
  });

  test("Zeta's member addresses pick the worker Pod it lost; others that ended are named too", () => {
    const text = 'Zeta job 1 ended FAILED: deployed node([10.244.0.37]:5802) offline';
    expect(addressesIn(text)).toEqual(['10.244.0.37']);
    const pods = [
      worker('app-1-worker-1', '10.244.0.36'),
      worker('app-1-worker-2', '10.244.0.37', oomKilled('10.244.0.37')),
    ];
    expect(evidenceNote(text, pods)).toBe(describeWorkerEnd(workerEnd(pods[1])!));
    // not ended yet: named as the member Zeta means
    expect(evidenceNote('node([10.244.0.36]:5802) offline', [pods[0]])).toMatch(
      /^worker Pod app-1-worker-1 \(10\.244\.0\.36\) is the member Zeta names; its container had not ended/,
    );
    // a worker the message already names (WorkerLost) is not described twice; worker-1 is not worker-10
    expect(evidenceNote('worker app-1-worker-2 failed: …', pods)).toBe('');
    expect(evidenceNote('worker app-1-worker-20 failed', pods)).not.toBe('');
  });

  test('the tail keeps the newest lines within its byte budget, each redacted', () => {
    const t = new LogTail(40);
    for (let i = 1; i <= 10; i++) t.add(`row ${i} of the Console sink`);
    expect(t.lines).toEqual(['row 10 of the Console sink']);
    expect(t.dropped).toBe(9);
    const r = new LogTail(1000);
    r.add('jdbc:postgresql://app:s3cret@db:5432/x password=hunter2');
    expect(r.lines[0]).not.toMatch(/s3cret|hunter2/);
    // one line over the budget keeps its end
    const long = new LogTail(10);
    long.add(`${'x'.repeat(50)}0123456789`);
    expect(long.lines).toEqual(['0123456789']);
    expect(bytesPerWorker(4, 32 * 1024, 512 * 1024)).toBe(32 * 1024);
    expect(bytesPerWorker(64, 32 * 1024, 512 * 1024)).toBe(8 * 1024);
  });

  test("a recorded line, as the runtime's logger writes it, is found again by the CLI's parser (with --timestamps too)", () => {
    const written = formatLine(
      'INFO',
      recordedWorkerLine('app-1-worker-3', 'SeaTunnelRow#tableId=  [a | b]'),
    ).trimEnd();
    expect(parseRecordedWorkerLine(written)).toEqual({ pod: 'app-1-worker-3', line: 'SeaTunnelRow#tableId=  [a | b]' });
    expect(parseRecordedWorkerLine(`2026-12-05T05:00:00.123456789Z ${written}`)).toEqual({
      pod: 'app-1-worker-3',
      line: 'SeaTunnelRow#tableId=  [a | b]',
    });
    expect(parseRecordedWorkerLine(formatLine('INFO', 'created worker').trimEnd())).toBeUndefined();
  });
});

describe('in the lifecycle', () => {
  test("a job that succeeds: each worker's last lines are in the runtime's log, read before the worker is deleted", async () => {
    const s = setup();
    for (let n = 1; n <= 3; n++)
      s.kube.podLogs.set(
        `app-1-worker-${n}`,
        Array.from({ length: 300 }, (_, i) => `worker ${n} row ${i + 1} token=abc${i}\n`).join(''),
      );
    const out = await s.run();
    expect(out.state).toBe('SUCCEEDED');
    const recorded = s.log.lines.map(parseRecordedWorkerLine).filter((x) => x !== undefined);
    // the last 200 lines of each worker (WORKER_LOG_TAIL.lines), newest last, secrets redacted
    for (let n = 1; n <= 3; n++) {
      const mine = recorded.filter((r) => r.pod === `app-1-worker-${n}`).map((r) => r.line);
      expect(mine).toHaveLength(200);
      expect(mine[199]).toBe(`worker ${n} row 300 token=***`);
      expect(mine[0]).toBe(`worker ${n} row 101 token=***`);
    }
    const reads = s.kube.ops('readPodLog');
    const deletes = s.kube.ops('deletePod');
    expect(reads.map((c) => c.name).sort()).toEqual(['app-1-worker-1', 'app-1-worker-2', 'app-1-worker-3']);
    expect(Math.max(...reads.map((c) => c.at))).toBeLessThanOrEqual(Math.min(...deletes.map((c) => c.at)));
    expect(s.kube.calls.findIndex((c) => c.op === 'deletePod')).toBeGreaterThan(
      Math.max(...s.kube.calls.map((c, i) => (c.op === 'readPodLog' ? i : -1))),
    );
  });

  test('a worker whose log cannot be read costs only its own lines: the others are kept, the job still succeeds', async () => {
    const s = setup();
    s.kube.podLogs.set('app-1-worker-2', 'two\n');
    s.kube.failNext.set('readPodLog', [new KubeApiError(500, 'InternalError', 'kubelet')]);
    const out = await s.run();
    expect(out.state).toBe('SUCCEEDED');
    expect(s.log.lines.some((l) => /reading a worker's last lines failed/.test(l))).toBe(true);
  });

  test('an OOM-killed worker Zeta reports as an offline member, seen by the kubelet a second later: the failure names the Pod and OOMKilled', async () => {
    const s = setup();
    s.kube.podLogs.set('app-1-worker-2', 'java.lang.OutOfMemoryError: Java heap space\n');
    const out = await whileRunning(s, () => {
      // The Pods' IPs, then Zeta fails the job before the kubelet reports the kill.
      for (let n = 1; n <= 3; n++) s.kube.update(`app-1-worker-${n}`, (p) => void (p.status!.podIP = `10.0.1.${n}`));
      s.engine.status = 'FAILED';
      s.engine.errorMsg = 'java.lang.IllegalStateException: deployed node([10.0.1.2]:5802) offline';
      void s.clock.sleep(1000).then(() => s.kube.update('app-1-worker-2', oomKilled('10.0.1.2')));
    });
    expect(out.reason).toBe('JobFailed');
    expect(out.message).toMatch(/deployed node\(\[10\.0\.1\.2\]:5802\) offline/);
    expect(out.message).toMatch(
      /\[worker Pod app-1-worker-2 \(10\.0\.1\.2\): container seatunnel was OOMKilled \(exit code 137, SIGKILL\)/,
    );
    // kept where status reads it, after the Pod is gone
    expect(s.kube.annotations[ANNOTATIONS.message]).toContain(
      'app-1-worker-2 (10.0.1.2): container seatunnel was OOMKilled',
    );
    expect(s.kube.events.at(-1)?.message).toContain('OOMKilled');
    // and its last lines in the runtime's log
    expect(s.log.lines.map(parseRecordedWorkerLine)).toContainEqual({
      pod: 'app-1-worker-2',
      line: 'java.lang.OutOfMemoryError: Java heap space',
    });
  });

  test('a cancel (the application deleted) reads no logs: the record would go with the Job', async () => {
    const s = setup();
    const out = await whileRunning(s, () => {
      s.kube.deleteJob();
      s.terminate.abort();
    });
    expect(out.state).toBe('CANCELED');
    expect(s.kube.ops('readPodLog')).toEqual([]);
  });

  test('with keepWorkerLogs off no log is read, and a failure still names the worker and how it ended', async () => {
    const s = setup({}, {}, { keepWorkerLogs: false });
    const out = await whileRunning(s, () => {
      s.kube.update('app-1-worker-2', (p) => void (p.status!.podIP = '10.0.1.2'));
      s.engine.status = 'FAILED';
      s.engine.errorMsg = 'deployed node([10.0.1.2]:5802) offline';
      void s.clock.sleep(1000).then(() => s.kube.update('app-1-worker-2', oomKilled('10.0.1.2')));
    });
    expect(out.reason).toBe('JobFailed');
    expect(s.kube.ops('readPodLog')).toEqual([]);
    expect(out.message).toMatch(/worker Pod app-1-worker-2 \(10\.0\.1\.2\): container seatunnel was OOMKilled/);
  });
});
