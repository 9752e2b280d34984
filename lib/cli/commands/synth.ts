// `seatunnel-app synth`: the application's manifests as YAML, one file per application,
// dependents before the Job — what the cdk8s door synthesizes, rendered without loading cdk8s
// (lib/plan/manifest-yaml.ts; a unit test holds the two equal).

import { join } from 'node:path';
import { allObjects, buildPlan } from '../../plan/build-plan';
import { manifestYaml } from '../../plan/manifest-yaml';
import type { ApplicationSpec } from '../../model/spec';
import type { ApplicationPlan } from '../../plan/types';
import type { ParsedArgs } from '../args';
import { writeFilesAtomically } from '../io';
import { loadFromArgs } from '../load';
import type { Output } from '../output';

/** Synthesizes one application to YAML text, as the cdk8s door would (no file is written). */
export function synthYaml(spec: ApplicationSpec, plan: ApplicationPlan = buildPlan(spec, { suspend: false })): string {
  return manifestYaml(allObjects(plan));
}

export async function synthCommand(args: ParsedArgs, out: Output): Promise<number> {
  const { spec, deploymentFile, jobFile, warnings } = loadFromArgs(args, 'derived');
  for (const w of warnings) out.warn(w);
  const plan = buildPlan(spec, { suspend: false });
  const yaml = synthYaml(spec, plan);
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
      // The Zeta job that runs: a restore continues the job it restores, under that job's id.
      jobId: spec.restoreJobId ?? spec.jobId,
      namespace: spec.namespace,
      file,
      objects: allObjects(plan).length,
      deploymentFile: deploymentFile ?? null,
      jobFile: jobFile ?? null,
    },
    [`Application ID: ${spec.appId}`, `Job ID: ${spec.restoreJobId ?? spec.jobId}`, `Wrote ${join(file)}`],
  );
  return 0;
}
