#!/usr/bin/env node
// writev-language-server: the writev language server for any LSP editor (`--stdio` for most of them).
'use strict';
const { serverLaunch } = require('../out/cli/serverArgs.js');
const { version } = require('../package.json');

const launch = serverLaunch(process.argv.slice(2), version);
if (launch.start) {
  require('../out/server.js');
} else {
  if (launch.out) process.stdout.write(launch.out);
  if (launch.err) process.stderr.write(launch.err);
  process.exitCode = launch.status;
}
