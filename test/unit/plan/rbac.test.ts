import { ConfigurationError } from '../../../lib/model/issues';
import { allObjects } from '../../../lib/plan/build-plan';
import { runtimeSettings } from '../../../lib/plan/runtime-settings';
import { runtimeRules } from '../../../lib/plan/steps/rbac';
import { submitterRules } from '../../../lib/plan/submitter-rbac';
import { plan } from '../../support/fixtures';

describe('rbac step', () => {
  const p = plan({ applicationId: 'app-1', serviceAccount: 'runner', secrets: { db: { data: { k: 'v' } } } });

  test('a Role bound to the master ServiceAccount', () => {
    expect(p.roles).toHaveLength(1);
    expect(p.roleBindings[0].roleRef).toEqual({
      apiGroup: 'rbac.authorization.k8s.io',
      kind: 'Role',
      name: 'app-1-runtime',
    });
    expect(p.roleBindings[0].subjects).toEqual([{ kind: 'ServiceAccount', name: 'runner', namespace: 'default' }]);
  });

  test('exactly the runtime calls: workers, its own Job, events, adoption by resourceNames', () => {
    const rules = p.roles[0].rules!;
    expect(rules).toContainEqual({ apiGroups: [''], resources: ['pods'], verbs: ['create', 'get', 'list', 'watch'] });
    expect(rules).toContainEqual({
      apiGroups: [''],
      resources: ['pods'],
      resourceNames: ['app-1-worker-1'],
      verbs: ['delete'],
    });
    expect(rules.flatMap((r) => r.verbs)).not.toContain('deletecollection');
    expect(rules).toContainEqual({
      apiGroups: ['batch'],
      resources: ['jobs'],
      resourceNames: ['app-1'],
      verbs: ['get', 'watch', 'patch'],
    });
    expect(rules).toContainEqual({ apiGroups: [''], resources: ['events'], verbs: ['create', 'list'] });
    expect(rules).toContainEqual({
      apiGroups: [''],
      resources: ['secrets'],
      // The owned Secret, and the job config's.
      resourceNames: ['app-1-db', 'app-1.job-config'],
      verbs: ['get', 'patch'],
    });
    expect(rules).toContainEqual({
      apiGroups: [''],
      resources: ['podtemplates'],
      resourceNames: ['app-1-worker'],
      verbs: ['get'],
    });
    expect(rules).toContainEqual({
      apiGroups: [''],
      resources: ['configmaps'],
      resourceNames: ['app-1-engine'],
      verbs: ['get', 'patch'],
    });
    for (const r of runtimeRules(p.spec)) {
      expect(r.verbs).not.toContain('*');
      expect(r.resources).not.toContain('*');
      if (!['pods', 'events'].includes(r.resources![0])) expect(r.resourceNames!.length).toBeGreaterThan(0);
    }
  });

  test('no right over its own fences: nothing on RBAC, NetworkPolicies, ServiceAccounts or the Service', () => {
    const rules = p.roles[0].rules!;
    expect(rules.flatMap((r) => r.apiGroups!)).not.toContain('rbac.authorization.k8s.io');
    expect(rules.flatMap((r) => r.apiGroups!)).not.toContain('networking.k8s.io');
    for (const resource of ['roles', 'rolebindings', 'networkpolicies', 'serviceaccounts', 'services']) {
      expect(rules.flatMap((r) => r.resources!)).not.toContain(resource);
    }
    // Only data objects are adopted (patched): never the worker template, the admission fence's
    // parameter, which an owner reference to nothing would have garbage-collected (issue 27, item 1).
    expect(
      runtimeSettings(p.spec)
        .dependents.map((d) => d.kind)
        .sort(),
    ).toEqual(['ConfigMap', 'Secret', 'Secret']);
    expect(rules.filter((r) => r.resources!.includes('podtemplates'))).toEqual([
      { apiGroups: [''], resources: ['podtemplates'], resourceNames: [p.workerTemplate.metadata.name], verbs: ['get'] },
    ]);
  });

  test('delete is limited to the worker names, one per worker', () => {
    const q = plan({ applicationId: 'app-2', workerCount: 3 });
    const del = q.roles[0].rules!.find((r) => r.verbs.includes('delete'))!;
    expect(del).toEqual({
      apiGroups: [''],
      resources: ['pods'],
      resourceNames: ['app-2-worker-1', 'app-2-worker-2', 'app-2-worker-3'],
      verbs: ['delete'],
    });
  });

  test("with HA, also the masters' Pods by ordinal: the coordinator restarts an active master that does not serve the job", () => {
    const q = plan({ applicationId: 'app-3', workerCount: 1, haEnabled: true, haMasters: 3, checkpointPvc: 'ckpt' });
    const del = q.roles[0].rules!.find((r) => r.verbs.includes('delete') && r.resources?.includes('pods'))!;
    expect(del.resourceNames).toEqual([
      'app-3-worker-1',
      `${q.masters!.metadata.name}-0`,
      `${q.masters!.metadata.name}-1`,
      `${q.masters!.metadata.name}-2`,
    ]);
  });

  test('the submitter role holds every permission it grants (Kubernetes RBAC escalation rule)', () => {
    const submitter = submitterRules();
    for (const r of p.roles[0].rules!) {
      for (const verb of r.verbs) {
        const covered = submitter.some(
          (s) =>
            s.apiGroups!.includes(r.apiGroups![0]) && s.resources!.includes(r.resources![0]) && s.verbs.includes(verb),
        );
        expect(`${r.resources![0]}/${verb}: ${covered}`).toBe(`${r.resources![0]}/${verb}: true`);
      }
    }
  });

  test('the submitter Role: no list of Secrets, no patch of RBAC, policies or Services, nothing cluster-wide', () => {
    const submitter = submitterRules();
    const verbsOn = (resource: string) =>
      submitter.filter((r) => r.resources!.includes(resource)).flatMap((r) => r.verbs);
    expect(verbsOn('secrets')).not.toContain('list');
    expect(verbsOn('secrets')).not.toContain('watch');
    for (const resource of ['roles', 'rolebindings', 'networkpolicies', 'services', 'serviceaccounts'])
      expect(verbsOn(resource)).not.toContain('patch');
    for (const r of submitter) {
      expect(r.verbs).not.toEqual(expect.arrayContaining(['bind']));
      expect(r.verbs).not.toEqual(expect.arrayContaining(['escalate']));
      expect(r.verbs).not.toContain('*');
    }
  });

  test('rbac.create = false generates none', () => {
    const q = plan({ rbacCreate: false });
    expect(q.roles).toEqual([]);
    expect(q.roleBindings).toEqual([]);
  });
});

describe('the application ServiceAccount', () => {
  test('unset: one is generated per application, bound to the Role, without automounted tokens', () => {
    const p = plan({ applicationId: 'app-3', serviceAccount: undefined });
    expect(p.serviceAccount).toMatchObject({
      apiVersion: 'v1',
      kind: 'ServiceAccount',
      metadata: {
        name: 'app-3-runtime',
        namespace: 'default',
        labels: { 'seatunnel.apache.org/application-id': 'app-3' },
      },
      automountServiceAccountToken: false,
    });
    expect(p.roleBindings[0].subjects).toEqual([
      { kind: 'ServiceAccount', name: 'app-3-runtime', namespace: 'default' },
    ]);
    // Both Pods run as it; only the master mounts a token.
    expect(p.job.spec!.template.spec).toMatchObject({
      serviceAccountName: 'app-3-runtime',
      automountServiceAccountToken: true,
    });
    expect(p.workerTemplate.template!.spec).toMatchObject({
      serviceAccountName: 'app-3-runtime',
      automountServiceAccountToken: false,
    });
    // Created first (before the Role that names it), and never by the user: `kubectl apply` gets it too.
    expect(allObjects(p)[0]).toBe(p.serviceAccount);
  });

  test('a named ServiceAccount is used as is and not generated', () => {
    const p = plan({ serviceAccount: 'runner' });
    expect(p.serviceAccount).toBeUndefined();
    expect(allObjects(p).map((o) => o.kind)).not.toContain('ServiceAccount');
  });

  test('"default" is refused: the Role would go to every Pod that runs as default', () => {
    expect(() => plan({ serviceAccount: 'default' })).toThrow(ConfigurationError);
    expect(() => plan({ serviceAccount: 'default' })).toThrow(/serviceAccount.*"default".*must not be "default"/s);
  });
});

describe('the submitter Role for pre-provisioned namespaces (issue 27, item 12)', () => {
  const rules = submitterRules({ preProvisioned: true });
  const verbsOn = (resource: string) => rules.filter((r) => r.resources!.includes(resource)).flatMap((r) => r.verbs);

  test('reads no Secret, and creates no Role, RoleBinding or ServiceAccount', () => {
    expect(verbsOn('secrets').sort()).toEqual(['create', 'delete', 'deletecollection']);
    for (const resource of ['roles', 'rolebindings']) expect(verbsOn(resource)).toEqual([]);
    expect(verbsOn('serviceaccounts')).toEqual(['get']);
    expect(rules.flatMap((r) => r.verbs)).not.toContain('bind');
    expect(rules.flatMap((r) => r.verbs)).not.toContain('escalate');
  });

  test('still lists, reads logs and cancels', () => {
    expect(verbsOn('jobs')).toEqual(expect.arrayContaining(['create', 'get', 'list', 'patch', 'delete']));
    expect(verbsOn('pods/log')).toEqual(['get']);
    expect(verbsOn('pods')).toEqual(expect.arrayContaining(['list', 'deletecollection']));
  });
});
