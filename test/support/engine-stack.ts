// What every engine-tier test file starts with: the ServiceAccount its applications run as, and
// the local stack (local kubelet serving its Pods' logs, DNS and Service stand-ins) on the shared
// control plane.

import * as fs from 'node:fs';
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
  if (!info.kubeletCertFile || !info.kubeletKeyFile)
    throw new Error('the control plane has no kubelet serving certificate (started by an older harness: restart it)');
  // The local kubelet serves its Pods' logs and its nodes advertise 127.0.0.1: the runtime reads
  // each worker's last lines before deleting it, and the API server must dial nothing else.
  const kubeletTls = {
    cert: fs.readFileSync(info.kubeletCertFile, 'utf8'),
    key: fs.readFileSync(info.kubeletKeyFile, 'utf8'),
    ca: info.caData,
  };
  const stack = startLocalStack({ admin, server: info.server, caData: info.caData, namespace, kubeletTls, ...opts });
  process.stderr.write(`[engine] local Pods of ${namespace} in ${stack.dir}\n`);
  return stack;
}
