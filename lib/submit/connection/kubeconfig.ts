// Reading a kubeconfig whose credentials are static — client certificate and key, a bearer token
// or token file, basic auth, CA data or file — without loading @kubernetes/client-node, whose
// import alone costs about a second (it loads every generated API model). Anything dynamic or
// unusual — exec and auth-provider plugins, proxy-url, impersonation — is left to client-node
// (`needs-client-node`), so the feature set is client-node's and the common case is fast.

import * as fs from 'node:fs';
import * as path from 'node:path';
import { parse } from 'yaml';
import type { TlsMaterial } from '../../kube';

export interface StaticConnection {
  readonly server: string;
  readonly tls: TlsMaterial;
  readonly token?: string;
  /** Re-read before each request (rotated ServiceAccount tokens). */
  readonly tokenFile?: string;
  readonly basic?: { readonly username: string; readonly password: string };
}

export type KubeconfigRead =
  | { readonly kind: 'static'; readonly connection: StaticConnection }
  | { readonly kind: 'needs-client-node'; readonly why: string };

interface Named<T> {
  name?: string;
  cluster?: T;
  user?: T;
  context?: T;
}

type Entry = Record<string, unknown>;

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/** Throws an Error naming what is wrong with the file; the caller adds which option named it. */
export function readKubeconfig(file: string, text: string = fs.readFileSync(file, 'utf8')): KubeconfigRead {
  let doc: Entry;
  try {
    doc = (parse(text) ?? {}) as Entry;
  } catch (e) {
    throw new Error(`not a YAML kubeconfig: ${(e as Error).message}`, { cause: e });
  }
  const dir = path.dirname(path.resolve(file));
  const list = (k: string) => (Array.isArray(doc[k]) ? (doc[k] as Array<Named<Entry>>) : []);
  const current = str(doc['current-context']);
  if (!current) throw new Error('the kubeconfig has no current-context');
  const context = list('contexts').find((c) => c.name === current)?.context;
  if (!context) throw new Error(`the kubeconfig's current-context "${current}" is not among its contexts`);
  const cluster = list('clusters').find((c) => c.name === str(context.cluster))?.cluster;
  if (!cluster)
    throw new Error(
      `context "${current}" names cluster "${String(context.cluster)}", which the kubeconfig does not define`,
    );
  const user = list('users').find((u) => u.name === str(context.user))?.user ?? {};
  const server = str(cluster.server);
  if (!server) throw new Error(`cluster "${String(context.cluster)}" has no server`);

  for (const [key, why] of [
    ['exec', 'an exec credential plugin'],
    ['auth-provider', 'an auth-provider plugin'],
    ['as', 'impersonation'],
    ['as-groups', 'impersonation'],
    ['as-uid', 'impersonation'],
  ] as const) {
    if (user[key] !== undefined) return { kind: 'needs-client-node', why };
  }
  if (cluster['proxy-url'] !== undefined) return { kind: 'needs-client-node', why: 'a proxy-url' };

  const abs = (p: string) => (path.isAbsolute(p) ? p : path.resolve(dir, p));
  const material = (dataKey: string, fileKey: string, entry: Entry): Buffer | undefined => {
    const data = str(entry[dataKey]);
    if (data) return Buffer.from(data, 'base64');
    const f = str(entry[fileKey]);
    if (!f) return undefined;
    try {
      return fs.readFileSync(abs(f));
    } catch (e) {
      throw new Error(
        `${fileKey} ${abs(f)}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'file not found' : (e as Error).message}`,
        { cause: e },
      );
    }
  };
  const tls: TlsMaterial = {};
  const ca = material('certificate-authority-data', 'certificate-authority', cluster);
  if (ca) tls.ca = ca;
  const cert = material('client-certificate-data', 'client-certificate', user);
  const key = material('client-key-data', 'client-key', user);
  if (cert) tls.cert = cert;
  if (key) tls.key = key;
  if (cluster['insecure-skip-tls-verify'] === true) tls.rejectUnauthorized = false;
  const serverName = str(cluster['tls-server-name']);
  if (serverName) tls.servername = serverName;
  const tokenFile = str(user.tokenFile);
  const username = str(user.username);
  const password = str(user.password);
  return {
    kind: 'static',
    connection: {
      server,
      tls,
      ...(str(user.token) ? { token: str(user.token) } : {}),
      ...(tokenFile ? { tokenFile: abs(tokenFile) } : {}),
      ...(username && password ? { basic: { username, password } } : {}),
    },
  };
}

/** The files a kubeconfig's clusters and users name (certificates, keys, token files). */
const FILE_KEYS = ['certificate-authority', 'client-certificate', 'client-key', 'tokenFile'] as const;

/**
 * Why a kubeconfig that an untrusted deployment file names may not be used, or undefined. Such a
 * file must not run programs (exec and auth-provider plugins) nor send files of this machine as
 * credentials to a server the file may have chosen: every file it names must lie under `root`
 * (the deployment file's directory). Every cluster, user and context is checked, not only the
 * current one (KUBECONFIG merging may pick another).
 */
export function untrustedKubeconfigProblem(
  file: string,
  root: string,
  text: string = fs.readFileSync(file, 'utf8'),
): string | undefined {
  let doc: Entry;
  try {
    doc = (parse(text) ?? {}) as Entry;
  } catch {
    return undefined; // readKubeconfig says what is wrong with it
  }
  const dir = path.dirname(path.resolve(file));
  const entries = (k: string, inner: 'cluster' | 'user') =>
    (Array.isArray(doc[k]) ? (doc[k] as Array<Named<Entry>>) : []).map((e) => e?.[inner] ?? {});
  for (const user of entries('users', 'user')) {
    if (user.exec !== undefined) return 'it runs an exec credential plugin';
    if (user['auth-provider'] !== undefined) return 'it uses an auth-provider plugin';
  }
  const inside = (p: string) => {
    const abs = path.isAbsolute(p) ? p : path.resolve(dir, p);
    let real: string;
    try {
      real = fs.realpathSync(abs);
    } catch {
      real = abs;
    }
    return real === root || real.startsWith(root.endsWith(path.sep) ? root : root + path.sep);
  };
  for (const entry of [...entries('clusters', 'cluster'), ...entries('users', 'user')])
    for (const key of FILE_KEYS) {
      const named = str(entry[key]);
      if (named && !inside(named)) return `its ${key} ${named} is outside the deployment file's directory`;
    }
  return undefined;
}

/** The Pod's own ServiceAccount, as client-go's in-cluster config reads it. */
export function inClusterConnection(env: NodeJS.ProcessEnv, mountDir: string): StaticConnection {
  const host = env.KUBERNETES_SERVICE_HOST ?? '';
  const port = env.KUBERNETES_SERVICE_PORT || '443';
  return {
    server: `https://${host.includes(':') ? `[${host}]` : host}:${port}`,
    tls: { ca: fs.readFileSync(path.join(mountDir, 'ca.crt')) },
    tokenFile: path.join(mountDir, 'token'),
  };
}

/** Request headers of a static connection (the token file is read each time). */
export function staticHeaders(c: StaticConnection): Record<string, string> {
  if (c.tokenFile) return { Authorization: `Bearer ${fs.readFileSync(c.tokenFile, 'utf8').trim()}` };
  if (c.token) return { Authorization: `Bearer ${c.token}` };
  if (c.basic)
    return { Authorization: `Basic ${Buffer.from(`${c.basic.username}:${c.basic.password}`).toString('base64')}` };
  return {};
}
