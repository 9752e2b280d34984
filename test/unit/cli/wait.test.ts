// --wait: polling, exit codes (SUCCEEDED/CANCELED 0, FAILED 1, UNKNOWN 2, timeout 3), progress
// lines only on state changes when not a terminal, a redrawn line on a terminal, transient errors retried.
import { KubeApiError } from '../../../lib/kube';
import type { Kube } from '../../../lib/kube';
import type { StatusReport } from '../../../lib/submit/observe/status';
import type { Output } from '../../../lib/cli/output';
import { progressText, waitExitCode, waitForApplication } from '../../../lib/cli/wait';
import { lastStatus } from '../../../lib/cli/commands/status';

const report = (status: StatusReport['status'], extra: Partial<StatusReport> = {}): StatusReport => ({
  applicationId: 'a-0123456789ab',
  namespace: 'ns',
  status,
  ...extra,
});

function harness(sequence: Array<StatusReport | Error>, interactive = false) {
  let now = 0;
  let i = 0;
  const progress: Array<[string, boolean | undefined]> = [];
  const warnings: string[] = [];
  const out: Output = {
    json: false,
    interactive,
    result: () => undefined,
    line: () => undefined,
    error: () => undefined,
    warn: (t) => warnings.push(t),
    progress: (t, done) => progress.push([t, done]),
  };
  const opts = {
    now: () => now,
    sleep: async (ms: number) => {
      now += ms;
    },
    read: async () => {
      const next = sequence[Math.min(i++, sequence.length - 1)];
      if (next instanceof Error) throw next;
      return next;
    },
  };
  return { out, opts, progress, warnings, reads: () => i };
}

describe('waitForApplication', () => {
  test('polls every interval until a terminal status; plain lines only when the state changes', async () => {
    const h = harness([
      report('DEPLOYING'),
      report('DEPLOYING'),
      report('RUNNING', {
        phase: 'WaitingForWorkers',
        workers: { desired: 3, registered: 1, pods: 3, running: 3, problems: [] },
      }),
      report('RUNNING', {
        phase: 'WaitingForWorkers',
        workers: { desired: 3, registered: 1, pods: 3, running: 3, problems: [] },
      }),
      report('SUCCEEDED'),
    ]);
    const w = await waitForApplication({} as Kube, 'ns', 'a', h.out, { intervalMs: 500, timeoutMs: 0, ...h.opts });
    expect(w).toMatchObject({ timedOut: false, elapsedMs: 2000, report: { status: 'SUCCEEDED' } });
    expect(h.reads()).toBe(5);
    expect(h.progress.map(([t]) => t)).toEqual([
      '[00:00] DEPLOYING',
      '[00:01] RUNNING phase WaitingForWorkers, workers 1/3',
      '[00:02] SUCCEEDED',
    ]);
  });

  test('on a terminal: one line redrawn every poll, ended when done', async () => {
    const h = harness([report('RUNNING'), report('RUNNING'), report('FAILED', { reason: 'OOMKilled' })], true);
    await waitForApplication({} as Kube, 'ns', 'a', h.out, { intervalMs: 1000, timeoutMs: 0, ...h.opts });
    expect(h.progress).toEqual([
      ['RUNNING · 00:00', undefined],
      ['RUNNING · 00:01', undefined],
      ['FAILED (OOMKilled) · 00:02', undefined],
      ['FAILED (OOMKilled) · 00:02', true],
    ]);
  });

  test('UNKNOWN ends the wait; --wait-timeout ends it with the last status', async () => {
    const unknown = harness([report('DEPLOYING'), report('UNKNOWN')]);
    expect(
      (await waitForApplication({} as Kube, 'ns', 'a', unknown.out, { intervalMs: 100, timeoutMs: 0, ...unknown.opts }))
        .report.status,
    ).toBe('UNKNOWN');
    const slow = harness([report('RUNNING')]);
    const w = await waitForApplication({} as Kube, 'ns', 'a', slow.out, {
      intervalMs: 400,
      timeoutMs: 1000,
      ...slow.opts,
    });
    expect(w).toMatchObject({ timedOut: true, elapsedMs: 1000, report: { status: 'RUNNING' } });
  });

  test('transient API errors are retried with one warning; others end the wait', async () => {
    const flaky = harness([
      new KubeApiError(503, 'ServiceUnavailable', 'restarting'),
      new KubeApiError(0, 'ECONNREFUSED', 'refused', undefined, 'no'),
      report('CANCELED'),
    ]);
    expect(
      (await waitForApplication({} as Kube, 'ns', 'a', flaky.out, { intervalMs: 100, timeoutMs: 0, ...flaky.opts }))
        .report.status,
    ).toBe('CANCELED');
    expect(flaky.warnings).toEqual([expect.stringMatching(/status query failed, retrying for up to 60 s: HTTP 503/)]);
    const denied = harness([new KubeApiError(403, 'Forbidden', 'no')]);
    await expect(
      waitForApplication({} as Kube, 'ns', 'a', denied.out, { intervalMs: 100, timeoutMs: 0, ...denied.opts }),
    ).rejects.toThrow(/HTTP 403/);
    const down = harness([new KubeApiError(503, 'ServiceUnavailable', 'down')]);
    await expect(
      waitForApplication({} as Kube, 'ns', 'a', down.out, { intervalMs: 10_000, timeoutMs: 0, ...down.opts }),
    ).rejects.toThrow(/HTTP 503/);
  });

  test("a timed-out wait names the last status with Kubernetes' reason, bounded", () => {
    expect(lastStatus(report('RUNNING'))).toBe('RUNNING');
    expect(
      lastStatus(
        report('DEPLOYING', {
          reason: 'Unschedulable',
          message: 'master Pod a-0123456789ab-x: 0/3 nodes are available: 3 Insufficient cpu.',
        }),
      ),
    ).toBe('DEPLOYING (Unschedulable: master Pod a-0123456789ab-x: 0/3 nodes are available: 3 Insufficient cpu.)');
    expect(lastStatus(report('DEPLOYING', { message: 'master Pod p is Pending' }))).toBe(
      'DEPLOYING (master Pod p is Pending)',
    );
    expect(lastStatus(report('DEPLOYING', { message: 'x'.repeat(1000) }))).toHaveLength('DEPLOYING ()'.length + 300);
  });

  test('exit codes and the progress line', () => {
    expect(
      ['SUCCEEDED', 'CANCELED', 'FAILED', 'UNKNOWN'].map((s) => waitExitCode(s as StatusReport['status'])),
    ).toEqual([0, 0, 1, 2]);
    expect(
      progressText(
        report('RUNNING', {
          phase: 'Running',
          workers: { desired: 5, registered: 5, pods: 5, running: 5, problems: [] },
        }),
        3_725_000,
      ),
    ).toBe('RUNNING · phase Running · workers 5/5 · 1:02:05');
    expect(
      progressText(
        report('RUNNING', { phase: 'Running', rows: { read: 1200, written: 1180, perSecond: 118, at: AT } }),
        42_000,
      ),
    ).toBe('RUNNING · phase Running · rows 1200 read, 1180 written, 118 rows/s · 00:42');
  });

  test('without a terminal, new rows alone print a line at most once a minute; a state change at once', async () => {
    const running = (written: number, at: string) =>
      report('RUNNING', { phase: 'Running', rows: { read: written, written, perSecond: 10, at } });
    // One read every 10 s, the rows new at each: 13 reads over two minutes, then the end.
    const reads = Array.from({ length: 13 }, (_, i) =>
      running(100 * i, new Date(Date.UTC(2026, 0, 1, 0, 0, 10 * i)).toISOString()),
    );
    const h = harness([...reads, report('SUCCEEDED', { rows: { read: 1300, written: 1300, at: AT } })]);
    await waitForApplication({} as Kube, 'ns', 'a', h.out, { intervalMs: 10_000, timeoutMs: 0, ...h.opts });
    expect(h.progress.map(([t]) => t)).toEqual([
      '[00:00] RUNNING phase Running, rows 0 read, 0 written, 10 rows/s',
      '[01:00] RUNNING phase Running, rows 600 read, 600 written, 10 rows/s',
      '[02:00] RUNNING phase Running, rows 1200 read, 1200 written, 10 rows/s',
      '[02:10] SUCCEEDED, rows 1300 read, 1300 written',
    ]);
  });
});

const AT = '2026-01-01T00:00:00Z';
