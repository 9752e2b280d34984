#!/usr/bin/env node
'use strict';
// Entry point of the seatunnel-app CLI: one bundled file, build/cli/seatunnel-app.js, built from
// lib/cli by `npm ci` (the package's prepare script runs the build; tools/build-cli.mjs says why
// it is one file).
// Node >= 22.1 keeps V8's compiled code of that file between runs (NODE_DISABLE_COMPILE_CACHE=1
// turns it off); on Node 20 the function does not exist and nothing changes.
require('node:module').enableCompileCache?.();
const { join } = require('node:path');
let main;
try {
  ({ main } = require(join(__dirname, '..', 'build', 'cli', 'seatunnel-app.js')));
} catch (e) {
  if (e && e.code === 'MODULE_NOT_FOUND' && /build[\\/]cli[\\/]seatunnel-app\.js/.test(e.message)) {
    process.stderr.write('seatunnel-app is not built yet: run `npm ci` (or `npm run build`) in the project first\n');
    process.exit(70);
  }
  throw e;
}
main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (e) => {
    process.stderr.write(`${e && e.stack ? e.stack : e}\n`);
    process.exitCode = 1;
  },
);
