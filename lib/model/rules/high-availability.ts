// High availability (docs/ha.md): several Zeta masters as a StatefulSet, a coordinator in the
// Job's Pod. Every combination that cannot survive the loss of a master is refused here, before
// anything is sent: too few masters, no partition backups, and checkpoint storage that not every
// master reaches (each Pod's local disk). The PVC's access mode is only known to the cluster, so
// `submit` and `preflight` check that one (lib/submit/admit/references.ts).

import { parseDocument } from 'yaml';
import { HA_LIMITS } from '../options';
import type { HaSpec, RuntimeFilesSpec } from '../spec';
import type { PropReader } from './reader';

const { minMasters: HA_MIN_MASTERS, minBackupCount: HA_MIN_BACKUP_COUNT } = HA_LIMITS;

/** `fs.defaultFS` of the checkpoint storage in an engine file (seatunnel.yaml), if it sets one. */
export function checkpointFs(engineFile: string): string | undefined {
  const doc = parseDocument(engineFile);
  if (doc.errors.length) return undefined;
  const v = doc.getIn(['seatunnel', 'engine', 'checkpoint', 'storage', 'plugin-config', 'fs.defaultFS']);
  return typeof v === 'string' ? v : undefined;
}

/** `fs.defaultFS` of the checkpoint storage in a supplied engine file, if it sets one. */
export function suppliedCheckpointFs(files: RuntimeFilesSpec): string | undefined {
  return files.engine.mode === 'supplied' ? checkpointFs(files.engine.content) : undefined;
}

/** Storage every master reaches: a file system that is not the Pod's own disk. */
export function isSharedFs(fs: string | undefined): boolean {
  return fs !== undefined && !fs.startsWith('file:');
}

/** The rule, as the message of a refusal; `where` names the file that was read. */
export function checkpointStorageRule(fs: string | undefined, where: string): string {
  return `high availability needs checkpoint storage every master reaches: a ReadWriteMany PersistentVolumeClaim (kubernetes.checkpoint-pvc), or remote storage (fs.defaultFS) in ${where} — without it each master checkpoints to its own Pod's disk${fs ? ` (${where} says ${fs})` : ''}`;
}

export function resolveHighAvailability(
  r: PropReader,
  storage: { checkpointPvc?: string; runtimeFiles: RuntimeFilesSpec },
): HaSpec | undefined {
  const enabled = r.bool('haEnabled');
  const masters = r.int('haMasters');
  const backupCount = r.int('haBackupCount');
  const workerFailurePolicy = r.choice('haWorkerFailurePolicy');
  const workerReplacements = r.int('haWorkerReplacements');
  const coordinatorRestarts = r.int('haCoordinatorRestarts');
  if (!enabled) return undefined;
  if (masters < HA_MIN_MASTERS)
    r.fail('haMasters', masters, `high availability needs at least ${HA_MIN_MASTERS} masters`);
  if (backupCount < HA_MIN_BACKUP_COUNT) {
    r.fail(
      'haBackupCount',
      backupCount,
      `high availability needs backup-count of at least ${HA_MIN_BACKUP_COUNT}, or a lost master loses its partitions`,
    );
  }
  if (backupCount >= HA_MIN_BACKUP_COUNT && masters >= HA_MIN_MASTERS && backupCount >= masters) {
    r.fail('haBackupCount', backupCount, `must be less than the number of masters (${masters})`);
  }
  // With kubernetes.config-map supplying seatunnel.yaml, the storage is in a ConfigMap only the
  // cluster has: submit and preflight check it there (haCheckpointStorageProblem).
  const engineFromConfigMap =
    r.props.runtimeConfigMap !== undefined && storage.runtimeFiles.engine.mode === 'generated';
  const remoteFs = suppliedCheckpointFs(storage.runtimeFiles);
  if (!storage.checkpointPvc && !engineFromConfigMap && !isSharedFs(remoteFs)) {
    r.fail('checkpointPvc', '(unset)', checkpointStorageRule(remoteFs, 'the supplied engine file'));
  }
  return { masters, backupCount, workerFailurePolicy, workerReplacements, coordinatorRestarts };
}
