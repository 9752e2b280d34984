// Least privilege with real ServiceAccount tokens: a token for a ServiceAccount bound to a Role
// can do exactly what the Role grants and gets 403 Forbidden for everything else.
import {
  adminClients,
  createTestNamespace,
  deleteNamespace,
  serviceAccountClients,
  tokenHttp,
  useTestNamespace,
  waitFor,
  withComponentLogs,
} from '../support/cluster';

const ns = useTestNamespace('rbac');

async function status(call: () => Promise<unknown>): Promise<number> {
  try {
    await call();
    return 200;
  } catch (e) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'number') return code;
    throw e;
  }
}

test(
  'a ServiceAccount token bound to a Role can do exactly the granted verbs and gets 403 otherwise',
  withComponentLogs(async () => {
    const { core, rbac } = await adminClients();
    const namespace = ns.name;
    await core.createNamespacedServiceAccount({ namespace, body: { metadata: { name: 'runner' } } });
    await rbac.createNamespacedRole({
      namespace,
      body: {
        metadata: { name: 'runner' },
        rules: [
          { apiGroups: [''], resources: ['pods'], verbs: ['get', 'list', 'watch', 'create', 'delete'] },
          { apiGroups: [''], resources: ['configmaps'], verbs: ['get'], resourceNames: ['allowed'] },
        ],
      },
    });
    await rbac.createNamespacedRoleBinding({
      namespace,
      body: {
        metadata: { name: 'runner' },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'runner' },
        subjects: [{ kind: 'ServiceAccount', name: 'runner', namespace }],
      },
    });
    await core.createNamespacedConfigMap({ namespace, body: { metadata: { name: 'allowed' }, data: { a: '1' } } });
    await core.createNamespacedConfigMap({ namespace, body: { metadata: { name: 'other' }, data: { a: '2' } } });
    const elsewhere = await createTestNamespace('rbac-other');

    try {
      const sa = await serviceAccountClients(namespace, 'runner');
      expect(sa.identity.username).toBe(`system:serviceaccount:${namespace}:runner`);
      const pod = {
        metadata: { name: 'p' },
        spec: { containers: [{ name: 'main', image: 'seatunnel-app-test:fake' }] },
      };

      // The RBAC authorizer reads from an informer: wait until the binding is visible.
      await waitFor(async () => (await status(() => sa.core.listNamespacedPod({ namespace }))) === 200, {
        description: 'the RoleBinding to take effect (list pods as the ServiceAccount)',
      });

      // Granted.
      expect(await status(() => sa.core.createNamespacedPod({ namespace, body: pod }))).toBe(200);
      expect(await status(() => sa.core.readNamespacedPod({ name: 'p', namespace }))).toBe(200);
      expect(await status(() => sa.core.deleteNamespacedPod({ name: 'p', namespace, gracePeriodSeconds: 0 }))).toBe(
        200,
      );
      expect(await status(() => sa.core.readNamespacedConfigMap({ name: 'allowed', namespace }))).toBe(200);

      // Not granted: other verbs, other resource names, other resources, other namespaces, cluster scope.
      expect(
        await status(() =>
          sa.core.patchNamespacedPod({
            name: 'p',
            namespace,
            body: [{ op: 'add', path: '/metadata/labels', value: { a: 'b' } }],
          }),
        ),
      ).toBe(403);
      expect(await status(() => sa.core.readNamespacedConfigMap({ name: 'other', namespace }))).toBe(403);
      expect(await status(() => sa.core.listNamespacedConfigMap({ namespace }))).toBe(403);
      expect(await status(() => sa.core.deleteNamespacedConfigMap({ name: 'allowed', namespace }))).toBe(403);
      expect(await status(() => sa.core.listNamespacedSecret({ namespace }))).toBe(403);
      expect(await status(() => sa.batch.listNamespacedJob({ namespace }))).toBe(403);
      expect(await status(() => sa.core.listNamespacedPod({ namespace: elsewhere }))).toBe(403);
      expect(await status(() => sa.core.createNamespacedPod({ namespace: elsewhere, body: pod }))).toBe(403);
      expect(await status(() => sa.core.listNode())).toBe(403);
      expect(
        await status(() =>
          sa.rbac.createNamespacedRole({ namespace, body: { metadata: { name: 'escalate' }, rules: [] } }),
        ),
      ).toBe(403);
    } finally {
      await deleteNamespace(elsewhere);
    }
  }),
);

test('a token the API server did not issue is rejected with 401', async () => {
  const res = await tokenHttp('not-a-real-token').request('GET', '/api/v1/namespaces');
  expect(res.status).toBe(401);
});
