import { createHash, randomBytes } from 'node:crypto';

/** Longest readable prefix of an application ID; 35 + "-" + 12 hex = 48, leaving room for "-worker-N". */
export const APP_ID_PREFIX_MAX = 35;
export const APP_ID_SUFFIX_HEX = 12;
export const APP_ID_MAX = APP_ID_PREFIX_MAX + 1 + APP_ID_SUFFIX_HEX;

/**
 * SeaTunnel's sanitising of `application.name`: lower-case, every character outside [a-z0-9-]
 * becomes "-", leading/trailing "-" stripped, "seatunnel" if nothing is left, at most 35
 * characters, trailing "-" stripped again.
 */
export function applicationIdPrefix(name: string): string {
  let p = name
    .toLowerCase()
    .replace(/[^a-z0-9-]/g, '-')
    .replace(/^-+|-+$/g, '');
  if (p === '') p = 'seatunnel';
  return p.slice(0, APP_ID_PREFIX_MAX).replace(/-+$/, '');
}

/** A new application ID per submission: prefix + "-" + 12 random lower-case hex characters. */
export function randomApplicationId(name: string, random: (n: number) => Uint8Array = randomBytes): string {
  const hex = Buffer.from(random(APP_ID_SUFFIX_HEX / 2)).toString('hex');
  return `${applicationIdPrefix(name)}-${hex}`;
}

/**
 * A stable application ID for declarative doors (synth, cdk8s, Pulumi): re-synthesizing the same
 * application yields the same Job name, so GitOps tools see no churn; a different namespace,
 * name or run ID yields a different one.
 */
export function derivedApplicationId(name: string, namespace: string, runId = ''): string {
  const hex = createHash('sha256').update(`${namespace}\0${name}\0${runId}`).digest('hex').slice(0, APP_ID_SUFFIX_HEX);
  return `${applicationIdPrefix(name)}-${hex}`;
}

const APP_ID = new RegExp(`^[a-z0-9]([-a-z0-9]{0,${APP_ID_PREFIX_MAX - 2}}[a-z0-9])?-[0-9a-f]{${APP_ID_SUFFIX_HEX}}$`);

/** Whether `id` has the shape of an application ID (used to reject typos in `--id`). */
export function isApplicationId(id: string): boolean {
  return id.length <= APP_ID_MAX && APP_ID.test(id);
}

const MASK_63 = (1n << 63n) - 1n;

/** SeaTunnel's job ID: random, positive and odd 63-bit integer ((msb & Long.MAX_VALUE) | 1). */
export function randomJobId(random: (n: number) => Uint8Array = randomBytes): string {
  const bytes = Buffer.from(random(8));
  return ((bytes.readBigUInt64BE(0) & MASK_63) | 1n).toString();
}

/** A job ID derived from the application ID, for declarative doors (same shape as a random one). */
export function derivedJobId(appId: string): string {
  const digest = createHash('sha256').update(`zeta-job\0${appId}`).digest();
  return ((digest.readBigUInt64BE(0) & MASK_63) | 1n).toString();
}

export const MAX_LONG = MASK_63;

/** With HA (docs/ha.md): the StatefulSet of the masters; its Pods are `<appId>-master-<i>`. */
export const haMasterSetName = (appId: string): string => `${appId}-master`;

/** The PodMonitor of kubernetes.metrics.pod-monitor: the plan names it and cancel deletes it by this name. */
export const podMonitorName = (appId: string): string => `${appId}-metrics`;

/** The StatefulSet's Pod of ordinal `i`: the masters' DNS names and the runtime Role's delete rule both name it. */
export const haMasterPodName = (appId: string, i: number): string => `${haMasterSetName(appId)}-${i}`;
