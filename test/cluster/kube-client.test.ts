// The shared client (lib/kube) against the real API server, over HTTP/2 and HTTP/1.1:
//  - the runtime's own-Job watch (KubePort.watchJob) with a real ServiceAccount token bound to the
//    Role the plan generates: it sees a change of its Job, and the same token cannot watch another;
//  - the body cap holds against a real answer;
//  - a client certificate that changes between requests (a rotating credential source) is the one
//    the next request presents, over both protocols.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Kube, KubeApiError, KubeTransport } from '../../lib/kube';
import { runtimeRules } from '../../lib/plan/steps/rbac';
import { KubeRest } from '../../runtime/src/kube/rest';
import type { WatchEventType } from '../../runtime/src/kube/port';
import {
  adminHttp,
  clusterInfo,
  mintServiceAccountToken,
  useTestNamespace,
  waitFor,
  withComponentLogs,
} from '../support/cluster';
import { plan } from '../support/fixtures';

const ns = useTestNamespace('kube-client');

function asToken(token: string, http2: boolean): Kube {
  const info = clusterInfo();
  return new Kube(
    new KubeTransport(
      info.server,
      async () => ({ headers: { authorization: `Bearer ${token}` }, tls: { ca: info.caData } }),
      { http2 },
    ),
  );
}

const job = (name: string) => ({
  apiVersion: 'batch/v1',
  kind: 'Job',
  metadata: { name },
  spec: {
    suspend: true,
    template: { spec: { restartPolicy: 'Never', containers: [{ name: 'main', image: 'seatunnel-app-test:fake' }] } },
  },
});

test(
  'watchJob with the generated Role: sees its own Job change (HTTP/2 and HTTP/1.1) and may not watch another Job',
  withComponentLogs(async () => {
    const namespace = ns.name;
    const p = plan({ applicationId: 'watch-0123456789ab', namespace });
    const appId = p.spec.appId;
    const admin = adminHttp();
    await admin.call('POST', `/api/v1/namespaces/${namespace}/serviceaccounts`, {
      apiVersion: 'v1',
      kind: 'ServiceAccount',
      metadata: { name: 'runtime' },
    });
    await admin.call('POST', `/apis/rbac.authorization.k8s.io/v1/namespaces/${namespace}/roles`, {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'Role',
      metadata: { name: 'runtime' },
      rules: runtimeRules(p.spec),
    });
    await admin.call('POST', `/apis/rbac.authorization.k8s.io/v1/namespaces/${namespace}/rolebindings`, {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: { name: 'runtime' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'runtime' },
      subjects: [{ kind: 'ServiceAccount', name: 'runtime', namespace }],
    });
    await admin.call('POST', `/apis/batch/v1/namespaces/${namespace}/jobs`, job(appId));
    await admin.call('POST', `/apis/batch/v1/namespaces/${namespace}/jobs`, job('someone-else'));
    const token = await mintServiceAccountToken(namespace, 'runtime');

    for (const http2 of [true, false]) {
      const kube = asToken(token, http2);
      const port = new KubeRest(kube, namespace);
      // The RBAC authorizer reads from an informer: wait until the binding is visible.
      const own = await waitFor(() => port.getJob(appId).catch(() => undefined), {
        description: 'the RoleBinding to take effect (get the Job as the runtime)',
      });
      expect((kube.api as KubeTransport).protocol).toBe(http2 ? 'h2' : 'http/1.1');

      const seen: Array<[WatchEventType, Record<string, unknown>]> = [];
      let closed: Error | undefined | 'open' = 'open';
      const watch = port.watchJob(appId, own.metadata!.resourceVersion!, {
        event: (type, o) => seen.push([type, o as Record<string, unknown>]),
        closed: (e) => (closed = e),
      });
      try {
        const mark = `watched-${http2 ? 'h2' : 'h1'}`;
        await port.patchJobAnnotations(appId, { 'seatunnel.apache.org/test-mark': mark });
        await waitFor(
          async () =>
            seen.some(
              ([t, o]) =>
                t === 'MODIFIED' &&
                (o.metadata as { annotations?: Record<string, string> }).annotations?.[
                  'seatunnel.apache.org/test-mark'
                ] === mark,
            ),
          {
            description: `a MODIFIED event of Job ${appId} over ${http2 ? 'HTTP/2' : 'HTTP/1.1'}`,
          },
        );
        expect(
          seen.every(([, o]) => (o.metadata as { name?: string } | undefined)?.name === appId || o.kind === undefined),
        ).toBe(true);
        expect(closed).toBe('open');
      } finally {
        watch.stop();
      }

      // Another Job's watch is refused by the same token (resourceNames).
      const refused = await new Promise<Error | undefined>((resolve) =>
        kube.watch(
          'batch/v1',
          'Job',
          namespace,
          { fieldSelector: 'metadata.name=someone-else', resourceVersion: '0', timeoutSeconds: 30 },
          { event: () => undefined, closed: resolve },
        ),
      );
      expect(refused).toBeInstanceOf(KubeApiError);
      expect((refused as KubeApiError).status).toBe(403);
      kube.api.close();
    }
  }),
);

test('an answer over the body cap is refused (a real list; HTTP/2 and HTTP/1.1)', async () => {
  const namespace = ns.name;
  const admin = adminHttp();
  for (let i = 0; i < 4; i++)
    await admin.call('POST', `/api/v1/namespaces/${namespace}/configmaps`, {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: `big-${i}` },
      data: { pad: 'x'.repeat(2000) },
    });
  const info = clusterInfo();
  const tls = { ca: info.caData, cert: fs.readFileSync(info.adminCertFile), key: fs.readFileSync(info.adminKeyFile) };
  for (const http2 of [true, false]) {
    const kube = new Kube(
      new KubeTransport(info.server, async () => ({ headers: {}, tls }), { http2, maxBodyBytes: 4096 }),
    );
    const e = await kube.list('v1', 'ConfigMap', namespace).then(
      () => undefined,
      (x: unknown) => x,
    );
    expect(e).toBeInstanceOf(KubeApiError);
    expect((e as KubeApiError).reason).toBe('ResponseTooLarge');
    // The same client reads a small answer: the cap ended one exchange, not the connection's use.
    expect((await kube.get({ apiVersion: 'v1', kind: 'ConfigMap', namespace, name: 'big-0' })).metadata?.name).toBe(
      'big-0',
    );
    kube.api.close();
  }
});

test.each([true, false])(
  'new TLS material from the credential source is the one the next request presents (HTTP/2: %s)',
  async (http2) => {
    const info = clusterInfo();
    const pem = (f: string) => fs.readFileSync(f);
    const admin = { ca: info.caData, cert: pem(info.adminCertFile), key: pem(info.adminKeyFile) };
    const scheduler = {
      ca: info.caData,
      cert: pem(path.join(info.dir, 'pki', 'kube-scheduler.crt')),
      key: pem(path.join(info.dir, 'pki', 'kube-scheduler.key')),
    };
    let current = admin;
    const t = new KubeTransport(info.server, async () => ({ headers: {}, tls: current }), { http2 });
    const who = async () => {
      const r = await t.request<{ status: { userInfo: { username: string } } }>({
        method: 'POST',
        path: '/apis/authentication.k8s.io/v1/selfsubjectreviews',
        body: { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' },
      });
      return r.body.status.userInfo.username;
    };
    try {
      expect(await who()).toBe('seatunnel-app-test-admin');
      expect(await who()).toBe('seatunnel-app-test-admin');
      current = scheduler; // a rotated certificate: a new object, as every credential source hands out
      expect(await who()).toBe('system:kube-scheduler');
      expect(await who()).toBe('system:kube-scheduler');
      current = { ...admin }; // back, in another object with the same contents
      expect(await who()).toBe('seatunnel-app-test-admin');
    } finally {
      t.close();
    }
  },
);
