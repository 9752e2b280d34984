// Restore safety. Zeta 2.3 restores a job from the latest checkpoint under `<namespace><jobId>/`
// when it is submitted with isStartWithSavePoint=true — and silently starts it fresh when there is
// none (tools/seatunnel/README.md §7). A restore that finds nothing must fail instead, so the
// runtime looks for the checkpoint files itself before submitting:
//   * the `hdfs` plugin on `file:///` (a PVC mounted on the master): it reads the directory;
//   * the `hdfs` plugin with storage.type `hdfs` on a remote `fs.defaultFS` (an HDFS): it lists the
//     directory with the engine's own Hadoop client (./hadoop-list.ts), configured as the plugin
//     configures it;
//   * anything else (S3, OSS, Kerberos, other plugins): it cannot tell, and refuses the restore
//     rather than risk a fresh start.

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
  const description = `${type}/${storageType} at ${defaultFs ?? '(default)'}, namespace ${namespace}`;
  const local =
    (type === 'hdfs' &&
      storageType === 'hdfs' &&
      (rawDefaultFs === undefined || (defaultFs ?? '').startsWith('file:'))) ||
    type === 'localfile';
  if (local && path.isAbsolute(namespace)) return { kind: 'local', namespace };
  // Kerberos needs a keytab login the plugin does itself; a plain Hadoop client cannot repeat it.
  const kerberos =
    scalar(get(pc, 'kerberosPrincipal')) !== undefined || scalar(get(pc, 'kerberosKeytabFilePath')) !== undefined;
  if (type === 'hdfs' && storageType === 'hdfs' && defaultFs && !kerberos) {
    const properties: Record<string, string> = { 'fs.defaultFS': defaultFs };
    for (const [k, v] of Object.entries((pc ?? {}) as Record<string, unknown>)) {
      const text = scalar(v);
      if (k.startsWith(HADOOP_PREFIX) && text !== undefined) properties[k.slice(HADOOP_PREFIX.length)] = text;
    }
    const hdfsSitePath = scalar(get(pc, 'hdfs_site_path'));
    return {
      kind: 'hadoop',
      namespace,
      hadoop: { properties, ...(hdfsSitePath ? { hdfsSitePath } : {}) },
      description,
    };
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
        'Keep checkpoints on a PVC (kubernetes.checkpoint-pvc) or on HDFS (storage.type hdfs, fs.defaultFS hdfs://…, no Kerberos) to restore.',
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
