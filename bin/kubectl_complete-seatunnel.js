#!/usr/bin/env node
'use strict';
// `kubectl seatunnel <TAB>`: kubectl's completion (1.26+) runs kubectl_complete-<plugin> with the
// words typed after the plugin's name and reads cobra's __complete format, which
// `seatunnel-app __complete` prints (lib/cli/completion.ts).
process.argv.splice(2, 0, '__complete');
require('./seatunnel-app.js');
