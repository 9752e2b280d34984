// The real Pulumi engine for the pulumi tier: the CLI, the Node.js language host and the
// Kubernetes provider built by tools/pulumi/build.sh (never downloaded), a local file backend and
// a throwaway copy of the project, so stack files never land in the repository.

import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { AutomationOptions } from '../../lib/pulumi/automation';

const repo = resolve(__dirname, '..', '..');

export interface PulumiEngine {
  /** Directory with bin/pulumi and bin/pulumi-language-nodejs (PulumiCommand.get({ root })). */
  readonly root: string;
  readonly provider: { readonly path: string; readonly version: string };
}

/**
 * The engine built by tools/pulumi/build.sh. Throws (so the tier FAILS, never skips) when it has
 * not been built, with what to run.
 */
export function pulumiEngine(): PulumiEngine {
  let out: string;
  try {
    out = execFileSync('bash', [join(repo, 'tools', 'pulumi', 'build.sh'), '--paths'], { encoding: 'utf8' });
  } catch (e) {
    throw new Error(`pulumi tier: cannot ask tools/pulumi/build.sh where the engine is: ${(e as Error).message}`, {
      cause: e,
    });
  }
  const paths = Object.fromEntries(
    out
      .trim()
      .split('\n')
      .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
  );
  if (!paths.engine || paths.engine.endsWith('(missing)')) {
    throw new Error(
      'pulumi tier: the Pulumi engine (CLI, Node.js language host, Kubernetes provider) is not built: ' +
        `${paths.engine ?? '(no path)'}\n${out}\nBuild it with \`bash tools/pulumi/build.sh\` (exit 3 = blocked, see tools/pulumi/README.md).`,
    );
  }
  return {
    root: paths.engine,
    provider: { path: paths['kubernetes-provider'], version: paths['kubernetes-provider-version'] },
  };
}

export interface PulumiSandbox {
  readonly dir: string;
  /** A copy of the project: Pulumi.yaml, package.json, tsconfig.json; apps/ and node_modules/ linked. */
  readonly projectDir: string;
  /** Automation options: file backend, own PULUMI_HOME with the provider installed from its file. */
  options(kubeconfig: string): AutomationOptions;
  remove(): void;
}

export function pulumiSandbox(engine: PulumiEngine, onOutput?: (stack: string, text: string) => void): PulumiSandbox {
  const dir = mkdtempSync(join(tmpdir(), 'seatunnel-pulumi-'));
  const projectDir = join(dir, 'project');
  mkdirSync(projectDir);
  for (const f of ['Pulumi.yaml', 'package.json', 'tsconfig.json']) copyFileSync(join(repo, f), join(projectDir, f));
  for (const d of ['apps', 'lib', 'node_modules']) symlinkSync(join(repo, d), join(projectDir, d), 'dir');
  return {
    dir,
    projectDir,
    options: (kubeconfig) => ({
      backendDir: join(dir, 'state'),
      pulumiHome: join(dir, 'home'),
      passphrase: 'pulumi-tier',
      pulumiRoot: engine.root,
      kubernetesProvider: engine.provider,
      kubeconfig,
      projectDir,
      onOutput,
    }),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
