// The submitter Roles with real ServiceAccount tokens (issue 27, items 12 and 18): the full one runs
// every command the docs say it does, `list` included; the one for namespaces whose platform team
// pre-provisions the runtime's ServiceAccount and Role (kubernetes.rbac.create=false) submits,
// reports, lists and cancels an application that references a Secret and carries inline Secret
// data — and may read no Secret and grant nothing.
import { submitterRole } from '../../lib/plan/submitter-rbac';
import {
  adminHttp,
  serviceAccountIdentity,
  tokenHttp,
  useTestNamespace,
  waitFor,
  withComponentLogs,
  type KubeHttp,
} from '../support/cluster';
import { createObj, deploymentFiles, run, serviceAccountWithRole, waitAllGone } from './cli-support';

const ns = useTestNamespace('submitter');

/** A ServiceAccount bound to `role`; its kubeconfig and an HTTP client acting as it. */
async function account(
  name: string,
  role: ReturnType<typeof submitterRole>,
): Promise<{ kubeconfig: string; http: KubeHttp }> {
  await serviceAccountWithRole(ns.name, name, role.rules ?? []);
  const id = await serviceAccountIdentity(ns.name, name);
  const http = tokenHttp(id.token);
  await waitFor(
    async () => (await http.request('GET', `/apis/batch/v1/namespaces/${ns.name}/jobs/probe`)).status === 404,
    {
      description: `the RoleBinding of ${name} to take effect`,
    },
  );
  return { kubeconfig: id.kubeconfigPath, http };
}

test(
  'the submitter Role can list the applications of its namespace',
  withComponentLogs(async () => {
    const { kubeconfig } = await account('full', submitterRole(ns.name));
    const files = deploymentFiles(ns.name, '', { kubeconfig, name: 'listed' });
    const submitted = await run(['submit', ...files.args]);
    expect(submitted.code).toBe(0);
    const appId = submitted.value('Application ID')!;
    const listed = await run(['list', '-a', files.deploy]);
    expect([listed.code, listed.err]).toEqual([0, []]);
    expect(listed.out.join('\n')).toContain(appId);
    const cancelled = await run(['cancel', '--id', appId, '-a', files.deploy]);
    expect([cancelled.code, cancelled.err]).toEqual([0, []]);
    await waitAllGone(ns.name, appId);
  }),
);

test(
  'pre-provisioned (rbac.create=false, a named ServiceAccount): submit, status, list and cancel work without reading a Secret',
  withComponentLogs(async () => {
    const admin = adminHttp();
    // The platform team's part: the runtime's ServiceAccount, and a Secret the job references.
    await createObj(ns.name, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'runner' } });
    await createObj(ns.name, {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'db' },
      stringData: { password: 'not-for-the-submitter' },
    });
    const { kubeconfig, http } = await account('narrow', submitterRole(ns.name, undefined, { preProvisioned: true }));
    const files = deploymentFiles(
      ns.name,
      'kubernetes { rbac.create = false, service-account = runner, env.DB_PASSWORD { secret = db, key = password }, secret.owned.data.token = t }',
      { kubeconfig, name: 'narrow' },
    );
    const preflight = await run(['preflight', ...files.args]);
    expect([preflight.code, preflight.out.filter((l) => l.includes('  - '))]).toEqual([0, []]);
    expect(preflight.err.join('\n')).toMatch(/Secret db was not checked \(this account may not read Secrets\)/);
    const submitted = await run(['submit', ...files.args]);
    expect([submitted.code, submitted.err.join('\n')]).toEqual([
      0,
      expect.stringMatching(/^warning: .*Secret db was not checked[^\n]*$/),
    ]);
    const appId = submitted.value('Application ID')!;
    expect((await run(['status', '--id', appId, '-a', files.deploy])).code).toBe(0);
    expect((await run(['list', '-a', files.deploy])).out.join('\n')).toContain(appId);

    // What it may not do: read a Secret (the application's own included), grant anything.
    const secrets = `/api/v1/namespaces/${ns.name}/secrets`;
    expect((await http.request('GET', `${secrets}/db`)).status).toBe(403);
    expect((await http.request('GET', `${secrets}/${appId}-owned`)).status).toBe(403);
    expect((await http.request('GET', secrets)).status).toBe(403);
    const grab = {
      metadata: { name: 'grab' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'narrow' },
      subjects: [{ kind: 'ServiceAccount', name: 'runner', namespace: ns.name }],
    };
    expect(
      (await http.request('POST', `/apis/rbac.authorization.k8s.io/v1/namespaces/${ns.name}/rolebindings`, grab))
        .status,
    ).toBe(403);
    // A token Secret for another ServiceAccount can be created, but not read back.
    const token = {
      metadata: { name: 'runner-token', annotations: { 'kubernetes.io/service-account.name': 'runner' } },
      type: 'kubernetes.io/service-account-token',
    };
    expect((await http.request('POST', secrets, token)).status).toBe(201);
    expect((await http.request('GET', `${secrets}/runner-token`)).status).toBe(403);
    await admin.call('DELETE', `${secrets}/runner-token`);

    const cancelled = await run(['cancel', '--id', appId, '-a', files.deploy]);
    expect([cancelled.code, cancelled.err]).toEqual([0, []]);
    await waitAllGone(ns.name, appId);
  }),
);
