// The gate submit and cancel take (`writesWaitFor`: the CLI's server-version check): their first
// reads go out at once, nothing is written before the gate has settled, and a gate that rejects is
// the error, with nothing written. The round trip itself is proven against the real API server
// (test/cluster/cli-submit-requests.test.ts); here, with a recording stand-in for the client, that
// a refused server changes nothing whatever the reads found.
import type { Kube } from '../../../lib/kube';
import { LABELS } from '../../../lib/model/reserved';
import { resolveApplication } from '../../../lib/model/resolve';
import { buildPlan } from '../../../lib/plan/build-plan';
import { cancelApplication } from '../../../lib/submit/act/cancel';
import { submitApplication } from '../../../lib/submit/act/submit';

/** A client that answers reads with `found` and records every call; writes are recorded and fail the test if ever made. */
function recordingKube(found: unknown): { kube: Kube; calls: string[] } {
  const calls: string[] = [];
  const write = (name: string) => async () => {
    calls.push(name);
    throw new Error(`${name} must not be called`);
  };
  const kube = {
    find: async (ref: { kind: string; name: string }) => {
      calls.push(`find ${ref.kind}/${ref.name}`);
      return found;
    },
    get: async (ref: { kind: string; name: string }) => {
      calls.push(`get ${ref.kind}/${ref.name}`);
      return found;
    },
    create: write('create'),
    delete: write('delete'),
    deleteCollection: write('deleteCollection'),
    mergePatch: write('mergePatch'),
    jsonPatch: write('jsonPatch'),
  } as unknown as Kube;
  return { kube, calls };
}

const refused = () => Promise.reject(new Error('Kubernetes server v1.22.17 is not supported'));

test('cancel: the Job is read at once, and a refused server deletes nothing', async () => {
  const job = { metadata: { name: 'app-1', uid: 'u1', labels: { [LABELS.applicationId]: 'app-1' } } };
  const { kube, calls } = recordingKube(job);
  let release!: (e: Error) => void;
  const gate = new Promise<never>((_, reject) => (release = reject));
  const cancelling = cancelApplication(kube, 'ns', 'app-1', { writesWaitFor: gate });
  await new Promise((r) => setImmediate(r));
  expect(calls).toEqual(['find Job/app-1']); // read while the gate is still open
  release(new Error('Kubernetes server v1.22.17 is not supported'));
  await expect(cancelling).rejects.toThrow('Kubernetes server v1.22.17 is not supported');
  expect(calls).toEqual(['find Job/app-1']);
});

test('submit: a refused server creates nothing, and its refusal wins over the reference check', async () => {
  const spec = resolveApplication({
    name: 'gate',
    namespace: 'ns',
    image: 'apache/seatunnel:2.3.12',
    jobConfig: 'env { job.mode = "BATCH" }\nsource { FakeSource {} }\nsink { Console {} }\n',
    env: { DB_PASSWORD: { secret: 'db', key: 'password' } },
  });
  // The referenced Secret is missing: the reference check alone would refuse with its own error.
  const { kube, calls } = recordingKube(undefined);
  await expect(
    submitApplication(kube, buildPlan(spec, { suspend: true }), { writesWaitFor: refused() }),
  ).rejects.toThrow('Kubernetes server v1.22.17 is not supported');
  expect(calls.length).toBeGreaterThan(0);
  expect(calls.every((c) => c.startsWith('find ') || c.startsWith('get '))).toBe(true);
});
