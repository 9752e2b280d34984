// Connecting: the kubeconfig in the documented order, and the KubeApi over it.
//
// Order: `kubernetes.kubeconfig` from the deployment file, then KUBECONFIG, then the in-cluster
// ServiceAccount, then ~/.kube/config (kubectl's default file). The path and its content stay on
// this machine: nothing of it is ever put into an object sent to the cluster.
//
// Two credential sources feed one transport (lib/kube/transport.ts):
//   - static credentials (certificates, tokens, token files, basic auth) are read directly
//     (kubeconfig.ts) — the common case, and no ~1 s import of @kubernetes/client-node;
//   - everything else (exec and auth-provider plugins, proxy-url, impersonation, several
//     KUBECONFIG files to merge) goes through @kubernetes/client-node's KubeConfig, which applies
//     its authentication to every request (the client-node adapter).

import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { clientNodeCredentials, KubeTransport } from '../../kube';
import { loadClientNode, type k8s } from '../../kube/client-node';
import {
  inClusterConnection,
  readKubeconfig,
  staticHeaders,
  untrustedKubeconfigProblem,
  type StaticConnection,
} from './kubeconfig';

export { DEFAULT_REQUEST_TIMEOUT_MS } from '../../kube';

export interface ConnectOptions {
  /** `kubernetes.kubeconfig`, already resolved to an absolute path. */
  readonly kubeconfig?: string;
  /** Environment (KUBECONFIG, KUBERNETES_SERVICE_HOST/PORT, HOME). Default process.env. */
  readonly env?: NodeJS.ProcessEnv;
  /** Root under which the in-cluster token mount is looked up (tests). Default "/". */
  readonly inClusterRoot?: string;
  /** Per-request deadline in ms (connect + response). Default 10 000. */
  readonly timeoutMs?: number;
  /** Always use @kubernetes/client-node (tests of the adapter). */
  readonly forceClientNode?: boolean;
  /** false: HTTP/1.1 only (bench/submit.ts compares it with HTTP/2). */
  readonly http2?: boolean;
  /**
   * `kubernetes.kubeconfig` came from a deployment file that is not trusted (no
   * --trust-deployment-file): its directory. Such a kubeconfig may not run credential plugins nor
   * name files outside that directory (kubeconfig.ts untrustedKubeconfigProblem).
   */
  readonly untrustedRoot?: string;
}

export type KubeconfigSource = 'kubernetes.kubeconfig' | 'KUBECONFIG' | 'in-cluster' | '~/.kube/config';

export class ConnectionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConnectionError';
  }
}

export interface Connection extends KubeTransport {
  readonly source: KubeconfigSource;
  readonly location: string;
  /** Which credential source serves the requests. */
  readonly via: 'static' | 'client-node';
  /** The kubeconfig turns off the server certificate's check (insecure-skip-tls-verify). */
  readonly insecure: boolean;
}

const TOKEN_MOUNT = path.join('var', 'run', 'secrets', 'kubernetes.io', 'serviceaccount');

type Found =
  | { source: KubeconfigSource; label: string; files: string[] }
  | { source: 'in-cluster'; mountDir: string; location: string };

/** Where the connection comes from, in the documented order; throws a ConnectionError naming what was tried. */
export function locateKubeconfig(opts: ConnectOptions = {}): Found {
  const env = opts.env ?? process.env;
  const mustExist = (file: string, label: string) => {
    if (!fs.existsSync(file)) throw new ConnectionError(`${label}: got "${file}"; file not found`);
  };
  if (opts.kubeconfig) {
    mustExist(opts.kubeconfig, 'kubernetes.kubeconfig');
    return { source: 'kubernetes.kubeconfig', label: 'kubernetes.kubeconfig', files: [opts.kubeconfig] };
  }
  if (env.KUBECONFIG) {
    const existing = env.KUBECONFIG.split(path.delimiter).filter((f) => f.trim() !== '' && fs.existsSync(f));
    if (existing.length === 0) throw new ConnectionError(`KUBECONFIG: got "${env.KUBECONFIG}"; no such file`);
    return { source: 'KUBECONFIG', label: 'KUBECONFIG', files: existing };
  }
  const mountDir = path.join(opts.inClusterRoot ?? '/', TOKEN_MOUNT);
  if (env.KUBERNETES_SERVICE_HOST && fs.existsSync(path.join(mountDir, 'token'))) {
    return {
      source: 'in-cluster',
      mountDir,
      location: `${env.KUBERNETES_SERVICE_HOST}:${env.KUBERNETES_SERVICE_PORT ?? '443'}`,
    };
  }
  const defaultFile = path.join(env.HOME ?? os.homedir(), '.kube', 'config');
  if (fs.existsSync(defaultFile)) return { source: '~/.kube/config', label: defaultFile, files: [defaultFile] };
  throw new ConnectionError(
    'no Kubernetes connection: set kubernetes.kubeconfig in the deployment file, or KUBECONFIG, or run inside a Pod with a ServiceAccount token (there is no ~/.kube/config either)',
  );
}

type TransportOptions = Pick<ConnectOptions, 'timeoutMs' | 'http2'>;

function staticApi(c: StaticConnection, opts: TransportOptions): KubeTransport {
  return new KubeTransport(c.server, async () => ({ headers: staticHeaders(c), tls: c.tls }), opts);
}

/** The client-node adapter: client-node's KubeConfig authenticates every request. */
export function clientNodeApi(kc: k8s.KubeConfig, opts: TransportOptions = {}): KubeTransport {
  const cluster = kc.getCurrentCluster();
  if (!cluster) throw new ConnectionError('the kubeconfig has no current cluster');
  return new KubeTransport(cluster.server, clientNodeCredentials(kc, { proxyAgent: true }), opts);
}

async function viaClientNode(found: Found, opts: TransportOptions): Promise<{ api: KubeTransport; insecure: boolean }> {
  const { KubeConfig } = await loadClientNode();
  const kc = new KubeConfig();
  try {
    if ('mountDir' in found) {
      kc.loadFromCluster(path.resolve(found.mountDir, '..', '..', '..', '..', '..'));
    } else if (found.files.length === 1) {
      kc.loadFromFile(found.files[0]);
    } else {
      // Several KUBECONFIG files: client-node merges them; as with kubectl, the first file that
      // sets current-context decides it (contextFromStartingConfig).
      const saved = process.env.KUBECONFIG;
      try {
        process.env.KUBECONFIG = found.files.join(path.delimiter);
        kc.loadFromDefault(undefined, true);
      } finally {
        if (saved === undefined) delete process.env.KUBECONFIG;
        else process.env.KUBECONFIG = saved;
      }
    }
  } catch (e) {
    const where = 'files' in found ? `${found.label}: got "${found.files.join(path.delimiter)}"; ` : '';
    throw new ConnectionError(`${where}not a usable kubeconfig: ${(e as Error).message}`);
  }
  return { api: clientNodeApi(kc, opts), insecure: kc.getCurrentCluster()?.skipTLSVerify === true };
}

/** Locates the kubeconfig (documented order) and returns the port over it. */
export async function connect(opts: ConnectOptions = {}): Promise<Connection> {
  const found = locateKubeconfig(opts);
  if (opts.untrustedRoot && found.source === 'kubernetes.kubeconfig' && 'files' in found) {
    const problem = untrustedKubeconfigProblem(found.files[0], fs.realpathSync(opts.untrustedRoot));
    if (problem)
      throw new ConnectionError(
        `kubernetes.kubeconfig: got "${found.files[0]}"; ${problem}. A kubeconfig the deployment file names may not run programs or read files outside the deployment file's directory: pass it with KUBECONFIG or -Dkubernetes.kubeconfig, or trust the deployment file (--trust-deployment-file)`,
      );
  }
  const extra = (via: 'static' | 'client-node', insecure: boolean) => ({
    source: found.source,
    location: 'files' in found ? found.files.join(path.delimiter) : found.location,
    via,
    insecure,
  });
  if (!opts.forceClientNode) {
    if ('mountDir' in found)
      return Object.assign(
        staticApi(inClusterConnection(opts.env ?? process.env, found.mountDir), opts),
        extra('static', false),
      );
    if (found.files.length === 1) {
      let read;
      try {
        read = readKubeconfig(found.files[0]);
      } catch (e) {
        throw new ConnectionError(`${found.label}: got "${found.files[0]}"; ${(e as Error).message}`);
      }
      if (read.kind === 'static')
        return Object.assign(
          staticApi(read.connection, opts),
          extra('static', read.connection.tls.rejectUnauthorized === false),
        );
    }
  }
  const { api, insecure } = await viaClientNode(found, opts);
  return Object.assign(api, extra('client-node', insecure));
}
