// Fake nodes (kwok) and Pod status written by hand, for Pods whose lifecycle a test drives.
import { randomBytes } from 'node:crypto';
import { fakeNodeObject, type FakeNodeOptions } from '../../../tools/local-stack/control-plane';
import { waitFor } from '../../../tools/local-stack/wait';
import { adminHttp } from './access';

/** Creates a kwok-managed fake node with the given capacity and waits until it is Ready. */
export async function createFakeNode(name: string, opts: FakeNodeOptions = {}): Promise<void> {
  const admin = adminHttp();
  await admin.call(
    'POST',
    '/api/v1/nodes',
    fakeNodeObject(name, opts, `10.255.2.${(parseInt(randomBytes(1).toString('hex'), 16) % 250) + 1}`),
  );
  await waitFor(
    async () => {
      const node = await admin.call<{ status?: { conditions?: Array<{ type: string; status: string }> } }>(
        'GET',
        `/api/v1/nodes/${name}`,
      );
      return node.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;
    },
    { description: `fake node ${name} to become Ready (kwok)`, timeoutMs: 60_000 },
  );
}

export async function deleteNode(name: string): Promise<void> {
  await adminHttp().call('DELETE', `/api/v1/nodes/${name}`, undefined, { accept: [404] });
}

/**
 * Merge-patches a Pod's status subresource, e.g. to reflect a real local process into a Pod that
 * kwok leaves alone (annotation KWOK_LIFECYCLE_ANNOTATION = "manual" or "no-complete"):
 *
 *   await patchPodStatus(ns, 'master', { phase: 'Failed', containerStatuses: [...] })
 */
export async function patchPodStatus(
  namespace: string,
  name: string,
  status: Record<string, unknown>,
): Promise<unknown> {
  return adminHttp().call(
    'PATCH',
    `/api/v1/namespaces/${namespace}/pods/${name}/status`,
    { status },
    { contentType: 'application/merge-patch+json' },
  );
}
