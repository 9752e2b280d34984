// Finds what the real node runs (tools/node/build.sh: Go binaries cached outside the repository,
// the rest from Debian packages) and, when asked, builds or installs the missing parts first with
// visible progress.
import * as fs from 'node:fs';
import * as path from 'node:path';

import { readBuildPaths, repoRoot, runBuildScript } from './binaries';

export interface NodeBinaries {
  kubelet: string;
  kubeProxy: string;
  /** For tests and people: `kubectl apply -f`, `kubectl run` against the node cluster. */
  kubectl: string;
  kubeRouter: string;
  coredns: string;
  containerd: string;
  containerdShimRuncV2: string;
  ctr: string;
  runc: string;
  /** The directory with the CNI plugins (bridge, host-local, loopback, portmap). */
  cniBinDir: string;
  iptables: string;
  ipset: string;
  conntrack: string;
  socat: string;
  ip: string;
}

/** The node cannot be provided on this machine (not root, apt cannot install, no Go toolchain). */
export class NodeBinariesUnavailableError extends Error {}

/** The names `tools/node/build.sh --paths` prints, and the build component that provides each. */
const PARTS = {
  'kubernetes-node': 'kubernetes-node',
  'kube-router': 'kube-router',
  coredns: 'coredns',
  containerd: 'packages',
  'containerd-shim-runc-v2': 'packages',
  ctr: 'packages',
  runc: 'packages',
  cni: 'packages',
  iptables: 'packages',
  ipset: 'packages',
  conntrack: 'packages',
  socat: 'packages',
  ip: 'packages',
} as const;
export type NodePart = keyof typeof PARTS;
export const NODE_PARTS = Object.keys(PARTS) as NodePart[];

/** The build script's arguments that provide the given missing parts (each component once). */
export function componentsFor(missing: readonly NodePart[]): string[] {
  return [...new Set(missing.map((p) => PARTS[p]))];
}

export function nodeBuildScript(): string {
  return path.join(repoRoot(), 'tools', 'node', 'build.sh');
}

/**
 * Locates the node's binaries. With `build: true` (the default) missing parts are built or
 * installed first by tools/node/build.sh (its progress on this process's stderr); otherwise a
 * missing part is an error that says how to get it. Exit code 3 of the script (cannot be provided
 * here) becomes a NodeBinariesUnavailableError.
 */
export async function resolveNodeBinaries(
  opts: { build?: boolean; log?: (line: string) => void } = {},
): Promise<NodeBinaries> {
  const script = nodeBuildScript();
  // A part the script did not print at all counts as missing too.
  const scan = async () => {
    const { found } = await readBuildPaths(script, NODE_PARTS);
    return { found, missing: NODE_PARTS.filter((p) => !found[p]) };
  };
  let { found, missing } = await scan();
  if (missing.length > 0) {
    const components = componentsFor(missing);
    if (opts.build === false) {
      throw new Error(
        `real-node binaries missing: ${missing.join(', ')}; get them with: bash ${script} ${components.join(' ')}`,
      );
    }
    (opts.log ?? ((l) => process.stderr.write(`${l}\n`)))(
      `providing missing real-node parts (${missing.join(', ')}) with ${script} ${components.join(' ')}; a cold build takes minutes`,
    );
    const code = await runBuildScript(script, components);
    if (code === 3)
      throw new NodeBinariesUnavailableError(
        `the real node cannot be provided on this machine (${script} exited 3; its output above says why)`,
      );
    if (code !== 0)
      throw new Error(
        `${script} ${components.join(' ')} failed with exit code ${code} (its output above names the step)`,
      );
    ({ found, missing } = await scan());
    if (missing.length > 0) throw new Error(`still missing after the build: ${missing.join(', ')}`);
  }
  const at = (part: NodePart, ...rest: string[]) => path.join(found[part]!, ...rest);
  const bins: NodeBinaries = {
    kubelet: at('kubernetes-node', 'bin', 'kubelet'),
    kubeProxy: at('kubernetes-node', 'bin', 'kube-proxy'),
    kubectl: at('kubernetes-node', 'bin', 'kubectl'),
    kubeRouter: at('kube-router', 'bin', 'kube-router'),
    coredns: at('coredns', 'bin', 'coredns'),
    containerd: at('containerd'),
    containerdShimRuncV2: at('containerd-shim-runc-v2'),
    ctr: at('ctr'),
    runc: at('runc'),
    cniBinDir: at('cni'),
    iptables: at('iptables'),
    ipset: at('ipset'),
    conntrack: at('conntrack'),
    socat: at('socat'),
    ip: at('ip'),
  };
  for (const [name, file] of Object.entries(bins) as Array<[keyof NodeBinaries, string]>) {
    if (!fs.existsSync(file))
      throw new Error(
        `real-node binary ${name} not found at ${file} (cache damaged? remove its directory and rebuild)`,
      );
  }
  return bins;
}
