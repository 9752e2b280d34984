// Every status annotation the CLI's observation commands read (lib/submit/observe) has a writer: the
// plan (the Job's first annotations), the CLI's actions (cancel) or the runtime. The runtime's are
// collected from real runs of the lifecycle on fakes — plain and HA, succeeding, failing, with a
// worker replaced and the active master known — so an annotation `status` prints that nothing
// writes (as `active-master` once was) fails here.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ANNOTATIONS, type AnnotationKey } from 'seatunnel-app/internal/contract';
import { once, setup } from './lifecycle-setup';
import { running } from './fakes';

const REPO = path.resolve(__dirname, '..', '..', '..');

function sources(dir: string): string {
  return fs
    .readdirSync(path.join(REPO, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts'))
    .map((f) => fs.readFileSync(path.join(REPO, dir, f), 'utf8'))
    .join('\n');
}

const keysIn = (text: string): Set<AnnotationKey> =>
  new Set([...text.matchAll(/ANNOTATIONS\.(\w+)/g)].map((m) => m[1] as AnnotationKey));

async function runtimeWrites(): Promise<Set<string>> {
  const written = new Set<string>();
  const collect = (s: ReturnType<typeof setup>) => {
    for (const p of s.kube.annotationPatches) for (const k of Object.keys(p)) written.add(k);
  };
  const plain = setup();
  await plain.run();
  collect(plain);
  const failing = setup();
  failing.engine.script = (n) => (n >= 2 ? 'FAILED' : 'RUNNING');
  await failing.run();
  collect(failing);
  const ha = setup({ haEnabled: true, haMasters: 2, checkpointPvc: 'ckpt', haWorkerFailurePolicy: 'replace' });
  ha.kube.statefulSet = { metadata: { name: 'app-1-master' }, status: { replicas: 2, readyReplicas: 2 } };
  ha.kube.seed({
    metadata: {
      name: 'app-1-master-0',
      uid: 'm0',
      labels: { 'seatunnel.apache.org/application-id': 'app-1', 'seatunnel.apache.org/role': 'master' },
    },
    spec: { containers: [{ name: 'seatunnel' }] },
    status: { podIP: '10.0.0.21' },
  });
  ha.kube.update('app-1-master-0', running);
  ha.engine.master = ha.app.ha!.masterAddresses[0];
  ha.engine.script = (n) => (n >= 30 ? 'FINISHED' : 'RUNNING');
  await ha.run(
    once(
      () => ha.engine.submits.length === 1 && ha.kube.pods.has('app-1-worker-2'),
      () => ha.kube.remove('app-1-worker-2'),
    ),
  );
  collect(ha);
  // Workers waiting for a node: an Unschedulable worker for a while.
  const waiting = setup({ scaleUpGraceMillis: 20_000 });
  waiting.kube.onCreate = (pod) =>
    waiting.kube.update(pod.metadata!.name!, (p) => {
      p.status = {
        phase: 'Pending',
        conditions: [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable', message: '0/1 nodes' }],
      };
    });
  await waiting.run();
  collect(waiting);
  return written;
}

test('every annotation the observation commands read is written by the plan, the CLI or the runtime', async () => {
  const read = keysIn(sources('lib/submit/observe'));
  const byRuntime = await runtimeWrites();
  const byPlanOrCli = keysIn(sources('lib/plan') + sources('lib/submit/act'));
  const unwritten = [...read].filter((k) => !byRuntime.has(ANNOTATIONS[k]) && !byPlanOrCli.has(k));
  expect(read.size).toBeGreaterThan(5);
  expect(unwritten).toEqual([]);
});
