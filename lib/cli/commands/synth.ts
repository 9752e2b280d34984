// `seatunnel-app synth`: the application's manifests as YAML, one file per application,
// dependents before the Job, through the same cdk8s construct the cdk8s door uses.

import { App } from 'cdk8s';
import { join } from 'node:path';
import { SeaTunnelApplicationChart } from '../../cdk8s/application';
import { allObjects, buildPlan } from '../../plan/build-plan';
import type { ApplicationSpec } from '../../model/spec';
import type { ParsedArgs } from '../args';
import { writeFilesAtomically } from '../io';
import { loadFromArgs } from '../load';
import type { Output } from '../output';

/** Synthesizes one application to YAML text with cdk8s (no file is written). */
export function synthYaml(spec: ApplicationSpec): string {
  const app = new App({ outdir: '/nonexistent' });
  new SeaTunnelApplicationChart(app, spec.appId, { application: { spec } });
  return app.synthYaml();
}

export async function synthCommand(args: ParsedArgs, out: Output): Promise<number> {
  const { spec, deploymentFile, jobFile, warnings } = loadFromArgs(args, 'derived');
  for (const w of warnings) out.warn(w);
  const plan = buildPlan(spec, { suspend: false });
  const yaml = synthYaml(spec);
  const dir = args.outputDir ?? 'dist';
  // Inline Secret data: the file is readable by its owner only (it replaces any earlier one whole).
  const secret = plan.secrets.length > 0;
  const [file] = writeFilesAtomically(dir, [
    { name: `${spec.appId}.k8s.yaml`, content: yaml, ...(secret ? { mode: 0o600 } : {}) },
  ]);
  if (secret) {
    out.warn(
      `${file} contains the Secret data of ${plan.secrets.map((s) => s.metadata.name).join(', ')} in plain text, so it was written readable by its owner only (mode 0600); keep it out of version control and artifacts, or use secret-ref instead`,
    );
  }
  out.result(
    {
      applicationId: spec.appId,
      jobId: spec.jobId,
      namespace: spec.namespace,
      file,
      objects: allObjects(plan).length,
      deploymentFile: deploymentFile ?? null,
      jobFile: jobFile ?? null,
    },
    [`Application ID: ${spec.appId}`, `Job ID: ${spec.jobId}`, `Wrote ${join(file)}`],
  );
  return 0;
}
