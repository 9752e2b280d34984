// The application statuses and the `--status` filter over them, in a module of their own: the
// CLI's argument parser validates the filter without loading the status derivation.

export const STATUSES = ['CREATED', 'DEPLOYING', 'RUNNING', 'SUCCEEDED', 'FAILED', 'CANCELED', 'UNKNOWN'] as const;
export type ApplicationStatus = (typeof STATUSES)[number];

/** `--status`: comma-separated statuses, any case; an unknown one is an error naming the allowed ones. */
export function parseStatusFilter(text: string): ReadonlySet<ApplicationStatus> {
  const values = text
    .split(',')
    .map((s) => s.trim().toUpperCase())
    .filter(Boolean);
  if (!values.length) throw new Error(`got "${text}"; give one or more of ${STATUSES.join(', ')}, separated by commas`);
  const unknown = values.filter((v) => !(STATUSES as readonly string[]).includes(v));
  if (unknown.length) throw new Error(`got "${unknown.join(',')}"; each status must be one of ${STATUSES.join(', ')}`);
  return new Set(values as ApplicationStatus[]);
}
