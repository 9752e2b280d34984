// The admission fence (lib/plan/admission-fence.ts) installed for one test namespace: its policies
// and bindings, the bindings limited to that namespace so that the rest of the cluster tier is not
// fenced, and removed again after the file's tests.
import type { Pod } from 'kubernetes-types/core/v1';
import { admissionFence, admissionFencePolicies } from '../../../lib/plan/admission-fence';
import { adminHttp } from './access';
import type { KubeHttp } from '../kube-http';

const VAP = '/apis/admissionregistration.k8s.io/v1';
const BINDING_PREFIX = 'test-';
const plural = (kind: string) =>
  kind === 'ValidatingAdmissionPolicy' ? 'validatingadmissionpolicies' : 'validatingadmissionpolicybindings';

/**
 * Installs the fence for `namespace`: the policies created or replaced in place, the bindings made
 * anew. Policies are never deleted between test files: the API server stops the informer of a
 * parameter kind when the last policy using it goes, and one started again right after may miss
 * the existing parameters for a while (seen on 1.36: "no params found" with the templates there).
 */
export async function installFence(namespace: string): Promise<void> {
  const admin = adminHttp();
  const objects = admissionFence({
    bindingPrefix: BINDING_PREFIX,
    namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': namespace } },
  });
  for (const o of objects) {
    const at = `${VAP}/${plural(o.kind)}/${o.metadata.name}`;
    if (o.kind === 'ValidatingAdmissionPolicy') {
      const existing = await admin.request<{ metadata: { resourceVersion: string } }>('GET', at);
      if (existing.status === 200) {
        await admin.call('PUT', at, {
          ...o,
          metadata: { ...o.metadata, resourceVersion: existing.body.metadata.resourceVersion },
        });
        continue;
      }
    } else await admin.call('DELETE', at, undefined, { accept: [404] });
    await admin.call('POST', `${VAP}/${plural(o.kind)}`, o);
  }
}

/** Removes the bindings (so the rest of the cluster tier runs unfenced); the policies stay, inert. */
export async function removeFence(): Promise<void> {
  const admin = adminHttp();
  for (const { metadata } of admissionFencePolicies())
    await admin.call(
      'DELETE',
      `${VAP}/validatingadmissionpolicybindings/${BINDING_PREFIX}${metadata.name}`,
      undefined,
      {
        accept: [404],
      },
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
