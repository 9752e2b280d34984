// A tiny shell watchdog that outlives a crashed parent. Node has no prctl(PR_SET_PDEATHSIG), so
// children of a Jest process killed with SIGKILL (or of a crashed dev-cluster) would keep running.
// The watchdog runs in its own process group, polls the parent once a second (PID + kernel start
// time, so a reused PID does not fool it) and, when the parent is gone, sends SIGTERM and later
// SIGKILL to every process listed in the PID file (again checked by start time), then removes the
// temporary directory. A normal teardown stops the watchdog first, by PID.
import { spawn } from 'node:child_process';
import { processStartTime } from './process';

const SCRIPT = String.raw`
set -u
parent="$1"; parent_start="$2"; pidfile="$3"; dir="$4"; keep="$5"
start_of() { local s; s="$(cat "/proc/$1/stat" 2>/dev/null)" || return 1; s="${'$'}{s##*) }"; set -- $s; echo "${'$'}{20}"; }
while [ "$(start_of "$parent")" = "$parent_start" ]; do sleep 1; done
signal_all() {
  local sig="$1" alive=0 pid st name
  [ -f "$pidfile" ] || return 1
  while read -r pid st name; do
    if [ -n "$pid" ] && [ "$(start_of "$pid")" = "$st" ]; then
      alive=1
      kill -s "$sig" -- "-$pid" 2>/dev/null || kill -s "$sig" "$pid" 2>/dev/null
    fi
  done < "$pidfile"
  [ "$alive" = 1 ]
}
if signal_all TERM; then
  for _ in 1 2 3 4 5 6 7 8 9 10; do sleep 1; signal_all 0 || break; done
  signal_all KILL
fi
if [ "$keep" != 1 ] && [ -n "$dir" ] && [ -d "$dir" ]; then rm -rf -- "$dir"; fi
`;

export interface Watchdog {
  pid: number;
  stop(): void;
}

export function startWatchdog(opts: { pidFile: string; dir: string; keepDir: boolean }): Watchdog {
  const parentStart = processStartTime(process.pid);
  if (!parentStart) throw new Error('watchdog: cannot read /proc/self/stat (is this Linux?)');
  const child = spawn(
    'bash',
    [
      '-c',
      SCRIPT,
      'seatunnel-app-watchdog',
      String(process.pid),
      parentStart,
      opts.pidFile,
      opts.dir,
      opts.keepDir ? '1' : '0',
    ],
    {
      detached: true,
      stdio: 'ignore',
    },
  );
  child.unref();
  const pid = child.pid;
  if (pid === undefined) throw new Error('watchdog: spawn of bash returned no PID');
  return {
    pid,
    stop() {
      try {
        process.kill(-pid, 'SIGKILL');
      } catch {
        /* gone */
      }
    },
  };
}
