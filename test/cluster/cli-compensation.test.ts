// Compensation, proven against a real API server: a failing, dropped, timed-out or refused
// request at every step of submit — through a fault-injecting proxy in front of the API server,
// and with RBAC denials for real ServiceAccount tokens — leaves nothing this attempt created, and
// never touches a pre-existing object with the same name. The proxy's log of 201 answers is the
// ground truth of what the attempt created, whatever the client was told.
import type { SeaTunnelApplicationProps } from '../../lib/model/props';
import { buildPlan } from '../../lib/plan/build-plan';
import { submitterRules } from '../../lib/plan/submitter-rbac';
import type { ApplicationPlan } from '../../lib/plan/types';
import { connect } from '../../lib/submit/connection/client-node-api';
import { Kube } from '../../lib/kube';
import { SUBMIT_ATTEMPT_ANNOTATION, submitApplication, SubmitError } from '../../lib/submit/act/submit';
import { adminHttp, serviceAccountIdentity, useTestNamespace, waitFor, withComponentLogs } from '../support/cluster';
import { spec } from '../support/fixtures';
import {
  createObj,
  serviceAccountWithRole,
  deploymentFiles,
  FaultProxy,
  getObj,
  labelled,
  randomSuffix,
  run,
  waitAllGone,
  type Fault,
  type Obj,
} from './cli-support';

const ns = useTestNamespace('cli-comp');
let proxy: FaultProxy;
let kube: Kube;

beforeAll(async () => {
  proxy = await FaultProxy.start();
  kube = new Kube(await connect({ kubeconfig: proxy.kubeconfig(), timeoutMs: 1500 }));
});
afterAll(async () => {
  kube?.api.close();
  await proxy?.close();
});

/** Every dependent kind is present: ServiceAccount, Role, RoleBinding, 2 NetworkPolicies, 2 ConfigMaps, Secret, Service, PodTemplate. */
function planFor(appId: string, extra: Partial<SeaTunnelApplicationProps> = {}): ApplicationPlan {
  return buildPlan(
    spec({
      applicationId: appId,
      namespace: ns.name,
      workerCount: 2,
      secrets: { extra: { data: { token: 't0k3n' } } },
      configMaps: { settings: { data: { 'a.properties': 'x=1' }, mounts: { 'a.properties': '/etc/a.properties' } } },
      ...extra,
    }),
    { suspend: true },
  );
}

const newId = () => `comp-${randomSuffix(6)}`;
const collection = (resource: string) => new RegExp(`/namespaces/[^/]+/${resource}$`);
const named = (resource: string, name: string) => new RegExp(`/namespaces/[^/]+/${resource}/${name}$`);

async function attempt(
  appId: string,
  faults: Fault[],
  extra: Partial<SeaTunnelApplicationProps> = {},
): Promise<SubmitError> {
  proxy.inject(...faults);
  const e = await submitApplication(kube, planFor(appId, extra)).then(
    () => undefined,
    (x: unknown) => x,
  );
  if (!(e instanceof SubmitError))
    throw new Error(
      `expected a SubmitError, got ${e instanceof Error ? e.stack : String(e)}; proxy log: ${JSON.stringify(proxy.log)}`,
    );
  return e;
}

/**
 * Everything the proxy saw created is gone (by uid) and reported as rolled back; pre-existing
 * objects are unchanged; nothing labelled with the application ID is left but them.
 */
async function expectRolledBack(appId: string, err: SubmitError, preexisting: Obj[] = []): Promise<void> {
  const created = proxy.created();
  for (const c of created) {
    await waitFor(
      async () => {
        const now = await getObj(ns.name, c.kind, c.name);
        return !now || now.metadata.uid !== c.uid;
      },
      { description: `${c.kind} ${c.name} (uid ${c.uid}, created by the attempt) to be deleted`, timeoutMs: 30_000 },
    );
  }
  expect(err.rollback.deleted.map((r) => `${r.kind}/${r.name}`).sort()).toEqual(
    created.map((c) => `${c.kind}/${c.name}`).sort(),
  );
  for (const p of preexisting) {
    const now = await getObj(ns.name, p.kind!, p.metadata.name);
    expect(now?.metadata.uid).toBe(p.metadata.uid);
    expect(now?.metadata.deletionTimestamp).toBeUndefined();
  }
  await waitAllGone(
    ns.name,
    appId,
    preexisting.map((p) => p.metadata.uid),
    30_000,
  );
  expect(err.rollback.errors.map((e) => e.message)).toEqual([]);
}

async function preexisting(kind: 'Job' | 'Service' | 'ConfigMap', name: string, appId: string): Promise<Obj> {
  // Same name and even the same application label, but not this attempt's.
  const metadata = { name, labels: { 'seatunnel.apache.org/application-id': appId, owner: 'someone-else' } };
  const body =
    kind === 'Job'
      ? {
          apiVersion: 'batch/v1',
          kind,
          metadata,
          spec: {
            suspend: true,
            template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'x' }] } },
          },
        }
      : kind === 'Service'
        ? { apiVersion: 'v1', kind, metadata, spec: { clusterIP: 'None', ports: [{ port: 1 }] } }
        : { apiVersion: 'v1', kind, metadata, data: { mine: 'yes' } };
  const o = await createObj(ns.name, body);
  return { ...o, kind };
}

describe('step 1: referenced objects are checked before anything is created', () => {
  test(
    'a missing Secret and a missing key: refused with both, nothing created',
    withComponentLogs(async () => {
      await createObj(ns.name, {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: `shared-${randomSuffix(3)}` },
        data: { other: '1' },
      }).then(async (cm) => {
        const appId = newId();
        const err = await attempt(appId, [], {
          env: {
            DB_PASSWORD: { secret: 'no-such-secret', key: 'password' },
            OPTIONAL: { secret: 'also-missing', key: 'k', optional: true },
          },
          configMaps: { shared: { ref: cm.metadata.name, mounts: { 'missing.properties': '/etc/m.properties' } } },
        });
        expect(err.step).toBe('references');
        expect(err.message).toMatch(/kubernetes\.env\.DB_PASSWORD: Secret no-such-secret not found/);
        expect(err.message).toMatch(
          new RegExp(
            `kubernetes\\.configmap\\.shared: ConfigMap ${cm.metadata.name} has no key "missing\\.properties" \\(keys: other\\)`,
          ),
        );
        expect(err.message).not.toMatch(/also-missing/);
        expect(proxy.log.filter((l) => l.method !== 'GET')).toEqual([]);
        expect((await labelled(ns.name, appId)).size).toBe(0);
      });
    }),
  );

  test(
    'the API failing during the check: error, nothing created',
    withComponentLogs(async () => {
      const appId = newId();
      const err = await attempt(
        appId,
        [{ method: 'GET', path: named('serviceaccounts', 'runner'), action: 'status-before', status: 503 }],
        {
          serviceAccount: 'runner',
        },
      );
      expect(err.step).toBe('references');
      expect(err.message).toMatch(/checking referenced objects: HTTP 503/);
      expect(proxy.created()).toEqual([]);
    }),
  );
});

describe('step 2: creating the Job', () => {
  test.each<[string, FaultAction, boolean]>([
    ['a 500 before it reached the server', 'status-before', false],
    ['a dropped connection before it reached the server', 'drop-before', false],
    ['a 500 after the server created it', 'status-after', true],
    ['a dropped connection after the server created it', 'drop-after', true],
    ['no answer within the deadline after the server created it', 'hang-after', true],
  ])('%s: the Job is deleted if (and only if) it was created', (_name, action, createdUpstream) =>
    withComponentLogs(async () => {
      const appId = newId();
      const err = await attempt(appId, [{ method: 'POST', path: collection('jobs'), action, status: 500 }]);
      expect(err.step).toBe('create-job');
      expect(proxy.created().map((c) => c.kind)).toEqual(createdUpstream ? ['Job'] : []);
      expect(err.message).toMatch(/the outcome was unknown; verified by reading it back/);
      await expectRolledBack(appId, err);
      // Nothing after the failed step was attempted.
      expect(
        proxy.log.some((l) => l.method === 'PATCH' || (/services|configmaps/.test(l.path) && l.method === 'POST')),
      ).toBe(false);
    })(),
  );

  test(
    'a pre-existing Job of that name (409) is never deleted',
    withComponentLogs(async () => {
      const appId = newId();
      const old = await preexisting('Job', appId, appId);
      const err = await attempt(appId, []);
      expect(err.step).toBe('create-job');
      expect(err.message).toMatch(/already exists and was not created by this submission/);
      expect(err.message).toMatch(new RegExp(`left untouched: Job ${ns.name}/${appId}`));
      await expectRolledBack(appId, err, [old]);
      await adminHttp().call('DELETE', `/apis/batch/v1/namespaces/${ns.name}/jobs/${appId}`);
    }),
  );

  test(
    'a pre-existing Job and an ambiguous answer: the marker shows it is not ours, it survives',
    withComponentLogs(async () => {
      const appId = newId();
      const old = await preexisting('Job', appId, appId);
      const err = await attempt(appId, [
        { method: 'POST', path: collection('jobs'), action: 'status-before', status: 500 },
      ]);
      expect(err.rollback.untouched.map((u) => u.why)).toEqual([
        "an object of that name exists without this submission's marker",
      ]);
      await expectRolledBack(appId, err, [old]);
      await adminHttp().call('DELETE', `/apis/batch/v1/namespaces/${ns.name}/jobs/${appId}`);
    }),
  );
});

type FaultAction = Fault['action'];

describe('step 3: creating the dependents (in parallel)', () => {
  test.each(['roles', 'rolebindings', 'networkpolicies', 'configmaps', 'secrets', 'services', 'podtemplates'])(
    'a 500 after the server created the %s: the Job and every dependent created are deleted',
    (resource) =>
      withComponentLogs(async () => {
        const appId = newId();
        const err = await attempt(appId, [
          { method: 'POST', path: collection(resource), action: 'status-after', status: 500 },
        ]);
        expect(err.step).toBe('create-dependents');
        // The Job and all 10 dependents were created upstream, the failing one included.
        expect(proxy.created()).toHaveLength(12);
        await expectRolledBack(appId, err);
      })(),
  );

  test(
    'a dropped connection before the Service reached the server, and a timeout on a ConfigMap',
    withComponentLogs(async () => {
      const appId = newId();
      const err = await attempt(appId, [
        { method: 'POST', path: collection('services'), action: 'drop-before' },
        { method: 'POST', path: collection('configmaps'), action: 'hang-after' },
      ]);
      expect(err.step).toBe('create-dependents');
      expect(proxy.created().some((c) => c.kind === 'Service')).toBe(false);
      expect(err.causes.length).toBe(2);
      await expectRolledBack(appId, err);
    }),
  );

  test(
    "a pre-existing ConfigMap with a dependent's name (409) survives; the rest is deleted",
    withComponentLogs(async () => {
      const appId = newId();
      const old = await preexisting('ConfigMap', `${appId}-engine`, appId);
      const err = await attempt(appId, []);
      expect(err.step).toBe('create-dependents');
      expect(err.message).toMatch(new RegExp(`create ConfigMap ${ns.name}/${appId}-engine: it already exists`));
      await expectRolledBack(appId, err, [old]);
      expect((await getObj(ns.name, 'ConfigMap', `${appId}-engine`))?.data).toEqual({ mine: 'yes' });
    }),
  );

  test(
    'a pre-existing Service and an ambiguous answer: not ours by the marker, it survives',
    withComponentLogs(async () => {
      const appId = newId();
      const old = await preexisting('Service', appId, appId);
      const err = await attempt(appId, [
        { method: 'POST', path: collection('services'), action: 'status-before', status: 502 },
      ]);
      expect(err.rollback.untouched.map((u) => u.ref.kind)).toEqual(['Service']);
      await expectRolledBack(appId, err, [old]);
      expect(
        (await getObj(ns.name, 'Service', appId))?.metadata.annotations?.[SUBMIT_ATTEMPT_ANNOTATION],
      ).toBeUndefined();
    }),
  );
});

describe('step 4: starting (unsuspending) the Job', () => {
  test.each<[string, FaultAction]>([
    ['a 500 before it reached the server', 'status-before'],
    ['a 500 after the server applied it (the Job may be running)', 'status-after'],
    ['a dropped connection after the server applied it', 'drop-after'],
  ])('%s: the Job, its Pods and every dependent are deleted', (_name, action) =>
    withComponentLogs(async () => {
      const appId = newId();
      const err = await attempt(appId, [{ method: 'PATCH', path: named('jobs', '[^/]+'), action, status: 500 }]);
      expect(err.step).toBe('start');
      expect(proxy.created()).toHaveLength(12);
      if (action !== 'status-before')
        expect(err.message).toMatch(/the Job may have started; it is deleted with its Pods/);
      await expectRolledBack(appId, err);
    })(),
  );
});

test(
  'a rollback that fails too: the original error with the rollback errors attached',
  withComponentLogs(async () => {
    const appId = newId();
    // The rollback retries a failed delete twice: fail all three attempts.
    const deleteJob: Fault = {
      method: 'DELETE',
      path: named('jobs', appId),
      action: 'status-before',
      status: 500,
      times: 3,
    };
    const err = await attempt(appId, [
      { method: 'POST', path: collection('podtemplates'), action: 'status-before', status: 500 },
      deleteJob,
    ]);
    expect(err.step).toBe('create-dependents');
    expect(err.causes[0].message).toMatch(/create PodTemplate .*HTTP 500/);
    expect(err.rollback.errors.map((e) => e.message)).toEqual([
      expect.stringMatching(new RegExp(`delete Job ${ns.name}/${appId}: HTTP 500`)),
    ]);
    expect(err.message).toMatch(/rollback errors \(1\); check with: seatunnel-app cancel --id/);
    // The dependents were still deleted; the Job is what the user is told about.
    const left = [...(await labelled(ns.name, appId)).keys()];
    expect(left).toEqual([`Job/${appId}`]);
    expect(
      (await run(['cancel', '--id', appId, '-Dkubernetes.namespace=' + ns.name, '-a', deploymentFiles(ns.name).deploy]))
        .code,
    ).toBe(0);
    await waitAllGone(ns.name, appId);
  }),
);

describe('RBAC denials with a real ServiceAccount token', () => {
  async function submitter(
    name: string,
    drop: (r: { apiGroups?: string[]; resources?: string[]; verbs: string[] }) => {
      apiGroups?: string[];
      resources?: string[];
      verbs: string[];
    },
  ): Promise<string> {
    await serviceAccountWithRole(ns.name, name, submitterRules().map(drop));
    const id = await serviceAccountIdentity(ns.name, name);
    // The RBAC authorizer reads from an informer: wait until the binding is effective.
    const k = new Kube(await connect({ kubeconfig: id.kubeconfigPath }));
    await waitFor(
      async () => {
        try {
          await k.find({ apiVersion: 'batch/v1', kind: 'Job', namespace: ns.name, name: 'probe' });
          return true;
        } catch {
          return undefined;
        }
      },
      { description: `the RoleBinding of ${name} to take effect` },
    );
    k.api.close();
    return id.kubeconfigPath;
  }

  test(
    'no permission to create NetworkPolicies: refused at step 3, rolled back, reported by the CLI (exit 1, JSON)',
    withComponentLogs(async () => {
      const kubeconfig = await submitter('no-netpol', (r) =>
        r.resources?.includes('networkpolicies') ? { ...r, verbs: r.verbs.filter((v) => v !== 'create') } : r,
      );
      const files = deploymentFiles(ns.name, '', { kubeconfig });
      const r = await run(['submit', ...files.args, '--output', 'json'], { json: true });
      expect(r.code).toBe(1);
      const data = r.data[0] as {
        applicationId: string;
        step: string;
        causes: string[];
        rolledBack: string[];
        rollbackErrors: string[];
      };
      expect(data.step).toBe('create-dependents');
      expect(data.causes).toEqual([
        expect.stringMatching(/create NetworkPolicy .*-master: HTTP 403 Forbidden/),
        expect.stringMatching(/create NetworkPolicy .*-worker: HTTP 403 Forbidden/),
      ]);
      expect(data.rolledBack).toHaveLength(1 + 7); // Job, ServiceAccount, Role, RoleBinding, ConfigMap, job config Secret, Service, PodTemplate
      expect(data.rollbackErrors).toEqual([]);
      expect(r.err.join('\n')).toMatch(/submit failed: create NetworkPolicy/);
      await waitAllGone(ns.name, data.applicationId);
    }),
  );

  test(
    'no permission to patch Jobs: the runtime Role cannot be granted (step 3); without generated RBAC, refused at step 4 (start); both rolled back',
    withComponentLogs(async () => {
      const kubeconfig = await submitter('no-patch', (r) =>
        r.resources?.includes('jobs') ? { ...r, verbs: r.verbs.filter((v) => v !== 'patch') } : r,
      );
      const files = deploymentFiles(ns.name, '', { kubeconfig });
      // The runtime's Role allows patching its Job: Kubernetes refuses to let the submitter grant what it does not hold.
      const escalation = await run(['submit', ...files.args]);
      expect(escalation.code).toBe(1);
      expect(escalation.err.join('\n')).toMatch(
        /create Role .*-runtime: HTTP 403 Forbidden: .* is attempting to grant RBAC permissions not currently held/,
      );
      await waitAllGone(ns.name, /Job [^/]+\/(cli-test-[0-9a-f]{12})/.exec(escalation.err.join('\n'))![1]);
      // Without the generated Role the unsuspend patch itself is what fails.
      const r = await run(['submit', ...files.args, '-Dkubernetes.rbac.create=false']);
      expect(r.code).toBe(1);
      const text = r.err.join('\n');
      expect(text).toMatch(/submit failed: start \(unsuspend\) Job .*: HTTP 403 Forbidden/);
      expect(text).toMatch(/rolled back: deleted 8 object\(s\) this submission created: Job /); // Job, ServiceAccount, 2 NetworkPolicies, ConfigMap, job config Secret, Service, PodTemplate
      const appId = /Job [^/]+\/(cli-test-[0-9a-f]{12})/.exec(text)![1];
      await waitAllGone(ns.name, appId);
    }),
  );
});
