// Jest globalTeardown of the node tier (see node-global-setup.ts).
import { stopNodeCluster } from './node-global-setup';

export default async function globalTeardown(): Promise<void> {
  await stopNodeCluster();
}
