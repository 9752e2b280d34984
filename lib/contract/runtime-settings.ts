// runtime.json: what the runtime in the master Pod needs to know that is not a secret. The plan
// writes it (lib/plan/runtime-settings.ts) into the engine ConfigMap, so `kubectl get configmap
// <appId>-engine -o yaml` shows it; the runtime reads it back through `runtimeSettingsProblems`.
// Both sides import this file: the shape and the bounds cannot drift apart. Every bound that an
// option also has comes from the option registry.

import * as path from 'node:path';
import { HA_LIMITS, OPTIONS, type OptionDef } from '../model/options';
import type { SeaTunnelApplicationProps } from '../model/props';

/** Bumped when a field is added, removed or changes meaning; runtime and plan ship together. */
export const RUNTIME_SETTINGS_VERSION = 2;

export interface DependentRef {
  readonly apiVersion: string;
  readonly kind: string;
  readonly name: string;
}

export interface RuntimeSettings {
  readonly version: number;
  readonly appId: string;
  readonly namespace: string;
  readonly jobName: string;
  /** Zeta job ID (exact decimal string). */
  readonly jobId: string;
  readonly restoreJobId?: string;
  readonly workerCount: number;
  readonly workerSlots: number;
  readonly startupTimeoutMillis: number;
  /** application.scale-up-grace-millis (0: fail fast). */
  readonly scaleUpGraceMillis: number;
  /** application.image-pull-retry-millis (0: fail fast). */
  readonly imagePullRetryMillis: number;
  /** application.worker-join-timeout-millis: a running worker not in the member list is restarted after it. */
  readonly workerJoinTimeoutMillis: number;
  /** application.api-outage-tolerance-millis: how long the API server may be away before the application fails. */
  readonly apiOutageToleranceMillis: number;
  /** How long Zeta's REST may answer nothing useful before the application fails (lib/contract/ha-timings.ts). */
  readonly engineUnreachableMillis: number;
  readonly workerTemplate: string;
  readonly master: {
    readonly port: number;
    readonly restPort: number;
    /**
     * Path prefix of Zeta's REST API on `restPort`: '' (the default) for REST API v2 (Zeta 2.3.9+),
     * '/hazelcast/rest/maps' for the Hazelcast-based REST of Zeta 2.3.8 and earlier, which is
     * served on the member port (then `restPort` is the master port).
     */
    readonly restPath?: string;
    /** The master's Zeta command; `configDir` is the runtime's completed copy of the engine files. */
    readonly command: readonly string[];
    /** Extra environment of the master's Zeta process (JVM module flags, phone-home off). */
    readonly env: Readonly<Record<string, string>>;
  };
  readonly jobConfig:
    { readonly kind: 'inline'; readonly env: string } | { readonly kind: 'file'; readonly path: string };
  /** Objects the runtime adopts (adds the Job as owner) when they were applied without one. */
  readonly dependents: readonly DependentRef[];
  readonly checkpointDir?: string;
  /** With HA (docs/ha.md): the runtime is the coordinator; no Zeta in its Pod. */
  readonly ha?: HaRuntimeSettings;
  /** application.metrics.enabled: the runtime serves /metrics (docs/metrics.md); absent when off. */
  readonly metrics?: MetricsRuntimeSettings;
}

/** Where the runtime serves its metrics; the plan's scrape annotations and PodMonitor name the same path. */
export const METRICS_PATH = '/metrics';

export interface MetricsRuntimeSettings {
  /** application.metrics.port: where the runtime serves /metrics in its own Pod. */
  readonly port: number;
  /**
   * The workers' member port (application.worker.port): their Zeta telemetry is read there (REST
   * with CLUSTER_READ only) and served again through the runtime's /metrics, so a scraper never
   * needs the member ports, whose Hazelcast client protocol controls jobs.
   */
  readonly workerPort: number;
}

export interface HaRuntimeSettings {
  readonly masters: number;
  /** The masters' StatefulSet: its status says how many are ready; deleted at the end. */
  readonly statefulSet: string;
  /** Host of the ClusterIP Service in front of the masters' REST API. */
  readonly restHost: string;
  /** Each master's own member address, `host:port` by its stable DNS name (the engine files list the same). */
  readonly masterAddresses: readonly string[];
  readonly workerFailurePolicy: 'fail' | 'replace';
  readonly workerReplacements: number;
  /** application.ha.coordinator-restarts: the coordinator Pods that may fail before the last one cleans up. */
  readonly coordinatorRestarts: number;
}

const MAX_JOB_ID = (1n << 63n) - 1n;
const DAY_MS = 24 * 3600 * 1000;

function isObj(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

type Prop = keyof SeaTunnelApplicationProps;

/** The inclusive bounds of a numeric option, as the registry gives them. */
function boundsOf(prop: Prop): { min: number; max: number } {
  const def = OPTIONS[prop] as OptionDef;
  if (def.min === undefined || def.max === undefined) throw new Error(`the option registry gives ${prop} no bounds`);
  return { min: def.min, max: def.max };
}

/** Checks runtime.json field by field; returns the problems found (empty = valid). */
export function runtimeSettingsProblems(raw: unknown): string[] {
  const p: string[] = [];
  if (!isObj(raw)) return ['runtime.json: expected a JSON object'];
  const str = (key: string, v: unknown, required = true) => {
    if (v === undefined && !required) return;
    if (typeof v !== 'string' || v === '')
      p.push(`runtime.json ${key}: expected a non-empty string, got ${JSON.stringify(v)}`);
  };
  const int = (key: string, v: unknown, min: number, max: number) => {
    if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max)
      p.push(`runtime.json ${key}: expected a whole number from ${min} to ${max}, got ${JSON.stringify(v)}`);
  };
  const option = (key: string, v: unknown, prop: Prop) => {
    const { min, max } = boundsOf(prop);
    int(key, v, min, max);
  };
  const jobId = (key: string, v: unknown, required: boolean) => {
    if (v === undefined && !required) return;
    if (typeof v !== 'string' || !/^[1-9][0-9]{0,18}$/.test(v) || BigInt(v) > MAX_JOB_ID) {
      p.push(`runtime.json ${key}: expected a positive 63-bit integer as a decimal string, got ${JSON.stringify(v)}`);
    }
  };
  if (raw.version !== RUNTIME_SETTINGS_VERSION)
    p.push(
      `runtime.json version: this runtime reads version ${RUNTIME_SETTINGS_VERSION}, got ${JSON.stringify(raw.version)} (runtime image and generator differ)`,
    );
  str('appId', raw.appId);
  str('namespace', raw.namespace);
  str('jobName', raw.jobName);
  jobId('jobId', raw.jobId, true);
  jobId('restoreJobId', raw.restoreJobId, false);
  option('workerCount', raw.workerCount, 'workerCount');
  option('workerSlots', raw.workerSlots, 'workerSlots');
  option('startupTimeoutMillis', raw.startupTimeoutMillis, 'startupTimeoutMillis');
  option('scaleUpGraceMillis', raw.scaleUpGraceMillis, 'scaleUpGraceMillis');
  option('imagePullRetryMillis', raw.imagePullRetryMillis, 'imagePullRetryMillis');
  option('workerJoinTimeoutMillis', raw.workerJoinTimeoutMillis, 'workerJoinTimeoutMillis');
  option('apiOutageToleranceMillis', raw.apiOutageToleranceMillis, 'apiOutageToleranceMillis');
  int('engineUnreachableMillis', raw.engineUnreachableMillis, 1000, DAY_MS);
  str('workerTemplate', raw.workerTemplate);
  str('checkpointDir', raw.checkpointDir, false);
  if (!isObj(raw.master)) p.push('runtime.json master: expected an object');
  else masterProblems(raw.master, p, int);
  const jc = raw.jobConfig;
  if (!isObj(jc) || (jc.kind !== 'inline' && jc.kind !== 'file'))
    p.push('runtime.json jobConfig: expected {kind: "inline", env} or {kind: "file", path}');
  else if (jc.kind === 'inline') str('jobConfig.env', jc.env);
  else if (typeof jc.path !== 'string' || !path.isAbsolute(jc.path))
    p.push(`runtime.json jobConfig.path: expected an absolute path, got ${JSON.stringify(jc.path)}`);
  if (!Array.isArray(raw.dependents)) p.push('runtime.json dependents: expected an array');
  else {
    raw.dependents.forEach((d: unknown, i) => {
      if (
        !isObj(d) ||
        typeof d.apiVersion !== 'string' ||
        typeof d.kind !== 'string' ||
        typeof d.name !== 'string' ||
        !d.name
      ) {
        p.push(`runtime.json dependents[${i}]: expected {apiVersion, kind, name}`);
      }
    });
  }
  if (raw.metrics !== undefined) {
    if (!isObj(raw.metrics)) p.push('runtime.json metrics: expected an object');
    else {
      int('metrics.port', raw.metrics.port, 1, 65535);
      int('metrics.workerPort', raw.metrics.workerPort, 1, 65535);
    }
  }
  if (raw.ha !== undefined) {
    if (!isObj(raw.ha)) p.push('runtime.json ha: expected an object');
    else {
      int('ha.masters', raw.ha.masters, HA_LIMITS.minMasters, boundsOf('haMasters').max);
      str('ha.statefulSet', raw.ha.statefulSet);
      str('ha.restHost', raw.ha.restHost);
      const addresses = raw.ha.masterAddresses;
      if (
        !Array.isArray(addresses) ||
        addresses.length !== raw.ha.masters ||
        !addresses.every((a) => typeof a === 'string' && /^[a-z0-9.-]+:[0-9]{1,5}$/.test(a))
      )
        p.push('runtime.json ha.masterAddresses: expected one host:port per master');
      if (raw.ha.workerFailurePolicy !== 'fail' && raw.ha.workerFailurePolicy !== 'replace')
        p.push(
          `runtime.json ha.workerFailurePolicy: expected "fail" or "replace", got ${JSON.stringify(raw.ha.workerFailurePolicy)}`,
        );
      option('ha.workerReplacements', raw.ha.workerReplacements, 'haWorkerReplacements');
      option('ha.coordinatorRestarts', raw.ha.coordinatorRestarts, 'haCoordinatorRestarts');
    }
  }
  return p;
}

function masterProblems(
  m: Record<string, unknown>,
  p: string[],
  int: (key: string, v: unknown, min: number, max: number) => void,
): void {
  int('master.port', m.port, 1, 65535);
  int('master.restPort', m.restPort, 1, 65535);
  if (m.restPath !== undefined && (typeof m.restPath !== 'string' || !/^(\/[A-Za-z0-9._~-]+)*$/.test(m.restPath))) {
    p.push(
      `runtime.json master.restPath: expected '' or a path like /hazelcast/rest/maps, got ${JSON.stringify(m.restPath)}`,
    );
  }
  const env = m.env;
  if (env !== undefined && (!isObj(env) || !Object.values(env).every((v) => typeof v === 'string'))) {
    p.push('runtime.json master.env: expected an object of strings (extra environment of the Zeta master)');
  }
  const cmd = m.command;
  if (!Array.isArray(cmd) || cmd.length === 0 || !cmd.every((a) => typeof a === 'string') || cmd[0] === '') {
    p.push('runtime.json master.command: expected a non-empty array of strings (the Zeta master argv)');
  }
}

export function dependentKey(d: DependentRef): string {
  return `${d.kind}/${d.name}`;
}
