// Kubernetes and Zeta both real, on one machine: the local control plane, the local kubelet
// (local-kubelet.ts) running the application's Pods as local processes, the runtime
// bundle as the master's container, and the SeaTunnel engine home from tools/seatunnel. Used by
// the engine tier and by `npm run example`.

import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { DEFAULT_RUNTIME_IMAGE } from '../../lib/model/resolve';
import { RUNTIME_IMAGE_DIR } from '../../lib/plan/steps/runtime';
import { installedHome } from './installed-home';
import { ensureBundle } from './runtime-bundle';
import type { KubeHttp } from '../../test/support/kube-http';
import { KWOK_LIFECYCLE_ANNOTATION } from './kwok-stages';
import { LocalKubelet, type LocalKubeletOptions } from './local-kubelet';
import { ServiceNetwork } from './service-network';
import { localAddressBlock, POD_IP_REWRITE } from './pod-addresses';
import { randomInt } from 'node:crypto';
import { startWatchdog } from './watchdog';

/** The SeaTunnel home assembled by tools/seatunnel/install.sh (installed first if missing). */
export function seatunnelHome(): string {
  return installedHome('seatunnel');
}

/**
 * A directory standing in for the runtime image's filesystem at /seatunnel-app: the Node.js
 * binary, the runtime bundle and install-runtime, as runtime/Dockerfile lays them out. The
 * processes run on this machine, so its own node stands in for the image's, and a shell script
 * that copies the same way (the tree with its modes, into the existing target) for the static
 * install-runtime (tools/images/installer, proven in containers by the node tier and smoke.sh).
 */
export function runtimeImageDir(dir: string): string {
  const root = path.join(dir, 'runtime-image');
  fs.mkdirSync(path.join(root, 'bin'), { recursive: true });
  const node = path.join(root, 'bin', 'node');
  if (!fs.existsSync(node)) fs.symlinkSync(process.execPath, node);
  fs.writeFileSync(
    path.join(root, 'bin', 'install-runtime'),
    '#!/bin/sh\n# The local kubelet\'s stand-in for the runtime image\'s install-runtime SOURCE TARGET.\nset -e\n[ "$#" -eq 2 ] || { echo "usage: install-runtime <source dir> <target dir>" >&2; exit 64; }\nexec cp -R "$1/." "$2/"\n',
    { mode: 0o755 },
  );
  fs.copyFileSync(ensureBundle(), path.join(root, 'runtime.cjs'));
  return root;
}

export interface LocalStackOptions {
  readonly admin: KubeHttp;
  readonly server: string;
  readonly caData: string;
  readonly namespace: string;
  /** Where Pod roots and logs go. @default a new temporary directory */
  readonly dir?: string;
  /** Checkpoint PVC claim name → local directory. */
  readonly persistentVolumes?: Readonly<Record<string, string>>;
  /** Serve the Pods' logs to the API server (`seatunnel-app logs`): see LocalKubeletOptions. */
  readonly kubeletTls?: LocalKubeletOptions['kubeletTls'];
  readonly log?: (line: string) => void;
  /** The block of loopback addresses its Pods get (127.B.0.N). @default random, 10 to 249 */
  readonly addressBlock?: number;
}

export interface LocalStack {
  readonly kubelet: LocalKubelet;
  /** Cluster DNS stand-in and Service proxies for the kubelet's Pods. */
  readonly network: ServiceNetwork;
  readonly dir: string;
  readonly seatunnelHome: string;
  /** Deployment-file lines that make an application run on this stack (HOCON). */
  readonly deploymentLines: string;
  stop(): Promise<void>;
}

/** Annotations that hand a Pod to the local kubelet instead of kwok. */
export const LOCAL_POD_ANNOTATIONS = { [KWOK_LIFECYCLE_ANNOTATION]: 'local' };

const STACK_DIR_PREFIX = 'seatunnel-app-local-';
/** How long a finished stack's directory (its Pods' logs) is kept for a look after a failure. */
export const STACK_DIR_RETENTION_MS = 24 * 3600_000;

/**
 * Removes the directories of earlier stacks (made by startLocalStack itself) untouched for
 * STACK_DIR_RETENTION_MS: they are kept after a run so that a failure can be read in its Pods'
 * logs, but not for ever (a CI machine ran hundreds). One still in use is written to all along.
 */
export function pruneOldStackDirs(tmp = os.tmpdir(), nowMs = Date.now()): string[] {
  const removed: string[] = [];
  for (const name of fs.readdirSync(tmp)) {
    if (!name.startsWith(STACK_DIR_PREFIX)) continue;
    const dir = path.join(tmp, name);
    try {
      const st = fs.statSync(dir);
      if (!st.isDirectory() || nowMs - latestChange(dir, st.mtimeMs) < STACK_DIR_RETENTION_MS) continue;
      fs.rmSync(dir, { recursive: true, force: true });
      removed.push(dir);
    } catch {
      /* gone meanwhile, or not ours to remove */
    }
  }
  return removed;
}

/** The latest mtime of `dir` and its pids file (a running stack's watchdog file changes as Pods start). */
function latestChange(dir: string, dirMtime: number): number {
  const pids = path.join(dir, 'pids');
  return fs.existsSync(pids) ? Math.max(dirMtime, fs.statSync(pids).mtimeMs) : dirMtime;
}

export function startLocalStack(opts: LocalStackOptions): LocalStack {
  if (opts.dir === undefined) pruneOldStackDirs();
  const dir = opts.dir ?? fs.mkdtempSync(path.join(os.tmpdir(), STACK_DIR_PREFIX));
  const home = seatunnelHome();
  const network = new ServiceNetwork({
    admin: opts.admin,
    namespace: opts.namespace,
    hostsFile: path.join(dir, 'network', 'hosts'),
    log: opts.log,
  }).start();
  // Pod processes outlive a test process killed before its teardown unless a watchdog ends them.
  const pidFile = path.join(dir, 'pids');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(pidFile, '');
  const watchdog = startWatchdog({ pidFile, dir, keepDir: true });
  const kubelet = new LocalKubelet({
    pidFile,
    admin: opts.admin,
    server: opts.server,
    caData: opts.caData,
    namespace: opts.namespace,
    dir: path.join(dir, 'pods'),
    images: { [DEFAULT_RUNTIME_IMAGE]: { [RUNTIME_IMAGE_DIR]: runtimeImageDir(dir) } },
    persistentVolumes: opts.persistentVolumes,
    // A block of its own, so that stacks running at the same time (a test run and a bench) never
    // hand out the same loopback address: 127.B.0.N, B from 10 to 249.
    podIps: localAddressBlock(opts.addressBlock ?? 10 + randomInt(240)),
    hostsFile: network.hostsFile,
    kubeletTls: opts.kubeletTls,
    // The runtime reaches the engine's REST API at its own Pod address (the JVM binds only there).
    // The runtime dials the workers at the Pod IPs the API shows (its /metrics): the loopback ones behind them.
    extraEnv: (_pod, ip) => ({ SEATUNNEL_APP_ENGINE_REST_HOST: ip, SEATUNNEL_APP_POD_IP_REWRITE: POD_IP_REWRITE }),
    log: opts.log,
  }).start();
  const annotations = Object.entries(LOCAL_POD_ANNOTATIONS)
    .map(([k, v]) => `"${k}" = ${v}`)
    .join(', ');
  const deploymentLines = [
    `kubernetes.seatunnel-home = "${home}"`,
    `kubernetes.master.annotations { ${annotations} }`,
    `kubernetes.worker.annotations { ${annotations} }`,
  ].join('\n');
  return {
    kubelet,
    network,
    dir,
    seatunnelHome: home,
    deploymentLines,
    stop: async () => {
      await kubelet.stop();
      await network.stop();
      watchdog.stop();
    },
  };
}
