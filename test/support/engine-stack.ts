// What every engine-tier test file starts with: the ServiceAccount its applications run as, and
// the local stack (local kubelet, DNS and Service stand-ins) on the shared control plane.

import { startLocalStack, type LocalStack, type LocalStackOptions } from '../../tools/local-stack/local-application';
import { adminHttp, clusterInfo } from './cluster';

export async function startEngineStack(
  namespace: string,
  serviceAccount: string,
  opts: Omit<LocalStackOptions, 'admin' | 'server' | 'caData' | 'namespace'> = {},
): Promise<LocalStack> {
  const info = clusterInfo();
  const admin = adminHttp();
  await admin.call('POST', `/api/v1/namespaces/${encodeURIComponent(namespace)}/serviceaccounts`, {
    apiVersion: 'v1',
    kind: 'ServiceAccount',
    metadata: { name: serviceAccount },
  });
  const stack = startLocalStack({ admin, server: info.server, caData: info.caData, namespace, ...opts });
  process.stderr.write(`[engine] local Pods of ${namespace} in ${stack.dir}\n`);
  return stack;
}
