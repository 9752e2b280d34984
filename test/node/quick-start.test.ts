// docs/quick-start.md followed on real nodes as a user would (issue 28 item 2): the page's
// namespace snippet, its submitter Role bound to an identity with a real token, its deployment file
// and job file verbatim, and then its commands in the page's order — preflight, submit, status
// --wait, logs -f, list, the workers' kept lines — and cancel. Everything is read from the page, so
// the page cannot drift from what works. First the runtime image (issue 28 item 1): the page's
// `npm run image`, then — after the image is removed from every node — the page's `ctr … images
// import` line on each node's containerd; the master Pod's install-runtime must then report the image
// ID the package recorded. The one addition is the submitter's kubeconfig (-Dkubernetes.kubeconfig,
// as a user's KUBECONFIG); the SeaTunnel image the page names is on the nodes already (the harness
// imported it under that name).
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';
import type { Pod } from 'kubernetes-types/core/v1';
import { ANNOTATIONS, parseRowsAnnotation } from '../../lib/contract';
import {
  CRI_NAMESPACE,
  importImages,
  parseCtrImages,
  resolveImages,
  sameImageRef,
} from '../../tools/local-stack/node-images';
import { adminHttp, serviceAccountIdentity, tokenHttp, waitFor } from '../support/cluster';
import { nodeInfos } from '../support/node-pods';
import {
  documentedCommands,
  documentedFiles,
  documentedImageSteps,
  documentedNamespace,
  documentedSubmitter,
} from '../support/quick-start-page';
import { labelled, run, tmpDir } from '../cluster/cli-support';

const exec = promisify(execFile);
const REPO = path.resolve(__dirname, '..', '..');

/** What the page's first test leaves for the second: the submitter's files and kubeconfig, the recorded image. */
let pageRun: { deploy: string; job: string; kubeconfig: string; record: { ref: string; imageId: string } } | undefined;

jest.setTimeout(15 * 60_000);

/** The application ID the page shows in its examples, replaced by the real one. */
const PAGE_ID = /orders-[0-9a-f]{12}/;
const ACCOUNT = 'data-team';

const namespace = documentedNamespace();
const ns = namespace.metadata.name;

afterAll(async () => {
  await adminHttp().call('DELETE', `/api/v1/namespaces/${ns}`, undefined, { accept: [404] });
  // Whatever happened above, every node has the runtime image again for the files after this one.
  const images = await resolveImages({ build: false, names: ['runtime'] });
  for (const node of nodeInfos()) await importImages(node.ctr, node.containerdSocket, images, () => undefined);
});

/** ctr against one node's containerd, in Kubernetes' namespace. */
async function ctrOn(node: ReturnType<typeof nodeInfos>[number], args: string[]): Promise<string> {
  return (await exec(node.ctr, ['--address', node.containerdSocket, ...args], { cwd: REPO, maxBuffer: 16 << 20 }))
    .stdout;
}

/** The page's runtime-image steps: `npm run image`, then its ctr import on every node (the image removed first). */
async function loadRuntimeImageAsDocumented(): Promise<{ ref: string; imageId: string }> {
  const { build, load } = documentedImageSteps();
  expect(build).toEqual(['npm', 'run', 'image']);
  const built = await exec('npm', build.slice(1), { cwd: REPO, maxBuffer: 16 << 20 });
  process.stdout.write(`[quick-start] npm run image →\n${built.stdout}`);
  const record = JSON.parse(fs.readFileSync(path.join(REPO, 'runtime-image.json'), 'utf8')) as {
    ref: string;
    imageId: string;
  };
  expect(load[0]).toBe('ctr');
  const archive = load[load.length - 1];
  expect(fs.existsSync(path.join(REPO, archive))).toBe(true);
  for (const node of nodeInfos()) {
    const listed = parseCtrImages(await ctrOn(node, ['-n', CRI_NAMESPACE, 'images', 'ls']));
    const names = listed.filter((i) => sameImageRef(i.ref, record.ref)).map((i) => i.ref);
    if (names.length > 0) await ctrOn(node, ['-n', CRI_NAMESPACE, 'images', 'rm', ...names]);
    const left = parseCtrImages(await ctrOn(node, ['-n', CRI_NAMESPACE, 'images', 'ls']));
    expect(left.filter((i) => sameImageRef(i.ref, record.ref))).toEqual([]);
    await ctrOn(node, load.slice(1)); // the page's line, with this node's containerd socket
    const now = parseCtrImages(await ctrOn(node, ['-n', CRI_NAMESPACE, 'images', 'ls']));
    expect(now.some((i) => sameImageRef(i.ref, record.ref))).toBe(true);
  }
  return record;
}

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

  // The runtime image, built and loaded onto every node as the page says.
  const runtimeImage = await loadRuntimeImageAsDocumented();
  expect(runtimeImage.ref).toBe('seatunnel-app-runtime:0.1.0');

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
    // On stderr only warnings and logs -f's notes on the Pods it followed: the master ended Succeeded; the
    // workers, which status --wait may leave still terminating now that it ends on the runtime's own record of
    // the success, ended by the runtime's deletion, said to be no failure.
    const err = r.err.filter(
      (l) =>
        !/^warning: /.test(l) &&
        !/^--- Pod \S+ ended: Succeeded \(exit code 0/.test(l) &&
        !/^--- Pod \S+-worker-\d+ ended: stopped by its deletion \(SIGTERM, exit code 143\), as the runtime deletes the workers once the job has ended .*: not a failure$/.test(
          l,
        ),
    );
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
  // The node ran this release's runtime image: status has nothing to warn about.
  expect(status.value('Warning')).toBeUndefined();
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
  // The runtime came from the image just loaded: the one whose ID the package recorded.
  const pods = await adminHttp().call<{ items: Pod[] }>('GET', `/api/v1/namespaces/${ns}/pods`);
  const installs = pods.items
    .filter((p) => p.metadata?.name?.startsWith(appId))
    .flatMap((p) => p.status?.initContainerStatuses ?? [])
    .filter((c) => c.name === 'install-runtime');
  expect(installs).toHaveLength(1);
  expect(installs[0].imageID).toBe(runtimeImage.imageId);
  pageRun = {
    deploy: path.join(dir, 'deploy.conf'),
    job: path.join(dir, 'job.conf'),
    kubeconfig: id.kubeconfigPath,
    record: runtimeImage,
  };

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

/** The same files as the runtime image under the same tag, but another build (another image ID): what a node keeps from an earlier load. */
async function anotherBuildOfRuntime(ref: string): Promise<{ archive: string; imageId: string }> {
  const [image] = await resolveImages({ build: false, names: ['runtime'] });
  const work = tmpDir('other-runtime-');
  const manifest = JSON.parse(
    (await exec('tar', ['-xOf', image.archive, 'manifest.json'], { maxBuffer: 1 << 20 })).stdout,
  ) as Array<{ Layers: string[] }>;
  const [layer] = manifest[0].Layers;
  await exec('tar', ['-xf', image.archive, '-C', work, layer]);
  const archive = path.join(work, 'other.tar');
  const written = await exec(process.execPath, [
    path.join(REPO, 'tools', 'images', 'write-image.mjs'),
    ...['--out', archive, '--ref', ref, '--layer', path.join(work, layer)],
    ...['--history', 'an earlier build of the runtime image', '--cmd', '["/seatunnel-app/bin/install-runtime"]'],
  ]);
  return { archive, imageId: (JSON.parse(written.stdout) as { configDigest: string }).configDigest };
}

test('a node that kept another build under the runtime tag: the job runs, and status names that build', async () => {
  expect(pageRun).toBeDefined(); // set by the page's test above
  const { deploy, job, kubeconfig, record } = pageRun!;
  const other = await anotherBuildOfRuntime(record.ref);
  expect(other.imageId).not.toBe(record.imageId);
  for (const node of nodeInfos()) await ctrOn(node, ['-n', CRI_NAMESPACE, 'images', 'import', other.archive]);
  const cli = (argv: string[]) => run([...argv, `-Dkubernetes.kubeconfig=${kubeconfig}`]);
  const submitted = await cli(['submit', '-a', deploy, '-c', job]);
  expect(submitted.code).toBe(0);
  const appId = submitted.value('Application ID')!;
  const waited = await cli(['status', '-a', deploy, '--id', appId, '--wait']);
  expect(waited.value('Status')).toBe('SUCCEEDED');
  expect(waited.value('Warning')).toMatch(
    new RegExp(
      `^the runtime image ${record.ref.replace(/[.]/g, '\\.')} on node seatunnel-node-\\d is another build than this release's ` +
        `\\(it ran ${other.imageId}, this release's is ${record.imageId}\\): load this release's image there`,
    ),
  );
  expect((await cli(['cancel', '-a', deploy, '--id', appId])).code).toBe(0);
});
