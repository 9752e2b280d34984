// Restore safety. Zeta 2.3 restores a job from the latest checkpoint under `<namespace><jobId>/`
// when it is submitted with isStartWithSavePoint=true — and silently starts it fresh when there is
// none (tools/seatunnel/README.md §7). A restore that finds nothing must fail instead, so the
// runtime looks for the checkpoint files itself before submitting. It can do that for storage it
// can read: the `hdfs` plugin on `file:///` (a PVC mounted on the master). For remote storage
// (HDFS, S3, OSS) it cannot tell, and refuses the restore rather than risk a fresh start.

import * as fs from 'node:fs';
import * as path from 'node:path';
import { parse } from 'yaml';
import { RuntimeFailure } from '../outcome';

export type CheckpointLocation = { readonly kind: 'local'; readonly namespace: string } | { readonly kind: 'remote'; readonly description: string };

const DEFAULT_NAMESPACE = '/tmp/seatunnel/checkpoint_snapshot/';

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
  const local = (type === 'hdfs' && storageType === 'hdfs' && (rawDefaultFs === undefined || (defaultFs ?? '').startsWith('file:'))) || type === 'localfile';
  if (local && path.isAbsolute(namespace)) return { kind: 'local', namespace };
  return { kind: 'remote', description: `${type}/${storageType} at ${defaultFs ?? '(default)'}, namespace ${namespace}` };
}

/** A YAML scalar as text; anything else (absent, a map, a list) as undefined. */
function scalar(v: unknown): string | undefined {
  return typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' ? String(v) : undefined;
}

/** The checkpoint files of `jobId` (`<namespace><jobId>/*.ser`), sorted. */
export function checkpointFiles(namespace: string, jobId: string, readdir: (dir: string) => string[] = (d) => fs.readdirSync(d)): string[] {
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

/**
 * Throws CheckpointNotFound unless the job `restoreJobId` has checkpoint files the engine can
 * restore from. Returns the files found.
 */
export function requireCheckpoint(engineYaml: string, restoreJobId: string, readdir?: (dir: string) => string[]): string[] {
  const loc = checkpointLocation(engineYaml);
  if (loc.kind === 'remote') {
    throw new RuntimeFailure(
      'CheckpointNotFound',
      `restore-job-id ${restoreJobId}: the checkpoint storage is ${loc.description}, which the runtime cannot inspect; ` +
        'Zeta would start the job from scratch if no checkpoint exists there, so the restore is refused. ' +
        'Keep checkpoints on a PVC (kubernetes.checkpoint-pvc) to restore.',
    );
  }
  const files = checkpointFiles(loc.namespace, restoreJobId, readdir);
  if (files.length === 0) {
    throw new RuntimeFailure(
      'CheckpointNotFound',
      `restore-job-id ${restoreJobId}: no checkpoint found under ${path.join(loc.namespace, restoreJobId)}/ ` +
        '(a restore never falls back to a fresh start; check the job id and the checkpoint volume)',
    );
  }
  return files;
}
