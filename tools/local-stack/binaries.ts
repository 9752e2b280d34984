// Finds the control-plane binaries built by tools/testbin/build.sh (cached outside the
// repository) and, when asked, builds the missing ones first with visible progress.
import { execFile, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface TestBinaries {
  etcd: string;
  kubeApiserver: string;
  kubeControllerManager: string;
  kubeScheduler: string;
  kwok: string;
  /** Directory with kwok's default stage YAMLs (copied from its module at build time). */
  kwokStages: string;
}

/** The repository root: the nearest ancestor of this file holding tools/testbin/build.sh. */
export function repoRoot(from = __dirname): string {
  let dir = from;
  for (;;) {
    if (fs.existsSync(path.join(dir, 'tools', 'testbin', 'build.sh'))) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`cannot find tools/testbin/build.sh above ${from}`);
    dir = parent;
  }
}

type Component = 'etcd' | 'kubernetes' | 'kubernetes-oldest' | 'kwok';

/**
 * Which Kubernetes the control plane runs: `newest` (K8S_VERSION in tools/testbin/versions.env,
 * every tier) or `oldest` (K8S_OLDEST_VERSION, the oldest supported minor: tier cluster-oldest).
 */
export type KubernetesRelease = 'newest' | 'oldest';
export const KUBERNETES_RELEASE_ENV = 'SEATUNNEL_TEST_KUBERNETES';

export function kubernetesRelease(env: NodeJS.ProcessEnv = process.env): KubernetesRelease {
  const v = env[KUBERNETES_RELEASE_ENV];
  if (v === undefined || v === '' || v === 'newest') return 'newest';
  if (v === 'oldest') return 'oldest';
  throw new Error(
    `${KUBERNETES_RELEASE_ENV}: got "${v}"; must be "newest" (tools/testbin/versions.env K8S_VERSION) or "oldest" (K8S_OLDEST_VERSION)`,
  );
}

/**
 * Runs `<buildScript> --paths` and splits its `name=/abs/path` lines (suffix ` (missing)` when not
 * built yet) into found and missing components; lines naming other components are ignored.
 */
export async function readBuildPaths<C extends string>(
  buildScript: string,
  names: readonly C[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ found: Partial<Record<C, string>>; missing: C[] }> {
  let stdout: string;
  try {
    ({ stdout } = await run('bash', [buildScript, '--paths'], { env }));
  } catch (e) {
    const err = e as Error & { stderr?: string };
    throw new Error(`${buildScript} --paths failed: ${err.stderr || err.message}`, { cause: e });
  }
  const found: Partial<Record<C, string>> = {};
  const missing: C[] = [];
  for (const line of stdout.split('\n')) {
    const m = /^([a-z0-9-]+)=(\/\S*)( \(missing\))?$/.exec(line.trim());
    if (!m || !(names as readonly string[]).includes(m[1])) continue;
    const name = m[1] as C;
    if (m[3]) missing.push(name);
    else found[name] = m[2];
  }
  return { found, missing };
}

/** Runs a build script with its progress on this process's stderr; resolves to its exit code. */
export function runBuildScript(buildScript: string, args: string[]): Promise<number | null> {
  return new Promise<number | null>((resolve, reject) => {
    const child = spawn('bash', [buildScript, ...args], { stdio: ['ignore', 2, 2] });
    child.once('error', reject);
    child.once('exit', resolve);
  });
}

/**
 * The directories of these components of tools/testbin/build.sh. With `build: true` (the default)
 * missing ones are built first, with the script's progress on this process's stderr; otherwise a
 * missing component is an error that says how to build it.
 */
export async function testbinComponents<C extends string>(
  names: readonly C[],
  opts: { build?: boolean; log?: (line: string) => void } = {},
): Promise<Record<C, string>> {
  const buildScript = path.join(repoRoot(), 'tools', 'testbin', 'build.sh');
  let { found, missing } = await readBuildPaths(buildScript, names);
  if (missing.length > 0) {
    if (opts.build === false) {
      throw new Error(
        `test binaries missing: ${missing.join(', ')}; build them with: bash ${buildScript} ${missing.join(' ')}`,
      );
    }
    (opts.log ?? ((l) => process.stderr.write(`${l}\n`)))(
      `building missing test binaries (${missing.join(', ')}) with ${buildScript}; a cold build takes minutes`,
    );
    const code = await runBuildScript(buildScript, missing);
    if (code !== 0)
      throw new Error(
        `${buildScript} ${missing.join(' ')} failed with exit code ${code} (its output above names the step)`,
      );
    ({ found, missing } = await readBuildPaths(buildScript, names));
    if (missing.length > 0) throw new Error(`still missing after the build: ${missing.join(', ')}`);
  }
  return found as Record<C, string>;
}

/** Locates the control-plane binaries (building missing ones unless `build: false`, as testbinComponents). */
export async function resolveBinaries(
  opts: { build?: boolean; log?: (line: string) => void; kubernetes?: KubernetesRelease } = {},
): Promise<TestBinaries> {
  const kubernetes: Component = (opts.kubernetes ?? 'newest') === 'oldest' ? 'kubernetes-oldest' : 'kubernetes';
  const found = await testbinComponents(['etcd', kubernetes, 'kwok'], opts);
  const bins: TestBinaries = {
    etcd: path.join(found.etcd, 'bin', 'etcd'),
    kubeApiserver: path.join(found[kubernetes], 'bin', 'kube-apiserver'),
    kubeControllerManager: path.join(found[kubernetes], 'bin', 'kube-controller-manager'),
    kubeScheduler: path.join(found[kubernetes], 'bin', 'kube-scheduler'),
    kwok: path.join(found.kwok, 'bin', 'kwok'),
    kwokStages: path.join(found.kwok, 'stages'),
  };
  for (const [name, file] of Object.entries(bins) as Array<[keyof TestBinaries, string]>) {
    if (!fs.existsSync(file))
      throw new Error(`test binary ${name} not found at ${file} (cache damaged? remove its directory and rebuild)`);
  }
  return bins;
}
