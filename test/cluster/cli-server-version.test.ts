// What the CLI makes of the API server's version (lib/submit/admit/server-support.ts), against the real
// API server of the tier that runs it: the newest Kubernetes (tier cluster) or the oldest supported
// one (tier cluster-oldest, SEATUNNEL_TEST_KUBERNETES=oldest). preflight reports the version; where
// the server lacks the Job's podFailurePolicy (< 1.26), submit warns and the server does drop the
// field — what the warning says — and high availability is refused before anything is created.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { kubernetesRelease, repoRoot } from '../../tools/local-stack/binaries';
import { adminHttp, clusterInfo, useTestNamespace, withComponentLogs } from '../support/cluster';
import { createObj, deploymentFiles, labelled, run, waitAllGone } from './cli-support';

// A namespace that enforces a Pod Security level of its own (else preflight warns, see pod-security.test.ts).
const ns = useTestNamespace('cli-version', { 'pod-security.kubernetes.io/enforce': 'baseline' });

/** The version this tier builds and runs (tools/testbin/versions.env). */
function expectedVersion(): string {
  const name = kubernetesRelease() === 'oldest' ? 'K8S_OLDEST_VERSION' : 'K8S_VERSION';
  const env = fs.readFileSync(path.join(repoRoot(), 'tools', 'testbin', 'versions.env'), 'utf8');
  const m = new RegExp(`^${name}=(v\\S+)$`, 'm').exec(env);
  if (!m) throw new Error(`${name} not found in tools/testbin/versions.env`);
  return m[1];
}

const version = expectedVersion();
const minor = Number(version.split('.')[1]);
const withPodFailurePolicy = minor >= 26;

test(`the control plane runs Kubernetes ${version}, the version this tier is for`, async () => {
  expect(clusterInfo().kubernetesVersion).toBe(version);
  expect(await adminHttp().call('GET', '/version')).toMatchObject({
    gitVersion: version,
    major: '1',
    minor: String(minor),
  });
});

test(
  `preflight reports the server version${withPodFailurePolicy ? '' : ' and that the Job will not record the exit code'}`,
  withComponentLogs(async () => {
    const r = await run(['preflight', ...deploymentFiles(ns.name).args]);
    expect(r.err).toEqual([]);
    expect(r.code).toBe(0);
    expect(r.value('Kubernetes')).toBe(version);
    const notes = r.out.filter((l) => l.startsWith('Note: '));
    expect(notes).toContainEqual(
      expect.stringMatching(
        new RegExp(
          `^Note: Kubernetes server ${version.replace(/\./g, '\\.')}: supported \\(Kubernetes 1\\.24 and newer`,
        ),
      ),
    );
    expect(notes.some((n) => /lacks the Job's podFailurePolicy/.test(n))).toBe(!withPodFailurePolicy);
  }),
);

test(
  withPodFailurePolicy
    ? 'submit warns about nothing, and the Job keeps its podFailurePolicy; cancel removes it'
    : 'submit warns that the server drops podFailurePolicy, and the created Job indeed has none; the application runs and cancel removes it',
  withComponentLogs(async () => {
    const sub = await run(['submit', ...deploymentFiles(ns.name).args]);
    expect(sub.code).toBe(0);
    if (withPodFailurePolicy) expect(sub.err).toEqual([]);
    else
      expect(sub.err).toEqual([
        expect.stringMatching(
          new RegExp(`^warning: Kubernetes server ${version.replace(/\./g, '\\.')} lacks the Job's podFailurePolicy`),
        ),
      ]);
    const appId = sub.value('Application ID')!;
    const job = (await labelled(ns.name, appId)).get(`Job/${appId}`) as
      { spec?: { podFailurePolicy?: unknown; suspend?: boolean } } | undefined;
    expect(job?.spec?.suspend).toBe(false);
    expect(job?.spec?.podFailurePolicy !== undefined).toBe(withPodFailurePolicy);

    const cancel = await run(['cancel', '--id', appId, '-a', deploymentFiles(ns.name).deploy]);
    expect(cancel.err).toEqual([]);
    expect(cancel.code).toBe(0);
    await waitAllGone(ns.name, appId);
  }),
);

test(
  withPodFailurePolicy
    ? 'high availability: preflight finds no problem with the server version'
    : 'high availability is refused: by submit (exit 1, nothing created) and by preflight (a [server-version] problem, exit 4), naming the option and the server version',
  withComponentLogs(async () => {
    await createObj(ns.name, {
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: { name: 'ckpt' },
      spec: { accessModes: ['ReadWriteMany'], resources: { requests: { storage: '1Gi' } } },
    });
    const files = deploymentFiles(
      ns.name,
      'application.ha { enabled = true, masters = 3 }\nkubernetes.checkpoint-pvc = ckpt',
    );
    const pre = await run(['preflight', ...files.args]);
    const serverProblems = pre.out.filter((l) => l.startsWith('  - [server-version]'));
    if (withPodFailurePolicy) {
      expect(serverProblems).toEqual([]);
      return;
    }
    expect(pre.code).toBe(4);
    expect(serverProblems).toEqual([
      expect.stringMatching(
        new RegExp(
          `^  - \\[server-version\\] application\\.ha\\.enabled: Kubernetes server ${version.replace(/\./g, '\\.')} lacks the Job's podFailurePolicy .* High availability needs Kubernetes 1\\.26 or newer$`,
        ),
      ),
    ]);
    const sub = await run(['submit', ...files.args]);
    expect(sub.code).toBe(1);
    expect(sub.err).toEqual([
      expect.stringMatching(/^error: application\.ha\.enabled: .* High availability needs Kubernetes 1\.26 or newer$/),
    ]);
    const jobs = await adminHttp().call<{ items: unknown[] }>('GET', `/apis/batch/v1/namespaces/${ns.name}/jobs`);
    expect(jobs.items).toEqual([]);
  }),
);
