// logs, without a cluster: lines are cut whole (and bounded) before they are printed, so several
// Pods' streams merge line by line with kubectl's [pod/NAME/CONTAINER] prefix; which Pods are
// read and in what order; what is asked of the API; and -f's bookkeeping (a replacement worker is
// followed, each ended Pod reported once, the end when every Pod has ended) against a fake API.
// test/cluster/cli-logs.test.ts runs the same through the real API server and kubelet endpoint.
import type { Pod } from 'kubernetes-types/core/v1';
import {
  Kube,
  KubeApiError,
  type KubeApi,
  type KubeRequest,
  type KubeResponse,
  type StreamEvents,
  type WatchEvents,
} from '../../../lib/kube';
import { LABELS } from '../../../lib/model/reserved';
import {
  endDescription,
  LineSplitter,
  linePrefix,
  logTargets,
  STOPPED_ON_DELETION,
  streamLogs,
  type LogsRequest,
} from '../../../lib/submit/observe/logs';

describe('LineSplitter', () => {
  test('whole lines only: a line split across chunks, inside a multi-byte character, CRLF, and a last line without newline', () => {
    const lines: string[] = [];
    const s = new LineSplitter((l) => lines.push(l));
    const bytes = Buffer.from('zeta: 启动\r\nsecond');
    s.push(bytes.subarray(0, 8)); // cuts "启" in the middle
    expect(lines).toEqual([]);
    s.push(bytes.subarray(8));
    expect(lines).toEqual(['zeta: 启动']);
    s.push(' line\n\nthird');
    expect(lines).toEqual(['zeta: 启动', 'second line', '']);
    s.end();
    expect(lines).toEqual(['zeta: 启动', 'second line', '', 'third']);
  });

  test('a line longer than the bound is printed cut, with a note, and the rest of it is skipped without being kept', () => {
    const lines: string[] = [];
    const s = new LineSplitter((l) => lines.push(l), 10);
    s.push('short\n0123456789');
    s.push('abcdef'); // over the bound: emitted now, not when the newline comes
    expect(lines).toEqual(['short', '0123456789 [line cut at 10 characters]']);
    s.push('x'.repeat(1000));
    s.push('yy\nnext\n');
    expect(lines).toEqual(['short', '0123456789 [line cut at 10 characters]', 'next']);
    s.push('0123456789abc\n'); // whole in one chunk: cut the same way
    expect(lines[3]).toBe('0123456789 [line cut at 10 characters]');
  });

  test('two Pods streaming at once: chunks interleaved mid-line still come out as whole, prefixed lines', () => {
    const printed: string[] = [];
    const a = new LineSplitter((l) => printed.push(linePrefix('app-worker-1', 'seatunnel') + l));
    const b = new LineSplitter((l) => printed.push(linePrefix('app-worker-2', 'seatunnel') + l));
    a.push('one-a ');
    b.push('two-a ');
    a.push('end\none-b');
    b.push('end\n');
    a.push('\n');
    expect(printed).toEqual([
      '[pod/app-worker-1/seatunnel] one-a end',
      '[pod/app-worker-2/seatunnel] two-a end',
      '[pod/app-worker-1/seatunnel] one-b',
    ]);
  });
});

const APP = 'orders-1a2b';

function pod(
  name: string,
  role: string,
  phase = 'Running',
  extra: { uid?: string; created?: string; exitCode?: number } = {},
): Pod {
  return {
    metadata: {
      name,
      uid: extra.uid ?? `uid-${name}`,
      resourceVersion: '5',
      creationTimestamp: extra.created ?? '2026-01-01T00:00:00Z',
      labels: { [LABELS.applicationId]: APP, [LABELS.role]: role },
    },
    spec: { containers: [{ name: 'sidecar' }, { name: 'seatunnel' }] },
    status: {
      phase,
      ...(extra.exitCode !== undefined
        ? {
            containerStatuses: [
              {
                name: 'seatunnel',
                image: '',
                imageID: '',
                ready: false,
                restartCount: 0,
                state: { terminated: { exitCode: extra.exitCode, reason: 'Error' } },
              },
            ],
          }
        : {}),
    },
  };
}

describe('endDescription', () => {
  const deleted = (p: Pod): Pod => ({ ...p, metadata: { ...p.metadata, deletionTimestamp: '2026-01-01T00:01:00Z' } });
  test("a worker deleted and then ended on SIGTERM (143) was stopped by the runtime's cleanup, not Failed (issue 28 item 8)", () => {
    expect(endDescription(deleted(pod(`${APP}-worker-1`, 'worker', 'Failed', { exitCode: 143 })))).toBe(
      STOPPED_ON_DELETION,
    );
    expect(STOPPED_ON_DELETION).toMatch(/^stopped by its deletion \(SIGTERM, exit code 143\).*not a failure$/);
  });
  test('anything else is told as the kubelet reports it: a 143 without a deletion, a 137 with one, a master', () => {
    expect(endDescription(pod(`${APP}-worker-1`, 'worker', 'Failed', { exitCode: 143 }))).toBe(
      'Failed (exit code 143, Error)',
    );
    expect(endDescription(deleted(pod(`${APP}-worker-1`, 'worker', 'Failed', { exitCode: 137 })))).toBe(
      'Failed (exit code 137, Error)',
    );
    expect(endDescription(deleted(pod(`${APP}-abcde`, 'master', 'Failed', { exitCode: 143 })))).toBe(
      'Failed (exit code 143, Error)',
    );
  });
});

describe('logTargets', () => {
  const pods = [
    pod(`${APP}-worker-10`, 'worker'),
    pod(`${APP}-worker-2`, 'worker'),
    pod(`${APP}-engine`, 'configuration'),
    pod(`${APP}-abcde`, 'master'),
  ];
  const names = (req: Partial<LogsRequest>) =>
    logTargets({ applicationId: APP, ...req }, pods).map((p) => p.metadata?.name);

  test('the master first, then workers by number (10 after 2); never a Pod of another role', () => {
    expect(names({})).toEqual([`${APP}-abcde`, `${APP}-worker-2`, `${APP}-worker-10`]);
  });
  test('by role, and worker N by the name the runtime gives it', () => {
    expect(names({ role: 'worker' })).toEqual([`${APP}-worker-2`, `${APP}-worker-10`]);
    expect(names({ role: 'master' })).toEqual([`${APP}-abcde`]);
    expect(names({ worker: 10 })).toEqual([`${APP}-worker-10`]);
    expect(names({ worker: 1 })).toEqual([]);
  });
});

/** A KubeApi that answers the Pod list and records log streams and watches for the test to drive. */
class FakeApi implements KubeApi {
  readonly server = 'https://fake';
  readonly streams = new Map<string, StreamEvents>();
  readonly watches: WatchEvents[] = [];
  constructor(public pods: Pod[]) {}
  request<T>(req: KubeRequest): Promise<KubeResponse<T>> {
    expect(req.path).toBe(
      `/api/v1/namespaces/ns/pods?labelSelector=${encodeURIComponent(`${LABELS.applicationId}=${APP}`)}`,
    );
    return Promise.resolve({ status: 200, body: { items: this.pods, metadata: { resourceVersion: '7' } } as T });
  }
  watch(path: string, events: WatchEvents) {
    expect(path).toContain('resourceVersion=7');
    this.watches.push(events);
    return { stop: () => undefined };
  }
  stream(path: string, events: StreamEvents) {
    this.streams.set(path, events);
    return { stop: () => undefined };
  }
  close() {}
  /** The log stream of a Pod, once it has been asked for. */
  log(name: string): StreamEvents | undefined {
    return [...this.streams].find(([p]) => p.startsWith(`/api/v1/namespaces/ns/pods/${name}/log?`))?.[1];
  }
}

const request = (over: Partial<LogsRequest> = {}): LogsRequest => ({
  applicationId: APP,
  namespace: 'ns',
  follow: false,
  previous: false,
  timestamps: false,
  ...over,
});

const tick = () => new Promise((r) => setImmediate(r));

describe('streamLogs', () => {
  test('one Pod after the other, the main container by name, the options in the query; a deleted Pod is "gone"', async () => {
    const api = new FakeApi([pod(`${APP}-worker-1`, 'worker'), pod(`${APP}-abcde`, 'master')]);
    const lines: string[] = [];
    const done = streamLogs(
      new Kube(api),
      request({ sinceSeconds: 60, tailLines: 5, timestamps: true, previous: true }),
      {
        line: (l) => lines.push(l),
        note: (n) => lines.push(`note: ${n}`),
      },
    );
    await tick();
    const [path] = [...api.streams.keys()];
    expect(path).toBe(
      `/api/v1/namespaces/ns/pods/${APP}-abcde/log?container=seatunnel&previous=true&sinceSeconds=60&timestamps=true&tailLines=5`,
    );
    expect(api.streams.size).toBe(1); // the worker waits for the master's log to end
    api.log(`${APP}-abcde`)!.data(Buffer.from('m1\nm2'));
    api.log(`${APP}-abcde`)!.closed();
    await tick();
    api.log(`${APP}-worker-1`)!.closed(new KubeApiError(404, 'NotFound', 'pods "x" not found'));
    const outcome = await done;
    expect(lines).toEqual([`[pod/${APP}-abcde/seatunnel] m1`, `[pod/${APP}-abcde/seatunnel] m2`]);
    expect(outcome).toEqual({
      shown: 1,
      noPods: false,
      failed: [
        { pod: `${APP}-worker-1`, gone: true, message: `Pod ${APP}-worker-1 is gone (deleted): its log went with it` },
      ],
    });
  });

  test('-f: a replacement worker is followed, each ended Pod reported once, and it ends when every Pod of the application has', async () => {
    const api = new FakeApi([
      pod(`${APP}-abcde`, 'master'),
      pod(`${APP}-worker-1`, 'worker'),
      pod(`${APP}-worker-2`, 'worker', 'Pending'),
    ]);
    const out: string[] = [];
    const notes: string[] = [];
    let ended = false;
    const done = streamLogs(new Kube(api), request({ follow: true, role: 'worker' }), {
      line: (l) => out.push(l),
      note: (n) => notes.push(n),
    }).then((o) => {
      ended = true;
      return o;
    });
    await tick();
    // Only started workers are read; the master is watched (it decides the end) but not read.
    expect([...api.streams.keys()].map((p) => p.split('?')[0])).toEqual([
      `/api/v1/namespaces/ns/pods/${APP}-worker-1/log`,
    ]);
    expect([...api.streams.keys()][0]).toContain('follow=true');
    const watch = api.watches[0];
    api.log(`${APP}-worker-1`)!.data(Buffer.from('w1 up\n'));

    // Worker 1 is lost: deleted, its stream ends; a new Pod of the same name replaces it.
    watch.event('DELETED', pod(`${APP}-worker-1`, 'worker'));
    api.log(`${APP}-worker-1`)!.closed();
    api.streams.clear();
    watch.event('ADDED', pod(`${APP}-worker-1`, 'worker', 'Pending', { uid: 'new-1' }));
    expect(api.streams.size).toBe(0); // not started yet
    watch.event('MODIFIED', pod(`${APP}-worker-1`, 'worker', 'Running', { uid: 'new-1' }));
    watch.event('MODIFIED', pod(`${APP}-worker-2`, 'worker', 'Running'));
    await tick();
    api.log(`${APP}-worker-1`)!.data(Buffer.from('w1 again\n'));
    api.log(`${APP}-worker-2`)!.data(Buffer.from('w2 up\n'));

    // Both workers end; the master still runs, so -f goes on.
    watch.event('MODIFIED', pod(`${APP}-worker-1`, 'worker', 'Failed', { uid: 'new-1', exitCode: 137 }));
    watch.event('MODIFIED', pod(`${APP}-worker-1`, 'worker', 'Failed', { uid: 'new-1', exitCode: 137 }));
    api.log(`${APP}-worker-1`)!.closed();
    watch.event('MODIFIED', pod(`${APP}-worker-2`, 'worker', 'Succeeded', { exitCode: 0 }));
    api.log(`${APP}-worker-2`)!.closed();
    await tick();
    expect(ended).toBe(false);
    watch.event('MODIFIED', pod(`${APP}-abcde`, 'master', 'Succeeded'));
    const outcome = await done;
    expect(out).toEqual([
      `[pod/${APP}-worker-1/seatunnel] w1 up`,
      `[pod/${APP}-worker-1/seatunnel] w1 again`,
      `[pod/${APP}-worker-2/seatunnel] w2 up`,
    ]);
    expect(notes).toEqual([
      `--- Pod ${APP}-worker-1 was deleted`,
      `--- Pod ${APP}-worker-1 ended: Failed (exit code 137, Error)`,
      `--- Pod ${APP}-worker-2 ended: Succeeded (exit code 0, Error)`,
    ]);
    expect(outcome).toMatchObject({ shown: 3, noPods: false });
  });

  test('-f with no Pod at all ends at once as "no Pods"', async () => {
    const api = new FakeApi([]);
    expect(
      await streamLogs(new Kube(api), request({ follow: true }), { line: () => undefined, note: () => undefined }),
    ).toEqual({
      shown: 0,
      failed: [],
      noPods: true,
    });
    expect(api.watches).toHaveLength(0);
  });
});
