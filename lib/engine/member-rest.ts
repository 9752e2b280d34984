// Hazelcast's REST on the member ports: Zeta 2.3.x serves its REST v1 and its telemetry there. The
// members' Hazelcast files take this block as it is; a user's file may not set one
// (lib/model/rules/runtime-files.ts).

import type { ApplicationSpec } from '../model/spec';

type Yaml = Record<string, unknown>;

/**
 * Hazelcast's REST endpoint groups, as the shaded Hazelcast of Zeta 2.3.8 names them (the enum
 * com.hazelcast.config.RestEndpointGroup; HOT_RESTART is the older name of PERSISTENCE). A group a
 * file does not name keeps Hazelcast's default, and CLUSTER_READ and HEALTH_CHECK are on by default.
 */
export const REST_ENDPOINT_GROUPS = [
  'CLUSTER_READ',
  'CLUSTER_WRITE',
  'HEALTH_CHECK',
  'PERSISTENCE',
  'HOT_RESTART',
  'WAN',
  'DATA',
  'CP',
] as const;

/**
 * REST on a member port (Hazelcast's, which Zeta 2.3.x serves its REST v1 and its telemetry on).
 * The master's: the runtime drives the job through it when the engine has no REST v2 (CLUSTER_WRITE,
 * DATA) and reads its telemetry (CLUSTER_READ: /hazelcast/rest/instance/metrics); HEALTH_CHECK with
 * HA, where /hazelcast/health/ready is the masters' readiness (a member answers REST before it has
 * joined; the health endpoint does not call it ready). A worker's: CLUSTER_READ alone, for the
 * runtime's /metrics — every other group named and off, so nothing on a worker's port submits,
 * cancels or writes through REST — or none when metrics are off.
 */
export function memberRestApi(spec: Pick<ApplicationSpec, 'ha' | 'metrics'>, role: 'master' | 'worker'): Yaml {
  if (role === 'master')
    return {
      enabled: true,
      'endpoint-groups': {
        CLUSTER_READ: { enabled: true },
        CLUSTER_WRITE: { enabled: true },
        DATA: { enabled: true },
        ...(spec.ha ? { HEALTH_CHECK: { enabled: true } } : {}),
      },
    };
  if (!spec.metrics) return { enabled: false };
  return {
    enabled: true,
    'endpoint-groups': Object.fromEntries(
      REST_ENDPOINT_GROUPS.map((group) => [group, { enabled: group === 'CLUSTER_READ' }]),
    ),
  };
}
