// Jest globalTeardown for the cluster, engine and pulumi projects (see global-setup.ts). Runs
// after all tests of the run; the first call stops the control plane, later calls do nothing.
import { stopGlobalControlPlane } from './global-setup';

export default async function globalTeardown(): Promise<void> {
  await stopGlobalControlPlane();
}
