// What a container of the local kubelet (local-kubelet.ts) sees, prepared before its process
// starts: the Pod's volumes materialised under the Pod's root (ConfigMap/Secret, whole or by item;
// emptyDir; a PVC as a local directory per claim), a kubeconfig with a TokenRequest token for the
// Pod's ServiceAccount, and the container's argv, environment and working directory — every
// mountPath and in-image path rewritten to its local directory, the environment built as a kubelet
// builds it (literals, downward API, Secret and ConfigMap keys, envFrom, $(VAR) expansion), and
// JVMs bound to the Pod's own loopback address.

import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ConfigMap, Container, Pod, PodSpec, Secret } from 'kubernetes-types/core/v1';
import type { ObjectMeta } from 'kubernetes-types/meta/v1';
import type { KubeHttp } from '../../test/support/kube-http';
import { resolverEnv } from './cluster-dns';
import { kubeletExpand } from './kubelet-expansion';

/** A Pod as the API server stores it: name, namespace, uid and spec are always there. */
export type StoredPod = Pod & {
  metadata: ObjectMeta & { name: string; namespace: string; uid: string };
  spec: PodSpec;
};

/** What the containers of every Pod share: the API server, the image stand-ins, the network. */
export interface ContainerSetupOptions {
  /** Admin client of the API server. */
  readonly admin: KubeHttp;
  /** For the kubeconfig handed to Pods that mount a token. */
  readonly server: string;
  readonly caData: string;
  /** Image name → { path inside the image → local directory }. */
  readonly images: Readonly<Record<string, Readonly<Record<string, string>>>>;
  /** Claim name → local directory standing in for the volume. */
  readonly persistentVolumes?: Readonly<Record<string, string>>;
  /** Extra environment for every container (e.g. the engine's REST host seam). */
  readonly extraEnv?: (pod: StoredPod, podIp: string) => Record<string, string>;
  /** The cluster DNS stand-in's hosts file (ServiceNetwork.hostsFile) that containers resolve through. */
  readonly hostsFile?: string;
}

/** One container, ready to spawn. */
export interface PreparedRun {
  readonly argv: string[];
  readonly env: Record<string, string>;
  readonly cwd: string;
  /** Maps a path as the container would see it to the local one. */
  readonly mapPath: (value: string) => string;
}

/** The Pod's volumes under `root`: volume name → local path (a directory, or the volume's files). */
export async function materializeVolumes(
  opts: ContainerSetupOptions,
  pod: StoredPod,
  root: string,
): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const ns = encodeURIComponent(pod.metadata.namespace);
  for (const v of pod.spec.volumes ?? []) {
    const dir = path.join(root, 'volumes', v.name);
    fs.mkdirSync(dir, { recursive: true });
    const source = v.secret
      ? { kind: 'secrets' as const, name: v.secret.secretName, items: v.secret.items }
      : v.configMap
        ? { kind: 'configmaps' as const, name: v.configMap.name, items: v.configMap.items }
        : undefined;
    if (source) {
      const { name } = source;
      if (!name) throw new Error(`volume ${v.name}: no ${source.kind === 'secrets' ? 'secretName' : 'name'}`);
      const obj = await opts.admin.call<ConfigMap | Secret>(
        'GET',
        `/api/v1/namespaces/${ns}/${source.kind}/${encodeURIComponent(name)}`,
      );
      const data = dataOf(obj, source.kind === 'secrets');
      const items = source.items ?? Object.keys(data).map((k) => ({ key: k, path: k }));
      for (const it of items) {
        if (!(it.key in data)) throw new Error(`volume ${v.name}: key ${it.key} not in ${name}`);
        fs.mkdirSync(path.dirname(path.join(dir, it.path)), { recursive: true });
        fs.writeFileSync(path.join(dir, it.path), data[it.key]);
      }
    } else if (v.persistentVolumeClaim) {
      const local = opts.persistentVolumes?.[v.persistentVolumeClaim.claimName];
      if (!local)
        throw new Error(`volume ${v.name}: no local directory for claim ${v.persistentVolumeClaim.claimName}`);
      fs.mkdirSync(local, { recursive: true });
      out.set(v.name, local);
      continue;
    }
    out.set(v.name, dir);
  }
  return out;
}

/** A kubeconfig under `root` with a token of the Pod's ServiceAccount; undefined when the Pod mounts none. */
export async function serviceAccountKubeconfig(
  opts: ContainerSetupOptions,
  pod: StoredPod,
  root: string,
): Promise<string | undefined> {
  if (pod.spec.automountServiceAccountToken === false) return undefined;
  const sa = pod.spec.serviceAccountName ?? 'default';
  const ns = pod.metadata.namespace;
  const res = await opts.admin.call<{ status: { token: string } }>(
    'POST',
    `/api/v1/namespaces/${encodeURIComponent(ns)}/serviceaccounts/${encodeURIComponent(sa)}/token`,
    {
      apiVersion: 'authentication.k8s.io/v1',
      kind: 'TokenRequest',
      spec: {
        expirationSeconds: 3600,
        boundObjectRef: { apiVersion: 'v1', kind: 'Pod', name: pod.metadata.name, uid: pod.metadata.uid },
      },
    },
  );
  const file = path.join(root, 'serviceaccount.kubeconfig');
  const b64 = (s: string) => Buffer.from(s).toString('base64');
  fs.writeFileSync(
    file,
    JSON.stringify({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [{ name: 'local', cluster: { server: opts.server, 'certificate-authority-data': b64(opts.caData) } }],
      users: [{ name: sa, user: { token: res.status.token } }],
      contexts: [{ name: sa, context: { cluster: 'local', user: sa, namespace: ns } }],
      'current-context': sa,
    }),
  );
  return file;
}

/** The argv, environment and working directory of one container, with paths mapped to local ones. */
export async function prepareContainer(
  opts: ContainerSetupOptions,
  pod: StoredPod,
  c: Container,
  sandbox: {
    readonly root: string;
    readonly volumes: Map<string, string>;
    readonly ip: string;
    readonly kubeconfig?: string;
  },
): Promise<PreparedRun> {
  const { root, volumes, ip, kubeconfig } = sandbox;
  // Mounts: mountPath → local path (subPath mounts point at the file inside the volume).
  const mounts: Array<[string, string]> = [];
  for (const m of c.volumeMounts ?? []) {
    const base = volumes.get(m.name);
    if (!base) throw new Error(`container ${c.name}: mount of unknown volume ${m.name}`);
    mounts.push([m.mountPath, m.subPath ? path.join(base, m.subPath) : base]);
  }
  for (const [inImage, local] of Object.entries((c.image && opts.images[c.image]) || {})) mounts.push([inImage, local]);
  mounts.sort((a, b) => b[0].length - a[0].length);
  const mapPath = (value: string) =>
    value.replace(/(^|[=:,\s])(\/[^:=,\s]*)/g, (all, lead: string, p: string) => {
      for (const [from, to] of mounts) {
        if (p === from || p.startsWith(`${from}/`)) return lead + to + p.slice(from.length);
      }
      return all;
    });

  const env: Record<string, string> = {};
  const ns = encodeURIComponent(pod.metadata.namespace);
  const read = async (kind: 'configmaps' | 'secrets', name = '') =>
    opts.admin
      .request<ConfigMap | Secret>('GET', `/api/v1/namespaces/${ns}/${kind}/${encodeURIComponent(name)}`)
      .then((r) => (r.status === 200 ? r.body : undefined));
  const decode = (obj: ConfigMap | Secret | undefined, secret: boolean): Record<string, string> =>
    obj ? dataOf(obj, secret) : {};
  for (const from of c.envFrom ?? []) {
    const secret = Boolean(from.secretRef);
    const data = decode(
      await read(secret ? 'secrets' : 'configmaps', (from.secretRef ?? from.configMapRef)?.name),
      secret,
    );
    for (const [k, v] of Object.entries(data)) env[`${from.prefix ?? ''}${k}`] = v;
  }
  // The kubelet's rules exactly ($$ → $, $(VAR) → its value so far): see kubelet-expansion.ts.
  const expand = (s: string) => kubeletExpand(s, env);
  for (const e of c.env ?? []) {
    if (e.value !== undefined) env[e.name] = expand(e.value);
    else if (e.valueFrom?.fieldRef) {
      const f = e.valueFrom.fieldRef.fieldPath;
      env[e.name] =
        f === 'status.podIP'
          ? ip
          : f === 'metadata.name'
            ? pod.metadata.name
            : f === 'metadata.namespace'
              ? pod.metadata.namespace
              : f === 'metadata.uid'
                ? pod.metadata.uid
                : '';
    } else if (e.valueFrom?.secretKeyRef || e.valueFrom?.configMapKeyRef) {
      const secret = Boolean(e.valueFrom.secretKeyRef);
      const ref = (e.valueFrom.secretKeyRef ?? e.valueFrom.configMapKeyRef)!;
      const data = decode(await read(secret ? 'secrets' : 'configmaps', ref.name), secret);
      if (ref.key in data) env[e.name] = data[ref.key];
      else if (!ref.optional) throw new Error(`container ${c.name}: ${e.name} needs key ${ref.key} of ${ref.name}`);
    }
  }
  for (const k of Object.keys(env)) env[k] = mapPath(env[k]);
  const argv = [...(c.command ?? []), ...(c.args ?? [])].map((a: string) => mapPath(expand(a)));
  if (argv.length === 0) throw new Error(`container ${c.name}: no command (image entrypoints are not emulated)`);
  const resolver = opts.hostsFile ? resolverEnv(opts.hostsFile, env) : undefined;
  const full: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: root,
    ...(process.env.JAVA_HOME ? { JAVA_HOME: process.env.JAVA_HOME } : {}),
    ...env,
    ...resolver?.env,
    // Bind JVMs to this Pod's loopback address only (and resolve through the cluster DNS stand-in).
    JAVA_TOOL_OPTIONS: [`-Dhazelcast.local.localAddress=${ip} -Dhazelcast.socket.bind.any=false`, resolver?.javaOptions]
      .filter(Boolean)
      .join(' '),
    ...(kubeconfig ? { KUBECONFIG: kubeconfig } : {}),
    ...(opts.extraEnv?.(pod, ip) ?? {}),
  };
  const cwd = c.workingDir ? mapPath(c.workingDir) : root;
  return { argv, env: full, cwd: fs.existsSync(cwd) ? cwd : root, mapPath };
}

/** A ConfigMap's data, or a Secret's decoded. */
function dataOf(obj: ConfigMap | Secret, secret: boolean): Record<string, string> {
  const data = obj.data ?? {};
  return secret
    ? Object.fromEntries(Object.entries(data).map(([k, b]) => [k, Buffer.from(b, 'base64').toString('utf8')]))
    : data;
}
