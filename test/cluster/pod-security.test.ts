// Pod Security against the real API server's Pod Security admission: in namespaces that enforce
// `baseline` and `restricted`, (a) a server-side dry run of the master Pod and the stamped worker
// Pods passes or is refused as the chosen kubernetes.pod-security level says, and (b) preflight
// reports the namespace's level and whether the Pods pass it.
import type { Pod } from 'kubernetes-types/core/v1';
import { stampMasterPod, stampWorker } from '../../lib/plan/stamp';
import type { PodSecurityLevel } from '../../lib/model/props';
import { applicationNamespace } from '../../lib/plan/namespace';
import { plan as buildTestPlan } from '../support/fixtures';
import { adminHttp, createTestNamespace, deleteNamespace, withComponentLogs } from '../support/cluster';
import { deploymentFiles, run } from './cli-support';

const enforced = (level: string) => ({
  'pod-security.kubernetes.io/enforce': level,
  'pod-security.kubernetes.io/enforce-version': 'latest',
});
const namespaces: Record<'baseline' | 'restricted', string> = { baseline: '', restricted: '' };

beforeAll(async () => {
  namespaces.baseline = await createTestNamespace('psa-baseline', enforced('baseline'));
  namespaces.restricted = await createTestNamespace('psa-restricted', enforced('restricted'));
}, 120_000);
afterAll(async () => {
  for (const ns of Object.values(namespaces)) if (ns) await deleteNamespace(ns);
});

/** The master Pod and worker 1, as the application would create them, with `level`. */
function pods(namespace: string, level: PodSecurityLevel, extra: { runAsUser?: number } = {}): Pod[] {
  const p = buildTestPlan({
    namespace,
    podSecurity: level,
    applicationId: `psa-${level.slice(0, 4)}-0123456789ab`,
    ...extra,
  });
  return [
    stampMasterPod(p.job),
    stampWorker(
      { template: p.workerTemplate, appId: p.spec.appId, namespace, masterHost: '10.0.0.1', masterPort: 5801 },
      1,
    ),
  ];
}

/** The application's generated ServiceAccount, which submit creates before the Pods exist. */
async function ensureServiceAccount(pod: Pod): Promise<void> {
  const name = pod.spec?.serviceAccountName;
  if (!name) return;
  const res = await adminHttp().request('POST', `/api/v1/namespaces/${pod.metadata!.namespace}/serviceaccounts`, {
    apiVersion: 'v1',
    kind: 'ServiceAccount',
    metadata: { name },
  });
  if (res.status !== 201 && res.status !== 409)
    throw new Error(`creating ServiceAccount ${name}: HTTP ${res.status} ${res.text}`);
}

async function dryRun(pod: Pod): Promise<{ status: number; message: string }> {
  await ensureServiceAccount(pod);
  const res = await adminHttp().request<{ message?: string }>(
    'POST',
    `/api/v1/namespaces/${pod.metadata!.namespace}/pods?dryRun=All`,
    pod,
  );
  return { status: res.status, message: res.body?.message ?? res.text };
}

describe('(a) server-side dry run of the master and worker Pods', () => {
  test.each([
    ['baseline', 'baseline', 201],
    ['baseline', 'restricted', 201],
    ['restricted', 'restricted', 201],
  ] as const)('a %s namespace admits Pods built for %s', async (ns, level, status) => {
    for (const pod of pods(namespaces[ns], level)) expect(await dryRun(pod)).toMatchObject({ status });
  });

  test('a restricted namespace refuses Pods built for baseline, naming what restricted requires', async () => {
    for (const pod of pods(namespaces.restricted, 'baseline')) {
      const r = await dryRun(pod);
      expect(r.status).toBe(403);
      expect(r.message).toMatch(/violates PodSecurity "restricted:latest"/);
      expect(r.message).toMatch(/runAsNonRoot != true/);
      expect(r.message).toMatch(/unrestricted capabilities/);
    }
  });

  test('run-as-user keeps restricted Pods admitted', async () => {
    for (const pod of pods(namespaces.restricted, 'restricted', { runAsUser: 1000 }))
      expect(await dryRun(pod)).toMatchObject({ status: 201 });
  });
});

describe('(b) preflight reports the enforced level and whether the Pods pass it', () => {
  const preflight = async (ns: string, hocon = '') => {
    const files = deploymentFiles(ns, hocon);
    const text = await run(['preflight', ...files.args]);
    const json = await run(['preflight', ...files.args, '--output', 'json'], { json: true });
    return {
      text,
      data: json.data[0] as {
        ok: boolean;
        podSecurity: Record<string, unknown>;
        problems: Array<{ check: string; message: string }>;
      },
    };
  };

  test(
    'baseline namespace, default Pods: passes',
    withComponentLogs(async () => {
      const { text, data } = await preflight(namespaces.baseline);
      expect(text.code).toBe(0);
      expect(data.podSecurity).toEqual({
        enforce: 'baseline',
        enforceVersion: 'latest',
        source: 'namespace-label',
        builtFor: 'baseline',
        podsPass: true,
      });
      expect(text.out).toContain(
        `Note: namespace ${namespaces.baseline} enforces Pod Security "baseline" (version latest); the master and worker Pods, built for "baseline" (kubernetes.pod-security), pass it (server-side dry run)`,
      );
    }),
  );

  test(
    'restricted namespace, default Pods: one pod-security problem with the remedy, not one per Pod',
    withComponentLogs(async () => {
      const { text, data } = await preflight(namespaces.restricted, 'application.worker-count = 2');
      expect(text.code).toBe(4);
      expect(data.podSecurity).toMatchObject({
        enforce: 'restricted',
        source: 'namespace-label',
        builtFor: 'baseline',
        podsPass: false,
      });
      expect(data.problems.map((p) => p.check)).toEqual(['pod-security']);
      expect(data.problems[0].message).toMatch(
        /enforces Pod Security "restricted" \(version latest\); the master and worker Pods, built for "baseline" \(kubernetes.pod-security\), are refused by Pod Security admission: .*violates PodSecurity "restricted:latest".*; set kubernetes.pod-security = restricted/,
      );
    }),
  );

  test(
    'restricted namespace, Pods built for restricted: passes',
    withComponentLogs(async () => {
      const { text, data } = await preflight(
        namespaces.restricted,
        'kubernetes { pod-security = restricted, run-as-user = 1000 }',
      );
      expect(text.code).toBe(0);
      expect(data.podSecurity).toMatchObject({ enforce: 'restricted', builtFor: 'restricted', podsPass: true });
    }),
  );
});

// The quick start's namespace (issue 27, item 6): made with applicationNamespace(), it enforces
// baseline, so the escape a submitter could otherwise run — privileged, the node's root filesystem
// — is refused by the real Pod Security admission, while the application's Pods pass; and
// preflight warns about a namespace that enforces nothing.
describe('the namespace for applications', () => {
  const escape = (namespace: string): Pod => ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'escape', namespace },
    spec: {
      containers: [{ name: 'c', image: 'busybox:1.36', securityContext: { privileged: true } }],
      volumes: [{ name: 'root', hostPath: { path: '/' } }],
    },
  });

  test(
    'applicationNamespace() enforces baseline: a privileged hostPath Pod is refused, the application’s Pods pass',
    withComponentLogs(async () => {
      const made = applicationNamespace('unused');
      const ns = await createTestNamespace('psa-app', made.metadata.labels);
      try {
        const r = await dryRun(escape(ns));
        expect(r.status).toBe(403);
        expect(r.message).toMatch(/violates PodSecurity "baseline:latest"/);
        for (const pod of pods(ns, 'baseline')) expect((await dryRun(pod)).status).toBe(201);
      } finally {
        await deleteNamespace(ns);
      }
    }),
  );

  test(
    'preflight warns about a namespace that enforces no level; a plain namespace admits the escape',
    withComponentLogs(async () => {
      const ns = await createTestNamespace('psa-none');
      try {
        expect((await dryRun(escape(ns))).status).toBe(201);
        const files = deploymentFiles(ns);
        const r = await run(['preflight', ...files.args]);
        expect(r.err.join('\n')).toMatch(
          new RegExp(`warning: namespace ${ns} enforces no Pod Security level of its own .*enforce=baseline`),
        );
        const labelled = await run(['preflight', ...deploymentFiles(namespaces.baseline).args]);
        expect(labelled.err.join('\n')).not.toMatch(/enforces no Pod Security level/);
      } finally {
        await deleteNamespace(ns);
      }
    }),
  );
});
