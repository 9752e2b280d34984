// Least privilege, checked both ways: every API call the lifecycle makes (recorded by the fake
// API server over the scenarios that exercise every call) is allowed by the Role the plan
// generates, and every verb the Role grants is used by some call. The cluster tier runs the
// same calls with the real ServiceAccount token against the real Role.
import { runtimeRules } from 'seatunnel-app/internal/plan/steps/rbac';
import { RESOURCES } from 'seatunnel-app/internal/kube/resources';
import { unschedulable, type CallRecord } from './fakes';
import { setup } from './lifecycle-setup';

interface ApiCall {
  readonly group: string;
  readonly resource: string;
  readonly verb: string;
  readonly name?: string;
}

function toApiCall(c: CallRecord): ApiCall {
  const pods = (verb: string, name?: string): ApiCall => ({ group: '', resource: 'pods', verb, name });
  switch (c.op) {
    case 'getJob':
      return { group: 'batch', resource: 'jobs', verb: 'get', name: c.name };
    // A watch with the field selector metadata.name=<name> is authorized against resourceNames.
    case 'watchJob':
      return { group: 'batch', resource: 'jobs', verb: 'watch', name: c.name };
    case 'patchJobAnnotations':
      return { group: 'batch', resource: 'jobs', verb: 'patch', name: 'app-1' };
    case 'getPod':
      return pods('get', c.name);
    case 'createPod':
      return pods('create');
    case 'deletePod':
      return pods('delete', c.name);
    case 'listPods':
      return pods('list');
    case 'watchPods':
      return pods('watch');
    case 'createEvent':
      return { group: '', resource: 'events', verb: 'create' };
    case 'listPodEvents':
      return { group: '', resource: 'events', verb: 'list' };
    case 'readPodLog':
      return { group: '', resource: 'pods/log', verb: 'get', name: c.name };
    case 'getPodTemplate':
      return { group: '', resource: 'podtemplates', verb: 'get', name: c.name };
    case 'getStatefulSet':
      return { group: 'apps', resource: 'statefulsets', verb: 'get', name: c.name };
    case 'deleteStatefulSet':
      return { group: 'apps', resource: 'statefulsets', verb: 'delete', name: c.name };
    case 'getMetadata':
    case 'setOwnerReferences': {
      const [kind, name] = c.name!.split('/');
      return { ...RESOURCES[kind], verb: c.op === 'getMetadata' ? 'get' : 'patch', name };
    }
    default:
      throw new Error(`unmapped call ${c.op}`);
  }
}

/** The calls no rule allows (a resourceNames rule allows only calls naming one of them). */
function notAllowed(calls: readonly ApiCall[], rules: ReturnType<typeof runtimeRules>): ApiCall[] {
  const allowed = (c: ApiCall) =>
    rules.some(
      (r) =>
        r.apiGroups!.includes(c.group) &&
        r.resources!.includes(c.resource) &&
        r.verbs.includes(c.verb) &&
        (!r.resourceNames || (c.name !== undefined && r.resourceNames.includes(c.name))),
    );
  return calls.filter((c) => !allowed(c));
}

test('every call is allowed by runtimeRules(), and every granted verb is used', async () => {
  const calls: ApiCall[] = [];
  // success with adoption; a worker lost mid-run (delete, stop); a stale worker replaced (delete with uid)
  const happy = setup();
  await happy.run();
  calls.push(...happy.kube.calls.map(toApiCall));
  const lost = setup();
  lost.engine.script = () => 'RUNNING';
  let done = false;
  await lost.run(() => {
    if (!done && lost.engine.submits.length) {
      done = true;
      lost.kube.remove('app-1-worker-1');
    }
  });
  calls.push(...lost.kube.calls.map(toApiCall));
  // an Unschedulable worker: its Events are read for what the cluster autoscaler said
  const autoscaled = setup();
  autoscaled.kube.onCreate = (pod) => autoscaled.kube.update(pod.metadata!.name!, unschedulable);
  await autoscaled.run();
  expect(autoscaled.kube.calls.some((c) => c.op === 'listPodEvents')).toBe(true);
  calls.push(...autoscaled.kube.calls.map(toApiCall));

  const rules = runtimeRules(happy.p.spec);
  expect(notAllowed(calls, rules)).toEqual([]);

  const used = new Set(calls.map((c) => `${c.group}/${c.resource}/${c.verb}`));
  const granted = rules.flatMap((r) =>
    r.resources!.flatMap((res) => r.verbs.map((v) => `${r.apiGroups![0]}/${res}/${v}`)),
  );
  expect(granted.filter((g) => !used.has(g))).toEqual([]);
});

test('with HA the same holds for the coordinator: every call allowed by its Role (StatefulSet included), every verb used', async () => {
  const ha = { haEnabled: true, checkpointPvc: 'ckpt' } as const;
  const happy = setup(ha);
  happy.kube.statefulSet = { metadata: { name: 'app-1-master' }, status: { replicas: 2, readyReplicas: 2 } };
  // the kubectl apply path: the StatefulSet has no owner, and stays so (no patch: issue 27, item 4)
  await happy.run();
  const calls = happy.kube.calls.map(toApiCall);
  const rules = runtimeRules(happy.p.spec);
  expect(notAllowed(calls, rules)).toEqual([]);
  const used = new Set(calls.map((c) => `${c.group}/${c.resource}/${c.verb}`));
  for (const verb of ['get', 'delete']) expect(used).toContain(`apps/statefulsets/${verb}`);
  expect(used).not.toContain('apps/statefulsets/patch');
});
