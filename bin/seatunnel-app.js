#!/usr/bin/env node
'use strict';
// Entry point of the seatunnel-app CLI: one bundled file, build/cli/seatunnel-app.js, built from
// lib/cli by `npm ci` (the package's prepare script runs the build; tools/build-cli.mjs says why
// it is one file).
// V8's compiled code of that file is kept between runs: by Node itself from 22.1
// (module.enableCompileCache), by code-cache.js before that — both in the user's own private
// cache directory, which code-cache.js checks. NODE_DISABLE_COMPILE_CACHE=1 turns either off.
const nodeModule = require('node:module');
// `status | head`: once the reader is gone, what is left to print is dropped, and the command
// still finishes — a submit must not stop halfway because its output is no longer read.
for (const stream of [process.stdout, process.stderr])
  stream.on('error', (e) => {
    if (e && (e.code === 'EPIPE' || e.code === 'ERR_STREAM_DESTROYED')) return;
    throw e;
  });
const { join } = require('node:path');
const bundle = join(__dirname, '..', 'build', 'cli', 'seatunnel-app.js');
const argv = process.argv.slice(2);
let main;
let done = () => undefined;
try {
  if (nodeModule.enableCompileCache) {
    // Never without a directory: Node would use the shared temporary directory (code-cache.js).
    require('./code-cache.js').enableNodeCompileCache(nodeModule);
    ({ main } = require(bundle));
  } else {
    const loaded = require('./code-cache.js').loadWithCodeCache(bundle, argv[0] ?? '');
    ({ main } = loaded.exports);
    done = loaded.done;
  }
} catch (e) {
  if (
    e &&
    (e.code === 'MODULE_NOT_FOUND' || e.code === 'ENOENT') &&
    /build[\\/]cli[\\/]seatunnel-app\.js/.test(e.message)
  ) {
    process.stderr.write('seatunnel-app is not built yet: run `npm ci` (or `npm run build`) in the project first\n');
    process.exit(70);
  }
  throw e;
}
main(argv).then(
  (code) => {
    process.exitCode = code;
    done();
  },
  (e) => {
    process.stderr.write(`${e && e.stack ? e.stack : e}\n`);
    process.exitCode = 1;
  },
);
