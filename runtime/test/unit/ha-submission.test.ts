// With HA the job is submitted at most once, whatever happens around the submission (docs/ha.md,
// "Re-attaching"). A coordinator may die between any two of its effects: the crash points are
// taken from a real run of one coordinator (every state the Job and Zeta pass through around the
// claim and the submission), and a new coordinator is started from each. API and Zeta errors are
// driven into the same steps. Never a second submission; a coordinator that cannot prove whether
// the job was sent waits or gives up.
import { ANNOTATIONS } from 'seatunnel-app/runtime-support';
import { EngineUnavailable } from '../../src/engine/port';
import { KubeApiError, running } from './fakes';
import { setup } from './lifecycle-setup';
import { SUBMIT_SETTLE_MS } from '../../src/steps/zeta-job';

const STS = 'app-1-master';

function haSetup(tuning: Parameters<typeof setup>[1] = {}) {
  const s = setup({ haEnabled: true, haMasters: 2, checkpointPvc: 'ckpt' }, tuning);
  s.kube.statefulSet = { metadata: { name: STS }, status: { replicas: 2, readyReplicas: 2 } };
  return s;
}

interface CrashPoint {
  readonly label: string;
  readonly annotations: Record<string, string>;
  /** Zeta has the job (the submission arrived). */
  readonly zetaKnows: boolean;
  readonly submittedSoFar: number;
}

/** Every state a coordinator passes through around its claim and its submission. */
async function crashPoints(): Promise<CrashPoint[]> {
  const s = haSetup();
  const points: CrashPoint[] = [];
  const take = (label: string) =>
    points.push({
      label,
      annotations: Object.fromEntries(
        Object.entries(s.kube.annotations).filter((e): e is [string, string] => e[1] !== null),
      ),
      zetaKnows: s.engine.status !== undefined,
      submittedSoFar: s.engine.submits.length,
    });
  const patch = s.kube.patchJobAnnotations.bind(s.kube);
  s.kube.patchJobAnnotations = async (name, annotations, precondition) => {
    const keys = Object.keys(annotations).join(',');
    take(`before the patch of ${keys}`);
    await patch(name, annotations, precondition);
    take(`after the patch of ${keys}`);
  };
  const submit = s.engine.submit.bind(s.engine);
  s.engine.submit = async (req) => {
    take('before the job reached Zeta');
    const res = await submit(req);
    take('the job in Zeta, its acknowledgement not yet received');
    return res;
  };
  const out = await s.run();
  expect(out).toMatchObject({ state: 'SUCCEEDED' });
  expect(s.engine.submits).toHaveLength(1);
  return points;
}

test('a new coordinator started from every crash point never makes it two submissions', async () => {
  const points = await crashPoints();
  // The run passes through the claim, the submission and its record.
  const labels = points.map((p) => p.label);
  expect(labels).toContain(`after the patch of ${ANNOTATIONS.submissionIntent}`);
  expect(labels).toContain('the job in Zeta, its acknowledgement not yet received');
  let sawLost = false;
  let sawFollow = false;
  for (const point of points) {
    const b = haSetup({ engineUnreachableMs: 5_000 });
    Object.assign(b.kube.annotations, point.annotations);
    if (point.zetaKnows) b.engine.status = 'RUNNING';
    const out = await b.run();
    const total = point.submittedSoFar + b.engine.submits.length;
    const claimed = Boolean(point.annotations[ANNOTATIONS.submissionIntent]);
    expect([point.label, 'submissions', total <= 1]).toEqual([point.label, 'submissions', true]);
    if (claimed)
      expect({ point: point.label, submits: b.engine.submits.length }).toEqual({ point: point.label, submits: 0 });
    if (out.state === 'SUCCEEDED') expect({ point: point.label, total }).toEqual({ point: point.label, total: 1 });
    if (claimed && !point.zetaKnows) {
      // Claimed, never arrived: it cannot be told from a job every master lost. Given up, not guessed.
      expect({ point: point.label, reason: out.reason }).toEqual({ point: point.label, reason: 'JobLost' });
      sawLost = true;
    }
    if (claimed && point.zetaKnows) {
      expect({ point: point.label, state: out.state }).toEqual({ point: point.label, state: 'SUCCEEDED' });
      sawFollow = true;
    }
  }
  expect(sawLost && sawFollow).toBe(true);
});

test('the claim is confirmed by the API server before the job is sent', async () => {
  const s = haSetup();
  const order: string[] = [];
  const patch = s.kube.patchJobAnnotations.bind(s.kube);
  s.kube.patchJobAnnotations = async (name, a, pre) => {
    await patch(name, a, pre);
    if (ANNOTATIONS.submissionIntent in a) order.push(`claim confirmed (precondition ${pre ? 'set' : 'none'})`);
  };
  const submit = s.engine.submit.bind(s.engine);
  s.engine.submit = (req) => {
    order.push('submit');
    return submit(req);
  };
  await s.run();
  expect(order).toEqual(['claim confirmed (precondition set)', 'submit']);
});

test("the claim's answer lost after it landed: the coordinator finds its own claim and submits once", async () => {
  const s = haSetup();
  const patch = s.kube.patchJobAnnotations.bind(s.kube);
  let lost = false;
  s.kube.patchJobAnnotations = async (name, a, pre) => {
    await patch(name, a, pre);
    if (ANNOTATIONS.submissionIntent in a && !lost) {
      lost = true;
      throw new KubeApiError(0, 'ETIMEDOUT', 'no answer');
    }
  };
  const out = await s.run();
  expect(out).toMatchObject({ state: 'SUCCEEDED' });
  expect(s.engine.submits).toHaveLength(1);
});

test('the API server away while claiming: nothing is sent until the claim is confirmed', async () => {
  const s = haSetup();
  const down = new KubeApiError(503, 'ServiceUnavailable', 'the server is restarting');
  const patch = s.kube.patchJobAnnotations.bind(s.kube);
  const get = s.kube.getJob.bind(s.kube);
  let outageFrom: number | undefined;
  const inOutage = () => outageFrom !== undefined && s.clock.now() - outageFrom < 120_000;
  s.kube.patchJobAnnotations = async (name, a, pre) => {
    if (ANNOTATIONS.submissionIntent in a) outageFrom ??= s.clock.now();
    if (inOutage()) throw down;
    return patch(name, a, pre);
  };
  s.kube.getJob = async (name) => {
    if (inOutage()) throw down;
    return get(name);
  };
  const submit = s.engine.submit.bind(s.engine);
  s.engine.submit = (req) => {
    expect(inOutage()).toBe(false);
    return submit(req);
  };
  const out = await s.run();
  expect(out).toMatchObject({ state: 'SUCCEEDED' });
  expect(s.engine.submits).toHaveLength(1);
  expect(s.engine.submits[0].at - outageFrom!).toBeGreaterThanOrEqual(120_000);
});

test('the API server away for longer than its tolerance while claiming: ApiUnavailable, nothing sent', async () => {
  const s = haSetup({ apiFailureBudgetMs: 60_000 });
  const down = new KubeApiError(503, 'ServiceUnavailable', 'the server is restarting');
  let claiming = false;
  const patch = s.kube.patchJobAnnotations.bind(s.kube);
  const get = s.kube.getJob.bind(s.kube);
  s.kube.patchJobAnnotations = async (name, a, pre) => {
    if (ANNOTATIONS.submissionIntent in a) claiming = true;
    if (claiming) throw down;
    return patch(name, a, pre);
  };
  s.kube.getJob = async (name) => {
    if (claiming) throw down;
    return get(name);
  };
  const out = await s.run();
  expect(out).toMatchObject({ reason: 'ApiUnavailable' });
  expect(s.engine.submits).toEqual([]);
});

test('another coordinator claims first (two coordinators of one Job): this one follows, never submits', async () => {
  const s = haSetup();
  const patch = s.kube.patchJobAnnotations.bind(s.kube);
  let raced = false;
  s.kube.patchJobAnnotations = async (name, a, pre) => {
    if (ANNOTATIONS.submissionIntent in a && !raced) {
      raced = true;
      // The other one's claim and submission land first; this one's precondition is then stale.
      s.kube.annotateJob(ANNOTATIONS.submissionIntent, 'app-1-other@2026-01-01T00:00:00.000Z');
      s.engine.status = 'RUNNING';
    }
    return patch(name, a, pre);
  };
  const out = await s.run();
  expect(out).toMatchObject({ state: 'SUCCEEDED' });
  expect(s.engine.submits).toEqual([]);
  expect(s.kube.events.map((e) => e.reason)).toContain('Reattached');
});

test('claimed before, Zeta not answering at first ("Not Member!"): waits, then follows — never submits', async () => {
  const s = haSetup();
  s.kube.annotations[ANNOTATIONS.submissionIntent] = 'app-1-earlier@2026-01-01T00:00:00.000Z';
  s.engine.status = 'RUNNING';
  const info = s.engine.jobInfo.bind(s.engine);
  let failures = 0;
  s.engine.jobInfo = async (id) => {
    if (failures++ < 10) throw new EngineUnavailable('GET /job-info: HTTP 500: Not Member!');
    return info(id);
  };
  const out = await s.run();
  expect(out).toMatchObject({ state: 'SUCCEEDED' });
  expect(s.engine.submits).toEqual([]);
});

test('claimed before, Zeta never answering: EngineUnreachable after the window — never submits', async () => {
  const s = haSetup({ engineUnreachableMs: 10_000 });
  s.kube.annotations[ANNOTATIONS.submissionIntent] = 'app-1-earlier@2026-01-01T00:00:00.000Z';
  s.engine.jobInfo = () => Promise.reject(new EngineUnavailable('GET /job-info: HTTP 500: Not Member!'));
  const out = await s.run();
  expect(out).toMatchObject({ reason: 'EngineUnreachable' });
  expect(s.engine.submits).toEqual([]);
});

test("Zeta's answer to the submission lost (the job arrived): asked, found, not sent again", async () => {
  const s = haSetup();
  const submit = s.engine.submit.bind(s.engine);
  let first = true;
  s.engine.submit = async (req) => {
    const res = await submit(req);
    if (first) {
      first = false;
      throw new EngineUnavailable('POST /submit-job: socket hang up');
    }
    return res;
  };
  const out = await s.run();
  expect(out).toMatchObject({ state: 'SUCCEEDED' });
  expect(s.engine.submits).toHaveLength(1);
});

/** A submission whose POST times out while Zeta still sets the job up; job-info knows it `afterMs` later (never: undefined). */
function slowSubmission(s: ReturnType<typeof setup>, afterMs: number | undefined) {
  const submit = s.engine.submit.bind(s.engine);
  const jobInfo = s.engine.jobInfo.bind(s.engine);
  let knownFrom: number | undefined;
  s.engine.submit = async (req) => {
    const res = await submit(req);
    knownFrom = afterMs === undefined ? Infinity : s.clock.now() + afterMs;
    void res;
    throw new EngineUnavailable('POST /submit-job?jobId=1: ETIMEDOUT: no complete answer within 60000 ms');
  };
  s.engine.jobInfo = (id) =>
    knownFrom === undefined || s.clock.now() < knownFrom
      ? Promise.reject(new EngineUnavailable(`GET /job-info/${id}: HTTP 500: job not found`))
      : jobInfo(id);
}

test('a submission that times out while Zeta still sets the job up (a master with little CPU): the job is waited for, found, followed, never sent again', async () => {
  const s = setup();
  s.kube.onCreate = (pod) => s.kube.update(pod.metadata!.name!, running);
  slowSubmission(s, 50_000);
  const out = await s.run();
  expect(out).toMatchObject({ state: 'SUCCEEDED' });
  expect(s.engine.submits).toHaveLength(1);
});

test('a timed-out submission that never shows up ends EngineUnreachable, saying how long it was waited for, and is not sent twice', async () => {
  const s = setup();
  s.kube.onCreate = (pod) => s.kube.update(pod.metadata!.name!, running);
  slowSubmission(s, undefined);
  const out = await s.run();
  expect(out).toMatchObject({ reason: 'EngineUnreachable' });
  expect(out.message).toMatch(/ETIMEDOUT.*had not shown up in Zeta 120 s later either/);
  expect(s.engine.submits).toHaveLength(1);
});

test('a submission refused before it was sent (connection refused) is sent again at once, not waited for', async () => {
  const s = setup();
  s.kube.onCreate = (pod) => s.kube.update(pod.metadata!.name!, running);
  const submit = s.engine.submit.bind(s.engine);
  let refused = 0;
  let secondAt = 0;
  const t0 = s.clock.now();
  s.engine.submit = async (req) => {
    if (refused++ === 0)
      throw new EngineUnavailable('POST /submit-job: ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:8080');
    secondAt = s.clock.now() - t0;
    return submit(req);
  };
  const out = await s.run();
  expect(out).toMatchObject({ state: 'SUCCEEDED' });
  expect(s.engine.submits).toHaveLength(1);
  expect(refused).toBe(2);
  expect(secondAt).toBeLessThan(SUBMIT_SETTLE_MS);
});

test('without HA there is no claim: one Pod, one runtime, the Job never starts a second one', async () => {
  const s = setup();
  s.kube.onCreate = (pod) => s.kube.update(pod.metadata!.name!, running);
  const out = await s.run();
  expect(out).toMatchObject({ state: 'SUCCEEDED' });
  expect(s.kube.annotations[ANNOTATIONS.submissionIntent]).toBeUndefined();
  expect(s.engine.submits).toHaveLength(1);
});
