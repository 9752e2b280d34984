// Before anything starts: the job's sources and sinks are in the image (../engine/connectors.ts).

import { ENV } from 'seatunnel-app/runtime-support';
import { connectorNeeds, missingConnectors, readConnectorHome } from '../engine/connectors';
import { RuntimeFailure } from '../outcome';
import type { Step } from './context';

/** Where the images (SeaTunnel's and ours) keep the engine; the plan sets SEATUNNEL_HOME from kubernetes.seatunnel-home. */
const DEFAULT_HOME = '/opt/seatunnel';

export function checkConnectors(s: Step, jobJson: string): void {
  const { io, env, log } = s.deps;
  if (!io.listDir) return;
  const home = env[ENV.seatunnelHome] || DEFAULT_HOME;
  const found = readConnectorHome(home, { readFile: (f) => io.readFile(f), listDir: io.listDir });
  const needs = connectorNeeds(jobJson);
  if ('unreadable' in found) {
    // An image laid out otherwise: Zeta itself will say what it lacks when the job is submitted.
    log.info('connectors not checked: the engine home has no readable connectors/', { home, why: found.unreadable });
    return;
  }
  const missing = missingConnectors(needs, found);
  if (missing.length > 0) {
    throw new RuntimeFailure(
      'ConnectorMissing',
      `the image's engine (${home}) lacks what the job names — ${missing.join('; ')}. ` +
        `Use an image built FROM it with the connector jar in connectors/ and its plugin-mapping.properties lines (docs/connectors.md)`,
    );
  }
  log.info('connectors present', { plugins: needs.map((n) => `${n.kind}:${n.plugin}`).join(',') || 'none' });
}
