// The set-up of the benches that run real Zeta processes under Kubernetes (e2e, failover): a fresh
// local control plane with the local kubelet and Service network (tools/local-stack), a namespace,
// the runtime's ServiceAccount and a ReadWriteMany checkpoint claim bound to a local directory that
// every local "Pod" sees (as in the engine tier); and the CLI run in-process against it.

import * as fs from 'node:fs';
import * as path from 'node:path';
import { main } from '../lib/cli/main';
import type { Output } from '../lib/cli/output';
import { ControlPlane } from '../tools/local-stack/control-plane';
import { startLocalStack, type LocalStack } from '../tools/local-stack/local-application';
import { createSharedClaim } from '../tools/local-stack/shared-claim';

export const SERVICE_ACCOUNT = 'seatunnel-runtime';

export interface LocalPlane {
  readonly cp: ControlPlane;
  readonly stack: LocalStack;
  readonly namespace: string;
  /** Work directory: Pod roots, logs, deployment files. */
  readonly dir: string;
  /** The checkpoint claim's local directory. */
  readonly checkpoints: string;
  stop(): Promise<void>;
}

/** Starts the plane (3 kwok nodes) in `dir`, with `claim` as the namespace's checkpoint claim. */
export async function startLocalPlane(dir: string, namespace: string, claim: string): Promise<LocalPlane> {
  const cp = await ControlPlane.start({ nodes: 3 });
  const admin = cp.admin;
  await admin.call('POST', '/api/v1/namespaces', {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name: namespace },
  });
  await admin.call('POST', `/api/v1/namespaces/${namespace}/serviceaccounts`, {
    apiVersion: 'v1',
    kind: 'ServiceAccount',
    metadata: { name: SERVICE_ACCOUNT },
  });
  const checkpoints = path.join(dir, 'checkpoints');
  fs.mkdirSync(checkpoints, { recursive: true });
  await createSharedClaim(admin, namespace, claim, checkpoints);
  const stack = startLocalStack({
    admin,
    server: cp.info.server,
    caData: cp.info.caData,
    namespace,
    dir,
    persistentVolumes: { [claim]: checkpoints },
  });
  return {
    cp,
    stack,
    namespace,
    dir,
    checkpoints,
    stop: async () => {
      await stack.stop();
      await cp.stop();
    },
  };
}

/** `seatunnel-app ARGV --output json` in this process: its JSON result; throws unless it exits 0. */
export async function runCli(argv: readonly string[]): Promise<Record<string, unknown>> {
  let out: Record<string, unknown> = {};
  const nop = () => undefined;
  const output: Output = {
    json: false,
    result: (d) => {
      if (!Array.isArray(d)) out = d;
    },
    line: nop,
    warn: nop,
    error: (t) => process.stderr.write(`${t}\n`),
  };
  const code = await main([...argv, '--output', 'json'], output);
  if (code !== 0) throw new Error(`seatunnel-app ${argv[0]} exited ${code}`);
  return out;
}
