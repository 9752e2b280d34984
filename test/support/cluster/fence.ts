// The admission fence (lib/plan/admission-fence.ts) installed for the test namespaces that ask for
// it: its policies and bindings, the bindings limited to namespaces labelled FENCED_NAMESPACE_LABEL so
// that the rest of the cluster tier is not fenced.
import type { Pod } from 'kubernetes-types/core/v1';
import { admissionFence } from '../../../lib/plan/admission-fence';
import { adminHttp } from './access';
import type { KubeHttp } from '../kube-http';

const VAP = '/apis/admissionregistration.k8s.io/v1';
const BINDING_PREFIX = 'test-';
/** The label that puts a test namespace behind the fence. */
export const FENCED_NAMESPACE_LABEL = 'seatunnel-app.test/fenced';
const plural = (kind: string) =>
  kind === 'ValidatingAdmissionPolicy' ? 'validatingadmissionpolicies' : 'validatingadmissionpolicybindings';

/**
 * Fences `namespace`: the policies and bindings created, or replaced in place (a no-op when unchanged),
 * then the namespace labelled. Neither is deleted between test files: the API server's informer for
 * a parameter kind, restarted when a binding goes and comes back, may miss the existing
 * parameters for a while (seen on 1.36: "no params found" with the templates there).
 */
export async function installFence(namespace: string): Promise<void> {
  const admin = adminHttp();
  const objects = admissionFence({
    bindingPrefix: BINDING_PREFIX,
    namespaceSelector: { matchLabels: { [FENCED_NAMESPACE_LABEL]: 'true' } },
  });
  for (const o of objects) {
    const at = `${VAP}/${plural(o.kind)}/${o.metadata.name}`;
    const existing = await admin.request<{ metadata: { resourceVersion: string } }>('GET', at);
    if (existing.status !== 200) await admin.call('POST', `${VAP}/${plural(o.kind)}`, o);
    // An update that changes nothing is not written (no new resourceVersion, nothing for informers).
    else
      await admin.call('PUT', at, {
        ...o,
        metadata: { ...o.metadata, resourceVersion: existing.body.metadata.resourceVersion },
      });
  }
  await admin.call(
    'PATCH',
    `/api/v1/namespaces/${namespace}`,
    { metadata: { labels: { [FENCED_NAMESPACE_LABEL]: 'true' } } },
    { contentType: 'application/merge-patch+json' },
  );
}

/** Takes `namespace` out of the fence (the policies and bindings stay, for the next file). */
export async function removeFence(namespace: string): Promise<void> {
  await adminHttp().call(
    'PATCH',
    `/api/v1/namespaces/${namespace}`,
    { metadata: { labels: { [FENCED_NAMESPACE_LABEL]: null } } },
    { contentType: 'application/merge-patch+json', accept: [404] },
  );
}

/** The policy's status once the API server has type-checked its current generation. */
export async function typeCheckWarnings(name: string): Promise<unknown[] | undefined> {
  const vap = await adminHttp().call<{
    metadata: { generation: number };
    status?: { observedGeneration?: number; typeChecking?: { expressionWarnings?: unknown[] } };
  }>('GET', `${VAP}/validatingadmissionpolicies/${name}`);
  return vap.status?.observedGeneration === vap.metadata.generation
    ? (vap.status.typeChecking?.expressionWarnings ?? [])
    : undefined;
}

export interface Answer {
  readonly status: number;
  readonly message: string;
}

/** Creates `pod` as `as` in `namespace` (a dry run unless `dryRun` is false). */
export async function createPod(as: KubeHttp, namespace: string, pod: Pod, dryRun = true): Promise<Answer> {
  const res = await as.request<{ message?: string }>(
    'POST',
    `/api/v1/namespaces/${namespace}/pods${dryRun ? '?dryRun=All' : ''}`,
    pod,
  );
  return { status: res.status, message: res.body?.message ?? res.text };
}

/** A request as `as`; its status and the API server's message. */
export async function answer(
  as: KubeHttp,
  method: string,
  path: string,
  body?: unknown,
  contentType = 'application/merge-patch+json',
): Promise<Answer> {
  const res = await as.request<{ message?: string }>(method, path, body, method === 'PATCH' ? { contentType } : {});
  return { status: res.status, message: res.body?.message ?? res.text };
}
