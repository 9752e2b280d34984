'use strict';
// Loads the CLI bundle with a V8 code cache on Node 20, where module.enableCompileCache (Node 22.1)
// does not exist. Compiling the 750 KB bundle, then each function the command runs, is about a
// sixth of a `status` or `submit` process (docs/performance.md, "CLI start-up"); with the cache V8
// reads the bytecode instead.
//
// - One cache file per command: a cache made after a run holds the functions that run compiled,
//   and `status` runs other functions than `submit`.
// - Keyed by the bundle's content, Node's and V8's versions: V8 itself checks only the source's
//   length, so a rebuilt bundle of the same size must not meet an old cache.
// - Written once, after the command has run (so it holds what the command compiled), atomically
//   (a temporary file, then rename: processes started together never read half a file), and only
//   when there was none or V8 rejected it. Older caches of that command for the same bundle file
//   are removed then; another installation (another path) keeps its own, so two versions used in
//   turn do not evict each other's cache on every run.
// - Kept under $XDG_CACHE_HOME or ~/.cache, never in a shared temporary directory: whoever can
//   write the cache decides what code runs. So the directory is used only if it is the user's own:
//   seatunnel-app/<dir> under that base, each a real directory (not a symbolic link) owned by the
//   user and writable by no one else (group and others may read it), in a base that only its owner (the user or root) can
//   change — or that has the sticky bit, where no one can replace another's entry. A base such as
//   XDG_CACHE_HOME=/tmp/shared without the sticky bit, or a directory someone else made there,
//   means no cache at all. Node 22.1+'s own cache (module.enableCompileCache) gets the same
//   directory checks: left to itself it would use $TMPDIR/node-compile-cache, which any local user
//   can create first (enableNodeCompileCache).
// - NODE_DISABLE_COMPILE_CACHE=1 turns it off, as it turns off Node's own. Any error reading or
//   writing the cache is ignored: the command never fails because of it.
const { isAscii } = require('node:buffer');
const crypto = require('node:crypto');
const fs = require('node:fs');
const Module = require('node:module');
const os = require('node:os');
const path = require('node:path');
const vm = require('node:vm');

/** lib/kube/client-node.ts HOST_IMPORT. */
const HOST_IMPORT = Symbol.for('seatunnel-app.import');

const NAME = 'seatunnel-app';

function cacheBase(env) {
  return env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
}

function cacheDir(env, leaf = 'cli-code-cache') {
  return path.join(cacheBase(env), NAME, leaf);
}

const uid = () => (typeof process.getuid === 'function' ? process.getuid() : undefined);

/**
 * A directory only this user can change: a real directory, the user's, that group and others may
 * not write. (Reading is harmless: the bytecode is the package's own public code. Requiring no
 * access at all turned the cache off wherever a tool had made ~/.cache/seatunnel-app with
 * `mkdir -p`'s 0755, as this repository's own build scripts do.)
 */
function ownDir(dir) {
  const st = fs.lstatSync(dir);
  const me = uid();
  return st.isDirectory() && (me === undefined || st.uid === me) && (st.mode & 0o022) === 0;
}

/** A base whose entries no one else can replace: its owner is the user or root, or it has the sticky bit. */
function safeBase(base) {
  const st = fs.statSync(base);
  const me = uid();
  if (!st.isDirectory()) return false;
  if (me === undefined) return true;
  const othersMayWrite = (st.mode & 0o022) !== 0;
  return (st.uid === me || st.uid === 0) && (!othersMayWrite || (st.mode & 0o1000) !== 0);
}

/**
 * `<base>/seatunnel-app/<leaf>`, made 0700 if missing, when every part passes the checks above;
 * otherwise undefined (no cache). Never throws.
 */
function privateCacheDir(env, leaf = 'cli-code-cache') {
  try {
    const base = cacheBase(env);
    fs.mkdirSync(base, { recursive: true, mode: 0o700 });
    if (!safeBase(base)) return undefined;
    const own = path.join(base, NAME);
    const dir = path.join(own, leaf);
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    return ownDir(own) && ownDir(dir) ? dir : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Node 22.1+: its own compile cache, in the checked directory — never in the shared temporary
 * directory that `module.enableCompileCache()` without a directory would use. Returns the
 * directory, or undefined when the cache stays off (disabled, or no private directory).
 */
function enableNodeCompileCache(nodeModule, env = process.env) {
  if (env.NODE_DISABLE_COMPILE_CACHE === '1' || env.NODE_DISABLE_COMPILE_CACHE === 'true') return undefined;
  const dir = privateCacheDir(env, 'node-compile-cache');
  if (dir === undefined) return undefined;
  try {
    nodeModule.enableCompileCache(dir);
    return dir;
  } catch {
    return undefined;
  }
}

/** The first `length` hex digits of the SHA-256 of `parts`, NUL between them. */
function digest(parts, length) {
  const hash = crypto.createHash('sha256');
  parts.forEach((p, i) => (i ? hash.update('\0') : hash).update(p));
  return hash.digest('hex').slice(0, length);
}

/** The cache file's name: the command, the bundle's path, then what the bytecode depends on. */
function cacheName(command, source, file) {
  const safe = /^[a-z][a-z-]{0,19}$/.test(command) ? command : 'other';
  const depends = digest([process.version, process.versions.v8, process.arch, source], 24);
  return `${safe}-${digest([path.resolve(file)], 8)}-${depends}.v8`;
}

function readCache(file) {
  try {
    return fs.readFileSync(file);
  } catch {
    return undefined;
  }
}

function writeCache(dir, name, data) {
  try {
    const tmp = path.join(dir, `.${name}.${process.pid}.tmp`);
    fs.writeFileSync(tmp, data, { mode: 0o600 });
    fs.renameSync(tmp, path.join(dir, name));
    const prefix = name.slice(0, name.lastIndexOf('-') + 1);
    for (const old of fs.readdirSync(dir))
      if (old !== name && old.startsWith(prefix) && old.endsWith('.v8'))
        fs.rmSync(path.join(dir, old), { force: true });
  } catch {
    // A cache that cannot be written costs the next run its compile time, nothing else.
  }
}

/**
 * Loads `file` (a CommonJS module) as require() would, through a code cache for `command`.
 * Returns its exports, what became of the cache (`off`, `none`, `accepted` or `rejected`), and
 * `done`, to call once the command has run.
 */
function loadWithCodeCache(file, command, env = process.env) {
  const bytes = fs.readFileSync(file);
  // tools/build-cli.mjs writes the bundle as ASCII: latin1 is then the same text, copied, not decoded.
  const source = isAscii(bytes) ? bytes.latin1Slice(0, bytes.length) : bytes.toString('utf8');
  const dir = privateCacheDir(env);
  const disabled =
    env.NODE_DISABLE_COMPILE_CACHE === '1' || env.NODE_DISABLE_COMPILE_CACHE === 'true' || dir === undefined;
  const name = cacheName(command, bytes, file);
  const cachedData = disabled ? undefined : readCache(path.join(dir, name));
  const script = new vm.Script(Module.wrap(source), { filename: file, cachedData });
  // An import() inside a script from a code cache finds no loader on Node 20, so the bundle's one
  // import() (the ESM-only Kubernetes client, lib/kube/client-node.ts) borrows this one.
  globalThis[HOST_IMPORT] = (specifier) => import(specifier);
  // The bundle's own require() resolves from its file, as Node's would; it reads nothing else of `module`.
  const mod = { id: file, filename: file, exports: {}, loaded: false };
  script.runInThisContext().call(mod.exports, mod.exports, Module.createRequire(file), mod, file, path.dirname(file));
  mod.loaded = true;
  const cache = disabled
    ? 'off'
    : cachedData === undefined
      ? 'none'
      : script.cachedDataRejected
        ? 'rejected'
        : 'accepted';
  const stale = cache === 'none' || cache === 'rejected';
  return {
    exports: mod.exports,
    cache,
    done: () => {
      if (stale) writeCache(dir, name, script.createCachedData());
    },
  };
}

module.exports = { loadWithCodeCache, cacheDir, cacheName, privateCacheDir, enableNodeCompileCache };
