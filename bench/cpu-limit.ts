// A CPU limit for a bare process, as its container has one: a cgroup of its own with a CFS quota
// (cgroup v2's cpu.max, or v1's cpu controller), the process moved into it before it execs — so a
// bench's baseline runs its JVMs at the cores the application's Pods get, not at the whole machine.
// Root only (as the node benches are).

import * as fs from 'node:fs';
import * as path from 'node:path';

const CGROUP_ROOT = '/sys/fs/cgroup';
const PERIOD_US = 100_000;
const PARENT = 'seatunnel-bench';

export interface CpuLimit {
  /** The cgroup's directory. */
  readonly dir: string;
  /** The command line that runs `cmd args…` inside the cgroup. */
  wrap(cmd: string, args: readonly string[]): [string, string[]];
  /** Removes the cgroup, and the parent once no bench's group is left in it (a busy one stays). */
  remove(): void;
}

/** A cgroup named `name` limited to `cores` (a CFS quota per 100 ms period). */
export function cpuLimit(name: string, cores: number): CpuLimit {
  if (!(Number.isFinite(cores) && cores > 0 && cores <= 64))
    throw new Error(`CPU limit of ${name}: expected cores above 0 and at most 64, got ${cores}`);
  if (!/^[A-Za-z0-9._-]{1,100}$/.test(name) || /^\.+$/.test(name))
    throw new Error(`CPU limit: ${JSON.stringify(name)} is no cgroup name`);
  const quota = String(Math.max(1000, Math.round(cores * PERIOD_US)));
  const v2 = fs.existsSync(path.join(CGROUP_ROOT, 'cgroup.controllers'));
  const parent = v2 ? path.join(CGROUP_ROOT, PARENT) : path.join(CGROUP_ROOT, 'cpu', PARENT);
  const dir = path.join(parent, name);
  try {
    fs.mkdirSync(dir, { recursive: true });
    if (v2) {
      // The cpu controller must be on for the parent's children: at the root, then in our parent.
      fs.writeFileSync(path.join(CGROUP_ROOT, 'cgroup.subtree_control'), '+cpu');
      fs.writeFileSync(path.join(parent, 'cgroup.subtree_control'), '+cpu');
      fs.writeFileSync(path.join(dir, 'cpu.max'), `${quota} ${PERIOD_US}`);
    } else {
      fs.writeFileSync(path.join(dir, 'cpu.cfs_period_us'), String(PERIOD_US));
      fs.writeFileSync(path.join(dir, 'cpu.cfs_quota_us'), quota);
    }
  } catch (e) {
    throw new Error(
      `CPU limit of ${name} (${cores} cores) in ${dir}: ${(e as Error).message} (needs root and cgroups)`,
      {
        cause: e,
      },
    );
  }
  return {
    dir,
    // The shell writes its own pid, then execs: the command is the process the cgroup holds.
    wrap: (cmd, args) => ['/bin/sh', ['-c', 'echo $$ > "$0/cgroup.procs" && exec "$@"', dir, cmd, ...args]],
    remove: () => {
      for (const d of [dir, parent])
        try {
          fs.rmdirSync(d);
        } catch {
          // still busy (another member's, another run's), or gone
        }
    },
  };
}
