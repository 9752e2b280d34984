// The control plane a bench runs against: a fresh local one (tools/local-stack), or the running one
// SEATUNNEL_TEST_CLUSTER=<cluster.json> points at; a namespace ready for Pods; and a bench's working
// set against it (client, work directory, relayed cluster), closed in one call.

import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Kube } from '../lib/kube';
import { connect } from '../lib/submit/connection/client-node-api';
import { ControlPlane, type ClusterInfo } from '../tools/local-stack/control-plane';
import { relayedCluster, type RelayedCluster } from './latency-relay';

export interface BenchCluster {
  readonly info: ClusterInfo;
  /** Stops the control plane if this bench started it. */
  stop(): Promise<void>;
}

export async function benchCluster(nodes = 1): Promise<BenchCluster> {
  const file = process.env.SEATUNNEL_TEST_CLUSTER;
  if (file && fs.existsSync(file))
    return { info: JSON.parse(fs.readFileSync(file, 'utf8')) as ClusterInfo, stop: async () => undefined };
  const cp = await ControlPlane.start({ nodes });
  return { info: cp.info, stop: () => cp.stop() };
}

/** What a bench works with against the cluster; close() ends all of it. */
export interface BenchSession {
  readonly info: ClusterInfo;
  /** A client of the cluster. */
  readonly kube: Kube;
  /** A fresh directory for the bench's files. */
  readonly work: string;
  /** The cluster behind a relay of BENCH_RTT_MS (started on the first call), or undefined when that is 0. */
  relayed(): Promise<RelayedCluster | undefined>;
  /** Closes the client and the relay, removes the work directory, stops the cluster if the bench started it. */
  close(): Promise<void>;
}

/** The bench cluster, a client, `namespace` ready for Pods and a work directory named after `label`. */
export async function openBenchSession(label: string, namespace: string): Promise<BenchSession> {
  const cluster = await benchCluster();
  const info = cluster.info;
  const kube = new Kube(await connect({ kubeconfig: info.kubeconfig }));
  const work = fs.mkdtempSync(path.join(os.tmpdir(), `bench-${label}-`));
  let relay: Promise<RelayedCluster | undefined> | undefined;
  const session: BenchSession = {
    info,
    kube,
    work,
    relayed: () => (relay ??= relayedCluster(info, work)),
    close: async () => {
      kube.api.close();
      await (await relay?.catch(() => undefined))?.close();
      fs.rmSync(work, { recursive: true, force: true });
      await cluster.stop();
    },
  };
  try {
    await ensureNamespace(kube, namespace);
  } catch (e) {
    await session.close();
    throw e;
  }
  return session;
}

/** Creates the namespace (if missing) and waits for its default ServiceAccount, which Pods need. */
export async function ensureNamespace(kube: Kube, namespace: string): Promise<void> {
  await kube
    .call({
      method: 'POST',
      path: '/api/v1/namespaces',
      body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } },
    })
    .catch(() => undefined);
  for (let i = 0; i < 50; i++) {
    if (await kube.find({ apiVersion: 'v1', kind: 'ServiceAccount', namespace, name: 'default' })) return;
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** A deployment file for the bench's applications (the image is never pulled: nothing runs it). */
export function writeDeploymentFile(
  file: string,
  o: { name: string; workerCount: number; namespace: string; kubeconfig: string },
): string {
  fs.writeFileSync(
    file,
    `application { name = ${o.name}, worker-count = ${o.workerCount} }\nkubernetes { namespace = ${o.namespace}, image = "apache/seatunnel:2.3.12", kubeconfig = ${JSON.stringify(o.kubeconfig)} }\n`,
  );
  return file;
}
