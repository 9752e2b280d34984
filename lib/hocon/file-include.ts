import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { HoconDocument, parseHocon } from './document';
import { IncludeReader } from './parser';

/**
 * An `IncludeReader` for the file system. Relative names are resolved against the directory of
 * the including file (never the working directory, per the spec), or against `baseDir` when the
 * including source has no filename. A file that does not exist is "not found" (ignored unless
 * the include is `required(...)`); other I/O errors are thrown.
 */
export function fileIncludeReader(options: { baseDir?: string } = {}): IncludeReader {
  return (name, from) => {
    const dir = from === undefined ? (options.baseDir ?? '.') : path.dirname(from);
    const filename = path.isAbsolute(name) ? name : path.join(dir, name);
    try {
      return { text: readFileSync(filename, 'utf8'), filename };
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
      throw e;
    }
  };
}

/** Reads and parses a HOCON file, with includes resolved relative to it. */
export function parseHoconFile(filename: string): HoconDocument {
  return parseHocon(readFileSync(filename, 'utf8'), { filename, readInclude: fileIncludeReader() });
}
