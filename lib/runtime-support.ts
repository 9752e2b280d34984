// What the runtime in the master Pod uses of the core, and nothing else: the package's
// `seatunnel-app/runtime-support` entry. The runtime (runtime/src) imports the core only from
// here (test/unit/package/runtime-imports.test.ts), so its dependence on lib/ is one list a
// reviewer can read, and no other file of lib/ is reachable by path from outside the package.

export * from './contract';
export { zetaJavaArgv } from './engine/command';
export { ENGINE_FILES, MASTER_HOST_PLACEHOLDER } from './engine/files';
export {
  overlayUserFiles,
  USER_FILES_MANIFEST,
  type UserFileNotice,
  type UserFilesManifest,
} from './engine/user-files';
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
export { fileIncludeReader, readTextFile } from './hocon/file-include';
export { loadClientNode } from './kube/client-node';
export { KubeApiError, isStatus, isTransient } from './kube/errors';
export { clientNodeCredentials, Kube, KubeTransport, type WatchStream } from './kube';
export { backoffMs, withRetry } from './kube/retry';
export { ENV, EXIT_CODES, LABELS, TERMINAL_EXIT_CODES } from './model/reserved';
export { PATHS } from './model/spec';
export { jobOwnerReference } from './plan/build-plan';
export { names } from './plan/pod';
export {
  ownedBy,
  stampWorker,
  templateProblems,
  workerSelector,
  type MasterRef,
  type WorkerStampInput,
} from './plan/stamp';
