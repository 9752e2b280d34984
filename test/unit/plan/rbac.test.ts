import { submitterRules } from '../../../lib/plan/submitter-rbac';
import { plan } from '../../support/fixtures';

describe('rbac step', () => {
  const p = plan({ applicationId: 'app-1', serviceAccount: 'runner', secrets: { db: { data: { k: 'v' } } } });

  test('a Role bound to the master ServiceAccount', () => {
    expect(p.roles).toHaveLength(1);
    expect(p.roleBindings[0].roleRef).toEqual({ apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'app-1-runtime' });
    expect(p.roleBindings[0].subjects).toEqual([{ kind: 'ServiceAccount', name: 'runner', namespace: 'default' }]);
  });

  test('exactly the runtime calls: workers, its own Job, events, adoption by resourceNames', () => {
    const rules = p.roles[0].rules!;
    expect(rules).toContainEqual({ apiGroups: [''], resources: ['pods'], verbs: ['create', 'get', 'list', 'watch', 'delete', 'deletecollection'] });
    expect(rules).toContainEqual({ apiGroups: ['batch'], resources: ['jobs'], resourceNames: ['app-1'], verbs: ['get', 'watch', 'patch'] });
    expect(rules).toContainEqual({ apiGroups: [''], resources: ['events'], verbs: ['create'] });
    expect(rules).toContainEqual({ apiGroups: [''], resources: ['secrets'], resourceNames: ['app-1-db'], verbs: ['get', 'patch'] });
    expect(rules).toContainEqual({ apiGroups: [''], resources: ['podtemplates'], resourceNames: ['app-1-worker'], verbs: ['get', 'patch'] });
    expect(rules).toContainEqual({ apiGroups: [''], resources: ['configmaps'], resourceNames: ['app-1-engine'], verbs: ['get', 'patch'] });
    for (const r of rules) {
      expect(r.verbs).not.toContain('*');
      expect(r.resources).not.toContain('*');
      if (!['pods', 'events'].includes(r.resources![0])) expect(r.resourceNames!.length).toBeGreaterThan(0);
    }
  });

  test('the submitter role holds every permission it grants (Kubernetes RBAC escalation rule)', () => {
    const submitter = submitterRules();
    for (const r of p.roles[0].rules!) {
      for (const verb of r.verbs) {
        const covered = submitter.some((s) => s.apiGroups!.includes(r.apiGroups![0]) && s.resources!.includes(r.resources![0]) && s.verbs.includes(verb));
        expect(`${r.resources![0]}/${verb}: ${covered}`).toBe(`${r.resources![0]}/${verb}: true`);
      }
    }
  });

  test('rbac.create = false generates none', () => {
    const q = plan({ rbacCreate: false });
    expect(q.roles).toEqual([]);
    expect(q.roleBindings).toEqual([]);
  });
});
