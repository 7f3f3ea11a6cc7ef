#!/usr/bin/env node
// writev-lint: find write sequences that one writev could replace. See `writev-lint --help`.
'use strict';
const { main } = require('../out/cli/main.js');

main(process.argv.slice(2)).then(
  (status) => {
    process.exitCode = status;
  },
  (error) => {
    console.error(`writev-lint: ${error && error.stack ? error.stack : error}`);
    process.exitCode = 2;
  },
);
