// Prints "key=value" lines, each with two small writes: the hot loop a trace finds.
// Trace it:
//   writev-trace --out pairs.trace.json -- node pairs.js > /dev/null
//   writev-lint --trace pairs.trace.json pairs.js
'use strict';
const { writeSync } = require('node:fs');

function printPair(fd, key, value) {
  writeSync(fd, `${key}=`);
  writeSync(fd, `${value}\n`);
}

for (let i = 0; i < 10000; i++) printPair(1, 'key', i);
