// The submitter Role exactly as docs/quick-start.md gives it (its snippet run, its RoleBinding),
// held by a ServiceAccount with a real token, runs every command the docs give a submitter —
// preflight, submit, status, list, logs, cancel (plain and --savepoint), for an application with
// and without HA — against the real API server (issue 28 item 8: `list` got 403 and HA `preflight`
// exited 4 on `deletecollection statefulsets`). And a Role missing one verb fails with a message
// naming the verb and the resource: the API server's 403, and preflight's finding.
import type { PolicyRule } from 'kubernetes-types/rbac/v1';
import {
  adminHttp,
  serviceAccountIdentity,
  tokenHttp,
  useTestNamespace,
  waitFor,
  withComponentLogs,
  type KubeHttp,
} from '../support/cluster';
import { documentedSubmitter } from '../support/quick-start-page';
import { createObj, deploymentFiles, run, waitAllGone } from './cli-support';

const ns = useTestNamespace('quick-start-rbac');
const documented = documentedSubmitter();

/** The page's Role and RoleBinding in the test namespace (rules as printed, or `rules`), bound to a new ServiceAccount. */
async function submitter(account: string, rules: readonly PolicyRule[] = documented.role.rules!) {
  const { role, binding } = documented;
  expect([role.metadata!.namespace, binding.namespace, binding.role]).toEqual([
    'seatunnel',
    'seatunnel',
    role.metadata!.name,
  ]);
  const name = `${binding.role}-${account}`;
  await createObj(ns.name, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: account } });
  await createObj(ns.name, { ...role, metadata: { ...role.metadata, name, namespace: ns.name }, rules: [...rules] });
  await createObj(ns.name, {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'RoleBinding',
    metadata: { name: `${binding.name}-${account}` },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name },
    // The page binds a group ("or --user / --serviceaccount NS:NAME"): here a ServiceAccount, whose token is real.
    subjects: [{ kind: 'ServiceAccount', name: account, namespace: ns.name }],
  });
  const id = await serviceAccountIdentity(ns.name, account);
  const http = tokenHttp(id.token);
  await waitFor(
    async () => (await http.request('GET', `/apis/batch/v1/namespaces/${ns.name}/jobs/probe`)).status === 404,
    { description: `the RoleBinding of ${account} to take effect` },
  );
  return { kubeconfig: id.kubeconfigPath, http };
}

/** The master Pod's log, read as the submitter: whatever the (fake) node answers, RBAC let it through. */
async function readMasterLog(http: KubeHttp, appId: string): Promise<number> {
  const pods = await adminHttp().call<{
    items: Array<{ metadata: { name: string; labels?: Record<string, string> } }>;
  }>(
    'GET',
    `/api/v1/namespaces/${ns.name}/pods?labelSelector=${encodeURIComponent(`seatunnel.apache.org/application-id=${appId}`)}`,
  );
  const master = pods.items.find((p) => p.metadata.labels?.['seatunnel.apache.org/role'] !== 'worker');
  if (!master) throw new Error(`no master Pod of ${appId}`);
  return (await http.request('GET', `/api/v1/namespaces/${ns.name}/pods/${master.metadata.name}/log`)).status;
}

const noPermissionProblem = (lines: readonly string[]) =>
  lines.filter((l) => /forbidden|\b403\b|missing permission|leftover not removed/i.test(l));

test(
  'the documented submitter runs every documented command, with and without HA',
  withComponentLogs(async () => {
    const { kubeconfig, http } = await submitter('data-team');
    await createObj(ns.name, {
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: { name: 'ckpt' },
      spec: { accessModes: ['ReadWriteMany'], resources: { requests: { storage: '1Gi' } } },
    });
    const plain = deploymentFiles(ns.name, '', { kubeconfig, name: 'orders' });
    const ha = deploymentFiles(
      ns.name,
      'application { worker-count = 2, ha { enabled = true, masters = 3 } }\nkubernetes.checkpoint-pvc = ckpt',
      { kubeconfig, name: 'orders-ha' },
    );
    for (const files of [plain, ha]) {
      const preflight = await run(['preflight', ...files.args]);
      expect([preflight.code, noPermissionProblem([...preflight.out, ...preflight.err])]).toEqual([0, []]);

      const submitted = await run(['submit', ...files.args]);
      expect([submitted.code, noPermissionProblem(submitted.err)]).toEqual([0, []]);
      const appId = submitted.value('Application ID')!;

      const status = await run(['status', '--id', appId, '-a', files.deploy]);
      expect([status.code, status.err]).toEqual([0, []]);
      // kwok ends a Job's Pod by itself after a while: on a loaded machine it may be over already.
      expect(status.value('Status')).toMatch(/^(DEPLOYING|RUNNING|SUCCEEDED)$/);
      const explained = await run(['status', '--id', appId, '-a', files.deploy, '--explain']);
      expect([explained.code, explained.err]).toEqual([0, []]);

      const listed = await run(['list', '-a', files.deploy]);
      expect([listed.code, listed.err]).toEqual([0, []]);
      expect(listed.out.join('\n')).toContain(appId);

      await waitFor(async () => (await readMasterLog(http, appId).catch(() => undefined)) !== undefined || undefined, {
        description: `the master Pod of ${appId}`,
      });
      // kwok's nodes serve no container log; what matters is that RBAC let the request through.
      expect(await readMasterLog(http, appId)).not.toBe(403);
      const logs = await run(['logs', '--id', appId, '-a', files.deploy]);
      expect(noPermissionProblem([...logs.out, ...logs.err])).toEqual([]);

      // The runtime of a kwok Pod never answers: --savepoint asks (patch), waits 1 s, then deletes.
      const cancelled = await run(
        files === ha
          ? ['cancel', '--id', appId, '-a', files.deploy, '--savepoint', '--wait-timeout', '1000']
          : ['cancel', '--id', appId, '-a', files.deploy],
      );
      expect([cancelled.code, noPermissionProblem(cancelled.err)]).toEqual([0, []]);
      await waitAllGone(ns.name, appId);
      // Safe to repeat.
      const again = await run(['cancel', '--id', appId, '-a', files.deploy]);
      expect([again.code, again.err]).toEqual([0, []]);
    }
  }),
);

test(
  'a Role missing one verb: the command fails with the 403 naming verb and resource, and preflight names it first',
  withComponentLogs(async () => {
    // The documented Role without `list` on Jobs.
    const rules = documented.role.rules!.map((r) =>
      r.resources!.includes('jobs') ? { ...r, verbs: r.verbs.filter((v) => v !== 'list') } : r,
    );
    expect(rules).not.toEqual(documented.role.rules);
    const { kubeconfig, http } = await submitter('no-list', rules);
    // The API server's own answer (not assumed): 403.
    expect((await http.request('GET', `/apis/batch/v1/namespaces/${ns.name}/jobs`)).status).toBe(403);

    const files = deploymentFiles(ns.name, '', { kubeconfig, name: 'unlisted' });
    const listed = await run(['list', '-a', files.deploy]);
    expect(listed.code).not.toBe(0);
    expect(listed.err.join('\n')).toMatch(/cannot list resource "jobs" in API group "batch"/);

    const preflight = await run(['preflight', ...files.args]);
    expect(preflight.code).toBe(4);
    expect(preflight.out.join('\n')).toMatch(
      new RegExp(`\\[permission\\] missing permission: list jobs\\.batch in namespace ${ns.name} \\(list: `),
    );
  }),
);
