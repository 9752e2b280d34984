// The images the real node runs (tools/images/build.sh: pause, seatunnel, runtime, toolbox; prometheus,
// postgres and kafka on demand), found in the cache outside the repository, built when missing, and imported into the
// node's containerd.
import { execFile, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { repoRoot } from './binaries';

const run = promisify(execFile);

/** The images every node gets when it starts. */
export const NODE_IMAGE_NAMES = ['pause', 'seatunnel', 'runtime', 'toolbox'] as const;
/** Images a test imports into the node that needs them (importImages), when it needs them. */
export const ON_DEMAND_IMAGE_NAMES = ['prometheus', 'postgres', 'kafka'] as const;
export type OnDemandImageName = (typeof ON_DEMAND_IMAGE_NAMES)[number];
export type NodeImageName = (typeof NODE_IMAGE_NAMES)[number] | OnDemandImageName;
const KNOWN_IMAGE_NAMES: readonly string[] = [...NODE_IMAGE_NAMES, ...ON_DEMAND_IMAGE_NAMES];

export interface NodeImage {
  readonly name: NodeImageName;
  /** The reference Pods use (`imagePullPolicy: Never`); for `runtime` the plan's default `kubernetes.runtime-image`. */
  readonly ref: string;
  /** docker-archive for `ctr images import`. */
  readonly archive: string;
  /** sha256 of the image config (the image ID), from the archive's image.json; decides whether an import is needed. */
  readonly configDigest: string;
}

type Log = (line: string) => void;
const stderrLog: Log = (l) => process.stderr.write(`${l}\n`);

interface Listed {
  name: NodeImageName;
  ref: string;
  archive?: string;
}

/** Parses `build.sh --paths`: `<name> ref=<ref> archive=<path>|(missing)`, one line per image. */
export function parseImagePaths(stdout: string): Listed[] {
  const out: Listed[] = [];
  for (const line of stdout.split('\n')) {
    const m = /^(\S+) ref=(\S+) archive=(\S+)$/.exec(line.trim());
    if (!m || !KNOWN_IMAGE_NAMES.includes(m[1])) continue;
    out.push({ name: m[1] as NodeImageName, ref: m[2], ...(m[3] === '(missing)' ? {} : { archive: m[3] }) });
  }
  return out;
}

async function listImages(script: string): Promise<Listed[]> {
  try {
    const { stdout } = await run('bash', [script, '--paths']);
    return parseImagePaths(stdout);
  } catch (e) {
    const err = e as Error & { stderr?: string };
    throw new Error(`${script} --paths failed: ${err.stderr || err.message}`, { cause: e });
  }
}

function readConfigDigest(archive: string): string {
  const sidecar = path.join(path.dirname(archive), 'image.json');
  const digest = (JSON.parse(fs.readFileSync(sidecar, 'utf8')) as { configDigest?: unknown }).configDigest;
  if (typeof digest !== 'string' || !/^sha256:[0-9a-f]{64}$/.test(digest))
    throw new Error(`${sidecar} has no valid configDigest`);
  return digest;
}

/**
 * Locates the node's image archives. With `build: true` (the default) missing ones are built
 * first by tools/images/build.sh (progress on this process's stderr; minutes when cold);
 * otherwise a missing image is an error that says how to build it.
 */
export async function resolveImages(
  opts: { build?: boolean; log?: Log; names?: readonly NodeImageName[] } = {},
): Promise<NodeImage[]> {
  const names: readonly NodeImageName[] = opts.names ?? NODE_IMAGE_NAMES;
  const script = path.join(repoRoot(), 'tools', 'images', 'build.sh');
  const wanted = async () => (await listImages(script)).filter((i) => names.includes(i.name));
  let listed = await wanted();
  let missing = listed.filter((i) => !i.archive).map((i) => i.name);
  if (missing.length > 0) {
    if (opts.build === false)
      throw new Error(
        `node images missing: ${missing.join(', ')}; build them with: bash ${script} ${missing.join(' ')}`,
      );
    (opts.log ?? stderrLog)(
      `building missing node images (${missing.join(', ')}) with ${script}; a cold build takes minutes`,
    );
    const code = await new Promise<number | null>((resolve, reject) => {
      const child = spawn('bash', [script, ...missing], { stdio: ['ignore', 2, 2] });
      child.once('error', reject);
      child.once('exit', resolve);
    });
    if (code !== 0)
      throw new Error(`${script} ${missing.join(' ')} failed with exit code ${code} (its output above names the step)`);
    listed = await wanted();
    missing = listed.filter((i) => !i.archive).map((i) => i.name);
    if (missing.length > 0) throw new Error(`node images still missing after the build: ${missing.join(', ')}`);
  }
  const absent = names.filter((n) => !listed.some((i) => i.name === n));
  if (absent.length > 0) throw new Error(`${script} --paths did not list: ${absent.join(', ')}`);
  return listed.map((i) => ({
    name: i.name,
    ref: i.ref,
    archive: i.archive!,
    configDigest: readConfigDigest(i.archive!),
  }));
}

/**
 * Whether `listed` (a name in containerd's image store) is `ref` as containerd stores it. An
 * import normalizes a reference without a domain the way the kubelet does: it prefixes the
 * default registry's domain, and `library/` for a one-component name. That domain is not
 * spelled here: any single domain component in front is accepted.
 */
export function sameImageRef(listed: string, ref: string): boolean {
  if (listed === ref) return true;
  const first = ref.split('/')[0];
  const hasDomain = ref.includes('/') && (first.includes('.') || first.includes(':') || first === 'localhost');
  if (hasDomain) return false;
  const rest = ref.includes('/') ? ref : `library/${ref}`;
  if (!listed.endsWith(`/${rest}`)) return false;
  const domain = listed.slice(0, listed.length - rest.length - 1);
  return domain.length > 0 && !domain.includes('/');
}

/** `ctr images ls` → name and manifest digest of every image in the namespace. */
export function parseCtrImages(stdout: string): Array<{ ref: string; digest: string }> {
  const rows: Array<{ ref: string; digest: string }> = [];
  for (const line of stdout.split('\n').slice(1)) {
    const cols = line.trim().split(/\s+/);
    if (cols.length >= 3 && /^sha256:[0-9a-f]{64}$/.test(cols[2])) rows.push({ ref: cols[0], digest: cols[2] });
  }
  return rows;
}

/** containerd namespace the kubelet's CRI uses. */
export const CRI_NAMESPACE = 'k8s.io';

/**
 * Imports each image into the containerd at `socket` (namespace k8s.io) with `ctr`, unless an
 * image of that ref with the same config (image ID) is already there. Throws, naming the image,
 * when an import fails or the ref does not appear afterwards.
 */
export async function importImages(
  ctrPath: string,
  socket: string,
  images: readonly NodeImage[],
  log: Log = stderrLog,
): Promise<void> {
  const ctr = async (...args: string[]): Promise<string> => {
    try {
      return (await run(ctrPath, ['--address', socket, '--namespace', CRI_NAMESPACE, ...args], { maxBuffer: 16 << 20 }))
        .stdout;
    } catch (e) {
      const err = e as Error & { stderr?: string };
      throw new Error(`ctr ${args.join(' ')} failed: ${(err.stderr || err.message).trim()}`, { cause: e });
    }
  };
  const configOf = async (manifestDigest: string): Promise<string | undefined> => {
    const manifest = JSON.parse(await ctr('content', 'get', manifestDigest)) as { config?: { digest?: string } };
    return manifest.config?.digest;
  };
  for (const image of images) {
    const present = parseCtrImages(await ctr('images', 'ls')).find((r) => sameImageRef(r.ref, image.ref));
    if (present && (await configOf(present.digest)) === image.configDigest) {
      log(`image ${image.ref} already imported (${image.configDigest.slice(0, 19)})`);
      continue;
    }
    const started = Date.now();
    await ctr('images', 'import', image.archive);
    const now = parseCtrImages(await ctr('images', 'ls')).find((r) => sameImageRef(r.ref, image.ref));
    if (!now) throw new Error(`after importing ${image.archive}, containerd lists no image ${image.ref}`);
    const config = await configOf(now.digest);
    if (config !== image.configDigest)
      throw new Error(
        `after importing ${image.archive}, ${image.ref} has config ${config}, expected ${image.configDigest}`,
      );
    log(`imported ${image.name} image ${image.ref} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }
}
