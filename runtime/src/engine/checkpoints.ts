// Restore safety. Zeta 2.3 restores a job from the latest checkpoint under `<namespace><jobId>/`
// when it is submitted with isStartWithSavePoint=true — and silently starts it fresh when there is
// none (tools/seatunnel/README.md §7). A restore that finds nothing must fail instead, so the
// runtime looks for the checkpoint files itself before submitting:
//   * the `hdfs` plugin on `file:///` (a PVC mounted on the master): it reads the directory;
//   * the `hdfs` plugin with storage.type `hdfs` on a remote `fs.defaultFS` (an HDFS): it lists the
//     directory with the engine's own Hadoop client (./hadoop-list.ts), configured as the plugin
//     configures it;
//   * the `hdfs` plugin with storage.type `s3` on an `s3a://` bucket: the same Hadoop client, with
//     the properties the plugin's S3Configuration sets (the bucket as fs.defaultFS, the S3A file
//     system, every `fs.s3a.*` key) — the image needs hadoop-aws and its AWS SDK, as the engine does;
//   * anything else (s3n, OSS, COS, Kerberos, other plugins): it cannot tell, and refuses the
//     restore rather than risk a fresh start.

import * as fs from 'node:fs';
import * as path from 'node:path';
import { parse } from 'yaml';
import { RuntimeFailure } from '../outcome';

export type CheckpointLocation =
  | { readonly kind: 'local'; readonly namespace: string }
  | {
      readonly kind: 'hadoop';
      readonly namespace: string;
      readonly hadoop: HadoopClientConfig;
      readonly description: string;
    }
  | { readonly kind: 'remote'; readonly description: string };

/** What the hdfs plugin (HdfsConfiguration in checkpoint-storage-hdfs 2.3.8) hands to Hadoop. */
export interface HadoopClientConfig {
  /** Hadoop properties: fs.defaultFS and every `seatunnel.hadoop.<key>` as `<key>`. */
  readonly properties: Readonly<Record<string, string>>;
  /** plugin-config `hdfs_site_path`: an extra Hadoop resource file on the master. */
  readonly hdfsSitePath?: string;
}

const DEFAULT_NAMESPACE = '/tmp/seatunnel/checkpoint_snapshot/';
const HADOOP_PREFIX = 'seatunnel.hadoop.';
// What checkpoint-storage-hdfs 2.3.8's S3Configuration hands to Hadoop for an s3a:// bucket.
const S3A_PREFIX = 'fs.s3a.';
const S3A_IMPL = 'org.apache.hadoop.fs.s3a.S3AFileSystem';

function get(obj: unknown, ...keys: string[]): unknown {
  let cur = obj;
  for (const k of keys) {
    if (typeof cur !== 'object' || cur === null) return undefined;
    cur = (cur as Record<string, unknown>)[k];
  }
  return cur;
}

/** Where the engine config (seatunnel.yaml text) puts checkpoints. */
export function checkpointLocation(engineYaml: string): CheckpointLocation {
  const doc = parse(engineYaml) as unknown;
  const storage = get(doc, 'seatunnel', 'engine', 'checkpoint', 'storage');
  const type = scalar(get(storage, 'type')) ?? 'hdfs';
  const pc = get(storage, 'plugin-config');
  const namespace = scalar(get(pc, 'namespace')) ?? DEFAULT_NAMESPACE;
  const rawDefaultFs = get(pc, 'fs.defaultFS');
  const defaultFs = scalar(rawDefaultFs);
  const storageType = scalar(get(pc, 'storage.type')) ?? 'hdfs';
  const bucket = storageType === 's3' ? scalar(get(pc, 's3.bucket')) : undefined;
  const description = `${type}/${storageType} at ${(bucket ?? defaultFs) || '(default)'}, namespace ${namespace}`;
  const local =
    (type === 'hdfs' &&
      storageType === 'hdfs' &&
      (rawDefaultFs === undefined || (defaultFs ?? '').startsWith('file:'))) ||
    type === 'localfile';
  if (local && path.isAbsolute(namespace)) return { kind: 'local', namespace };
  // Kerberos needs a keytab login the plugin does itself; a plain Hadoop client cannot repeat it.
  const kerberos =
    scalar(get(pc, 'kerberosPrincipal')) !== undefined || scalar(get(pc, 'kerberosKeytabFilePath')) !== undefined;
  /** The plugin-config's scalar keys that start with `prefix`, named without it when `strip`. */
  const prefixed = (prefix: string, strip: boolean): Record<string, string> => {
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries((pc ?? {}) as Record<string, unknown>)) {
      const text = scalar(v);
      if (k.startsWith(prefix) && text !== undefined) out[strip ? k.slice(prefix.length) : k] = text;
    }
    return out;
  };
  if (type === 'hdfs' && storageType === 'hdfs' && defaultFs && !kerberos) {
    const properties: Record<string, string> = { 'fs.defaultFS': defaultFs, ...prefixed(HADOOP_PREFIX, true) };
    const hdfsSitePath = scalar(get(pc, 'hdfs_site_path'));
    return {
      kind: 'hadoop',
      namespace,
      hadoop: { properties, ...(hdfsSitePath ? { hdfsSitePath } : {}) },
      description,
    };
  }
  // s3n:// (the plugin's default protocol) is gone from Hadoop 3, which the image carries.
  if (type === 'hdfs' && bucket && /^s3a:\/\/[^/]/.test(bucket)) {
    const properties: Record<string, string> = {
      'fs.defaultFS': bucket,
      'fs.s3a.impl': S3A_IMPL,
      'fs.s3a.impl.disable.cache': 'true',
      ...prefixed(S3A_PREFIX, false),
    };
    return { kind: 'hadoop', namespace, hadoop: { properties }, description };
  }
  return { kind: 'remote', description };
}

/** A YAML scalar as text; anything else (absent, a map, a list) as undefined. */
function scalar(v: unknown): string | undefined {
  return typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' ? String(v) : undefined;
}

/** The checkpoint files of `jobId` (`<namespace><jobId>/*.ser`), sorted. */
export function checkpointFiles(
  namespace: string,
  jobId: string,
  readdir: (dir: string) => string[] = (d) => fs.readdirSync(d),
): string[] {
  const dir = path.join(namespace, jobId);
  try {
    return readdir(dir)
      .filter((f) => f.endsWith('.ser'))
      .sort()
      .map((f) => path.join(dir, f));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT' || (e as NodeJS.ErrnoException).code === 'ENOTDIR') return [];
    throw e;
  }
}

/** The directory `<namespace><jobId>/` as the plugin builds it (it adds the missing `/`). */
export function jobCheckpointDir(namespace: string, jobId: string): string {
  return `${namespace.endsWith('/') ? namespace : `${namespace}/`}${jobId}/`;
}

/**
 * Lists a directory of a Hadoop file system: the full paths of its entries, or [] when it does
 * not exist; throws when the file system cannot be read.
 */
export type HadoopLister = (config: HadoopClientConfig, dir: string) => Promise<string[]>;

export interface CheckpointReaders {
  readonly readdir?: (dir: string) => string[];
  readonly listHadoop?: HadoopLister;
}

/**
 * Throws CheckpointNotFound unless the job `restoreJobId` has checkpoint files the engine can
 * restore from. Returns the files found.
 */
export async function requireCheckpoint(
  engineYaml: string,
  restoreJobId: string,
  readers: CheckpointReaders = {},
): Promise<string[]> {
  const loc = checkpointLocation(engineYaml);
  if (loc.kind === 'remote') {
    throw new RuntimeFailure(
      'CheckpointNotFound',
      `restore-job-id ${restoreJobId}: the checkpoint storage is ${loc.description}, which the runtime cannot inspect; ` +
        'Zeta would start the job from scratch if no checkpoint exists there, so the restore is refused. ' +
        'Keep checkpoints on a PVC (kubernetes.checkpoint-pvc), on HDFS (storage.type hdfs, fs.defaultFS hdfs://…, no Kerberos) ' +
        'or on S3 through S3A (storage.type s3, s3.bucket s3a://…) to restore.',
    );
  }
  if (loc.kind === 'hadoop') {
    const dir = jobCheckpointDir(loc.namespace, restoreJobId);
    if (!readers.listHadoop) throw new Error('no Hadoop client to list the checkpoint storage');
    let entries: string[];
    try {
      entries = await readers.listHadoop(loc.hadoop, dir);
    } catch (e) {
      throw new RuntimeFailure(
        'CheckpointNotFound',
        `restore-job-id ${restoreJobId}: the checkpoint storage (${loc.description}) could not be listed: ${(e as Error).message}; ` +
          'the restore is refused rather than risk a fresh start',
      );
    }
    const files = entries.filter((f) => f.endsWith('.ser')).sort();
    if (files.length === 0) throw notFound(restoreJobId, `${dir} on ${loc.hadoop.properties['fs.defaultFS']}`);
    return files;
  }
  const files = checkpointFiles(loc.namespace, restoreJobId, readers.readdir);
  if (files.length === 0) throw notFound(restoreJobId, `${path.join(loc.namespace, restoreJobId)}/`);
  return files;
}

function notFound(restoreJobId: string, where: string): RuntimeFailure {
  return new RuntimeFailure(
    'CheckpointNotFound',
    `restore-job-id ${restoreJobId}: no checkpoint found under ${where} ` +
      '(a restore never falls back to a fresh start; check the job id and the checkpoint storage)',
  );
}
