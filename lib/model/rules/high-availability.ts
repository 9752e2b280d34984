// High availability (docs/ha.md): several Zeta masters as a StatefulSet, a coordinator in the
// Job's Pod. Every combination that cannot survive the loss of a master is refused here, before
// anything is sent: too few masters, no partition backups, and checkpoint storage that not every
// master reaches (each Pod's local disk). The PVC's access mode is only known to the cluster, so
// `submit` and `preflight` check that one (lib/submit/references.ts).

import { parseDocument } from 'yaml';
import { HA_LIMITS } from '../options';
import type { HaSpec, RuntimeFilesSpec } from '../spec';
import type { PropReader } from './reader';

const { minMasters: HA_MIN_MASTERS, minBackupCount: HA_MIN_BACKUP_COUNT } = HA_LIMITS;

/** `fs.defaultFS` of the checkpoint storage in a supplied engine file, if it sets one. */
export function suppliedCheckpointFs(files: RuntimeFilesSpec): string | undefined {
  const f = files.engine;
  if (f.mode !== 'supplied') return undefined;
  const doc = parseDocument(f.content);
  if (doc.errors.length) return undefined;
  const v = doc.getIn(['seatunnel', 'engine', 'checkpoint', 'storage', 'plugin-config', 'fs.defaultFS']);
  return typeof v === 'string' ? v : undefined;
}

export function resolveHighAvailability(r: PropReader, storage: { checkpointPvc?: string; runtimeFiles: RuntimeFilesSpec }): HaSpec | undefined {
  const enabled = r.bool('haEnabled');
  const masters = r.int('haMasters');
  const backupCount = r.int('haBackupCount');
  const workerFailurePolicy = r.choice('haWorkerFailurePolicy');
  const workerReplacements = r.int('haWorkerReplacements');
  const coordinatorRestarts = r.int('haCoordinatorRestarts');
  if (!enabled) return undefined;
  if (masters < HA_MIN_MASTERS) r.fail('haMasters', masters, `high availability needs at least ${HA_MIN_MASTERS} masters`);
  if (backupCount < HA_MIN_BACKUP_COUNT) {
    r.fail('haBackupCount', backupCount, `high availability needs backup-count of at least ${HA_MIN_BACKUP_COUNT}, or a lost master loses its partitions`);
  }
  if (backupCount >= HA_MIN_BACKUP_COUNT && masters >= HA_MIN_MASTERS && backupCount >= masters) {
    r.fail('haBackupCount', backupCount, `must be less than the number of masters (${masters})`);
  }
  // The masters run Zeta directly from the generated files; the overlay of a user-owned runtime
  // ConfigMap happens in the runtime (and the workers' init container), which the masters lack.
  if (r.props.runtimeConfigMap !== undefined) {
    r.fail(
      'runtimeConfigMap',
      r.props.runtimeConfigMap,
      'is not supported with high availability yet; give the engine settings with kubernetes.runtime-files instead',
    );
  }
  const remoteFs = suppliedCheckpointFs(storage.runtimeFiles);
  if (!storage.checkpointPvc && (remoteFs === undefined || remoteFs.startsWith('file:'))) {
    r.fail(
      'checkpointPvc',
      '(unset)',
      `high availability needs checkpoint storage every master reaches: a ReadWriteMany PersistentVolumeClaim, or remote storage (fs.defaultFS) in the supplied engine file — without it each master checkpoints to its own Pod's disk${remoteFs ? ` (the engine file says ${remoteFs})` : ''}`,
    );
  }
  return { masters, backupCount, workerFailurePolicy, workerReplacements, coordinatorRestarts };
}
