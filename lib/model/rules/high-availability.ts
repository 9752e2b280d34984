// High availability (several masters): validated now, so a configuration written today is known
// to be sound; the manifests come in a later release, so a valid one is still rejected, saying why.

import { HA_LIMITS } from '../options';
import type { PropReader } from './reader';

const { minMasters: HA_MIN_MASTERS, minBackupCount: HA_MIN_BACKUP_COUNT } = HA_LIMITS;

export function checkHighAvailability(r: PropReader): void {
  const enabled = r.bool('haEnabled');
  const masters = r.int('haMasters');
  const backupCount = r.int('haBackupCount');
  if (!enabled) return;
  const before = r.issueCount;
  if (masters < HA_MIN_MASTERS) r.fail('haMasters', masters, `high availability needs at least ${HA_MIN_MASTERS} masters`);
  if (backupCount < HA_MIN_BACKUP_COUNT) {
    r.fail('haBackupCount', backupCount, `high availability needs backup-count of at least ${HA_MIN_BACKUP_COUNT}, or a lost master loses its partitions`);
  }
  if (backupCount >= HA_MIN_BACKUP_COUNT && masters >= HA_MIN_MASTERS && backupCount >= masters) {
    r.fail('haBackupCount', backupCount, `must be less than the number of masters (${masters})`);
  }
  if (r.issueCount === before) {
    r.fail('haEnabled', true, 'the HA configuration is valid, but HA manifests are not part of this release yet; run without application.ha.enabled');
  }
}
