// The node's cgroup parent (the kubelet's cgroupRoot) on this machine's cgroup v1 hierarchies. The
// kubelet refuses a cgroupRoot that does not exist, and a new v1 cpuset group starts with no CPUs
// and no memory nodes (a task cannot join it), so both are created and filled here. At teardown
// every group under it is removed, deepest first, once no process is left in them — in the cgroup2
// mount of this hybrid setup too, where runc also makes a group per container.
import * as fs from 'node:fs';
import * as path from 'node:path';

const CGROUP_MOUNT = '/sys/fs/cgroup';

/** The v1 hierarchies mounted here (name=systemd included: runc creates its groups there too). */
export function v1Hierarchies(mount = CGROUP_MOUNT): string[] {
  let entries: string[];
  try {
    entries = fs.readdirSync(mount);
  } catch {
    return [];
  }
  return entries
    .filter((e) => e !== 'unified' && fs.existsSync(path.join(mount, e, 'cgroup.procs')))
    .map((e) => path.join(mount, e));
}

export function createCgroupRoot(root: string, mount = CGROUP_MOUNT): void {
  for (const h of v1Hierarchies(mount)) {
    const dir = path.join(h, root);
    fs.mkdirSync(dir, { recursive: true });
    if (path.basename(h) === 'cpuset') {
      for (const f of ['cpuset.cpus', 'cpuset.mems']) {
        const own = path.join(dir, f);
        if (fs.readFileSync(own, 'utf8').trim() === '') fs.writeFileSync(own, fs.readFileSync(path.join(h, f), 'utf8'));
      }
    }
  }
}

/**
 * Every hierarchy a node's groups can be in: the v1 ones, and the controller-less cgroup2 mount of
 * this hybrid setup (`unified`), where runc makes each container's group too.
 */
function allHierarchies(mount: string): string[] {
  const unified = path.join(mount, 'unified');
  return [...v1Hierarchies(mount), ...(fs.existsSync(path.join(unified, 'cgroup.procs')) ? [unified] : [])];
}

/** Processes still in any group under `root` (the reason a removal would fail). */
export function cgroupProcesses(root: string, mount = CGROUP_MOUNT): number[] {
  const pids = new Set<number>();
  for (const h of allHierarchies(mount)) {
    for (const dir of walk(path.join(h, root))) {
      try {
        for (const l of fs.readFileSync(path.join(dir, 'cgroup.procs'), 'utf8').split('\n'))
          if (l.trim()) pids.add(Number(l));
      } catch {
        /* removed meanwhile */
      }
    }
  }
  return [...pids];
}

/** Removes every group under `root`, deepest first; returns the groups that could not be removed. */
export function removeCgroupRoot(root: string, mount = CGROUP_MOUNT): string[] {
  const left: string[] = [];
  for (const h of allHierarchies(mount)) {
    for (const dir of walk(path.join(h, root)).reverse()) {
      try {
        fs.rmdirSync(dir);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'ENOENT') left.push(dir);
      }
    }
  }
  return left;
}

/** `dir` and every group below it, parents before children. */
function walk(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  const out = [dir];
  for (const e of fs.readdirSync(dir, { withFileTypes: true }))
    if (e.isDirectory()) out.push(...walk(path.join(dir, e.name)));
  return out;
}
