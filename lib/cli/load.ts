// From parsed flags to a validated application: reads the files named on the command line and
// resolves everything, relative paths inside the deployment file being relative to that file.

import { dirname, join, resolve } from 'node:path';
import { fileIncludeReader, filesRelativeTo } from '../hocon/file-include';
import { loadApplication } from '../model/load';
import { buildPlan } from '../plan/build-plan';
import type { ApplicationPlan } from '../plan/types';
import type { ApplicationSpec } from '../model/spec';
import type { ParsedArgs } from './args';
import { packageRoot, readInputFile } from './io';
import type { Output } from './output';

export interface LoadedInput {
  readonly spec: ApplicationSpec;
  readonly deploymentFile?: string;
  readonly jobFile?: string;
  /** Valid but risky choices, to print as warnings (they never contain a value). */
  readonly warnings: readonly string[];
}

/** The bundled example, used by `synth` without -a and -c. */
export function exampleFiles(): { deploymentFile: string; jobFile: string } {
  const dir = join(packageRoot(), 'apps', 'examples');
  return { deploymentFile: join(dir, 'deploy.conf'), jobFile: join(dir, 'job.conf') };
}

export function loadFromArgs(
  args: ParsedArgs,
  ids: 'random' | 'derived',
  env: NodeJS.ProcessEnv = process.env,
): LoadedInput {
  let { deploymentFile, jobFile } = args;
  if (args.command === 'synth' && deploymentFile === undefined && jobFile === undefined) {
    ({ deploymentFile, jobFile } = exampleFiles());
  }
  const deploymentText = deploymentFile !== undefined ? readInputFile(deploymentFile, '-a') : undefined;
  const jobConfig = jobFile !== undefined ? readInputFile(jobFile, '-c') : undefined;
  const baseDir = deploymentFile ? dirname(resolve(deploymentFile)) : process.cwd();
  // A deployment file is data unless the command line trusts it: it reads files of its own directory only.
  const confineTo = args.trustDeploymentFile || deploymentFile === undefined ? undefined : baseDir;
  const warnings: string[] = [];
  const spec = loadApplication(
    {
      deploymentText,
      deploymentFile,
      overrides: args.overrides,
      jobId: args.jobId,
      restoreJobId: args.restoreJobId,
      jobConfig,
      env,
      trusted: args.trustDeploymentFile,
      // Relative to the including file (the deployment file's directory first); regular files of
      // bounded size only, so `include "/dev/zero"` or a directory is a configuration error.
      readInclude: fileIncludeReader({ baseDir, ...(confineTo ? { confineTo } : {}) }),
    },
    { ids, readFile: filesRelativeTo(baseDir, confineTo), onWarning: (w) => warnings.push(w) },
  );
  return { spec, deploymentFile, jobFile, warnings };
}

/**
 * The application the command line describes, planned as `submit` creates it (new random IDs, the
 * Job suspended until its dependents exist); its warnings printed. For submit and preflight.
 */
export function planFromArgs(
  args: ParsedArgs,
  out: Output,
): { spec: ApplicationSpec; plan: ApplicationPlan; deploymentFile?: string } {
  const { spec, deploymentFile, warnings } = loadFromArgs(args, 'random');
  for (const w of warnings) out.warn(w);
  return { spec, plan: buildPlan(spec, { suspend: true }), deploymentFile };
}
