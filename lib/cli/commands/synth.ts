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
  // Secret data (inline kubernetes.secret.*.data, the job config's Secret): the file is readable
  // by its owner only (it replaces any earlier one whole); the user's own Secret data is named.
  const [file] = writeFilesAtomically(dir, [
    { name: `${spec.appId}.k8s.yaml`, content: yaml, ...(plan.secrets.length ? { mode: 0o600 } : {}) },
  ]);
  const owned = spec.secrets.filter((s) => s.owned).map((s) => s.name);
  if (owned.length) {
    out.warn(
      `${file} contains the Secret data of ${owned.join(', ')} in plain text, so it was written readable by its owner only (mode 0600); keep it out of version control and artifacts, or use secret-ref instead`,
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
