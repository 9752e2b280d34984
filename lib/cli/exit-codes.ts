/**
 * Exit codes of the `seatunnel-app` CLI. SUCCEEDED/CANCELED/FAILED/UNKNOWN follow SeaTunnel 3.1.0's
 * `--wait` contract; the others are ours and documented in the README.
 */
export const CLI_EXIT = {
  ok: 0,
  /** `--wait` ended FAILED, or a command failed (API error, rollback). */
  failed: 1,
  /** `--wait` ended UNKNOWN (the Job does not exist). */
  unknown: 2,
  /** `--wait-timeout` expired before a terminal status. */
  waitTimeout: 3,
  /** `preflight` / `submit --dry-run` found problems. */
  preflightFailed: 4,
  /** Bad usage or an invalid configuration: nothing was sent to the cluster and no file was written. */
  usage: 64,
} as const;

export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number = CLI_EXIT.usage,
  ) {
    super(message);
    this.name = 'CliError';
  }
}
