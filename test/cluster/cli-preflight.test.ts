// `seatunnel-app preflight` and `submit --dry-run`: every problem that would stop the application,
// found before anything is created and reported in one run — here a quota too small for master +
// N workers, a missing referenced Secret and a missing permission at once — exit 4; exit 0 when
// nothing is wrong; and nothing is ever created.
import { submitterRules } from '../../lib/plan/submitter-rbac';
import { serviceAccountIdentity, useTestNamespace, waitFor, withComponentLogs } from '../support/cluster';
import { createObj, deploymentFiles, labelled, run } from './cli-support';

async function limitedSubmitter(namespace: string, name: string): Promise<string> {
  await createObj(namespace, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name } });
  // The platform team's submitter Role, minus creating NetworkPolicies.
  const rules = submitterRules().map((r) =>
    r.resources?.includes('networkpolicies') ? { ...r, verbs: r.verbs.filter((v) => v !== 'create') } : r,
  );
  await createObj(namespace, { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name }, rules });
  await createObj(namespace, {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'RoleBinding',
    metadata: { name },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name },
    subjects: [{ kind: 'ServiceAccount', name, namespace }],
  });
  const id = await serviceAccountIdentity(namespace, name);
  await waitFor(
    async () => {
      const r = await run([
        'status',
        '--id',
        'probe-0123456789ab',
        '-a',
        deploymentFiles(namespace, '', { kubeconfig: id.kubeconfigPath }).deploy,
      ]);
      return r.code === 0 ? true : undefined;
    },
    { description: `the RoleBinding of ${name} to take effect` },
  );
  return id.kubeconfigPath;
}

describe('problems', () => {
  const ns = useTestNamespace('cli-preflight');

  test(
    'quota too small for N workers + missing referenced Secret + missing permission: all three in one run, exit 4, nothing created',
    withComponentLogs(async () => {
      await createObj(ns.name, {
        apiVersion: 'v1',
        kind: 'ResourceQuota',
        metadata: { name: 'small' },
        spec: { hard: { pods: '3', 'requests.cpu': '10' } },
      });
      const kubeconfig = await limitedSubmitter(ns.name, 'submitter');
      const files = deploymentFiles(
        ns.name,
        `
application.worker-count = 3
kubernetes.env.DB_PASSWORD { secret = db, key = password }`,
        { kubeconfig },
      );

      const r = await run(['preflight', ...files.args]);
      expect(r.err).toEqual([]);
      expect(r.code).toBe(4);
      const text = r.out.join('\n');
      expect(r.value('Footprint')).toBe(
        '4 Pods (master + 3 workers); requests cpu 4, memory 4Gi; limits cpu 4, memory 4Gi',
      );
      expect(text).toMatch(
        /- \[quota\] ResourceQuota small: pods: the application needs 4 \(master \+ 3 workers\), but only 3 of 3 is free \(0 used\)/,
      );
      expect(text).toMatch(
        new RegExp(`- \\[reference\\] kubernetes\\.env\\.DB_PASSWORD: Secret db not found in namespace ${ns.name}`),
      );
      expect(text).toMatch(
        new RegExp(
          `- \\[permission\\] missing permission: create networkpolicies\\.networking\\.k8s\\.io in namespace ${ns.name} \\(submit: create the application's NetworkPolicies\\)`,
        ),
      );
      // The dry runs the missing permission refuses are not repeated as separate problems.
      expect(text).not.toMatch(/\[dry-run\].*NetworkPolicy/);
      const problems = r.out.filter((l) => l.startsWith('  - ['));
      expect(problems).toHaveLength(3);
      expect(r.value('Preflight found 3 problems')).toBeUndefined(); // a heading, not a key/value line
      expect(r.out).toContain('Preflight found 3 problems:');

      const json = await run(['preflight', ...files.args, '--output', 'json'], { json: true });
      expect(json.code).toBe(4);
      const data = json.data[0] as { ok: boolean; problems: Array<{ check: string; object: string; message: string }> };
      expect(data.ok).toBe(false);
      expect(data.problems.map((p) => [p.check, p.object])).toEqual([
        ['permission', 'create networkpolicies.networking.k8s.io'],
        ['reference', 'Secret ' + ns.name + '/db'],
        ['quota', 'ResourceQuota small'],
      ]);

      // submit --dry-run is the same preflight.
      const dry = await run(['submit', ...files.args, '--dry-run']);
      expect(dry.code).toBe(4);
      expect(dry.out.filter((l) => l.startsWith('  - ['))).toHaveLength(3);
      expect((await labelled(ns.name, dry.value('Application ID')!)).size).toBe(0);
      expect((await labelled(ns.name, r.value('Application ID')!)).size).toBe(0);
    }),
  );
});

describe('limit ranges', () => {
  const ns = useTestNamespace('cli-preflight-lr');

  test(
    "a worker above the LimitRange maximum: our line with the numbers, and the server's own refusal of the stamped worker Pods",
    withComponentLogs(async () => {
      await createObj(ns.name, {
        apiVersion: 'v1',
        kind: 'LimitRange',
        metadata: { name: 'caps' },
        spec: { limits: [{ type: 'Container', max: { memory: '1536Mi' } }] },
      });
      const files = deploymentFiles(ns.name, 'application { worker-count = 2, worker.memory-mb = 2048 }');
      const r = await run(['preflight', ...files.args]);
      expect(r.code).toBe(4);
      const text = r.out.join('\n');
      expect(text).toMatch(
        /- \[limit-range\] LimitRange caps: the worker Pod's container "seatunnel": memory limit 2Gi is above the maximum 1536Mi per Container/,
      );
      expect(text).toMatch(
        /- \[dry-run\] server-side dry run rejected 2 of 2 worker Pods \(.*-worker-1, .*-worker-2\): HTTP 403 Forbidden: .*maximum memory usage per Container is 1536Mi, but limit is 2Gi/,
      );
      expect(text).toMatch(/Note: LimitRange caps sets container defaults .* none applies/);
    }),
  );
});

describe('no problems', () => {
  // A namespace that enforces a Pod Security level of its own (else preflight warns, see pod-security.test.ts).
  const ns = useTestNamespace('cli-preflight-ok', { 'pod-security.kubernetes.io/enforce': 'baseline' });

  test(
    'a roomy namespace: exit 0, every check listed, nothing created',
    withComponentLogs(async () => {
      await createObj(ns.name, {
        apiVersion: 'v1',
        kind: 'ResourceQuota',
        metadata: { name: 'roomy' },
        spec: { hard: { pods: '20', 'limits.memory': '64Gi' } },
      });
      await createObj(ns.name, {
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name: 'db' },
        stringData: { password: 'p' },
      });
      const files = deploymentFiles(
        ns.name,
        `
application.worker-count = 3
kubernetes.env.DB_PASSWORD { secret = db, key = password }`,
      );
      for (const argv of [
        ['preflight', ...files.args],
        ['submit', ...files.args, '--dry-run'],
      ]) {
        const r = await run(argv);
        expect(r.err).toEqual([]);
        expect(r.code).toBe(0);
        expect(r.out).toContain('Preflight passed: nothing found that would stop this application');
        // 10 objects: the generated ServiceAccount among them (not created yet, the Pods still pass) and the job
        // config Secret; 1 reference: the Secret.
        expect(r.value('Checked')).toMatch(
          /^server-side dry run of 10 objects and 4 Pods; 1 ResourceQuota\(s\); 0 LimitRange\(s\); \d+ permissions; 1 referenced object\(s\)$/,
        );
        expect((await labelled(ns.name, r.value('Application ID')!)).size).toBe(0);
      }
    }),
  );
});
