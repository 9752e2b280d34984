// The local stack keeps its directory (its Pods' logs) after a run for a look after a failure, and
// the next stack removes those untouched for a day (tools/local-stack/local-application.ts).
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pruneOldStackDirs, STACK_DIR_RETENTION_MS } from '../../../tools/local-stack/local-application';

test("a finished stack's directory goes after a day untouched; a recent one, one in use and others' stay", () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'stack-dirs-test-'));
  try {
    const now = Date.now();
    const make = (name: string, ageMs: number, pidsAgeMs?: number) => {
      const dir = path.join(tmp, name);
      fs.mkdirSync(path.join(dir, 'pods'), { recursive: true });
      fs.writeFileSync(path.join(dir, 'pods', 'log'), 'x');
      if (pidsAgeMs !== undefined) {
        fs.writeFileSync(path.join(dir, 'pids'), '123\n');
        const t = (now - pidsAgeMs) / 1000;
        fs.utimesSync(path.join(dir, 'pids'), t, t);
      }
      const t = (now - ageMs) / 1000;
      fs.utimesSync(dir, t, t);
      return dir;
    };
    const old = make('seatunnel-app-local-old', STACK_DIR_RETENTION_MS + 60_000, STACK_DIR_RETENTION_MS + 60_000);
    const recent = make('seatunnel-app-local-recent', 3_600_000);
    const inUse = make('seatunnel-app-local-busy', STACK_DIR_RETENTION_MS + 60_000, 10_000);
    const other = make('seatunnel-app-data-old', STACK_DIR_RETENTION_MS + 60_000);
    expect(pruneOldStackDirs(tmp, now)).toEqual([old]);
    expect([old, recent, inUse, other].map((d) => fs.existsSync(d))).toEqual([false, true, true, true]);
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
});
