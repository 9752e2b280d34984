// docs/quick-start.md followed on real nodes as a user would (issue 28 item 2): the page's
// namespace snippet, its submitter Role bound to an identity with a real token, its deployment file
// and job file verbatim, and then its commands in the page's order — preflight, submit, status
// --wait, logs -f, list, the workers' kept lines — and cancel. Everything is read from the page, so
// the page cannot drift from what works. The one addition is the submitter's kubeconfig
// (-Dkubernetes.kubeconfig, as a user's KUBECONFIG): the images the page names are on the nodes
// already (the harness imported them under those names; how a user gets them there is item 1).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ANNOTATIONS, parseRowsAnnotation } from '../../lib/contract';
import { adminHttp, serviceAccountIdentity, tokenHttp, waitFor } from '../support/cluster';
import {
  documentedCommands,
  documentedFiles,
  documentedNamespace,
  documentedSubmitter,
} from '../support/quick-start-page';
import { labelled, run, tmpDir } from '../cluster/cli-support';

jest.setTimeout(15 * 60_000);

/** The application ID the page shows in its examples, replaced by the real one. */
const PAGE_ID = /orders-[0-9a-f]{12}/;
const ACCOUNT = 'data-team';

const namespace = documentedNamespace();
const ns = namespace.metadata.name;

afterAll(async () => {
  await adminHttp().call('DELETE', `/api/v1/namespaces/${ns}`, undefined, { accept: [404] });
});

test('the quick start, step by step, on real nodes: the job runs to SUCCEEDED, its rows and logs are there, cancel leaves nothing', async () => {
  // 1. Platform team: the namespace and the submitter Role, as the page prints them.
  expect(ns).toBe('seatunnel');
  expect(namespace.metadata.labels?.['pod-security.kubernetes.io/enforce']).toBe('baseline');
  await adminHttp().call('POST', '/api/v1/namespaces', namespace);
  const { role, binding } = documentedSubmitter();
  expect(binding.namespace).toBe(ns);
  await adminHttp().call('POST', `/apis/rbac.authorization.k8s.io/v1/namespaces/${ns}/roles`, role);
  await adminHttp().call('POST', `/api/v1/namespaces/${ns}/serviceaccounts`, {
    apiVersion: 'v1',
    kind: 'ServiceAccount',
    metadata: { name: ACCOUNT },
  });
  await adminHttp().call('POST', `/apis/rbac.authorization.k8s.io/v1/namespaces/${ns}/rolebindings`, {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'RoleBinding',
    metadata: { name: binding.name },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: binding.role },
    // The page binds a group ("or --user / --serviceaccount NS:NAME"): here a ServiceAccount, whose token is real.
    subjects: [{ kind: 'ServiceAccount', name: ACCOUNT, namespace: ns }],
  });
  const id = await serviceAccountIdentity(ns, ACCOUNT);
  await waitFor(
    async () => (await tokenHttp(id.token).request('GET', `/apis/batch/v1/namespaces/${ns}/jobs/probe`)).status === 404,
    { description: 'the RoleBinding to take effect' },
  );

  // 2. User: the deployment file and the job file, verbatim.
  const dir = tmpDir('quick-start-');
  const files = documentedFiles();
  fs.writeFileSync(path.join(dir, 'deploy.conf'), files.deploy);
  fs.writeFileSync(path.join(dir, 'job.conf'), files.job);
  const rowsInJob = Number(/row\.num = (\d+)/.exec(files.job)?.[1]);
  expect(rowsInJob).toBeGreaterThan(0);

  // 3. Check, submit, follow — the page's commands in its order.
  const commands = documentedCommands('seatunnel-app submit');
  expect(commands.map((c) => c[0])).toEqual(['preflight', 'submit', 'status', 'logs', 'list']);
  let appId = '';
  const runPageCommand = async (words: string[]) => {
    const argv = words.map((w) =>
      w === 'deploy.conf' || w === 'job.conf' ? path.join(dir, w) : w.replace(PAGE_ID, appId),
    );
    const r = await run([...argv, `-Dkubernetes.kubeconfig=${id.kubeconfigPath}`]);
    process.stdout.write(`[quick-start] ${words.join(' ')} → exit ${r.code}\n`);
    return r;
  };
  const byCommand = new Map<string, Awaited<ReturnType<typeof run>>>();
  for (const words of commands) {
    const r = await runPageCommand(words);
    // On stderr only warnings, and logs -f's note that the master Pod ended, succeeded.
    const err = r.err.filter((l) => !/^warning: /.test(l) && !/^--- Pod \S+ ended: Succeeded \(exit code 0/.test(l));
    expect({ command: words.join(' '), code: r.code, err }).toEqual({
      command: words.join(' '),
      code: 0,
      err: [],
    });
    if (words[0] === 'submit') appId = r.value('Application ID')!;
    byCommand.set(words[0], r);
  }
  expect(appId).toMatch(/^orders-[0-9a-f]{12}$/);
  const status = byCommand.get('status')!;
  expect(status.value('Status')).toBe('SUCCEEDED');
  // Every row the job's FakeSource made, read and written, as Zeta's metrics counted them (item 4).
  expect(status.value('Rows')).toMatch(new RegExp(`^${rowsInJob} read, ${rowsInJob} written `));
  const job = await adminHttp().call<{ metadata: { annotations?: Record<string, string> } }>(
    'GET',
    `/apis/batch/v1/namespaces/${ns}/jobs/${appId}`,
  );
  expect(parseRowsAnnotation(job.metadata.annotations?.[ANNOTATIONS.rows])).toMatchObject({
    read: rowsInJob,
    written: rowsInJob,
  });
  expect(byCommand.get('list')!.out.some((l) => l.includes(appId) && /\bSUCCEEDED\b/.test(l))).toBe(true);

  // What is left after the end: the workers' kept lines hold every row the Console sink printed.
  const [kept] = documentedCommands('--role worker');
  const logs = await runPageCommand(kept);
  expect(logs.code).toBe(0);
  const rows = logs.out.filter((l) => /^\[pod\/\S+-worker-\d\/seatunnel\] .*ConsoleSinkWriter.*rowIndex=\d+/.test(l));
  expect(rows).toHaveLength(rowsInJob);

  // `cancel --id` (the page's prose) removes it: nothing of the application is left.
  const cancel = await runPageCommand(['cancel', '-a', 'deploy.conf', '--id', appId]);
  expect(cancel.code).toBe(0);
  await waitFor(async () => (await labelled(ns, appId)).size === 0, {
    description: `nothing of ${appId} left`,
    timeoutMs: 120_000,
  });
});
