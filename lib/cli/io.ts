// The CLI's side effects on the local machine, in one place: reading input files and writing
// output files atomically (all or nothing).

import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { InputFileError, readTextFile } from '../hocon/file-include';
import { CliError } from './exit-codes';

/** Reads `-a`/`-c`: a regular file of bounded size (not a directory, a device or a pipe). */
export function readInputFile(path: string, flag: string): string {
  try {
    return readTextFile(path);
  } catch (e) {
    if (e instanceof InputFileError) throw new CliError(`${flag} ${e.message}`);
    throw e;
  }
}

/** Writes every file or none: each goes to a temporary name first and is renamed when all succeeded. */
export function writeFilesAtomically(
  dir: string,
  files: ReadonlyArray<{
    name: string;
    content: string;
    /** Permissions of a new file (default: the umask's). */ mode?: number;
  }>,
  flag = '-o',
): string[] {
  try {
    mkdirSync(dir, { recursive: true });
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    // mkdir reports a file in the way (the directory itself or a parent) as EEXIST or ENOTDIR.
    if (code === 'EEXIST' || code === 'ENOTDIR')
      throw new CliError(
        `${flag} ${dir}: exists and is not a directory (or a parent is a file); ${flag} takes a directory to write into`,
      );
    throw new CliError(`${flag} ${dir}: cannot create the directory: ${(e as Error).message}`, 1);
  }
  const temps: string[] = [];
  try {
    for (const f of files) {
      const tmp = join(dir, `.${f.name}.${process.pid}.tmp`);
      writeFileSync(tmp, f.content, f.mode === undefined ? {} : { mode: f.mode });
      temps.push(tmp);
    }
  } catch (e) {
    for (const t of temps) rmSync(t, { force: true });
    throw new CliError(`cannot write to ${dir}: ${(e as Error).message}`, 1);
  }
  return files.map((f, i) => {
    const target = join(dir, f.name);
    renameSync(temps[i], target);
    return target;
  });
}

/** The installed package's root (where apps/examples and docs live). */
export function packageRoot(): string {
  let dir = __dirname;
  for (;;) {
    const pkg = join(dir, 'package.json');
    if (existsSync(pkg)) {
      try {
        if ((JSON.parse(readFileSync(pkg, 'utf8')) as { name?: unknown }).name === 'seatunnel-app') return dir;
      } catch {
        /* keep looking */
      }
    }
    const up = dirname(dir);
    if (up === dir) return resolve(__dirname, '..', '..');
    dir = up;
  }
}
