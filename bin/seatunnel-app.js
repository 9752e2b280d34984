#!/usr/bin/env node
'use strict';
// Entry point of the seatunnel-app CLI. The TypeScript sources are compiled to build/ by
// `npm ci` (the package's prepare script).
const { join } = require('node:path');
let main;
try {
  ({ main } = require(join(__dirname, '..', 'build', 'lib', 'cli', 'main.js')));
} catch (e) {
  if (e && e.code === 'MODULE_NOT_FOUND') {
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
