/**
 * A HOCON parser following the Lightbend spec (https://github.com/lightbend/config/blob/main/HOCON.md),
 * without dependencies or I/O. Typical use:
 *
 * ```ts
 * const doc = parseHocon(text, { filename: 'deploy.conf' }).withOverride('kubernetes.namespace', 'prod');
 * const config = doc.resolve({ env: process.env });
 * ```
 *
 * For includes from the file system, pass `readInclude: fileIncludeReader()` from `./file-include`.
 */
export { parseHocon, HoconDocument } from './document';
export type { ParseOptions, ResolveReport } from './document';
export type { ResolveOptions } from './resolver';
export type { UnresolvedSubstitution } from './substitution-fallback';
export type { IncludeReader, IncludedSource } from './include';
export { parseHoconPath } from './parser';
export { formatHoconPath } from './path';
export { HoconError } from './errors';
export type { Position } from './errors';
export { stringifyJson } from './json';
export { parseJson } from './json-parse';
export { DEFAULT_LIMITS } from './limits';
export type { HoconLimits } from './limits';
export type { HoconValue, HoconObject, HoconArray } from './values';
