// A fresh namespace per test file (or describe block), deleted afterwards.
import { randomBytes } from 'node:crypto';
import { waitFor } from '../../../tools/local-stack/wait';
import { adminHttp } from './access';

function dnsLabel(prefix: string): string {
  const clean =
    prefix
      .toLowerCase()
      .replace(/[^a-z0-9-]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 40) || 't';
  return `${clean}-${randomBytes(3).toString('hex')}`;
}

/**
 * Creates a uniquely named namespace and waits until its `default` ServiceAccount exists (the
 * ServiceAccount admission plugin rejects Pods before that).
 */
export async function createTestNamespace(prefix = 't', labels: Record<string, string> = {}): Promise<string> {
  const name = dnsLabel(prefix);
  const admin = adminHttp();
  await admin.call('POST', '/api/v1/namespaces', {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name, labels: { 'seatunnel-app.test/namespace': 'true', ...labels } },
  });
  await waitFor(
    async () => {
      await admin.call('GET', `/api/v1/namespaces/${name}/serviceaccounts/default`);
      return true;
    },
    { description: `ServiceAccount ${name}/default (serviceaccount-controller)`, timeoutMs: 60_000 },
  );
  return name;
}

/** Deletes a namespace; with wait, until the namespace controller has removed it and its contents. */
export async function deleteNamespace(name: string, opts: { wait?: boolean; timeoutMs?: number } = {}): Promise<void> {
  const admin = adminHttp();
  await admin.call('DELETE', `/api/v1/namespaces/${name}`, undefined, { accept: [404] });
  if (opts.wait) {
    await waitFor(async () => (await admin.request('GET', `/api/v1/namespaces/${name}`)).status === 404, {
      description: `namespace ${name} to be deleted`,
      timeoutMs: opts.timeoutMs ?? 120_000,
    });
  }
}

/**
 * Registers beforeAll/afterAll: a fresh namespace for the tests of the current describe block
 * (or file), with the given labels, deleted afterwards. Read `.name` inside tests/hooks.
 */
export function useTestNamespace(prefix = 't', labels: Record<string, string> = {}): { readonly name: string } {
  let name: string | undefined;
  beforeAll(async () => {
    name = await createTestNamespace(prefix, labels);
  }, 120_000);
  afterAll(async () => {
    if (name) await deleteNamespace(name);
  }, 120_000);
  return {
    get name(): string {
      if (!name) throw new Error('useTestNamespace: the namespace exists only inside tests and hooks');
      return name;
    },
  };
}
