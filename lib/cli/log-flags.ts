// The flags of `seatunnel-app logs`, checked before any API call: each error names the flag, the
// value received and the rule.

import { CliError } from './exit-codes';
// Types only: the CLI's parser does not load the Kubernetes side.
import type { LogOptions as LogFlags, LogRole } from '../submit/observe/logs';

export type { LogFlags };
const ROLES: readonly LogRole[] = ['master', 'worker'];

const UNITS: Readonly<Record<string, number>> = { h: 3600, m: 60, s: 1 };

/**
 * `--since`: a duration as kubectl takes it, in whole hours, minutes and seconds ("30s", "10m",
 * "1h30m"), as seconds. The API counts whole seconds, so sub-second units are not offered.
 */
export function parseSince(value: string): number {
  const text = value.trim();
  const rule = 'must be a duration of whole h, m and s units, like 30s, 10m, 2h or 1h30m, longer than 0s';
  if (!/^(\d+[hms])+$/.test(text)) throw new CliError(`--since: got "${value}"; ${rule}`);
  let seconds = 0;
  const seen = new Set<string>();
  for (const [, n, unit] of text.matchAll(/(\d+)([hms])/g)) {
    if (seen.has(unit)) throw new CliError(`--since: got "${value}"; ${rule} (each unit once)`);
    seen.add(unit);
    seconds += Number(n) * UNITS[unit];
  }
  if (seconds <= 0 || !Number.isSafeInteger(seconds)) throw new CliError(`--since: got "${value}"; ${rule}`);
  return seconds;
}

function wholeNumber(flag: string, value: string, min: number, what: string): number {
  const t = value.trim();
  if (!/^\d+$/.test(t) || Number(t) < min || !Number.isSafeInteger(Number(t)))
    throw new CliError(`--${flag}: got "${value}"; must be ${what}`);
  return Number(t);
}

export function parseLogFlags(v: Readonly<Record<string, string | string[] | boolean | undefined>>): LogFlags {
  const roleText = v.role as string | undefined;
  let role: LogRole | undefined;
  if (roleText !== undefined) {
    if (!(ROLES as readonly string[]).includes(roleText.trim().toLowerCase()))
      throw new CliError(`--role: got "${roleText}"; must be ${ROLES.join(' or ')} (without it: both)`);
    role = roleText.trim().toLowerCase() as LogRole;
  }
  const worker =
    v.worker !== undefined
      ? wholeNumber(
          'worker',
          v.worker as string,
          1,
          'a worker number, 1 or more (worker N is the Pod <application-id>-worker-N)',
        )
      : undefined;
  if (worker !== undefined && role === 'master')
    throw new CliError(`--worker ${worker} names a worker; it cannot be combined with --role master`);
  const tailLines =
    v.tail !== undefined ? wholeNumber('tail', v.tail as string, 0, 'a whole number of lines, 0 or more') : undefined;
  return {
    ...(role ? { role } : {}),
    ...(worker !== undefined ? { worker } : {}),
    follow: v.follow === true,
    previous: v.previous === true,
    ...(v.since !== undefined ? { sinceSeconds: parseSince(v.since as string) } : {}),
    ...(tailLines !== undefined ? { tailLines } : {}),
    timestamps: v.timestamps === true,
  };
}
