import { closeSync, constants, fstatSync, openSync, readSync, realpathSync, type Stats } from 'node:fs';
import * as path from 'node:path';
import { type HoconDocument, parseHocon } from './document';
import { DEFAULT_LIMITS, formatSize } from './limits';
import type { IncludeReader } from './include';

/** A file that cannot be used as input: not a regular file, too large, or unreadable. `code` is the errno code, if any. */
export class InputFileError extends Error {
  constructor(
    message: string,
    readonly code?: string,
  ) {
    super(message);
    this.name = 'InputFileError';
  }
}

function kindOf(st: Stats): string {
  if (st.isDirectory()) return 'a directory';
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'a device';
  if (st.isFIFO()) return 'a named pipe';
  if (st.isSocket()) return 'a socket';
  return 'not a regular file';
}

/**
 * Reads a UTF-8 text file that must be a regular file of at most `maxBytes`. A device
 * (`/dev/zero`), pipe or directory is refused before anything is read — reading one would never
 * end, block, or fail with a bare EISDIR — and a file is never read past `maxBytes`, even if it
 * grows meanwhile.
 * @throws InputFileError, with `code` ENOENT/ENOTDIR/EACCES/… when the file cannot be opened.
 */
export function readTextFile(filename: string, maxBytes: number = DEFAULT_LIMITS.maxSourceChars): string {
  let fd: number;
  try {
    // O_NONBLOCK: opening a named pipe must not wait for a writer (it is refused just below).
    fd = openSync(filename, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    const why =
      err.code === 'ENOENT'
        ? 'file not found'
        : err.code === 'EACCES'
          ? 'permission denied'
          : (err.code ?? err.message);
    throw new InputFileError(`${filename}: ${why}`, err.code);
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile())
      throw new InputFileError(
        `${filename}: is ${kindOf(st)}, expected a regular file`,
        st.isDirectory() ? 'EISDIR' : undefined,
      );
    const tooLarge = () => new InputFileError(`${filename}: is larger than ${formatSize(maxBytes)} bytes`, 'EFBIG');
    if (st.size > maxBytes) throw tooLarge();
    const buf = Buffer.alloc(maxBytes + 1 > st.size ? st.size + 1 : maxBytes + 1);
    let length = 0;
    for (;;) {
      if (length === buf.length) throw tooLarge();
      const n = readSync(fd, buf, length, buf.length - length, null);
      if (n === 0) break;
      length += n;
    }
    return buf.toString('utf8', 0, length);
  } catch (e) {
    if (e instanceof InputFileError) throw e;
    const err = e as NodeJS.ErrnoException;
    throw new InputFileError(`${filename}: ${err.code ?? err.message}`, err.code);
  } finally {
    closeSync(fd);
  }
}

/**
 * Refuses `filename` unless it lies under `root` once symbolic links are resolved: a deployment
 * file that is not trusted may read only files of its own directory (docs/security.md). A file
 * that does not exist is left to the reader (not found).
 */
function requireInside(filename: string, root: string): void {
  let real: string;
  let top: string;
  try {
    top = realpathSync(root);
    real = realpathSync(filename);
  } catch {
    return;
  }
  if (real !== top && !real.startsWith(top.endsWith(path.sep) ? top : top + path.sep))
    throw new InputFileError(
      `${filename}: is outside the deployment file's directory ${top}; a deployment file may read files elsewhere only when it is trusted (--trust-deployment-file)`,
      'EOUTSIDE',
    );
}

/**
 * A reader of the files a configuration names (e.g. `runtimeFiles.*.file`), as `readTextFile`
 * reads them: a relative name is relative to `baseDir`. With `confineTo`, only files under it.
 */
export function filesRelativeTo(baseDir: string, confineTo?: string): (name: string) => string {
  return (name) => {
    const filename = path.resolve(baseDir, name);
    if (confineTo !== undefined) requireInside(filename, confineTo);
    return readTextFile(filename);
  };
}

/**
 * An `IncludeReader` for the file system. Relative names are resolved against the directory of
 * the including file (never the working directory, per the spec), or against `baseDir` when the
 * including source has no filename. A file that does not exist is "not found" (ignored unless
 * the include is `required(...)`); anything else that is not a readable regular file of at most
 * `maxBytes` is an error (the parser reports it at the include statement).
 */
export function fileIncludeReader(
  options: { baseDir?: string; maxBytes?: number; confineTo?: string } = {},
): IncludeReader {
  return (name, from) => {
    const dir = from === undefined ? (options.baseDir ?? '.') : path.dirname(from);
    const filename = path.isAbsolute(name) ? name : path.join(dir, name);
    if (options.confineTo !== undefined) requireInside(filename, options.confineTo);
    try {
      return { text: readTextFile(filename, options.maxBytes), filename };
    } catch (e) {
      const code = (e as InputFileError).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
      throw e;
    }
  };
}

/** Reads and parses a HOCON file, with includes resolved relative to it. */
export function parseHoconFile(filename: string): HoconDocument {
  return parseHocon(readTextFile(filename), { filename, readInclude: fileIncludeReader() });
}
