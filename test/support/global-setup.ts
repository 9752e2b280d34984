// Jest globalSetup for the cluster, engine and pulumi projects: one control plane per test run.
// It runs in Jest's main process; tests find the control plane through the JSON file named by
// SEATUNNEL_TEST_CLUSTER (see cluster/access.ts). Each project calls this hook, so it starts the control
// plane only once. If SEATUNNEL_TEST_CLUSTER already names a running control plane (e.g. one from
// `npm run dev-cluster`, which prints the export line), that one is used and left running.
import * as fs from 'node:fs';
import { ControlPlane, type ClusterInfo } from '../../tools/local-stack/control-plane';
import { CLUSTER_ENV, startControlServer, type ControlServer } from '../../tools/local-stack/control-server';
const STATE = Symbol.for('seatunnel-app.test.control-plane');

interface State {
  cp: ControlPlane;
  control: ControlServer;
}

function reusable(file: string | undefined): boolean {
  if (!file || !fs.existsSync(file)) return false;
  try {
    const info = JSON.parse(fs.readFileSync(file, 'utf8')) as ClusterInfo;
    process.kill(info.ownerPid, 0);
    return true;
  } catch {
    return false;
  }
}

export default async function globalSetup(): Promise<void> {
  const g = globalThis as Record<symbol, State | undefined>;
  if (g[STATE]) return;
  if (reusable(process.env[CLUSTER_ENV])) {
    process.stderr.write(
      `\n[control-plane] using the running control plane from ${CLUSTER_ENV}=${process.env[CLUSTER_ENV]}\n`,
    );
    return;
  }
  process.stderr.write('\n');
  const cp = await ControlPlane.start();
  const control = await startControlServer(cp);
  cp.info.control = control.endpoint;
  process.env[CLUSTER_ENV] = cp.writeInfo();
  g[STATE] = { cp, control };
}

/** Used by global-teardown.ts: stops what globalSetup started (once). */
export async function stopGlobalControlPlane(): Promise<void> {
  const g = globalThis as Record<symbol, State | undefined>;
  const state = g[STATE];
  if (!state) return;
  g[STATE] = undefined;
  await state.control.close();
  await state.cp.stop();
  delete process.env[CLUSTER_ENV];
}
