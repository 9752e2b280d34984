// The end of a throw-away service of the data pipelines (Kafka, the S3 server): its process stopped, its watchdog
// dismissed and its directory removed — after use, or after a start that failed, then with its log's last lines.

import * as fs from 'node:fs';
import type { ManagedProcess } from './process';
import type { Watchdog } from './watchdog';

export async function removeService(
  server: ManagedProcess | undefined,
  watchdog: Watchdog,
  dir: string,
  graceMs: number,
): Promise<void> {
  await server?.stop(graceMs);
  watchdog.stop();
  fs.rmSync(dir, { recursive: true, force: true });
}

/** Removes the service as removeService does, then throws `e` with the last lines of the server's log. */
export async function failedStart(
  e: unknown,
  server: ManagedProcess | undefined,
  watchdog: Watchdog,
  dir: string,
): Promise<never> {
  const log = server ? `\nlast lines of ${server.logFile}:\n${server.tail(20)}` : '';
  await removeService(server, watchdog, dir, 5_000);
  throw new Error(`${(e as Error).message}${log}`, { cause: e });
}
