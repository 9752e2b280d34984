// What the runtime in the master Pod uses of the core, and nothing else: the package's
// `seatunnel-app/runtime-support` entry. The runtime (runtime/src) imports the core only from
// here (test/unit/package/runtime-imports.test.ts), so its dependence on lib/ is one list a
// reviewer can read, and no other file of lib/ is reachable by path from outside the package.
//
// Not for users: no compatibility promise. Every export is marked `@internal` (as cdk8s-plus marks
// what it must export but does not offer) and stripped from the published declarations
// (stripInternal in tsconfig.build.json), so a user's program cannot type-check against it; the
// runtime compiles against the sources (runtime/tsconfig.json "paths"), never the declarations.

/** @internal */
export * from './contract';
/** @internal */
export { zetaJavaArgv } from './engine/command';
/** @internal */
export { ENGINE_FILES, MASTER_HOST_PLACEHOLDER } from './engine/files';
/** @internal */
export {
  overlayUserFiles,
  USER_FILES_MANIFEST,
  type UserFileNotice,
  type UserFilesManifest,
} from './engine/user-files';
/** @internal */
export {
  parseHocon,
  parseJson,
  stringifyJson,
  HoconError,
  type HoconDocument,
  type HoconObject,
  type HoconValue,
  type IncludeReader,
} from './hocon';
/** @internal */
export { fileIncludeReader, readTextFile } from './hocon/file-include';
/** @internal */
export { loadClientNode } from './kube/client-node';
/** @internal */
export { KubeApiError, isStatus, isTransient } from './kube/errors';
/** @internal */
export { clientNodeCredentials, Kube, KubeTransport, type WatchStream } from './kube';
/** @internal */
export { backoffMs, withRetry } from './kube/retry';
/** @internal */
export { ENV, EXIT_CODES, LABELS, TERMINAL_EXIT_CODES } from './model/reserved';
/** @internal */
export { PATHS } from './model/spec';
/** @internal */
export { jobOwnerReference } from './plan/build-plan';
/** @internal */
export { CONTAINER_NAME, names } from './plan/pod';
/** @internal */
export { LineSplitter } from './kube/line-splitter';
/** @internal */
export {
  ownedBy,
  stampWorker,
  templateProblems,
  workerSelector,
  type MasterRef,
  type WorkerStampInput,
} from './plan/stamp';
