#!/usr/bin/env node
'use strict';
// `kubectl seatunnel <command> …`: kubectl runs any executable named kubectl-<name> on PATH as
// the plugin `kubectl <name>`, with the words after the name. The same CLI as seatunnel-app.
require('./seatunnel-app.js');
